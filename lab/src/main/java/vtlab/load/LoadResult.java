package vtlab.load;

import java.nio.file.Path;
import java.util.List;

import org.HdrHistogram.Histogram;

import vtlab.data.AgentLoad;
import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.LatencyHistogram;
import vtlab.data.RowValues;

/**
 * What the generator measured, from its own histogram; latencies in milliseconds.
 *
 * @param dropped   open model: requests the generator could not send on schedule (null: closed model, or a generator
 *                  that queues instead and measures the wait from the intended send time)
 * @param histogram the row's whole latency distribution (an .hlog in raw/, see {@link vtlab.data.LatencyHistogram});
 *                  null where the generator gives only percentiles
 * @param series    the hold second by second, as far as the generator's records give it ({@link LoadSeries#NONE})
 * @param agents    load from several agents (a run across hosts): what each one did, for the checks; empty otherwise
 * @param byRequest a mix measured per request name, each from its own histogram (vegeta: an attacker per request); empty
 *                  where the load sent one request or the generator does not tell them apart
 */
public record LoadResult(long requests, double durationS, double meanMs, double p50Ms, double p90Ms, double p95Ms,
                         double p99Ms, double p999Ms, double maxMs, long errConnect, long errRead, long errWrite,
                         long errTimeout, long errStatus, long bytes, Path raw, Long dropped, Path histogram,
                         LoadSeries series, List<AgentLoad> agents, List<ByRequest> byRequest) {

    public LoadResult {
        if (series == null) series = LoadSeries.NONE;
        agents = agents == null ? List.of() : List.copyOf(agents);
        byRequest = byRequest == null ? List.of() : List.copyOf(byRequest);
    }

    /**
     * One request of a mix on its own: requests tried (answered or not), answered, errors (socket errors, timeouts,
     * status >= 400), its percentiles (ms) from its whole histogram, kept in raw/ (histogram) so that reps and agents
     * merge exactly.
     */
    public record ByRequest(String name, long attempted, long requests, long errors, double p50Ms, double p99Ms, double p999Ms, Path histogram) {
        /** Its histogram written to hlog, its percentiles read from it. */
        public static ByRequest of(String name, long attempted, long errors, Histogram h, Path hlog) throws Generator.LoadException {
            try {
                LatencyHistogram.write(h, hlog);
            } catch (java.io.IOException e) {
                throw new Generator.LoadException("cannot write " + hlog + ": " + e.getMessage());
            }
            boolean any = h.getTotalCount() > 0;
            return new ByRequest(name, attempted, h.getTotalCount(), errors, any ? LatencyHistogram.ms(h, 50) : 0,
                    any ? LatencyHistogram.ms(h, 99) : 0, any ? LatencyHistogram.ms(h, 99.9) : 0, hlog);
        }
    }

    /** A result built by name (what a generator does not measure stays zero, null or none). */
    public static Builder builder() {
        return new Builder();
    }

    /** The record's components by name, for the generators and tests that fill a few of twenty. */
    public static final class Builder {
        private long requests, errConnect, errRead, errWrite, errTimeout, errStatus, bytes;
        private double durationS, meanMs, p50Ms, p90Ms, p95Ms, p99Ms, p999Ms, maxMs;
        private Path raw, histogram;
        private Long dropped;
        private LoadSeries series = LoadSeries.NONE;
        private List<AgentLoad> agents = List.of();

        private Builder() {}

        /** Answered requests in a hold of this many seconds. */
        public Builder requests(long answered, double durationS) {
            this.requests = answered;
            this.durationS = durationS;
            return this;
        }

        /** Mean and percentiles in milliseconds (p999 NaN where the generator has none). */
        public Builder latencyMs(double mean, double p50, double p90, double p95, double p99, double p999, double max) {
            this.meanMs = mean;
            this.p50Ms = p50;
            this.p90Ms = p90;
            this.p95Ms = p95;
            this.p99Ms = p99;
            this.p999Ms = p999;
            this.maxMs = max;
            return this;
        }

        /** Every latency the same (a fake generator's). */
        public Builder latencyMs(double all) {
            return latencyMs(all, all, all, all, all, all, all);
        }

        public Builder errors(long connect, long read, long write, long timeout, long status) {
            this.errConnect = connect;
            this.errRead = read;
            this.errWrite = write;
            this.errTimeout = timeout;
            this.errStatus = status;
            return this;
        }

        public Builder bytes(long bytes) {
            this.bytes = bytes;
            return this;
        }

        /** The generator's output file in raw/. */
        public Builder raw(Path raw) {
            this.raw = raw;
            return this;
        }

        public Builder dropped(Long dropped) {
            this.dropped = dropped;
            return this;
        }

        public Builder histogram(Path hlog) {
            this.histogram = hlog;
            return this;
        }

        public Builder series(LoadSeries series) {
            this.series = series;
            return this;
        }

        public Builder agents(List<AgentLoad> agents) {
            this.agents = agents;
            return this;
        }

        public LoadResult build() {
            return new LoadResult(requests, durationS, meanMs, p50Ms, p90Ms, p95Ms, p99Ms, p999Ms, maxMs, errConnect, errRead,
                    errWrite, errTimeout, errStatus, bytes, raw, dropped, histogram, series, agents, List.of());
        }
    }

    /** The same result with what each load agent did. */
    public LoadResult withAgents(List<AgentLoad> a) {
        return new LoadResult(requests, durationS, meanMs, p50Ms, p90Ms, p95Ms, p99Ms, p999Ms, maxMs, errConnect, errRead,
                errWrite, errTimeout, errStatus, bytes, raw, dropped, histogram, series, a, byRequest);
    }

    /** The same result with each request of its mix on its own. */
    public LoadResult withByRequest(List<ByRequest> b) {
        return new LoadResult(requests, durationS, meanMs, p50Ms, p90Ms, p95Ms, p99Ms, p999Ms, maxMs, errConnect, errRead,
                errWrite, errTimeout, errStatus, bytes, raw, dropped, histogram, series, agents, b);
    }

    /** Requests sent or tried: answered (status errors among them) and those that got no answer. */
    public long attempted() {
        return requests + errConnect + errRead + errWrite + errTimeout;
    }

    /**
     * A result whose latencies all come from the row's whole histogram (microseconds), written to hlog first (with
     * its .hgrm); zeros where nothing was answered. requests: the answered ones, as in the histogram.
     */
    public static LoadResult fromHistogram(Histogram h, Path hlog, long requests, double durationS, long errConnect, long errRead,
                                    long errWrite, long errTimeout, long errStatus, long bytes, Path raw, Long dropped,
                                    LoadSeries series) throws Generator.LoadException {
        try {
            LatencyHistogram.write(h, hlog);
        } catch (java.io.IOException e) {
            throw new Generator.LoadException("cannot write " + hlog + ": " + e.getMessage());
        }
        boolean any = h.getTotalCount() > 0;
        return builder().requests(requests, durationS)
                .latencyMs(any ? h.getMean() / 1000 : 0, any ? LatencyHistogram.ms(h, 50) : 0, any ? LatencyHistogram.ms(h, 90) : 0,
                        any ? LatencyHistogram.ms(h, 95) : 0, any ? LatencyHistogram.ms(h, 99) : 0, any ? LatencyHistogram.ms(h, 99.9) : 0,
                        any ? h.getMaxValue() / 1000.0 : 0)
                .errors(errConnect, errRead, errWrite, errTimeout, errStatus).bytes(bytes).raw(raw).dropped(dropped).histogram(hlog)
                .series(series).build();
    }

    public static final Column THROUGHPUT = Columns.RPS;
    public static final Column P50 = Columns.P50;
    public static final Column P90 = Columns.P90;
    public static final Column P95 = Columns.P95;
    public static final Column P99 = Columns.P99;
    public static final Column P999 = Columns.P999;
    public static final Column MAX = Columns.MAX_MS;
    public static final Column MEAN = Columns.MEAN_MS;
    public static final Column ERROR_RATE = Columns.ERROR_RATE;
    public static final Column HTTP_REQS = Columns.HTTP_REQS;
    public static final Column DURATION = Columns.DURATION_S;
    public static final Column ERR_CONNECT = Columns.ERRORS_CONNECT;
    public static final Column ERR_READ = Columns.ERRORS_READ;
    public static final Column ERR_WRITE = Columns.ERRORS_WRITE;
    public static final Column ERR_TIMEOUT = Columns.ERRORS_TIMEOUT;
    public static final Column ERR_STATUS = Columns.ERRORS_STATUS;
    public static final Column RAW = Columns.RAW;
    public static final Column DROPPED = Columns.DROPPED;
    public static final Column HISTOGRAM = Columns.HISTOGRAM;

    public static final Column REQUESTS_BY_REQUEST = Columns.REQUESTS_BY_REQUEST;
    public static final Column ATTEMPTED_BY_REQUEST = Columns.ATTEMPTED_BY_REQUEST;
    public static final Column ERRORS_BY_REQUEST = Columns.ERRORS_BY_REQUEST;
    public static final Column P50_BY_REQUEST = Columns.P50_BY_REQUEST;
    public static final Column P99_BY_REQUEST = Columns.P99_BY_REQUEST;
    public static final Column P999_BY_REQUEST = Columns.P999_BY_REQUEST;
    public static final Column HISTOGRAM_BY_REQUEST = Columns.HISTOGRAM_BY_REQUEST;
    /** The per-request-name columns of a generator that measures a mix's requests apart (vegeta). */
    public static final List<Column> BY_REQUEST_COLUMNS = List.of(REQUESTS_BY_REQUEST, ATTEMPTED_BY_REQUEST, ERRORS_BY_REQUEST, P50_BY_REQUEST,
            P99_BY_REQUEST, P999_BY_REQUEST, HISTOGRAM_BY_REQUEST);

    /** The columns every generator's result fills. */
    public static final List<Column> COLUMNS = List.of(THROUGHPUT, P50, P90, P95, P99, P999, MAX, MEAN, ERROR_RATE,
            HTTP_REQS, DURATION, ERR_CONNECT, ERR_READ, ERR_WRITE, ERR_TIMEOUT, ERR_STATUS, RAW, DROPPED, HISTOGRAM);

    public double rps() {
        return durationS > 0 ? requests / durationS : 0;
    }

    public long errors() {
        return errConnect + errRead + errWrite + errTimeout + errStatus;
    }

    /** Failed requests (socket errors, timeouts, non-2xx/3xx) over all attempted. */
    public double errorRate() {
        long attempted = requests + errConnect + errTimeout;
        return attempted == 0 ? 0 : (double) errors() / attempted;
    }

    /** This result as the row's generator columns. */
    public RowValues values() {
        RowValues v = new RowValues().put(THROUGHPUT, rps()).put(P50, p50Ms).put(P90, p90Ms).put(P95, p95Ms).put(P99, p99Ms)
                .put(P999, p999Ms).put(MAX, maxMs).put(MEAN, meanMs).put(ERROR_RATE, errorRate()).put(HTTP_REQS, requests)
                .put(DURATION, durationS).put(ERR_CONNECT, errConnect).put(ERR_READ, errRead).put(ERR_WRITE, errWrite)
                .put(ERR_TIMEOUT, errTimeout).put(ERR_STATUS, errStatus).put(RAW, raw.getFileName().toString())
                .put(DROPPED, dropped).put(HISTOGRAM, histogram == null ? null : histogram.getFileName().toString());
        if (byRequest.isEmpty()) return v;
        v.put(REQUESTS_BY_REQUEST, cell(b -> Long.toString(b.requests()))).put(ATTEMPTED_BY_REQUEST, cell(b -> Long.toString(b.attempted())))
                .put(ERRORS_BY_REQUEST, cell(b -> Long.toString(b.errors())))
                .put(P50_BY_REQUEST, cell(b -> ms(b.p50Ms()))).put(P99_BY_REQUEST, cell(b -> ms(b.p99Ms()))).put(P999_BY_REQUEST, cell(b -> ms(b.p999Ms())))
                .put(HISTOGRAM_BY_REQUEST, cell(b -> b.histogram().getFileName().toString()));
        return v;
    }

    private String cell(java.util.function.Function<ByRequest, String> value) {
        return String.join(";", byRequest.stream().map(b -> b.name() + "=" + value.apply(b)).toList());
    }

    private static String ms(double v) {
        return String.format(java.util.Locale.ROOT, "%.3f", v);
    }

    /** A name=value;name=value cell of the by-request columns back into its values by name, in order (empty for an empty cell). */
    public static java.util.Map<String, String> byRequest(String cell) {
        return vtlab.data.DataRow.pairs(cell);
    }
}
