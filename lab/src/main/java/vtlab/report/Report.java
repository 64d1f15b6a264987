package vtlab.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import vtlab.core.UsageError;

/**
 * Writes report.html and the static figures (charts/*.svg, *.png) of a run folder from its files alone: the
 * experiments' findings and the studies' sections come in findings.json (vtlab.data.Findings), written before.
 */
public final class Report {
    private Report() {}

    public record Written(Path html, List<Path> figures) {}

    public static Written write(Path runDir) throws IOException, UsageError {
        RunData data = RunData.load(runDir);
        ReportPage page = new ReportPage(data, FlameDiffs.write(data));
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
        clear(charts, n -> n.endsWith(".svg") || n.endsWith(".png"));
    }

    /** Deletes the files of charts/ whose names match: what an earlier report of the run wrote there. */
    static void clear(Path charts, java.util.function.Predicate<String> name) throws IOException {
        if (!Files.isDirectory(charts)) return;
        try (Stream<Path> files = Files.list(charts)) {
            for (Path f : files.toList()) if (name.test(f.getFileName().toString())) Files.deleteIfExists(f);
        }
    }

    /**
     * At the end of a run, after the CLI wrote findings.json: a report that cannot be written must not fail the run,
     * whose data is already on disk.
     */
    public static void afterRun(Path runDir, PrintStream out) {
        try {
            Written w = write(runDir);
            out.println("vtlab: report    " + w.html() + (w.figures().isEmpty() ? "" : " (figures in charts/)"));
        } catch (Exception e) {
            out.println("vtlab: report not written (" + e + "); ./vtlab report " + runDir + " retries");
        }
    }
}
