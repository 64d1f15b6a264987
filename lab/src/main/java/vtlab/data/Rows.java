package vtlab.data;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The one reader of rows read back from matrix.csv (and the studies' CSV files) as column → cell maps: summary,
 * report, compare and every experiment's findings parse cells here, so an empty or malformed cell means the same
 * (NaN, absent) everywhere.
 */
public final class Rows {
    private Rows() {}

    // The names of the columns map readers use most, each its declaration's (data/Columns): typed readers use the
    // declarations themselves through DataRow.
    public static final String EXPERIMENT = Columns.EXPERIMENT.name(), STACK = Columns.STACK.name(), THREAD_MODE = Columns.THREAD_MODE.name(),
            WORKLOAD = Columns.WORKLOAD.name(), CONCURRENCY = Columns.CONCURRENCY.name(), POOL = Columns.HIKARI_POOL.name(),
            PATH_MODE = Columns.PATH_MODE.name(), CONN_MODE = Columns.CONN_MODE.name(), JDK = Columns.JDK.name(), REP = Columns.REP.name(),
            PARAMS = Columns.PARAMS.name(), STATUS = Columns.STATUS.name(), FLAGS = Columns.FLAGS.name(), NOTE = Columns.NOTE.name(),
            SCENARIO = Columns.SCENARIO.name(), RPS = Columns.RPS.name(), P50 = Columns.P50.name(), P99 = Columns.P99.name(),
            THREADS_MAX = Columns.THREADS_MAX.name(), APP_CPU = Columns.APP_CPU.name(), BOUND_RPS = Columns.BOUND_RPS.name(),
            BOUND_RATIO = Columns.BOUND_RATIO.name(), PINNED = Columns.PINNED.name(), LOAD_MODEL = Columns.LOAD_MODEL.name(),
            TARGET_RPS = Columns.TARGET_RPS.name(), HISTOGRAM = Columns.HISTOGRAM.name();

    /** A param of the row's params cell ("k=v;k2=v2"), or null when absent. */
    public static final String MAX_THREADS = "maxThreads";

    /** A cell as text, "" when the column is absent. */
    public static String text(Map<String, String> r, String col) {
        String v = r.get(col);
        return v == null ? "" : v;
    }

    /** A numeric cell, NaN when absent, empty or not a number. */
    public static double num(Map<String, String> r, String col) {
        return DataRow.parse(r.get(col));
    }

    /** A value of the params cell ("sleepMs=50;maxThreads=200"), or null when the row has no such key. */
    public static String param(Map<String, String> r, String key) {
        return DataRow.pairs(text(r, PARAMS)).get(key);
    }

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
                && !flag.equals("shared-cpu");
    }

    /** Rows of one thread mode (platform, virtual, ...). */
    public static Predicate<Map<String, String>> mode(String threadMode) {
        return r -> threadMode.equals(r.get(THREAD_MODE));
    }

    public static boolean ok(Map<String, String> r) {
        return "ok".equals(r.get(STATUS));
    }

    public static boolean failed(Map<String, String> r) {
        return "failed".equals(r.get(STATUS));
    }

    public static boolean flagged(Map<String, String> r) {
        return "flagged".equals(r.get(STATUS));
    }

    /** The flags cell split (";"), empty entries dropped. */
    public static List<String> flags(Map<String, String> r) {
        return DataRow.flags(text(r, FLAGS));
    }

    public static List<Map<String, String>> okOnly(List<Map<String, String>> rows) {
        return rows.stream().filter(Rows::ok).toList();
    }

    public static List<Map<String, String>> of(List<Map<String, String>> rows, String experiment) {
        return rows.stream().filter(r -> experiment.equals(r.get(EXPERIMENT))).toList();
    }

    /** Mean of a numeric column over rows, cells without a number skipped; NaN when none has one. */
    public static double mean(List<Map<String, String>> rows, String col) {
        return rows.stream().mapToDouble(r -> num(r, col)).filter(d -> !Double.isNaN(d)).average().orElse(Double.NaN);
    }

    /** Mean of a column over the rows that match, NaN when none does. */
    public static double mean(List<Map<String, String>> rows, Predicate<Map<String, String>> which, String col) {
        return mean(rows.stream().filter(which).toList(), col);
    }

    /** (max - min) / mean over reps, in %: how well repetitions agree; NaN with fewer than 2 values or a zero mean. */
    public static double spreadPct(List<Map<String, String>> rows, String col) {
        var s = rows.stream().mapToDouble(r -> num(r, col)).filter(d -> !Double.isNaN(d)).summaryStatistics();
        return s.getCount() < 2 || s.getAverage() == 0 ? Double.NaN : (s.getMax() - s.getMin()) / s.getAverage() * 100;
    }

    // --- the same over typed rows ---

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
