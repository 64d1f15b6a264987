package vtlab.data;

import java.util.List;
import java.util.function.Predicate;

import vtlab.stack.ThreadMode;

/**
 * What reading rows back shares beyond one row (a row read back is a {@link DataRow}): which rows are evidence, a
 * flag that voids a row, rows of an experiment or a mode, and means over rows, so an empty or malformed cell means
 * the same (NaN, absent) everywhere.
 */
public final class Rows {
    private Rows() {}

    /** A param of a platform row's params cell: its pool size ("k=v;k2=v2"). */
    public static final String MAX_THREADS = "maxThreads";

    /**
     * Flags that void a row as evidence. app-cpu-bound is a finding (the SUT's core is the bottleneck) and
     * below-bound says the ceiling was not reached (often the finding itself), warmup-not-steady is a caveat on the
     * number, overloaded (an open rate above the bound) is what the row set out to show: none is a measurement fault.
     * shared-cpu (SUT and generator on the same CPUs) was asked for (--allow-shared-cpus, a one-CPU machine): a caveat
     * on every row of the run alike.
     */
    public static boolean voids(String flag) {
        return !flag.equals("app-cpu-bound") && !flag.equals("below-bound") && !flag.equals("warmup-not-steady")
                && !flag.equals("overloaded") // an open rate above capacity: the growing latency is the finding
                && !flag.equals("shared-cpu")
                && !flag.equals("accept-queue") // connections began late: a caveat; littles-law voids when it mattered
                && !flag.equals("jit-busy") // the compiler still ran in the hold: a caveat on the number
                // the hypervisor took CPU in the hold: said with how much, not yet voiding (bursts of 28% of a core came
                // in 4 s holds of the suite on this VM; which rows it should void, every row or the judge's forks, wants
                // measuring first)
                && !flag.equals("stolen-cpu");
    }

    /** One group's share from an app_cpu_by_thread value ("requests 61.2;jit 18.9"): 0 when the group used nothing. */
    public static double cpuGroupPct(String byThread, String group) {
        if (byThread == null) return 0;
        for (String part : byThread.split(";")) {
            int sp = part.lastIndexOf(' ');
            if (sp > 0 && part.substring(0, sp).equals(group)) {
                try {
                    return Double.parseDouble(part.substring(sp + 1));
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    // --- over typed rows ---

    /** The ok rows (status ok): the only evidence. */
    public static List<DataRow> valid(List<DataRow> rows) {
        return rows.stream().filter(DataRow::ok).toList();
    }

    /** The rows an experiment planned. */
    public static List<DataRow> ofExperiment(List<DataRow> rows, String experiment) {
        return rows.stream().filter(r -> experiment.equals(r.experiment())).toList();
    }

    /** Rows of one thread mode (platform, virtual, ...). */
    public static Predicate<DataRow> inMode(String threadMode) {
        return r -> threadMode.equals(r.mode());
    }

    /** Rows of the mode of that kind's name: virtual's are virtual rows, not virtual-pool's (which {@link DataRow#threads()} also counts). */
    public static Predicate<DataRow> inMode(ThreadMode.Threads kind) {
        return inMode(kind.word);
    }

    /** Mean of a column over rows, cells without a number skipped; NaN when none has one. */
    public static double mean(List<DataRow> rows, Column col) {
        return rows.stream().mapToDouble(r -> r.num(col)).filter(d -> !Double.isNaN(d)).average().orElse(Double.NaN);
    }

    /** Mean of a column over the rows that match, NaN when none does. */
    public static double mean(List<DataRow> rows, Predicate<DataRow> which, Column col) {
        return mean(rows.stream().filter(which).toList(), col);
    }

    /** Largest value of a column over rows, cells without a number skipped; NaN when none has one. */
    public static double max(List<DataRow> rows, Column col) {
        return rows.stream().mapToDouble(r -> r.num(col)).filter(d -> !Double.isNaN(d)).max().orElse(Double.NaN);
    }
}
