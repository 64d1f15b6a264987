package vtlab.data;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * A row's whole latency distribution as an HdrHistogram in microseconds, kept under raw/ as a standard .hlog (one
 * interval: the hold) with its .hgrm percentile table beside it, so any HdrHistogram tool reads it. Repetitions are
 * combined by adding histograms, never by averaging percentiles.
 */
public final class LatencyHistogram {
    /** One hour in microseconds: far above the generators' 30 s timeout. */
    static final long HIGHEST_US = 3_600_000_000L;
    static final int DIGITS = 3;

    /** Percentiles the report's spectrum and the summary show (p50 -> p99.99). */
    public static final List<Double> SPECTRUM = List.of(50.0, 75.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99, 100.0);

    private LatencyHistogram() {}

    public static Histogram empty() {
        return new Histogram(HIGHEST_US, DIGITS);
    }

    /** Records one latency in seconds (as generators print them), clamped to the histogram's range. */
    public static void recordSeconds(Histogram h, double seconds) {
        long us = Math.round(seconds * 1e6);
        h.recordValue(Math.max(0, Math.min(HIGHEST_US, us)));
    }

    /** Records a latency in microseconds COUNT times (a generator's own histogram bucket), clamped likewise. */
    public static void recordMicros(Histogram h, long us, long count) {
        h.recordValueWithCount(Math.max(0, Math.min(HIGHEST_US, us)), count);
    }

    /** Writes FILE (.hlog) and the percentile table beside it (.hgrm, milliseconds). */
    public static void write(Histogram h, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, java.nio.charset.StandardCharsets.UTF_8)) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputComment("vtlab latency histogram, microseconds");
            w.outputLogFormatVersion();
            w.outputLegend();
            w.outputIntervalHistogram(h);
        }
        try (PrintStream out = new PrintStream(Files.newOutputStream(hgrm(file)), false, java.nio.charset.StandardCharsets.UTF_8)) {
            h.outputPercentileDistribution(out, 1000.0); // microseconds -> milliseconds
        }
    }

    /** The .hgrm table written beside an .hlog. */
    public static Path hgrm(Path hlog) {
        String n = hlog.getFileName().toString();
        return hlog.resolveSibling((n.endsWith(".hlog") ? n.substring(0, n.length() - 5) : n) + ".hgrm");
    }

    /** Every interval of an .hlog added into one histogram. */
    public static Histogram read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) throw new IOException("no histogram at " + file);
        Histogram sum = empty();
        try (HistogramLogReader r = new HistogramLogReader(file.toFile())) {
            while (r.hasNext()) {
                if (r.nextIntervalHistogram() instanceof org.HdrHistogram.AbstractHistogram h) sum.add(h);
            }
        } catch (RuntimeException e) {
            throw new IOException("unreadable histogram " + file + ": " + e.getMessage(), e);
        }
        return sum;
    }

    /** Repetitions combined: the sum of their histograms. */
    public static Histogram merge(List<Path> files) throws IOException {
        Histogram sum = empty();
        for (Path f : files) sum.add(read(f));
        return sum;
    }

    /** Latency in milliseconds at a percentile. */
    public static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1000.0;
    }

    /** {@link #SPECTRUM} percentile -> milliseconds. */
    public static Map<Double, Double> spectrum(Histogram h) {
        Map<Double, Double> m = new LinkedHashMap<>();
        for (double p : SPECTRUM) m.put(p, ms(h, p));
        return m;
    }

    /** Requests slower than a threshold. */
    public static long countAbove(Histogram h, double ms) {
        long us = Math.round(ms * 1000);
        return h.getTotalCount() - h.getCountBetweenValues(0, us);
    }
}
