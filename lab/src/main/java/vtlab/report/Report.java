package vtlab.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import vtlab.core.UsageError;

/** Writes report.html and the static figures (charts/*.svg, *.png) of a run folder. */
public final class Report {
    private Report() {}

    public record Written(Path html, List<Path> figures) {}

    public static Written write(Path runDir) throws IOException, UsageError {
        RunData data = RunData.load(runDir);
        ReportPage page = new ReportPage(data);
        String html = page.render();
        Path out = data.dir().resolve("report.html");
        Path tmp = out.resolveSibling("report.html.tmp");
        Files.writeString(tmp, html);
        Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        Path charts = data.dir().resolve("charts");
        clearFigures(charts);
        List<Path> figures = new ArrayList<>();
        for (ChartSpec c : page.figures()) figures.addAll(StaticChart.write(c, charts, c.id()));
        return new Written(out, figures);
    }

    /** Figures of an earlier report of the same run go, so charts/ matches report.html. */
    private static void clearFigures(Path charts) throws IOException {
        if (!Files.isDirectory(charts)) return;
        try (Stream<Path> files = Files.list(charts)) {
            for (Path f : files.toList()) {
                String n = f.getFileName().toString();
                if (n.endsWith(".svg") || n.endsWith(".png")) Files.deleteIfExists(f);
            }
        }
    }

    /** ./vtlab report RUN_DIR: (re)writes the report of a finished or interrupted run. */
    public static int command(vtlab.core.Options o, List<String> args, PrintStream out) throws IOException, UsageError {
        List<String> unknown = o.unknown(java.util.Set.of("help"));
        if (!unknown.isEmpty()) throw new UsageError("option --" + unknown.getFirst() + " is not known to report (usage: ./vtlab report RUN_DIR)");
        if (args.size() != 1) throw new UsageError("usage: ./vtlab report RUN_DIR (a folder under results/, e.g. results/latest)");
        Written w = write(runFolder(args.getFirst()));
        out.println("vtlab: report " + w.html());
        if (!w.figures().isEmpty()) out.println("vtlab: figures " + w.html().resolveSibling("charts") + " (" + w.figures().size() + " files)");
        return 0;
    }

    /** A path as given, else a folder of that name under the lab's results/ (so "latest" works from anywhere). */
    static Path runFolder(String arg) throws UsageError {
        Path p = Path.of(arg);
        if (Files.isDirectory(p)) return p;
        Path underResults = vtlab.cli.Main.home().resolve("results").resolve(arg);
        if (!p.isAbsolute() && Files.isDirectory(underResults)) return underResults;
        throw new UsageError(arg + " is not a run folder (no such directory)");
    }

    /** At the end of a run: a report that cannot be written must not fail the run, whose data is already on disk. */
    public static void afterRun(Path runDir, PrintStream out) {
        try {
            Written w = write(runDir);
            out.println("vtlab: report    " + w.html() + (w.figures().isEmpty() ? "" : " (figures in charts/)"));
        } catch (Exception e) {
            out.println("vtlab: report not written (" + e + "); ./vtlab report " + runDir + " retries");
        }
    }
}
