package vtlab.data;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a row's request time went, as the profile probe writes it into matrix.csv (time_*_pct, time_top_cause,
 * time_top_evidence): the causes in order, and the sentences the verdicts and the report say about them.
 */
public final class RequestTime {
    /** The causes a request's time is split into, in the order the columns and the report's bars show them. */
    public enum Cause {
        CPU("cpu", "on CPU", "#4e79a7"),
        RUNQUEUE("runqueue", "waiting to run", "#f28e2b"),
        MONITOR("monitor", "blocked on a monitor", "#e15759"),
        PARK("park", "parked on a lock or condition", "#ff9da7"),
        THREAD_WAIT("thread_wait", "waiting for a free request thread", "#d37295"),
        POOL_WAIT("pool_wait", "waiting for a pooled connection", "#b07aa1"),
        DB("db", "in the database", "#76b7b2"),
        DOWNSTREAM("downstream", "waiting for a downstream", "#59a14f"),
        SLEEP("sleep", "sleeping (the workload's own Thread.sleep)", "#edc948"),
        GC("gc", "stopped by GC", "#9c755f"),
        OTHER("other", "in other waits, not seen by the probe", "#bab0ac");

        public final String key, label, color;

        Cause(String key, String label, String color) {
            this.key = key;
            this.label = label;
            this.color = color;
        }

        /** The matrix.csv column of this cause's share. */
        public String column() {
            return "time_" + key + "_pct";
        }

        public static Cause of(String key) {
            for (Cause c : values()) if (c.key.equals(key)) return c;
            return null;
        }
    }

    public static final String TOP = "time_top_cause", EVIDENCE = "time_top_evidence", DOMINANT = "time_top_dominant", TAIL = "time_tail";

    /** Whether the row's largest cause dominates; a row written before the column existed: yes. */
    public static boolean dominant(Map<String, String> row) {
        return !"false".equals(row.get(DOMINANT));
    }

    private RequestTime() {}

    /** Whether the row has a breakdown. */
    public static boolean has(Map<String, String> row) {
        return Cause.of(row.getOrDefault(TOP, "")) != null;
    }

    /** The row's shares by cause (only those measured). */
    public static Map<Cause, Double> shares(Map<String, String> row) {
        Map<Cause, Double> out = new java.util.EnumMap<>(Cause.class);
        for (Cause c : Cause.values()) {
            double v = Rows.num(row, c.column());
            if (!Double.isNaN(v)) out.put(c, v);
        }
        return out;
    }

    /**
     * "58% of request time waiting to run (200 request threads on 1 CPU), then 21% stopped by GC", or null without a
     * breakdown.
     */
    public static String line(Map<String, String> row) {
        Cause top = Cause.of(row.getOrDefault(TOP, ""));
        if (top == null) return null;
        boolean dominant = dominant(row);
        String s = (dominant ? "" : "no single cause dominates: ") + String.format(Locale.ROOT, "%.0f%% of request time %s", Rows.num(row, top.column()), top.label);
        String ev = row.getOrDefault(EVIDENCE, "");
        if (!ev.isBlank()) s += " (" + ev + ")";
        Cause second = null; // the next measured cause: what no source saw is never a cause
        for (Map.Entry<Cause, Double> e : shares(row).entrySet()) {
            if (e.getKey() != top && e.getKey() != Cause.OTHER && (second == null || e.getValue() > Rows.num(row, second.column()))) second = e.getKey();
        }
        if (second != null && (!dominant || Rows.num(row, second.column()) >= 10)) {
            s += String.format(Locale.ROOT, ", then %.0f%% %s", Rows.num(row, second.column()), second.label);
        }
        double unseen = Rows.num(row, Cause.OTHER.column());
        if (unseen >= 10) s += String.format(Locale.ROOT, "; %.0f%% not seen by the probe", unseen);
        return s;
    }

    /**
     * What the profiled hold the breakdown comes from cost against the measured one: "profiled hold 10 s: 5,340 req/s
     * (-17% of the measured), p99 208 ms (+98%)"; null for a row without one.
     */
    public static String profiledCost(Map<String, String> row) {
        double rps = Rows.num(row, "profiled_rps");
        if (Double.isNaN(rps)) return null;
        double cost = Rows.num(row, "profile_cost_rps_pct"), p99 = Rows.num(row, "profiled_p99_ms"), p99Cost = Rows.num(row, "profile_cost_p99_pct");
        String s = String.format(Locale.ROOT, "profiled hold %.0f s: %,.0f req/s", Rows.num(row, "profiled_hold_s"), rps);
        if (!Double.isNaN(cost)) s += String.format(Locale.ROOT, " (%+.0f%% of the measured)", cost);
        if (!Double.isNaN(p99)) s += String.format(Locale.ROOT, ", p99 %.1f ms", p99) + (Double.isNaN(p99Cost) ? "" : String.format(Locale.ROOT, " (%+.0f%%)", p99Cost));
        return s;
    }

