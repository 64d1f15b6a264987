package vtlab.experiment.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import vtlab.core.UsageError;
import vtlab.stack.Stack;
import vtlab.tier.MavenArtifact;
import vtlab.tier.tool.Jdk;

/**
 * A Spring Boot jar run extracted, the launch lever's variant: {@code java -Djarmode=tools -jar APP.jar extract
 * --destination DIR} (Spring Boot 3.3+) into a folder of the lab's own, never beside the user's jar, then
 * {@code java -jar DIR/APP.jar}, whose classes load from plain jars instead of through the nested-jar class loader.
 * It runs from the folder the jar as shipped runs from, so that a service reading ./config/ or ./application.properties
 * there changes its launch only, not its configuration. Done once per jar and run, the folder removed when the lab
 * exits. An extraction that fails gives a stack whose start prints why and exits, so the variant's row fails with that
 * reason and the run goes on.
 *
 * <p>The library lever runs the same extraction with one library's jar in lib/ replaced by another version's from Maven
 * Central ({@link MavenArtifact}): the extracted APP.jar's manifest names its libraries by file, so the fixed version's
 * bytes go under the old file's name; the user's jar is never touched.
 */
final class Extracted {
    private Extracted() {}

    private static final Map<String, Stack> DONE = new ConcurrentHashMap<>();

    /** The stack of the service's jar run extracted, extracted on first use with the row's JDK. */
    static String stack(String name, Jdk jdk) {
        return stack(name, jdk, null);
    }

    /** As above, with swap's jar in the place of the same library's (null: none replaced). */
    static String stack(String name, Jdk jdk, MavenArtifact swap) {
        return DONE.computeIfAbsent(name + "|" + jdk.home() + "|" + (swap == null ? "" : swap.coordinates()), k -> make(name, jdk, swap)).name();
    }

    private static Stack make(String name, Jdk jdk, MavenArtifact swap) {
        Stack s;
        try {
            s = Stack.load(name);
        } catch (UsageError e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        String extractedName = name + "-extracted" + (swap == null ? "" : "-" + swap.artifact() + "-" + swap.version());
        String why;
        try {
            Path dir = Files.createTempDirectory("vtlab-extracted-");
            deleteOnExit(dir);
            try {
                // the shipped jar's working folder, not the extraction's: the same ./config/ read
                Path app = vtlab.tier.BootJar.extract(jdk, s.jar(), dir);
                String swapped = swap == null ? "" : ", " + swapIn(app.getParent().resolve("lib"), swap);
                Stack out = new Stack(extractedName, s.description() + ", run extracted (" + dir + ")" + swapped, s.dir(), app,
                        s.runtimeInfoPath(), s.settings(), s.tiers(), s.expect(), s.workloads(), s.data(), s.launch(), s.modes(), s.roles());
                Stack.define(out);
                return out;
            } catch (IOException e) {
                why = e.getMessage(); // the tool's own words: "java -Djarmode=tools -jar … extract failed (exit N): …"
            }
        } catch (IOException e) {
            why = "extract failed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "extract interrupted";
        }
        // a start that says why and exits: the variant's row fails with it, the run goes on
        String say = "printf '%s\\n' '" + why.replace("'", "") + "' >&2; exit 3";
        Stack out = new Stack(extractedName, s.description() + ", not extracted: " + why, s.dir(), s.jar(), s.runtimeInfoPath(),
                s.settings(), s.tiers(), s.expect(), s.workloads(), s.data(), new Stack.Launch(say, s.launch().appPackages(), s.launch().startTimeout()),
                s.modes(), s.roles());
        Stack.define(out);
        return out;
    }

    /**
     * Replaces the library's one jar in lib/ (ARTIFACT-VERSION.jar) with swap's: "HikariCP 7.1.0 in the place of
     * HikariCP-7.0.2.jar"; why not (none there, several, a fetch Maven refused) as the exception.
     */
    static String swapIn(Path lib, MavenArtifact swap) throws IOException, InterruptedException {
        java.util.regex.Pattern name = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(swap.artifact()) + "-\\d[^/]*\\.jar");
        List<Path> found;
        try (var files = Files.list(lib)) {
            found = files.filter(f -> name.matcher(f.getFileName().toString()).matches()).sorted().toList();
        }
        if (found.isEmpty()) throw new IOException("no " + swap.artifact() + " jar in the extracted " + lib + ": the service does not ship it there");
        if (found.size() > 1) throw new IOException("more than one " + swap.artifact() + " jar in " + lib + ": " + found.stream().map(f -> f.getFileName().toString()).toList());
        Path old = found.getFirst(), fetched = swap.fetch();
        Files.copy(fetched, old, StandardCopyOption.REPLACE_EXISTING);
        return swap.artifact() + " " + swap.version() + " in the place of " + old.getFileName() + " (its file name kept: the manifest's class path names it)";
    }

    private static void deleteOnExit(Path dir) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temporary folder left behind
            }
        }));
    }
}
