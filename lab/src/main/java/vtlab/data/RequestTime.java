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
        private final Column share;

        Cause(String key, String label, String color) {
            this.key = key;
            this.label = label;
            this.color = color;
            this.share = Column.number("time_" + key + "_pct", "%", "share of the hold's request time (throughput × mean latency × hold) "
                    + label + " (profile probe)");
        }

        /** The matrix.csv column of this cause's share. */
        public Column column() {
            return share;
        }

        public static Cause of(String key) {
            for (Cause c : values()) if (c.key.equals(key)) return c;
            return null;
        }
    }

    /** Whether the row's largest cause dominates; a row written before the column existed: yes. */
    public static boolean dominant(DataRow row) {
        return !"false".equals(row.text(Columns.TIME_DOMINANT));
    }

    private RequestTime() {}

    /** Whether the row has a breakdown. */
    public static boolean has(DataRow row) {
        return Cause.of(row.text(Columns.TIME_TOP)) != null;
    }

    /** The row's shares by cause (only those measured). */
    public static Map<Cause, Double> shares(DataRow row) {
        Map<Cause, Double> out = new java.util.EnumMap<>(Cause.class);
        for (Cause c : Cause.values()) {
            double v = row.num(c.column());
            if (!Double.isNaN(v)) out.put(c, v);
        }
        return out;
    }

    /**
     * "58% of request time waiting to run (200 request threads on 1 CPU), then 21% stopped by GC", or null without a
     * breakdown.
     */
    public static String line(DataRow row) {
        Cause top = Cause.of(row.text(Columns.TIME_TOP));
        if (top == null) return null;
        boolean dominant = dominant(row);
        String s = (dominant ? "" : "no single cause dominates: ") + String.format(Locale.ROOT, "%.0f%% of request time %s", row.num(top.column()), top.label);
        String ev = row.text(Columns.TIME_EVIDENCE);
        if (!ev.isBlank()) s += " (" + ev + ")";
        Cause second = null; // the next measured cause: what no source saw is never a cause
        for (Map.Entry<Cause, Double> e : shares(row).entrySet()) {
            if (e.getKey() != top && e.getKey() != Cause.OTHER && (second == null || e.getValue() > row.num(second.column()))) second = e.getKey();
        }
        if (second != null && (!dominant || row.num(second.column()) >= 10)) {
            s += String.format(Locale.ROOT, ", then %.0f%% %s", row.num(second.column()), second.label);
        }
        double unseen = row.num(Cause.OTHER.column());
        if (unseen >= 10) s += String.format(Locale.ROOT, "; %.0f%% not seen by the probe", unseen);
        return s;
    }

    /**
     * What the profiled hold the breakdown comes from cost against the measured one: "profiled hold 10 s: 5,340 req/s
     * (-17% of the measured), p99 208 ms (+98%)"; null for a row without one.
     */
    public static String profiledCost(DataRow row) {
        double rps = row.num(Columns.PROFILED_RPS);
        if (Double.isNaN(rps)) return null;
        double cost = row.num(Columns.PROFILE_COST_RPS), p99 = row.num(Columns.PROFILED_P99), p99Cost = row.num(Columns.PROFILE_COST_P99);
        String s = String.format(Locale.ROOT, "profiled hold %.0f s: %,.0f req/s", row.num(Columns.PROFILED_HOLD_S), rps);
        if (!Double.isNaN(cost)) s += String.format(Locale.ROOT, " (%+.0f%% of the measured)", cost);
        if (!Double.isNaN(p99)) s += String.format(Locale.ROOT, ", p99 %.1f ms", p99) + (Double.isNaN(p99Cost) ? "" : String.format(Locale.ROOT, " (%+.0f%%)", p99Cost));
        return s;
    }

    /**
     * One sentence over the configurations of a scenario (label, row): each one's largest cause with its evidence,
     * and how the largest cause moved between them; null when none has a breakdown.
     */
    public static String compare(List<Map.Entry<String, DataRow>> configs) {
        List<String> parts = new ArrayList<>();
        List<String> tops = new ArrayList<>();
        for (Map.Entry<String, DataRow> c : configs) {
            String line = line(c.getValue());
            if (line == null) continue;
            parts.add(c.getKey() + ": " + line);
            tops.add(c.getKey().replaceFirst(" \\(row \\d+\\)$", "") + " " + Cause.of(c.getValue().text(Columns.TIME_TOP)).label);
        }
        if (parts.isEmpty()) return null;
        String s = String.join("; ", parts);
        if (tops.size() > 1) {
            boolean same = configs.stream().filter(c -> has(c.getValue())).map(c -> c.getValue().text(Columns.TIME_TOP)).distinct().count() == 1;
            s += same ? ". The largest cause stayed the same" : ". The largest cause moved: " + String.join(" → ", tops);
        }
        return s;
    }

    /**
     * A finding per scenario (rows that compare, {@link Grouping#comparison}) whose ok rows have a breakdown: "where
     * request time goes, SCENARIO: platform-200 (row 1): 58% ...; virtual (row 2): 64% ... The largest cause moved:
     * ...", standing on the rows it names. Rows are numbered by their place in the whole matrix; a scenario's first
     * ok row of each configuration speaks for it.
     *
     * @param label a configuration's name in words (ab says "virtual as shipped"), by default {@link Grouping#variant}
     */
    public static List<Finding> findings(List<DataRow> own, java.util.function.Function<DataRow, String> label) {
        Map<String, Map<String, DataRow>> scenarios = new java.util.LinkedHashMap<>();
        for (DataRow r : own) {
            if (!r.ok() || !has(r)) continue;
            scenarios.computeIfAbsent(Grouping.comparison(r), k -> new java.util.LinkedHashMap<>()).putIfAbsent(label.apply(r), r);
        }
        // a scenario whose every row is flagged (a foreign service on a busy machine: wrk's corrected latencies fail
        // Little's law) still gets where its time went, said to be from flagged rows: the why, not a measurement
        Map<String, java.util.Set<String>> flaggedBy = new java.util.LinkedHashMap<>();
        for (DataRow r : own) {
            if (!r.flagged() || !has(r) || scenarios.containsKey(Grouping.comparison(r)) && !flaggedBy.containsKey(Grouping.comparison(r))) continue;
            flaggedBy.computeIfAbsent(Grouping.comparison(r), k -> new java.util.TreeSet<>()).addAll(r.flags());
            scenarios.computeIfAbsent(Grouping.comparison(r), k -> new java.util.LinkedHashMap<>()).putIfAbsent(label.apply(r), r);
        }
        List<Finding> out = new ArrayList<>();
        scenarios.forEach((key, configs) -> {
            List<Map.Entry<String, DataRow>> named = new ArrayList<>();
            configs.forEach((c, r) -> named.add(Map.entry(c + " (row " + r.number() + ")", r)));
            String pinned = configs.entrySet().stream().filter(e -> e.getValue().num(Columns.PINNED) > 0)
                    .map(e -> String.format(Locale.ROOT, "%s pinned virtual threads %,.0f times", e.getKey(), e.getValue().num(Columns.PINNED)))
                    .collect(java.util.stream.Collectors.joining("; "));
            String flagged = flaggedBy.containsKey(key) ? " (from rows flagged " + String.join(", ", flaggedBy.get(key)) + ": not measured evidence)" : "";
            String cost = configs.entrySet().stream().filter(e -> !Double.isNaN(e.getValue().num(Columns.PROFILE_COST_RPS)))
                    .map(e -> String.format(Locale.ROOT, "%s %+.0f%% req/s, p99 %+.0f%%", e.getKey(), e.getValue().num(Columns.PROFILE_COST_RPS),
                            e.getValue().num(Columns.PROFILE_COST_P99)))
                    .collect(java.util.stream.Collectors.joining("; "));
            String tails = configs.entrySet().stream().filter(e -> !e.getValue().text(Columns.TIME_TAIL).isBlank())
                    .map(e -> e.getKey() + ": " + e.getValue().text(Columns.TIME_TAIL)).collect(java.util.stream.Collectors.joining("; "));
            out.add(Finding.of("where request time goes, " + Grouping.comparisonLabel(key) + flagged + ": " + compare(named)
                    + (pinned.isEmpty() ? "" : " (" + pinned + ": see pinning)")
                    + (tails.isEmpty() ? "" : ". Why the tail is slow, " + tails)
                    + (cost.isEmpty() ? "" : " [explained from a profiled hold after each measured one, never during it; what profiling cost there: " + cost + "]"),
                    configs.values()));
        });
        return out;
    }
}
