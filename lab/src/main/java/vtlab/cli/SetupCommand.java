package vtlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import vtlab.core.Options;
import vtlab.tier.tool.Tool;
import vtlab.tier.tool.Tools;

/**
 * ./vtlab setup [TOOL...]: installs every external tool of the default set (or the ones named), a line each; an
 * opt-in tool (k6, AGPL-3.0) only by name, and the default set's last line says so. ./vtlab test runs it before Maven
 * starts, so no test spends its time budget on an install. Exit 0 when all are there, 1 when
 * some could not be had (each line says why), 2 for an unknown name.
 */
final class SetupCommand implements Command {
    @Override
    public String name() {
        return "setup";
    }

    @Override
    public String help() {
        StringBuilder sb = new StringBuilder("""
                Usage: ./vtlab setup [TOOL...]
                  installs every external tool at its pinned version (or the tools named), a line each: present with its
                  version and path, installed in N s, or MISSING and why. ./vtlab test runs it before the suite;
                  ./vtlab run installs what its rows need before the first row. Licences: docs/setup.md.
                  Exit codes: 0 every tool is there; 1 some could not be had; 2 an unknown tool.

                Tools:
                """);
        Tools.all().values().forEach(t -> sb.append(String.format("  %-17s%s", t.name(), t.source())).append('\n'));
        return sb.toString();
    }

    /**
     * Says, once, that every tool but a build running elsewhere is handled: ./vtlab test starts the end-to-end tests
     * that need no such tool then (VTLAB_SETUP_MARK names the file it waits for), not before a tool they need is in.
     */
    private static void restDone() throws IOException {
        String mark = System.getenv("VTLAB_SETUP_MARK");
        if (mark != null && !mark.isBlank() && !Files.exists(Path.of(mark))) Files.writeString(Path.of(mark), "");
    }

    @Override
    public int run(Options o, List<String> args, PrintStream out) throws Exception {
        List<Tool> tools = new ArrayList<>();
        for (String a : args) tools.add(Tools.named(a));
        boolean defaults = tools.isEmpty();
        if (defaults) tools.addAll(Tools.defaults().values());
        // a tool whose build runs elsewhere (oha, at idle priority beside ./vtlab test) is waited for last: every other
        // tool is then installed at once, not after that build, while the end-to-end tests that need none of it run
        tools.sort(java.util.Comparator.comparing(Tool::buildingElsewhere));
        int missing = 0;
        for (int i = 0; i < tools.size(); i++) {
            Tool t = tools.get(i);
            if (t.buildingElsewhere()) restDone(); // what is left is only that build to wait for
            String n = String.format("[%d/%d] %-17s", i + 1, tools.size(), t.name());
            Optional<Path> found = t.find();
            if (found.isPresent()) {
                out.println("vtlab setup: " + n + "present  " + describe(t, found.get()));
                continue;
            }
            out.println("vtlab setup: " + n + "installing from " + t.source() + " ...");
            out.flush();
            long start = System.nanoTime();
            try {
                Path p = t.install();
                out.printf("vtlab setup: %sinstalled in %d s  %s%n", n, (System.nanoTime() - start) / 1_000_000_000L, describe(t, p));
            } catch (IOException e) {
                missing++;
                out.println("vtlab setup: " + n + "MISSING: " + e.getMessage());
            }
        }
        restDone();
        if (defaults) {
            for (Tool t : Tools.all().values()) {
                if (t.optInLicence() != null) out.println("vtlab setup: not in the default set: " + t.name() + " (" + t.optInLicence()
                        + t.find().map(p -> ", present").orElse("") + "): --generator " + t.name() + " or ./vtlab setup " + t.name() + " installs it");
            }
        }
        if (missing > 0) out.println("vtlab setup: " + missing + " of " + tools.size() + " tools could not be had; what needs them will fail and say so");
        return missing == 0 ? 0 : 1;
    }

    static String describe(Tool t, Path p) {
        String v = t.versionAt(p);
        return (v == null ? (t.pinned() == null ? "(prints no version)" : "") : v) + "  " + p;
    }

    /** Doctor's lines: every tool, its version and path, or how to get it. */
    static String doctorLines() {
        StringBuilder sb = new StringBuilder();
        for (Tool t : Tools.all().values()) {
            sb.append(String.format("tool          %-17s", t.name()));
            Optional<Path> p = t.find();
            sb.append(p.map(x -> describe(t, x)).orElse(t.optInLicence() != null
                    ? "not installed (opt-in, " + t.optInLicence() + "): ./vtlab setup " + t.name() + " installs it from " + t.source()
                    : "missing: ./vtlab setup " + t.name() + " installs it from " + t.source())).append('\n');
        }
        return sb.toString();
    }
}
