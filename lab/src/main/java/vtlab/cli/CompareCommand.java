package vtlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.report.Compare;
import vtlab.report.RunData;

/** The command line of ./vtlab compare; the comparison itself is vtlab.report.Compare. */
public final class CompareCommand implements Command {
    @Override
    public String name() {
        return "compare";
    }

    /** ./vtlab compare RUN_A RUN_B [--out FILE.html|DIR] */
    @Override
    public int run(Options o, List<String> args, PrintStream out) throws IOException, UsageError {
        String outArg = o.string("out", null);
        List<String> unknown = o.unknown(java.util.Set.of("out", "help"));
        if (!unknown.isEmpty()) throw new UsageError("option --" + unknown.getFirst() + " is not known to compare (usage: ./vtlab compare RUN_A RUN_B [--out FILE|DIR])");
        if (args.size() != 2) throw new UsageError("usage: ./vtlab compare RUN_A RUN_B [--out FILE|DIR] (two run folders, e.g. results/<a> results/latest)");
        RunData a = RunData.load(ReportCommand.runFolder(args.get(0)));
        RunData b = RunData.load(ReportCommand.runFolder(args.get(1)));
        if (a.rows().isEmpty() && b.rows().isEmpty()) throw new UsageError("neither run has load rows in its matrix.csv: nothing to compare");
        Path file = outArg == null ? Path.of("compare.html")
                : outArg.endsWith(".html") ? Path.of(outArg) : Path.of(outArg).resolve("compare.html");
        if (file.getParent() != null && !Files.isDirectory(file.getParent())) {
            throw new UsageError("--out: folder " + file.getParent() + " does not exist");
        }
        List<Compare.Line> lines = Compare.lines(a, b);
        out.print(Compare.terminal(a, b, lines));
        Files.writeString(file, Compare.html(a, b, lines));
        out.println("vtlab: comparison in " + file.toAbsolutePath().normalize());
        return 0;
    }
}
