package vtlab.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

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

    /**
     * Thread mode, platform rows with their pool size (platform-200 vs platform-2000 are told apart), and a declared
     * variant's name after it (virtual-as-shipped).
     */
    public static String variant(Map<String, String> r) {
        String mt = Rows.param(r, Rows.MAX_THREADS), tuning = Rows.param(r, TUNING);
        String mode = r.get(Rows.THREAD_MODE);
        return mode + ("platform".equals(mode) && mt != null ? "-" + mt : "") + (tuning == null ? "" : "-" + tuning);
    }

    /** The tuned variant an as-shipped one is set against (virtual-as-shipped: virtual), or null for any other. */
    public static String tunedOf(String variant) {
        String suffix = "-" + AS_SHIPPED;
        return variant.endsWith(suffix) ? variant.substring(0, variant.length() - suffix.length()) : null;
    }

    /** The variant, prefixed by the stack when an experiment runs several stacks. */
    public static String variant(Map<String, String> r, boolean withStack) {
        String v = variant(r);
        return withStack ? Rows.text(r, Rows.STACK) + " " + v : v;
    }

    /** The params that are not the variant (maxThreads is the platform pool size, tuning the declared variant: both part of it). */
    public static List<String> knobs(Map<String, String> r) {
        return Arrays.stream(Rows.text(r, Rows.PARAMS).split(";"))
                .filter(kv -> !kv.isEmpty() && !kv.startsWith(Rows.MAX_THREADS + "=") && !kv.startsWith(TUNING + "=")).toList();
    }

    /**
     * Rows that compare with each other (the summary's groups): same experiment, workload, concurrency, pool, paths,
     * JDK and knobs, "|"-joined so {@link #comparisonLabel} can word it.
     */
    public static String comparison(Map<String, String> r) {
        return String.join("|", r.get(Rows.EXPERIMENT), r.get(Rows.WORKLOAD), r.get(Rows.CONCURRENCY), Rows.text(r, Rows.POOL),
                Rows.text(r, Rows.PATH_MODE), Rows.text(r, Rows.CONN_MODE), "jdk" + r.get(Rows.JDK), String.join(" ", knobs(r)),
                load(r));
    }

    /**
     * The load model in words, "" for closed (and for runs from before the column): "open rate=2000". Open rows at
     * different rates, and open vs closed rows, never compare with each other.
     */
    public static String load(Map<String, String> r) {
        if (!"open".equals(r.get(Rows.LOAD_MODEL))) return "";
        double rate = Rows.num(r, Rows.TARGET_RPS);
        return "open rate=" + (rate == Math.rint(rate) ? Long.toString((long) rate) : Rows.text(r, Rows.TARGET_RPS));
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
    public static String scenario(Map<String, String> r, boolean withJdk) {
        StringJoiner j = new StringJoiner(" ");
        j.add(Rows.text(r, Rows.EXPERIMENT)).add(Rows.text(r, Rows.WORKLOAD)).add("c=" + Rows.text(r, Rows.CONCURRENCY));
        if (!Rows.text(r, Rows.POOL).isEmpty()) j.add("pool=" + r.get(Rows.POOL));
        if (!Rows.text(r, Rows.CONN_MODE).isEmpty()) j.add(r.get(Rows.CONN_MODE));
        if (!Rows.text(r, Rows.PATH_MODE).isEmpty()) j.add(r.get(Rows.PATH_MODE));
        knobs(r).forEach(j::add);
        if (!load(r).isEmpty()) j.add(load(r));
        if (withJdk) j.add("jdk" + Rows.text(r, Rows.JDK));
        return j.toString();
    }

    /**
     * A chart panel (and sweep verdict) in words: what its rows share besides the x axis and the variant, e.g.
     * "sleep · sleepMs=50 · JDK 25"; the stack is named when it is not the variant's and differs from the experiment.
     * Along target_rps, open rows at every rate share a panel.
     */
    public static String panel(Map<String, String> r, String xCol, boolean withStack) {
        List<String> parts = new ArrayList<>();
        parts.add(Rows.text(r, Rows.WORKLOAD));
        if (!xCol.equals(Rows.CONCURRENCY)) {
            double c = Rows.num(r, Rows.CONCURRENCY);
            parts.add((Double.isNaN(c) ? "" : String.format(java.util.Locale.ROOT, "%,d", Math.round(c))) + (load(r).isEmpty() ? " connections" : " in flight at most"));
        }
        if (!xCol.equals(Rows.POOL) && !Rows.text(r, Rows.POOL).isEmpty()) parts.add("pool " + r.get(Rows.POOL));
        if (!Rows.text(r, Rows.CONN_MODE).isEmpty()) parts.add(r.get(Rows.CONN_MODE));
        if (!Rows.text(r, Rows.PATH_MODE).isEmpty()) parts.add(r.get(Rows.PATH_MODE));
        parts.addAll(knobs(r));
        if (!load(r).isEmpty() && !xCol.equals(Rows.TARGET_RPS)) parts.add(load(r)); // along target_rps the rate is the x axis
        if (!Rows.text(r, Rows.JDK).isEmpty()) parts.add("JDK " + r.get(Rows.JDK));
        if (!withStack && !Rows.text(r, Rows.STACK).isEmpty() && !r.get(Rows.STACK).equals(r.get(Rows.EXPERIMENT))) parts.add(r.get(Rows.STACK));
        return String.join(" · ", parts.stream().filter(p -> !p.isBlank()).toList());
    }
}