    /**
     * One sentence over the configurations of a scenario (label, row): each one's largest cause with its evidence,
     * and how the largest cause moved between them; null when none has a breakdown.
     */
    public static String compare(List<Map.Entry<String, Map<String, String>>> configs) {
        List<String> parts = new ArrayList<>();
        List<String> tops = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> c : configs) {
            String line = line(c.getValue());
            if (line == null) continue;
            parts.add(c.getKey() + ": " + line);
            tops.add(c.getKey().replaceFirst(" \\(row \\d+\\)$", "") + " " + Cause.of(c.getValue().get(TOP)).label);
        }
        if (parts.isEmpty()) return null;
        String s = String.join("; ", parts);
        if (tops.size() > 1) {
            boolean same = configs.stream().filter(c -> has(c.getValue())).map(c -> c.getValue().get(TOP)).distinct().count() == 1;
            s += same ? ". The largest cause stayed the same" : ". The largest cause moved: " + String.join(" → ", tops);
        }
        return s;
    }

    /**
     * A line per scenario (rows that compare, {@link Grouping#comparison}) whose ok rows have a breakdown: "where
     * request time goes, SCENARIO: platform-200 (row 1): 58% ...; virtual (row 2): 64% ... The largest cause moved:
     * ...". Rows are numbered by their place in the whole matrix (the report links "row N"); a scenario's first
     * ok row of each configuration speaks for it.
     *
     * @param label a configuration's name in words (ab says "virtual as shipped"), by default {@link Grouping#variant}
     */
    public static List<String> findings(List<Map<String, String>> matrix, List<Map<String, String>> own,
                                        java.util.function.Function<Map<String, String>, String> label) {
        Map<String, Map<String, Map<String, String>>> scenarios = new java.util.LinkedHashMap<>();
        for (Map<String, String> r : own) {
            if (!Rows.ok(r) || !has(r)) continue;
            scenarios.computeIfAbsent(Grouping.comparison(r), k -> new java.util.LinkedHashMap<>()).putIfAbsent(label.apply(r), r);
        }
        // a scenario whose every row is flagged (a foreign service on a busy machine: wrk's corrected latencies fail
        // Little's law) still gets where its time went, said to be from flagged rows: the why, not a measurement
        Map<String, java.util.Set<String>> flaggedBy = new java.util.LinkedHashMap<>();
        for (Map<String, String> r : own) {
            if (!Rows.flagged(r) || !has(r) || scenarios.containsKey(Grouping.comparison(r)) && !flaggedBy.containsKey(Grouping.comparison(r))) continue;
            flaggedBy.computeIfAbsent(Grouping.comparison(r), k -> new java.util.TreeSet<>()).addAll(Rows.flags(r));
            scenarios.computeIfAbsent(Grouping.comparison(r), k -> new java.util.LinkedHashMap<>()).putIfAbsent(label.apply(r), r);
        }
        List<String> out = new ArrayList<>();
        scenarios.forEach((key, configs) -> {
            List<Map.Entry<String, Map<String, String>>> named = new ArrayList<>();
            configs.forEach((c, r) -> named.add(Map.entry(c + " (row " + (indexOf(matrix, r) + 1) + ")", r)));
            String pinned = configs.entrySet().stream().filter(e -> Rows.num(e.getValue(), "pinned_events") > 0)
                    .map(e -> String.format(Locale.ROOT, "%s pinned virtual threads %,.0f times", e.getKey(), Rows.num(e.getValue(), "pinned_events")))
                    .collect(java.util.stream.Collectors.joining("; "));
            String flagged = flaggedBy.containsKey(key) ? " (from rows flagged " + String.join(", ", flaggedBy.get(key)) + ": not measured evidence)" : "";
            String cost = configs.entrySet().stream().filter(e -> !Double.isNaN(Rows.num(e.getValue(), "profile_cost_rps_pct")))
                    .map(e -> String.format(Locale.ROOT, "%s %+.0f%% req/s, p99 %+.0f%%", e.getKey(), Rows.num(e.getValue(), "profile_cost_rps_pct"),
                            Rows.num(e.getValue(), "profile_cost_p99_pct")))
                    .collect(java.util.stream.Collectors.joining("; "));
            String tails = configs.entrySet().stream().filter(e -> !e.getValue().getOrDefault(TAIL, "").isBlank())
                    .map(e -> e.getKey() + ": " + e.getValue().get(TAIL)).collect(java.util.stream.Collectors.joining("; "));
            out.add("where request time goes, " + Grouping.comparisonLabel(key) + flagged + ": " + compare(named)
                    + (pinned.isEmpty() ? "" : " (" + pinned + ": see pinning)")
                    + (tails.isEmpty() ? "" : ". Why the tail is slow, " + tails)
                    + (cost.isEmpty() ? "" : " [explained from a profiled hold after each measured one, never during it; what profiling cost there: " + cost + "]"));
        });
        return out;
    }

    private static int indexOf(List<Map<String, String>> matrix, Map<String, String> row) {
        for (int i = 0; i < matrix.size(); i++) if (matrix.get(i) == row) return i;
        return matrix.indexOf(row);
    }
}
