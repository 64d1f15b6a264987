package vtlab.load;

import java.nio.file.Path;

/** What the generator measured, from its own histogram; latencies in milliseconds. */
public record LoadResult(long requests, double durationS, double meanMs, double p50Ms, double p90Ms, double p95Ms,
                         double p99Ms, double p999Ms, double maxMs, long errConnect, long errRead, long errWrite,
                         long errTimeout, long errStatus, long bytes, Path raw) {

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
}
