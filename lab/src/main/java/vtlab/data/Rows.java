package vtlab.data;

import java.util.Arrays;
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

    // The columns readers use most (the writing side declares all of them in Columns).
    public static final String EXPERIMENT = "experiment", STACK = "stack", THREAD_MODE = "thread_mode", WORKLOAD = "workload",
            CONCURRENCY = "concurrency", POOL = "hikari_pool", PATH_MODE = "path_mode", CONN_MODE = "conn_mode", JDK = "jdk",
            REP = "rep", PARAMS = "params", STATUS = "status", FLAGS = "flags", NOTE = "note", SCENARIO = "scenario",
            RPS = "throughput_rps", P50 = "p50_ms", P99 = "p99_ms", THREADS_MAX = "jvm_threads_max", APP_CPU = "app_cpu_pct",
            BOUND_RPS = "bound_rps", BOUND_RATIO = "bound_ratio", PINNED = "pinned_events",
            LOAD_MODEL = "load_model", TARGET_RPS = "target_rps", HISTOGRAM = "histogram";

    /** A param of the row's params cell ("k=v;k2=v2"), or null when absent. */
    public static final String MAX_THREADS = "maxThreads";

    /** A cell as text, "" when the column is absent. */
    public static String text(Map<String, String> r, String col) {
        String v = r.get(col);
        return v == null ? "" : v;
    }

    /** A numeric cell, NaN when absent, empty or not a number. */
    public static double num(Map<String, String> r, String col) {
        String v = r.get(col);
        if (v == null || v.isBlank()) return Double.NaN;
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** A value of the params cell ("sleepMs=50;maxThreads=200"), or null when the row has no such key. */
    public static String param(Map<String, String> r, String key) {
        for (String kv : text(r, PARAMS).split(";")) {
            int eq = kv.indexOf('=');
            if (eq > 0 && kv.substring(0, eq).equals(key)) return kv.substring(eq + 1);
        }
        return null;
    }

    /** Status ok: the only rows usable as evidence (flags that do not void a row are kept). */
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
        return Arrays.stream(text(r, FLAGS).split(";")).filter(f -> !f.isEmpty()).toList();
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
}
