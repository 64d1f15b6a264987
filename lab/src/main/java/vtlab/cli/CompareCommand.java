package vtlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import vtlab.core.Opt;
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

    @Override
    public String help() {
        return "Usage: " + USAGE + "\n" + """
                  the rows the two runs share, side by side with their deltas, each said beyond or within the reps'
                  noise, in the terminal and in compare.html.
                  --out FILE|DIR          where compare.html goes (a .html file, or a folder; default: ./compare.html)
                  --max-regression 5%     exit code 99 when a row of RUN_B got slower than RUN_A's by more than this,
                                          and the judge says worse: B's 95% interval against A, over fork means (a
                                          fork's iterations averaged: one JVM is one sample), wholly below 1
                  --margin 5%             the band around 1.0 within which B and A are called equivalent (the whole
                                          interval inside [1/(1+M), 1+M]); above 0%, at most 50%
                """;
    }

    @Override
    public java.util.Set<String> options() {
        return java.util.Set.of(OUT.name(), MAX_REGRESSION.name(), MARGIN.name());
    }

    static final String USAGE = "./vtlab compare RUN_A RUN_B [--out FILE|DIR] [--max-regression 5%] [--margin 5%]";
    static final Opt OUT = Opt.of("out", null, "the comparison's HTML file, or the folder it goes in (default compare.html)"),
            MAX_REGRESSION = Opt.of("max-regression", null, "exit 99 when a row got slower by more than this beyond the noise"),
            MARGIN = Opt.of("margin", null, "the band around 1.0 within which B and A are called equivalent");

    /** ./vtlab compare RUN_A RUN_B [--out FILE.html|DIR] [--max-regression PCT]: exit 99 when B regressed beyond it and the noise. */
    @Override
    public int run(Options o, List<String> args, PrintStream out) throws IOException, UsageError {
        String outArg = OUT.string(o);
        List<String> unknown = o.unknown(Main.withHelp(options()));
        if (!unknown.isEmpty()) throw new UsageError("option --" + unknown.getFirst() + " is not known to compare (usage: " + USAGE + ")");
        if (args.size() != 2) throw new UsageError("usage: " + USAGE + " (two run folders, e.g. results/<a> results/latest)");
        double maxRegression = MAX_REGRESSION.given(o) ? percent(MAX_REGRESSION.string(o, "")) : Double.NaN;
        vtlab.data.judge.Margin margin = MARGIN.given(o) ? vtlab.data.judge.Margin.parse("--margin", MARGIN.string(o, "")) : vtlab.data.judge.Margin.DEFAULT;
        RunData a = RunData.load(ReportCommand.runFolder(args.get(0)));
        RunData b = RunData.load(ReportCommand.runFolder(args.get(1)));
        if (a.rows().isEmpty() && b.rows().isEmpty()) throw new UsageError("neither run has load rows in its matrix.csv: nothing to compare");
        Path file = outArg == null ? Path.of("compare.html")
                : outArg.endsWith(".html") ? Path.of(outArg) : Path.of(outArg).resolve("compare.html");
        if (file.getParent() != null && !Files.isDirectory(file.getParent())) {
            throw new UsageError("--out: folder " + file.getParent() + " does not exist");
        }
        List<Compare.Line> lines = Compare.lines(a, b);
        out.print(Compare.terminal(a, b, lines, margin));
        Files.writeString(file, Compare.html(a, b, lines));
        out.println("vtlab: comparison in " + file.toAbsolutePath().normalize());
        if (Double.isNaN(maxRegression)) return ExitCodes.OK;
        List<String> regressions = lines.stream().map(l -> l.regression(maxRegression)).filter(java.util.Objects::nonNull).toList();
        for (String r : regressions) out.println("vtlab: REGRESSION " + r);
        if (regressions.isEmpty()) {
            out.println("vtlab: no comparable row got slower by more than " + MAX_REGRESSION.string(o, "") + " beyond the noise");
            return ExitCodes.OK;
        }
        out.println("vtlab: " + regressions.size() + " row(s) slower by more than " + MAX_REGRESSION.string(o, "") + " beyond the noise: exit code 99");
        return ExitCodes.THRESHOLDS;
    }

    /** "5%" or "5" as 5 (percent): a regression budget, the limit of a rule whose metric (slowdown) and operator are implied. */
    static double percent(String s) throws UsageError {
        try {
            return vtlab.check.Rule.budget("--max-regression", s, 100);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
    }
}
