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
        REQUESTS("load_requests_rps"), ERRORS("load_errors"), P50("load_p50_ms"), P99("load_p99_ms"),
        /** Errors by kind (a generator that tells them apart per request: k6): what a fault did to the clients. */
        ERR_TIMEOUT("load_errors_timeout"), ERR_STATUS("load_errors_status"), ERR_CONNECT("load_errors_connect"), ERR_IO("load_errors_io"),
        /** Requests the generator had under way (k6: active VUs, one request each), sampled once a second. */
        IN_FLIGHT("load_in_flight");

        /** What every generator with per-request records gives. */
        public static final Set<Kind> PER_REQUEST = EnumSet.of(REQUESTS, ERRORS, P50, P99);
        /** The errors by kind, each a count per second. */
        public static final Set<Kind> ERRORS_BY_KIND = EnumSet.of(ERR_TIMEOUT, ERR_STATUS, ERR_CONNECT, ERR_IO);

        public final String series;

        Kind(String series) {
            this.series = series;
        }
    }

    /**
     * One second of the hold: [second, second + 1) from its start; percentiles null where nothing was answered; more:
     * the other kinds' values (errors by kind, in flight) where the generator gives them.
     */
    public record Second(int second, long requests, long errors, Double p50Ms, Double p99Ms, Map<Kind, Double> more) {
        public Second(int second, long requests, long errors, Double p50Ms, Double p99Ms) {
            this(second, requests, errors, p50Ms, p99Ms, Map.of());
        }

        public Second {
            more = Map.copyOf(more);
        }
    }

    /** Nothing per second (hey: see its class; an older wrk script's output). */
    public static final LoadSeries NONE = new LoadSeries(EnumSet.noneOf(Kind.class), List.of());

    private final Set<Kind> kinds;
    private final List<Second> seconds;
    /** Each second's latency histogram (null: none kept or nothing answered), for a window's exact percentiles. */
    private final List<Histogram> histograms;

    LoadSeries(Set<Kind> kinds, List<Second> seconds) {
        this(kinds, seconds, List.of());
    }

    private LoadSeries(Set<Kind> kinds, List<Second> seconds, List<Histogram> histograms) {
        this.kinds = kinds.isEmpty() ? EnumSet.noneOf(Kind.class) : EnumSet.copyOf(kinds);
        this.seconds = List.copyOf(seconds);
        this.histograms = java.util.Collections.unmodifiableList(new ArrayList<>(histograms));
    }

    /**
     * The latency percentile (ms) of every answer in seconds [fromS, toS) of the hold, from the seconds' own
     * histograms merged (a percentile of percentiles would be wrong); null when nothing was answered there or the
     * generator keeps no per-second histograms.
     */
    public Double percentileMs(int fromS, int toS, double percentile) {
        Histogram merged = null;
        for (int s = Math.max(0, fromS); s < Math.min(toS, histograms.size()); s++) {
            Histogram h = histograms.get(s);
            if (h == null) continue;
            if (merged == null) merged = new Histogram(h.getHighestTrackableValue(), h.getNumberOfSignificantValueDigits());
            merged.add(h);
        }
        return merged == null || merged.getTotalCount() == 0 ? null : LatencyHistogram.ms(merged, percentile);
    }

    /** Seconds a generator's records gave (tests, and a generator outside this package). */
    public static LoadSeries of(Set<Kind> kinds, List<Second> seconds) {
        return new LoadSeries(kinds, seconds);
    }

    /**
     * Several load agents' seconds added second by second, over the seconds every agent has: counts (requests, errors,
     * errors by kind) added, the requests in flight added (each agent's sample of that second), and where every agent
     * kept its seconds' histograms (k6, oha) each second's p50 and p99 from those histograms added — a percentile of
     * the union, never of percentiles; where one did not (wrk counts per second only) no percentile is given. Second
     * i must be the same second for every agent: each generator's own clock (wrk, oha: from its start, the agents
     * started together) or k6's stamps moved onto this machine's clock by its host's offset (see K6Agents).
     */
    public static LoadSeries sum(List<LoadSeries> parts) {
        if (parts.isEmpty()) return NONE;
        Set<Kind> kinds = EnumSet.allOf(Kind.class);
        for (LoadSeries p : parts) kinds.retainAll(p.kinds);
        boolean histograms = parts.stream().allMatch(p -> !p.histograms.isEmpty());
        if (!histograms) kinds.removeAll(EnumSet.of(Kind.P50, Kind.P99));
        if (kinds.isEmpty()) return NONE;
        int n = parts.stream().mapToInt(p -> p.seconds.size()).min().orElse(0);
        List<Second> out = new ArrayList<>();
        List<Histogram> hs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long requests = 0, errors = 0;
            Map<Kind, Double> more = new java.util.EnumMap<>(Kind.class);
            Histogram merged = null;
            for (LoadSeries p : parts) {
                Second s = p.seconds.get(i);
                requests += s.requests();
                errors += s.errors();
                s.more().forEach((k, v) -> { if (kinds.contains(k)) more.merge(k, v, Double::sum); });
                Histogram h = histograms && i < p.histograms.size() ? p.histograms.get(i) : null;
                if (h != null) {
                    if (merged == null) merged = new Histogram(h.getHighestTrackableValue(), h.getNumberOfSignificantValueDigits());
                    merged.add(h);
                }
            }
            boolean any = merged != null && merged.getTotalCount() > 0;
            out.add(new Second(i, requests, errors, any ? LatencyHistogram.ms(merged, 50) : null, any ? LatencyHistogram.ms(merged, 99) : null, more));
            hs.add(any ? merged : null);
        }
        return new LoadSeries(kinds, out, histograms ? hs : List.of());
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
                    case IN_FLIGHT -> s.more().get(k); // a sample, not a count: a second without one has no point
                    default -> s.more().getOrDefault(k, 0.0);
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
    public static final class Builder {
        private final Set<Kind> kinds;
        private final int secondsInHold;
        private final TreeMap<Long, long[]> counts = new TreeMap<>(); // second -> {requests, errors}
        private final Map<Long, Histogram> latencies = new TreeMap<>();
        private final Map<Long, Map<Kind, Double>> more = new TreeMap<>();

        public Builder(Set<Kind> kinds, double holdS) {
            this.kinds = kinds;
            this.secondsInHold = (int) Math.floor(holdS + 1e-9);
        }

        /**
         * A request that ended tS seconds into the hold: answered (counted in requests, its latency recorded: as the
         * row's histogram, status errors included) and/or an error (a status >= 400, or a request that got no answer).
         */
        public void add(double tS, boolean answered, boolean error, double latencyS) {
            if (!(tS >= 0) || tS >= secondsInHold) return;
            addAt((long) tS, answered, error, latencyS);
        }

        /** As {@link #add}, for a generator that stamps whole seconds of the clock: rebased by {@link #build(long)}. */
        public void addAt(long second, boolean answered, boolean error, double latencyS) {
            long[] c = counts.computeIfAbsent(second, k -> new long[2]);
            if (answered) c[0]++;
            if (error) c[1]++;
            if (answered && !Double.isNaN(latencyS) && (kinds.contains(Kind.P50) || kinds.contains(Kind.P99))) {
                // two digits (1%) are plenty for one second's p50/p99, at an eighth of the row histogram's memory
                LatencyHistogram.recordSeconds(latencies.computeIfAbsent(second, k -> new Histogram(3_600_000_000L, 2)), latencyS);
            }
        }

        /** One more error of a kind (ERR_*) in a second of the clock, as {@link #addAt}. */
        public void errorAt(long second, Kind kind) {
            more.computeIfAbsent(second, k -> new java.util.EnumMap<>(Kind.class)).merge(kind, 1.0, Double::sum);
        }

        /** A level sampled in a second of the clock (in flight): the second keeps its highest. */
        public void levelAt(long second, Kind kind, double value) {
            more.computeIfAbsent(second, k -> new java.util.EnumMap<>(Kind.class)).merge(kind, value, Math::max);
        }

        /** Counts a generator already summed for one second of the hold (wrk's hook); outside the hold left out. */
        public void addCounts(long second, long answered, long errors) {
            if (second < 0 || second >= secondsInHold) return;
            long[] c = counts.computeIfAbsent(second, k -> new long[2]);
            c[0] += answered;
            c[1] += errors;
        }

        /** The seconds recorded by {@link #add}: second 0 is the hold's first. */
        public LoadSeries build() {
            return build(0);
        }

        /** The seconds from origin on (origin: the clock's second the hold began in), at most the hold's length. */
        public LoadSeries build(long origin) {
            List<Second> out = new ArrayList<>();
            List<Histogram> hs = new ArrayList<>();
            for (int s = 0; s < secondsInHold; s++) {
                long[] c = counts.getOrDefault(origin + s, new long[2]);
                Histogram h = latencies.get(origin + s);
                boolean any = h != null && h.getTotalCount() > 0;
                out.add(new Second(s, c[0], c[1], any ? LatencyHistogram.ms(h, 50) : null, any ? LatencyHistogram.ms(h, 99) : null,
                        more.getOrDefault(origin + s, Map.of())));
                hs.add(any ? h : null);
            }
            return new LoadSeries(kinds, out, hs);
        }

        /** The earliest second recorded, or null. */
        public Long first() {
            return counts.isEmpty() ? null : counts.firstKey();
        }
    }
}
