package vtlab.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.HdrHistogram.Histogram;

import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.LatencyHistogram;
import vtlab.data.Rows;

/**
 * Latency of a scenario's repetitions: percentiles of the sum of their HdrHistograms (the histogram column, an .hlog
 * in raw/) when every rep has one, else the mean of the reps' own percentile cells. A mean of p99s hides a tail that
 * one rep had; the merged histogram's p99 is the p99 of every request of the scenario.
 */
public final class Histograms {
    /** A file name the runner writes; anything else (a path, "..") is not read. */
    private static final String SAFE = "[A-Za-z0-9._-]+";

    private final Path raw;
    private final List<String> problems;
    private final Map<List<String>, Optional<Histogram>> merged = new HashMap<>();

    /**
     * @param raw      the run's raw/ folder, or null to use means only
     * @param problems where a named but unreadable histogram is reported (once per file set)
     */
    public Histograms(Path raw, List<String> problems) {
        this.raw = raw;
        this.problems = problems;
    }

    /** The histogram files of a run folder's raw/, problems kept to itself. */
    public static Histograms of(Path runDir) {
        return new Histograms(runDir.resolve("raw"), new ArrayList<>());
    }

    public List<String> problems() {
        return problems;
    }

    /** The reps' histograms added, or null when there is no rep, a rep has none, or one cannot be read. */
    public Histogram merged(List<DataRow> rows) {
        if (raw == null || rows.isEmpty()) return null;
        List<String> names = rows.stream().map(r -> r.text(Columns.HISTOGRAM)).toList();
        if (names.stream().anyMatch(n -> !n.matches(SAFE))) return null;
        return merged.computeIfAbsent(names, k -> {
            try {
                Histogram h = LatencyHistogram.merge(k.stream().map(raw::resolve).toList());
                return h.getTotalCount() == 0 ? Optional.empty() : Optional.of(h);
            } catch (IOException e) {
                problems.add(e.getMessage() + " (the means of the rows' own percentiles are used instead)");
                return Optional.empty();
            }
        }).orElse(null);
    }

    /** Percentile (50, 99, ...) of the reps in ms: from their merged histogram, else the mean of col (e.g. p99_ms). */
    public double ms(List<DataRow> rows, double percentile, Column col) {
        Histogram h = merged(rows);
        return h == null ? Rows.mean(rows, col) : LatencyHistogram.ms(h, percentile);
    }
}
