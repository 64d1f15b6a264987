package vtlab.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;
import vtlab.stack.ThreadMode.Threads;

/**
 * Which read-back rows compare with each other, in one place for summary, compare, charts and verdicts: rows with
 * the same {@link #comparison} key differ only in their {@link #variant} (thread mode, platform pool size) and rep.
 */
public final class Grouping {
    private Grouping() {}

    /** The params key of a thread mode's declared variant (experiment.ThreadModes), e.g. tuning=as-shipped. */
    public static final String TUNING = "tuning";
    /** The variant that runs the server's and the JVM's own defaults instead of the lab's tuning. */
    public static final String AS_SHIPPED = "as-shipped";
    /** The thread modes a variant's name starts with, as stack/ThreadMode declares them (report/ reads only this layer). */
    public static final String PLATFORM = Threads.PLATFORM.word, VIRTUAL = Threads.VIRTUAL.word;

    /**
     * Thread mode, platform rows with their pool size (platform-200 vs platform-2000 are told apart), and a declared
     * variant's name after it (virtual-as-shipped).
     */
    public static String variant(DataRow r) {
        String mt = r.param(Rows.MAX_THREADS), tuning = r.param(TUNING);
        String mode = r.mode();
        return mode + (Threads.PLATFORM.word.equals(mode) && mt != null ? "-" + mt : "") + (tuning == null ? "" : "-" + tuning);
    }

    /** The tuned variant an as-shipped one is set against (virtual-as-shipped: virtual), or null for any other. */
    public static String tunedOf(String variant) {
        String suffix = "-" + AS_SHIPPED;
        return variant.endsWith(suffix) ? variant.substring(0, variant.length() - suffix.length()) : null;
    }

    /** The variant, prefixed by the stack when an experiment runs several stacks. */
    public static String variant(DataRow r, boolean withStack) {
        String v = variant(r);
        return withStack ? r.text(Columns.STACK) + " " + v : v;
    }

    /** The params that are not the variant (maxThreads is the platform pool size, tuning the declared variant: both part of it). */
    public static List<String> knobs(DataRow r) {
        return Arrays.stream(r.text(Columns.PARAMS).split(";"))
                .filter(kv -> !kv.isEmpty() && !kv.startsWith(Rows.MAX_THREADS + "=") && !kv.startsWith(TUNING + "=")).toList();
    }

    /**
     * Rows that compare with each other (the summary's groups): same experiment, workload, concurrency, pool, paths,
     * JDK and knobs, "|"-joined so {@link #comparisonLabel} can word it.
     */
    public static String comparison(DataRow r) {
        return String.join("|", r.experiment(), r.text(Columns.WORKLOAD), r.text(Columns.CONCURRENCY), r.text(Columns.HIKARI_POOL),
                r.text(Columns.PATH_MODE), r.text(Columns.CONN_MODE), "jdk" + r.text(Columns.JDK), String.join(" ", knobs(r)), load(r));
    }

    /**
     * The load model in words, "" for closed (and for runs from before the column): "open rate=2000". Open rows at
     * different rates, and open vs closed rows, never compare with each other.
     */
    public static String load(DataRow r) {
        if (!r.open()) return "";
        double rate = r.num(Columns.TARGET_RPS);
        return "open rate=" + (rate == Math.rint(rate) ? Long.toString((long) rate) : r.text(Columns.TARGET_RPS));
    }

    /** A comparison key as the summary's scenario column: workload, concurrency, pool, paths, JDK, knobs. */
    public static String comparisonLabel(String key) {
        String[] parts = key.split("\\|", -1);
        String load = parts.length > 8 ? parts[8] : "";
        return parts[1] + (load.isEmpty() ? " c=" + parts[2] : " " + load + " cap=" + parts[2]) + (parts[3].isEmpty() ? "" : " pool=" + parts[3])
                + (parts[4].isEmpty() ? "" : " " + parts[4]) + (parts[5].isEmpty() ? "" : " " + parts[5])
                + " " + parts[6] + (parts[7].isEmpty() ? "" : " " + parts[7]);
    }

    /**
     * The scenario of a row across runs (compare): experiment, workload, concurrency, pool, connection and path mode,
     * knobs, and the JDK only when asked (a JDK 21 run against a JDK 25 run matches their rows). No rep, no variant.
     */
    public static String scenario(DataRow r, boolean withJdk) {
        StringJoiner j = new StringJoiner(" ");
        j.add(r.experiment()).add(r.text(Columns.WORKLOAD)).add("c=" + r.text(Columns.CONCURRENCY));
        if (r.has(Columns.HIKARI_POOL)) j.add("pool=" + r.text(Columns.HIKARI_POOL));
        if (r.has(Columns.CONN_MODE)) j.add(r.text(Columns.CONN_MODE));
        if (r.has(Columns.PATH_MODE)) j.add(r.text(Columns.PATH_MODE));
        knobs(r).forEach(j::add);
        if (!load(r).isEmpty()) j.add(load(r));
        if (withJdk) j.add("jdk" + r.text(Columns.JDK));
        return j.toString();
    }

    /**
     * A chart panel (and sweep verdict) in words: what its rows share besides the x axis and the variant, e.g.
     * "sleep · sleepMs=50 · JDK 25"; the stack is named when it is not the variant's and differs from the experiment.
     * Along target_rps, open rows at every rate share a panel.
     */
    public static String panel(DataRow r, Column xCol, boolean withStack) {
        List<String> parts = new ArrayList<>();
        parts.add(r.text(Columns.WORKLOAD));
        if (!xCol.equals(Columns.CONCURRENCY)) {
            double c = r.num(Columns.CONCURRENCY);
            parts.add((Double.isNaN(c) ? "" : String.format(java.util.Locale.ROOT, "%,d", Math.round(c))) + (load(r).isEmpty() ? " connections" : " in flight at most"));
        }
        if (!xCol.equals(Columns.HIKARI_POOL) && r.has(Columns.HIKARI_POOL)) parts.add("pool " + r.text(Columns.HIKARI_POOL));
        if (r.has(Columns.CONN_MODE)) parts.add(r.text(Columns.CONN_MODE));
        if (r.has(Columns.PATH_MODE)) parts.add(r.text(Columns.PATH_MODE));
        parts.addAll(knobs(r));
        if (!load(r).isEmpty() && !xCol.equals(Columns.TARGET_RPS)) parts.add(load(r)); // along target_rps the rate is the x axis
        if (r.has(Columns.JDK)) parts.add("JDK " + r.text(Columns.JDK));
        if (!withStack && r.has(Columns.STACK) && !r.text(Columns.STACK).equals(r.experiment())) parts.add(r.text(Columns.STACK));
        return String.join(" · ", parts.stream().filter(p -> !p.isBlank()).toList());
    }
}
