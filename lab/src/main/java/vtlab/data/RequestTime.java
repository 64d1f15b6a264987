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
        CPU("cpu", "on CPU", "#4e79a7", Kind.OWN),
        RUNQUEUE("runqueue", "waiting to run", "#f28e2b", Kind.QUEUE),
        MONITOR("monitor", "blocked on a monitor", "#e15759", Kind.QUEUE),
        PARK("park", "parked on a lock or condition", "#ff9da7", Kind.QUEUE),
        THREAD_WAIT("thread_wait", "waiting for a free request thread", "#d37295", Kind.QUEUE),
        POOL_WAIT("pool_wait", "waiting for a pooled connection", "#b07aa1", Kind.QUEUE),
        DB("db", "in the database", "#76b7b2", Kind.OWN),
        DOWNSTREAM("downstream", "waiting for a downstream", "#59a14f", Kind.OWN),
        SLEEP("sleep", "sleeping (Thread.sleep, or a park to its own timeout)", "#edc948", Kind.OWN),
        GC("gc", "stopped by GC", "#9c755f", Kind.QUEUE),
        /** The client's request time no request thread of the server held (thread dumps count those that did). */
        OUTSIDE("outside", "outside the server (the kernel's queues, the poller, the network, the client)", "#8cd17d", Kind.QUEUE),
        OTHER("other", "in other waits, not seen by the probe", "#bab0ac", Kind.UNSEEN);

        public final String key, label, color;
        /** The request's own work (its floor) or a queue in front of it (what a service could avoid), or unseen. */
        public final Kind kind;
        private final Column share;

        Cause(String key, String label, String color, Kind kind) {
            this.key = key;
            this.label = label;
            this.color = color;
            this.kind = kind;
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

        /** A queue in front of the request's work: a bottleneck the service could avoid (more threads, a larger pool, a CPU of its own, less locking, a larger heap). */
        public boolean queue() {
            return kind == Kind.QUEUE;
        }
    }

    /**
     * What a share of request time is to a performance engineer: the request's own work (its CPU, its sleep, its
     * downstream call, the database's own time) is the floor of its latency, not a bottleneck; a queue in front of that
     * work (for a free request thread, a pooled connection, the CPU or a carrier, a monitor, GC's pauses) is what the
     * service could avoid, and the largest material one is the bottleneck.
     */
    public enum Kind { OWN, QUEUE, UNSEEN }

    /** Owners of CPU samples (the profile probe's) that are work a request does not need to answer. */
    public static final String WRITING_LOGS = "writing logs or the console", LOADING_CLASSES = "loading classes or resources",
            METRICS = "metrics and tracing";
    static final java.util.Set<String> OVERHEAD = java.util.Set.of(WRITING_LOGS, LOADING_CLASSES, METRICS);

    /** A queue is the bottleneck from this share of request time: below it the service is working, not waiting. */
    public static final double MATERIAL_QUEUE_PCT = 10;

    /** Whether the row's largest cause dominates; a row written before the column existed: yes. */
    public static boolean dominant(DataRow row) {
        return !"false".equals(row.text(Columns.TIME_DOMINANT));
    }

    private RequestTime() {}

    /** No bottleneck is named while the probe did not see more than this share of the server's own request time. */
    public static final double UNEXPLAINED_SERVER_PCT = 20;

    /**
     * The share of the server's own request time (time_server_pct) the probe did not see, in %; NaN for a row without
     * the server's own time (no thread dumps, or written before they counted it).
     */
    public static double unexplainedPct(DataRow row) {
        return unexplainedPct(row.num(Cause.OTHER.column()), row.num(Columns.TIME_SERVER));
    }

    /** What the probe missed of the server's own time, in %, from the shares of the client's (NaN: the server's not known). */
    public static double unexplainedPct(double otherPct, double serverPct) {
        return serverPct > 0 && !Double.isNaN(otherPct) ? 100 * otherPct / serverPct : Double.NaN;
    }

    /** Whether the probe missed too much of the server's own time to name a bottleneck ({@link #UNEXPLAINED_SERVER_PCT}). */
    public static boolean unexplained(double otherPct, double serverPct) {
        return unexplainedPct(otherPct, serverPct) > UNEXPLAINED_SERVER_PCT;
    }

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

    /** Whether the row tells the request's own work from the queues (rows written before the split do not). */
    public static boolean split(DataRow row) {
        return !Double.isNaN(row.num(Columns.TIME_OWN));
    }

    /** The row's bottleneck: the largest material queue; null when it was working, not waiting, or before the split. */
    public static Cause bottleneck(DataRow row) {
        return Cause.of(row.text(Columns.TIME_QUEUE));
    }

    /**
     * The cause a verdict acts on: the bottleneck; when the service was working, not waiting, its largest own work
     * (the floor: a CPU spent in work a request does not need has a lever too); a row before the split, its largest share.
     */
    public static Cause cause(DataRow row) {
        Cause top = Cause.of(row.text(Columns.TIME_TOP));
        if (!split(row) || top == null) return top;
        if (unexplained(row.num(Cause.OTHER.column()), row.num(Columns.TIME_SERVER))) return Cause.OTHER; // what the probe missed could be larger than what it names
        Cause queue = bottleneck(row);
        if (queue != null) return queue;
        Cause own = null;
        for (Map.Entry<Cause, Double> e : shares(row).entrySet()) {
            if (e.getKey().kind == Kind.OWN && (own == null || e.getValue() > row.num(own.column()))) own = e.getKey();
        }
        return own == null ? top : own;
    }

    /** What {@link #cause}'s cause waited on or worked in: the bottleneck's evidence, or the largest share's. */
    public static String evidence(DataRow row) {
        if (!split(row)) return row.text(Columns.TIME_EVIDENCE);
        Cause c = cause(row);
        if (c != null && c == bottleneck(row) && !row.text(Columns.TIME_QUEUE_EVIDENCE).isBlank()) return row.text(Columns.TIME_QUEUE_EVIDENCE);
        return c != null && c.key.equals(row.text(Columns.TIME_TOP)) ? row.text(Columns.TIME_EVIDENCE) : "";
    }

    /** The request's own work in words, largest first: "sleeping (Thread.sleep, or a park to its own timeout) 50%, on CPU 3%". */
    static String ownParts(DataRow row) {
        List<String> parts = new ArrayList<>();
        shares(row).entrySet().stream().filter(e -> e.getKey().kind == Kind.OWN && e.getValue() >= 1)
                .sorted(Map.Entry.<Cause, Double>comparingByValue().reversed()).limit(3)
                .forEach(e -> parts.add(String.format(Locale.ROOT, "%s %.0f%%", e.getKey().label, e.getValue())));
        return String.join(", ", parts);
    }

    /**
     * "bottleneck: 49% of request time waiting for a free request thread (400 connections on 200 request threads ...);
     * the request's own work 50% (sleeping 50%): its floor", or "working, not waiting: 95% of request time the
     * request's own work (on CPU 60%, ...); no queue of 10% or more"; null without a breakdown. A row written before
     * the split: its largest share, as it was said then.
     */
    public static String line(DataRow row) {
        Cause top = Cause.of(row.text(Columns.TIME_TOP));
        if (top == null) return null;
        if (!split(row)) return legacyLine(row, top);
        Cause queue = bottleneck(row);
        double own = row.num(Columns.TIME_OWN), unseen = row.num(Cause.OTHER.column());
        String ownWork = ownParts(row);
        String s;
        double unexplained = unexplainedPct(row);
        if (unexplained > UNEXPLAINED_SERVER_PCT) {
            // one account: what the probe did not see is inside the server, and too large to name a bottleneck beside it
            Cause seen = shares(row).entrySet().stream().filter(e -> e.getKey() != Cause.OTHER)
                    .max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
            s = String.format(Locale.ROOT, "no bottleneck named: %.0f%% of the server's own request time (%.0f%% of the client's) was not seen by the probe"
                    + " (short waits under its threshold, or a wait no JFR event or thread dump shows)", unexplained, unseen);
            if (seen != null) s += String.format(Locale.ROOT, "; the largest it saw: %.0f%% %s", row.num(seen.column()), seen.label);
            return s;
        }
        if (queue != null) {
            Cause next = null; // a second queue worth naming
            for (Map.Entry<Cause, Double> e : shares(row).entrySet()) {
                if (e.getKey() != queue && e.getKey().queue() && e.getValue() >= MATERIAL_QUEUE_PCT && (next == null || e.getValue() > row.num(next.column()))) next = e.getKey();
            }
            // one queue is the bottleneck when it dominates the others (half the request time, or twice the next queue);
            // queues of like size are said as such (a lock's park and the run queue)
            double q = row.num(queue.column());
            boolean dominates = next == null || q >= 50 || q >= 2 * row.num(next.column());
            s = String.format(Locale.ROOT, dominates ? "bottleneck: %.0f%% of request time %s" : "no single cause dominates: the largest queue %.0f%% of request time %s",
                    q, queue.label);
            String ev = row.text(Columns.TIME_QUEUE_EVIDENCE);
            if (!ev.isBlank()) s += " (" + ev + ")";
            if (next != null) s += String.format(Locale.ROOT, ", then %.0f%% %s", row.num(next.column()), next.label);
            if (own >= 1) s += String.format(Locale.ROOT, "; the request's own work %.0f%% (%s): its floor, not a bottleneck", own, ownWork);
        } else {
            s = String.format(Locale.ROOT, "working, not waiting: %.0f%% of request time the request's own work%s; no queue of %.0f%% or more",
                    own, ownWork.isEmpty() ? "" : " (" + ownWork + ")", MATERIAL_QUEUE_PCT);
            String ev = row.text(Columns.TIME_EVIDENCE);
            if (top.kind == Kind.OWN && !ev.isBlank()) s += " (" + top.label + ": " + ev + ")";
        }
        if (unseen >= 10) s += String.format(Locale.ROOT, "; %.0f%% not seen by the probe", unseen);
        // the CPU is the wall (queued for it, or all the work is on it): whose work it was, and what a request does not need
        Cause c = cause(row);
        if (c == Cause.RUNQUEUE || c == Cause.CPU) {
            String owners = cpuOwners(row);
            if (!owners.isEmpty()) s += "; " + owners;
        }
        return s;
    }

    /**
     * "the CPU's owners (139 execution samples): the JDBC driver, pool or ORM 42% (95% CI 34–50%), ...; writing logs or
     * the console 12% (7–19%) is work a request does not need", from time_cpu_owners and time_cpu_samples; each share
     * with its Wilson interval (a share of samples is a binomial proportion); "" without samples.
     */
    public static String cpuOwners(DataRow row) {
        double n = row.num(Columns.TIME_CPU_SAMPLES);
        if (row.text(Columns.TIME_CPU_OWNERS).isBlank() || !(n > 0)) return "";
        List<String> parts = new ArrayList<>(), overhead = new ArrayList<>();
        for (Map.Entry<String, Double> o : ownerShares(row).entrySet()) {
            String label = o.getKey();
            double pct = o.getValue();
            double[] ci = vtlab.data.judge.Shares.wilson(pct / 100, n);
            String part = String.format(Locale.ROOT, "%s %.0f%% (95%% CI %.0f–%.0f%%)", label, pct, 100 * ci[0], 100 * ci[1]);
            if (OVERHEAD.contains(label)) overhead.add(part);
            else if (parts.size() < 3) parts.add(part);
        }
        String s = String.format(Locale.ROOT, "the CPU's owners (%,.0f execution samples): %s", n, String.join(", ", parts));
        if (!overhead.isEmpty()) s += "; work a request does not need: " + String.join(", ", overhead);
        return s;
    }

    /** time_cpu_owners read back: each owner's share of the samples in %, largest first as the probe writes them. */
    public static Map<String, Double> ownerShares(DataRow row) {
        Map<String, Double> out = new java.util.LinkedHashMap<>();
        for (String o : row.text(Columns.TIME_CPU_OWNERS).split(";")) {
            String owner = o.strip();
            int sp = owner.lastIndexOf(' ');
            if (sp < 0 || !owner.endsWith("%")) continue;
            try {
                out.put(owner.substring(0, sp), Double.parseDouble(owner.substring(sp + 1, owner.length() - 1)));
            } catch (NumberFormatException e) {
                // not a share: left out
            }
        }
        return out;
    }

    /** The line of a row written before own work and queues were told apart: its largest share. */
    static String legacyLine(DataRow row, Cause top) {
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
     * The closed model's own bound on a row: its connections over the request's own work (its floor), "400 connections ÷
     * 50.1 ms = 7,984 req/s, 2.0× the row's: ...": no thread model passes it; a row at it
     * (own work 80% of its latency or more) cannot show the thread model. Null in the open model or without a floor.
     */
    public static String loadBound(DataRow row) {
        if (row.open() || !split(row)) return null;
        // the shares are the profiled hold's: its own throughput gives the latency they split (Little's law, closed
        // model: connections ÷ throughput), so the floor and the bound come from one window
        double conc = row.num(Columns.CONCURRENCY), own = row.num(Columns.TIME_OWN), profiled = row.num(Columns.PROFILED_RPS);
        double rps = profiled > 0 ? profiled : row.num(Columns.RPS);
        if (!(conc > 0) || !(own > 0) || !(rps > 0)) return null;
        double floorMs = 1000 * conc / rps * own / 100, bound = conc * 1000 / floorMs;
        String s = String.format(Locale.ROOT, "%,.0f connections ÷ %.1f ms = %,.0f req/s", conc, floorMs, bound);
        if (own >= AT_THE_BOUND_PCT) {
            return s + String.format(Locale.ROOT, ", and the row ran at %.0f%% of it%s: the load, not the thread model, sets its throughput"
                    + " (a higher --conc is needed to see the thread model)", 100 * rps / bound, profiled > 0 ? " in its profiled hold" : "");
        }
        return s + String.format(Locale.ROOT, ", %.1f× the row's%s: what taking the queues away could give at most", bound / rps,
                profiled > 0 ? " in its profiled hold" : "");
    }

    /** A closed-model row whose own work is this much of its latency sits at the load's bound (connections ÷ floor). */
    static final double AT_THE_BOUND_PCT = 80;

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
        List<String> moves = new ArrayList<>();
        boolean split = true;
        for (Map.Entry<String, DataRow> c : configs) {
            String line = line(c.getValue());
            if (line == null) continue;
            parts.add(c.getKey() + ": " + line);
            DataRow r = c.getValue();
            split &= split(r);
            String name = c.getKey().replaceFirst(" \\(row \\d+\\)$", "");
            Cause b = split(r) ? bottleneck(r) : Cause.of(r.text(Columns.TIME_TOP));
            moves.add(name + " " + (b == null ? "none (working, not waiting)" : b.label));
        }
        if (parts.isEmpty()) return null;
        String s = String.join("; ", parts);
        if (moves.size() > 1) {
            String what = split ? "bottleneck" : "largest cause";
            boolean same = configs.stream().filter(c -> has(c.getValue())).map(c -> split(c.getValue()) ? c.getValue().text(Columns.TIME_QUEUE)
                    : c.getValue().text(Columns.TIME_TOP)).distinct().count() == 1;
            s += same ? ". The " + what + " stayed the same" : ". The " + what + " moved: " + String.join(" → ", moves);
        }
        return s;
    }

    /**
     * The peak gauges of a row as evidence under its bottleneck: the pool's waiters (HikariCP's MBeans) and a full CPU
     * (the app-cpu-bound flag); where a gauge points elsewhere than the time breakdown, both numbers, said so. Empty
     * when no gauge fired or the row has no split breakdown (the verdict's own bottleneck lines speak for those).
     */
    public static String gauges(String config, DataRow row) {
        if (!split(row)) return "";
        List<String> out = new ArrayList<>();
        Cause b = bottleneck(row);
        double pending = row.num(Columns.HIKARI_PENDING_MAX), active = row.num(Columns.HIKARI_ACTIVE_MAX);
        if (pending > 0) {
            String peak = String.format(Locale.ROOT, "up to %,.0f requests waited for one of %,.0f busy pooled connections at the pool's peak", pending, active);
            out.add(b == Cause.POOL_WAIT ? peak + " (the bottleneck's evidence)"
                    : String.format(Locale.ROOT, "%s, yet waiting for a connection was %.0f%% of request time: a peak, not the bottleneck", peak,
                    Math.max(0, row.num(Cause.POOL_WAIT.column()))));
        }
        if (row.flags().contains("app-cpu-bound")) {
            double cpu = row.num(Columns.APP_CPU);
            String full = String.format(Locale.ROOT, "the SUT's CPU full (%.0f%% app CPU)", cpu);
            out.add(b == Cause.RUNQUEUE ? full + " (the bottleneck's evidence)"
                    : String.format(Locale.ROOT, "%s, yet waiting to run was %.0f%% of request time", full, Math.max(0, row.num(Cause.RUNQUEUE.column()))));
        }
        return out.isEmpty() ? "" : config + ": " + String.join(", ", out);
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
            // the peak gauges are evidence under the cause, not verdicts of their own; and the load's own bound
            String gauges = configs.entrySet().stream().map(e -> gauges(e.getKey(), e.getValue())).filter(g -> !g.isEmpty())
                    .collect(java.util.stream.Collectors.joining("; "));
            String bounds = configs.entrySet().stream().map(e -> {
                String b = loadBound(e.getValue());
                return b == null ? "" : e.getKey() + ": " + b;
            }).filter(b -> !b.isEmpty()).collect(java.util.stream.Collectors.joining("; "));
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
                    + (gauges.isEmpty() ? "" : ". The gauges: " + gauges)
                    + (bounds.isEmpty() ? "" : ". The load's own bound (connections ÷ the request's own work): " + bounds)
                    + (pinned.isEmpty() ? "" : " (" + pinned + ": see pinning)")
                    + (tails.isEmpty() ? "" : ". Why the tail is slow, " + tails)
                    + (cost.isEmpty() ? "" : " [explained from a profiled hold after each measured one, never during it; what profiling cost there: " + cost + "]"),
                    configs.values()));
        });
        return out;
    }
}
