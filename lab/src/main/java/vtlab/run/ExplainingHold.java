package vtlab.run;

import java.time.Duration;
import java.util.List;

import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.RowValues;
import vtlab.load.LoadResult;
import vtlab.plan.Row;

/**
 * The hold that explains a row, after the measured one: the same SUT, load and length (at most {@link #MAX}), with
 * only the probes that {@link vtlab.probe.Probe#explains() explain} (the profiler) running. The row's throughput,
 * latency, CPU and memory all come from the measured hold, where no profiler runs; this hold's own throughput and p99
 * stand beside them as what the profiler cost, so a reader sees how far the explanation's conditions were from the
 * measured ones.
 *
 * <p>Why after the measured hold on the same SUT rather than a rep of its own: the JVM is warm and its JIT settled by
 * then (a fresh JVM would need its own warm-up, and the spread between fresh JVMs would swamp the cost it shows: up to ±15% was seen on the development VM, and ./vtlab ab --aa measures a machine's own), and the
 * measured hold is over before the profiler is loaded, so it cannot move the row's numbers. A fault scheduled in the
 * measured hold is not repeated: the explanation is of the steady state.
 */
public final class ExplainingHold {
    /** A soak's hold is not repeated whole: long enough for thousands of samples and events, short enough to afford. */
    static final Duration MAX = Duration.ofSeconds(20);

    static final Column HOLD_S = Columns.PROFILED_HOLD_S;
    static final Column RPS = Columns.PROFILED_RPS;
    static final Column P99 = Columns.PROFILED_P99;
    static final Column COST_RPS = Columns.PROFILE_COST_RPS;
    static final Column COST_P99 = Columns.PROFILE_COST_P99;
    public static final List<Column> COLUMNS = List.of(HOLD_S, RPS, P99, COST_RPS, COST_P99);

    private ExplainingHold() {}

    /**
     * The row's warm-up and hold, and its profiled hold when one of its probes explains and it is not a later fork or
     * iteration of its configuration (those are explained by its first, when that is ok: RowRunner): what the row
     * should take.
     */
    public static long plannedSeconds(vtlab.plan.PlannedRow p) {
        boolean explains = vtlab.probe.Probes.create(p.probes()).stream().anyMatch(vtlab.probe.Probe::explains);
        boolean first = p.row().fork() == 0 || p.row().fork() == 1 && p.row().iteration() == 1;
        return p.row().plannedSeconds() + (explains && first ? length(p.row()).toSeconds() : 0);
    }

    /** The profiled hold's length: the row's, at most {@link #MAX}. */
    static Duration length(Row row) {
        return row.hold().compareTo(MAX) > 0 ? MAX : row.hold();
    }

    /** The profiled hold's figures beside the measured ones, and the change between them. */
    static void into(RowValues out, LoadResult measured, LoadResult profiled) {
        out.put(HOLD_S, Math.round(profiled.durationS()));
        out.put(RPS, round(profiled.rps()));
        out.put(P99, round(profiled.p99Ms()));
        if (measured.rps() > 0) out.put(COST_RPS, round(100 * (profiled.rps() / measured.rps() - 1)));
        if (measured.p99Ms() > 0 && Double.isFinite(profiled.p99Ms())) out.put(COST_P99, round(100 * (profiled.p99Ms() / measured.p99Ms() - 1)));
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
