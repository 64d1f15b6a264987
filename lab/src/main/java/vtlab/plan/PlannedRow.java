package vtlab.plan;

import java.util.List;

/**
 * A row with everything its experiment and the probes decide resolved before the run, so the runner only runs it:
 * the probe specs it runs with, whether it needs a JVM of its own, extra verification, and drains before the hold.
 */
public record PlannedRow(Row row, List<String> probes, boolean freshSut, RowCheck extraVerification, List<Drain> drains) {
    /** A row made by hand (tests): the given probes, nothing else. */
    public static PlannedRow of(Row row, List<String> probes) {
        return new PlannedRow(row, probes, false, RowCheck.NONE, List.of());
    }
}
