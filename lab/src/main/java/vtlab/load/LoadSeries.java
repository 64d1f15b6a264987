package vtlab.load;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

import vtlab.data.LatencyHistogram;

/**
 * The hold second by second, from the generator's own per-request records: requests completed, errors, and where the
 * records carry each request's latency, that second's p50 and p99 (k6's dashboard shows the same per-interval view).
 * A generator declares which of these its output gives ({@link Generator#seriesKinds()}); the runner writes them to
 * series.jsonl beside the probes' samples, under {@link Kind#series} names.
 */
public final class LoadSeries {
    /** What a generator's records give per second; each is one series in series.jsonl. */
    public enum Kind {
        REQUESTS("load_requests_rps"), ERRORS("load_errors"), P50("load_p50_ms"), P99("load_p99_ms");

        public final String series;

        Kind(String series) {
            this.series = series;
        }
    }

    /** One second of the hold: [second, second + 1) from its start; percentiles null where nothing was answered. */
    public record Second(int second, long requests, long errors, Double p50Ms, Double p99Ms) {}

    /** Nothing per second (hey: see its class; an older wrk script's output). */
    public static final LoadSeries NONE = new LoadSeries(EnumSet.noneOf(Kind.class), List.of());

    private final Set<Kind> kinds;
    private final List<Second> seconds;

    LoadSeries(Set<Kind> kinds, List<Second> seconds) {
        this.kinds = kinds.isEmpty() ? EnumSet.noneOf(Kind.class) : EnumSet.copyOf(kinds);
        this.seconds = List.copyOf(seconds);
    }

    /** Seconds a generator's records gave (tests, and a generator outside this package). */
    public static LoadSeries of(Set<Kind> kinds, List<Second> seconds) {
        return new LoadSeries(kinds, seconds);
    }

    public Set<Kind> kinds() {
        return EnumSet.copyOf(kinds.isEmpty() ? EnumSet.noneOf(Kind.class) : kinds);
    }

    public List<Second> seconds() {
        return seconds;
    }

    /**
     * As series.jsonl holds them: name -> [[second, value], ...], the point at the end of its second (as the probes
     * sample after each second of the hold) so both line up on the report's time axis. Only the declared kinds.
     */
    public Map<String, List<double[]>> asSeries() {
        Map<String, List<double[]>> out = new LinkedHashMap<>();
        for (Kind k : kinds) {
            List<double[]> pts = new ArrayList<>();
            for (Second s : seconds) {
                Double v = switch (k) {
                    case REQUESTS -> (double) s.requests();
                    case ERRORS -> (double) s.errors();
                    case P50 -> s.p50Ms();
                    case P99 -> s.p99Ms();
                };
                if (v != null) pts.add(new double[] {s.second() + 1, v});
            }
            out.put(k.series, pts);
        }
        return out;
    }

    /**
     * Collects per-request records into seconds. Records outside the hold's whole seconds are left out (oha's lead-in,
     * k6's ramps and graceful stop, a partial last second, as the probes leave it out); a second without any record
     * is kept as zero requests: a stall is a run of zeros, not a gap.
     */
    static final class Builder {
        private final Set<Kind> kinds;
        private final int secondsInHold;
        private final TreeMap<Long, long[]> counts = new TreeMap<>(); // second -> {requests, errors}
        private final Map<Long, Histogram> latencies = new TreeMap<>();

        Builder(Set<Kind> kinds, double holdS) {
            this.kinds = kinds;
            this.secondsInHold = (int) Math.floor(holdS + 1e-9);
        }

        /**
         * A request that ended tS seconds into the hold: answered (counted in requests, its latency recorded: as the
         * row's histogram, status errors included) and/or an error (a status >= 400, or a request that got no answer).
         */
        void add(double tS, boolean answered, boolean error, double latencyS) {
            if (!(tS >= 0) || tS >= secondsInHold) return;
            addAt((long) tS, answered, error, latencyS);
        }

        /** As {@link #add}, for a generator that stamps whole seconds of the clock: rebased by {@link #build(long)}. */
        void addAt(long second, boolean answered, boolean error, double latencyS) {
            long[] c = counts.computeIfAbsent(second, k -> new long[2]);
            if (answered) c[0]++;
            if (error) c[1]++;
            if (answered && !Double.isNaN(latencyS) && (kinds.contains(Kind.P50) || kinds.contains(Kind.P99))) {
                // two digits (1%) are plenty for one second's p50/p99, at an eighth of the row histogram's memory
                LatencyHistogram.recordSeconds(latencies.computeIfAbsent(second, k -> new Histogram(3_600_000_000L, 2)), latencyS);
            }
        }

        /** Counts a generator already summed for one second of the hold (wrk's hook); outside the hold left out. */
        void addCounts(long second, long answered, long errors) {
            if (second < 0 || second >= secondsInHold) return;
            long[] c = counts.computeIfAbsent(second, k -> new long[2]);
            c[0] += answered;
            c[1] += errors;
        }

        /** The seconds recorded by {@link #add}: second 0 is the hold's first. */
        LoadSeries build() {
            return build(0);
        }

        /** The seconds from origin on (origin: the clock's second the hold began in), at most the hold's length. */
        LoadSeries build(long origin) {
            List<Second> out = new ArrayList<>();
            for (int s = 0; s < secondsInHold; s++) {
                long[] c = counts.getOrDefault(origin + s, new long[2]);
                Histogram h = latencies.get(origin + s);
                boolean any = h != null && h.getTotalCount() > 0;
                out.add(new Second(s, c[0], c[1], any ? LatencyHistogram.ms(h, 50) : null, any ? LatencyHistogram.ms(h, 99) : null));
            }
            return new LoadSeries(kinds, out);
        }

        /** The earliest second recorded, or null. */
        Long first() {
            return counts.isEmpty() ? null : counts.firstKey();
        }
    }
}
