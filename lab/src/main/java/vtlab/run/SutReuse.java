package vtlab.run;

import java.io.IOException;

import vtlab.tier.SutHandle;

/**
 * Keeps the SUT across rows: consecutive rows with the same SUT configuration share one JVM (warm JIT, grown pools:
 * a server's steady state) unless a row needs a fresh one (idle readings, isolation, --fresh-sut).
 */
final class SutReuse {
    interface Start {
        SutHandle start() throws IOException;
    }

    record Acquired(SutHandle sut, boolean reused) {}

    private SutHandle kept;
    private String keptConfig;

    /** The kept SUT if it fits this row, else a new one (the kept one stopped first). */
    Acquired acquire(String config, boolean fresh, RowRunner.Steps steps, Start start) throws IOException {
        if (kept != null && (fresh || !config.equals(keptConfig) || !kept.alive())) {
            steps.step("stopping SUT");
            close();
        }
        if (kept != null) {
            SutHandle sut = kept;
            kept = null;
            return new Acquired(sut, true);
        }
        steps.step("starting SUT");
        return new Acquired(start.start(), false);
    }

    /** Whether the SUT kept from the row before fits this configuration and still runs (a fork's later iteration needs it). */
    boolean keeps(String config) {
        return kept != null && config.equals(keptConfig) && kept.alive();
    }

    /** A row done with its SUT: kept for the next row unless the row wanted its own JVM or left it unclean; true if kept. */
    boolean release(SutHandle sut, String config, boolean fresh) {
        if (fresh) return false;
        kept = sut;
        keptConfig = config;
        return true;
    }

    /** Stops the SUT kept for the next row, if any (end of run). */
    void close() {
        if (kept != null) kept.close();
        kept = null;
    }
}
