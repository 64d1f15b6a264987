package vtlab.cli;

/**
 * What ./vtlab's exit code says (docs/exit-codes-and-ci.md, --help), so a CI job can tell a broken measurement from a
 * regression: 0 every row ok, 1 some rows failed (the run itself finished, or stopped because a host was lost: its
 * rows not run are failed too), 2 bad input, 99 thresholds breached (k6's code), 130 interrupted.
 */
final class ExitCodes {
    private ExitCodes() {}

    static final int OK = 0, ROWS_FAILED = 1, BAD_INPUT = 2, THRESHOLDS = 99, INTERRUPTED = 130;

    /**
     * A run's code. Failed rows win over breached thresholds: a row that failed has no numbers to hold against them,
     * so a run with failed rows is an incomplete measurement before it is a verdict (its breaches are still in
     * summary.txt and summary.json).
     */
    static int ofRun(boolean complete, int failed, boolean breached) {
        if (!complete) return INTERRUPTED;
        if (failed > 0) return ROWS_FAILED;
        return breached ? THRESHOLDS : OK;
    }
}
