package vtlab.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.stack.Stack;
import vtlab.proc.CoreMap;
import vtlab.tier.tool.Jdk;
import vtlab.tier.tool.OsPackages;

/** ./vtlab doctor: what the lab found on this machine (CPUs, core map, open files, JDKs, generators, stacks). */
final class DoctorCommand implements Command {
    @Override
    public String name() {
        return "doctor";
    }

    @Override
    public String help() {
        return """
                Usage: ./vtlab doctor
                  what the lab found on this machine, changing nothing: its CPUs and the core map a run would use, the
                  open-files limit, the lab's JDK and every JDK >= 21 (for --jdk PATH or --jdk MAJOR), each external
                  tool with its version and path (or the ./vtlab setup line that installs it), taskset, and which
                  stacks are built.
                """;
    }

    @Override
    public int run(Options o, List<String> args, PrintStream out) {
        out.print(doctor());
        return 0;
    }

    static String doctor() {
        StringBuilder sb = new StringBuilder();
        int cpus = vtlab.proc.LabAffinity.machineCpus();
        sb.append("CPUs          ").append(cpus).append('\n');
        try {
            sb.append("core map      ").append(vtlab.tier.Tiers.cores(cpus, null)).append('\n');
        } catch (UsageError e) {
            sb.append("core map      ").append(e.getMessage()).append('\n');
        }
        sb.append("open files    ").append(vtlab.proc.FileLimits.softLimit()).append(" (soft limit of the lab, inherited by the tiers)\n");
        sb.append("lab JDK       ").append(Jdk.current().label()).append("  ").append(Jdk.current().home()).append('\n');
        sb.append("JDKs >= 21 found (use with --jdk PATH or --jdk MAJOR):\n");
        for (Jdk j : Jdk.discover()) {
            sb.append("  ").append(String.format("%-40s", j.label())).append(j.home())
                    .append(j.jcmd().isPresent() ? "" : "  [no jcmd: nmt probe unavailable]").append('\n');
        }
        sb.append(SetupCommand.doctorLines());
        sb.append("taskset       ").append(OsPackages.which("taskset").map(Path::toString).orElse("MISSING (util-linux)")).append('\n');
        int nameWidth = Stack.all().keySet().stream().mapToInt(String::length).max().orElse(10) + 2; // the longest stack name, then two spaces
        Stack.all().forEach((n, s) -> sb.append("stack         ").append(String.format("%-" + nameWidth + "s", n)).append(s.built() ? "built" : "not built (./vtlab build)").append('\n'));
        return sb.toString();
    }
}
