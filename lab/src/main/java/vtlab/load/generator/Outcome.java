package vtlab.load.generator;

import vtlab.load.LoadSeries;

/**
 * What one request came to, as a generator with per-request records tells it (k6's status and error code, vegeta's
 * status and error text): answered, answered with a status error, or no answer by kind.
 */
enum Outcome {
    ANSWERED(null), STATUS(LoadSeries.Kind.ERR_STATUS), TIMEOUT(LoadSeries.Kind.ERR_TIMEOUT), CONNECT(LoadSeries.Kind.ERR_CONNECT),
    WRITE(LoadSeries.Kind.ERR_IO), READ(LoadSeries.Kind.ERR_IO);

    /** The per-second series an error of this kind is counted in (reset and broken pipe alike: I/O). */
    final LoadSeries.Kind series;

    Outcome(LoadSeries.Kind series) {
        this.series = series;
    }

    /** Answered (a status error too): its latency is in the histogram. */
    boolean answered() {
        return this == ANSWERED || this == STATUS;
    }
}
