package vtlab.experiment.spring;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.plan.FaultAxis;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.Params;
import vtlab.stack.Settings;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.tool.Jdk;

/**
 * What breaks on a bad day (issue 22): the Spring rig's order-summary (a PostgreSQL lookup through HikariCP, then a
 * call to the stub) at a constant open-model rate both modes sustain, while a dependency fails within the hold: the
 * stub slowing from 100 ms to 2 s, the stub down, the database stalled by a lock. Three modes: the 200-thread pool
 * (an implicit bulkhead: it caps work in flight), virtual threads (no cap: work piles up in the server), and virtual
 * threads with a concurrency limit in front of the handler (stack.json concurrencyLimit: does it give back what the
 * pool gave for free?). Every second is kept (series.jsonl) and each row's fault_verdict says what the fault did and
 * how long p99 took to come back.
 */
public final class FaultsExperiment implements SpringRig.OrderQueries {
    static final List<String> MODES = List.of(Threads.PLATFORM.word, Threads.VIRTUAL.word, "virtual-limit");
    static final String LIMITED = "virtual-limit";
    /** 100 ms -> 2 s: the stub's own 100 ms plus 1.9 s on every answer. */
    static final List<String> DEFAULT_FAULTS = List.of("stub:latency=1900ms@10s-30s", "stub:down@10s-20s", "db:lock@10s-15s");

    /**
     * The generator's in-flight cap unless --max-in-flight says otherwise: above what the worst default fault piles up
     * at 200 req/s (the pool serving 100 req/s through a 2 s stub for 20 s: about 2,200), all of it readied before the
     * hold (vegeta: 4,000 workers; k6: 4,000 VUs, about 0.5 GB), so a burst never waits for the generator.
     */
    static final int CAP = 4000;
    static final Opt MODES_OPT = Opt.of("modes", String.join(",", MODES),
            "platform (Tomcat's 200 threads), virtual, virtual-limit (virtual + --limit requests at once, the rest 503)").withChoices(MODES);
    static final Opt RATE = Opt.of("rate", "200", "the constant open-model rate, req/s: one both modes sustain with a healthy stub");
    static final Opt LIMIT = Opt.of("limit", "200", "virtual-limit: requests in the handler at once (stack.json concurrencyLimit); 200 = Tomcat's pool");
    static final String DEFAULT_SPIKE = "200@0s,1000@10s,200@20s";
    static final int HOLD_S = 60;
    /**
     * --quick's hold: a smoke run still shows each fault between a before and an after. The default schedules are
     * scaled into it (x0.4: every fault from 4 s, the slow stub until 12 s, 12 s left to recover, whose rule needs 3 s
     * back): a 4 s baseline for p99 before, the fault, and room after it on a slow machine.
     */
    static final int QUICK_HOLD_S = 24;
    static final double QUICK_SCALE = (double) QUICK_HOLD_S / HOLD_S;
    static final Opt FAULTS = Opt.of("fault", String.join(",", DEFAULT_FAULTS), FaultAxis.FAULT.help()
            + "\nthe defaults' times x" + QUICK_SCALE + " into --quick's " + QUICK_HOLD_S + "s hold")
            .quick(FaultAxis.scaled(String.join(",", DEFAULT_FAULTS), QUICK_SCALE));
    static final Opt SPIKE = Opt.of("spike", DEFAULT_SPIKE,
            "a traffic spike row per mode (an open-model rate profile, vegeta; none: no spike row), judged as a fault:\n"
                    + "p99 before, during and after the rise, and the recovery; scaled as --fault under --quick")
            .quick(vtlab.plan.RateProfile.parse(DEFAULT_SPIKE).scaled(QUICK_SCALE).spec());
    static final Opt SOAK = Opt.of("soak", "none", "a long row per mode at --rate without a fault (e.g. 30m): the heap after each GC\n"
            + "over the hold and its slope (a leak or a backlog that grows), p99 over time");
    static final List<Opt> TIMING = PlanContext.timingOptions("15s", HOLD_S + "s", 1, "faults are timed from the hold's start; --quick keeps a hold of its own, long enough\n"
            + "for a fault between a before and an after, the default --fault and --spike scaled into it", QUICK_HOLD_S + "s");

    @Override
    public String name() {
        return "faults";
    }

    @Override
    public String summary() {
        return "Spring rig under faults (stub slow, stub down, database locked) at a constant rate: platform vs virtual vs virtual with a limit";
    }

    @Override
    public List<Opt> options() {
        return options(List.of(MODES_OPT, RATE, LIMIT, FAULTS, SPIKE, SOAK), TIMING);
    }

    /** An experiment's own options, then --reseed (the rig's PostgreSQL) and its timing. */
    static List<Opt> options(List<Opt> own, List<Opt> timing) {
        List<Opt> all = new ArrayList<>(own);
        all.add(Opt.of("reseed", null, "rebuilds the PostgreSQL seed"));
        all.addAll(timing);
        return all;
    }

    /**
     * vegeta: its per-request results tell timeouts, refusals, resets and status errors apart, second by second, and
     * it sends the spike row's rate profile (k6, opt-in, does both too: --generator k6).
     */
    @Override
    public String generator() {
        return "vegeta";
    }

    @Override
    public List<String> faults(Options o) throws UsageError {
        return schedules(FAULTS, o);
    }

    /** An experiment's --fault: not given, its defaults (--quick: scaled into its hold); given, as given, checked against the hold. */
    static List<String> schedules(Opt faults, Options o) throws UsageError {
        return FaultAxis.parse(faults.given(o) ? o : o.withDefaults(Map.of(faults.name(), faults.string(o))));
    }

    @Override
    public List<String> probes(List<String> runProbes) {
        return vtlab.plan.Experiment.withProbes(runProbes, "jvm", "hikari");
    }

    /** Each fault from a fresh, warmed JVM: a heap or a backlog the previous fault left must not be this one's peak. */
    @Override
    public boolean freshSutPerRow() {
        return true;
    }

    @Override
    public boolean readsOpenRows() {
        return true;
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        Stack stack = Stack.load(SpringRig.STACK);
        List<String> modes = MODES_OPT.chosen(o);
        double rate = rate(RATE, o);
        int limit = limit(o);
        PlanContext.Timing t = ctx.timing(o, TIMING);
        int cap = PlanContext.MAX_IN_FLIGHT.given(o) ? ctx.maxInFlight() : CAP;
        vtlab.plan.RateProfile spike;
        try {
            spike = SPIKE.string(o).equals("none") ? null : vtlab.plan.RateProfile.parse(SPIKE.string(o));
        } catch (IllegalArgumentException e) {
            throw new UsageError("--spike: " + e.getMessage());
        }
        java.time.Duration soak = SOAK.string(o).equals("none") ? null : SOAK.duration(o, false);
        List<Row> rows = new ArrayList<>();
        for (Jdk jdk : ctx.jdks())
            for (String mode : modes) {
                for (int rep = 1; rep <= t.reps(); rep++) {
                    Row base = modeRow(name(), stack, jdk, mode, limit, cap, rep, t, SpringRig.jvmArgs(o, ctx));
                    rows.add(base.atRate(rate));
                    if (soak != null) {
                        Params params = base.params().with(vtlab.tier.fault.Fault.PARAM, vtlab.tier.fault.Fault.NONE)
                                .with(SOAK_PARAM, SOAK.string(o));
                        rows.add(base.as(name(), params).withHold(soak).atRate(rate));
                    }
                    if (spike != null) {
                        try {
                            rows.add(base.atProfile(spike));
                        } catch (IllegalArgumentException e) {
                            throw new UsageError("--spike: " + e.getMessage());
                        }
                    }
                }
            }
        return rows;
    }

    /** --rate: a positive number of requests per second, or refused in one line. */
    static double rate(Opt opt, Options o) throws UsageError {
        double rate;
        try {
            rate = Double.parseDouble(opt.string(o));
        } catch (NumberFormatException e) {
            throw new UsageError("--rate takes requests per second, not '" + opt.string(o) + "'");
        }
        if (!(rate > 0) || Double.isInfinite(rate)) throw new UsageError("--rate must be positive, not '" + opt.string(o) + "'");
        return rate;
    }

    /** --limit: virtual-limit's requests at once, at least 1. */
    static int limit(Options o) throws UsageError {
        int limit = LIMIT.integer(o);
        if (limit < 1) throw new UsageError("--limit must be at least 1, not " + limit);
        return limit;
    }

    /**
     * The order-summary row of a mode (platform, virtual, virtual-limit) at the in-flight cap, closed until its rate is
     * given; virtual-limit rows keep the SUT's thread mode (virtual) in everything but their label.
     */
    static Row modeRow(String experiment, Stack stack, Jdk jdk, String mode, int limit, int cap, int rep, PlanContext.Timing t,
                       List<String> jvmArgs) throws UsageError {
        SpringRig.Sut s = SpringRig.Sut.defaults(stack, mode.equals(LIMITED) ? Threads.VIRTUAL.word : mode);
        Settings extra = Settings.NONE.with("concurrencyLimit", mode.equals(LIMITED) ? Integer.toString(limit) : "0");
        return SpringRig.row(experiment, stack, jdk, s, "order-summary", cap, rep, true,
                mode.equals(LIMITED) ? Params.NONE.with("limit", Integer.toString(limit)) : Params.NONE,
                SpringRig.orderSummaryBound(s, cap), SpringRig.orderSummaryBoundNote(s, cap), t, jvmArgs, extra).withThreadMode(mode);
    }

    /** Each line with the rows it stands on. */
    @Override
    public List<Finding> findings(java.nio.file.Path runDir, List<DataRow> rows) {
        return findingsOf(rows);
    }

    /** A line per fault and mode from its verdict, then how the modes compare under each fault. */
    static List<Finding> findingsOf(List<DataRow> rows) {
        List<Finding> out = new ArrayList<>();
        Map<String, List<DataRow>> byFault = new LinkedHashMap<>();
        for (DataRow r : rows) {
            // a baseline row (--fault none, a soak's) has no fault to judge: the soak's line below, or nothing. Its
            // fault column is empty in matrix.csv (only a row with a fault gets one), "none" where a row says so
            String fault = r.text(Columns.FAULT);
            if (r.failed() || fault.isEmpty() || vtlab.tier.fault.Fault.NONE.equals(fault)) continue;
            byFault.computeIfAbsent(fault, k -> new ArrayList<>()).add(r);
        }
        boolean soaked = rows.stream().anyMatch(r -> !r.failed() && r.param(SOAK_PARAM) != null);
        if (byFault.isEmpty() && !soaked) {
            out.add(Finding.of("no fault row finished: nothing to conclude"));
            return out;
        }
        for (var e : byFault.entrySet()) {
            for (DataRow r : e.getValue()) {
                String flags = r.flagged() ? " [flagged: " + String.join(", ", r.flags()) + "]" : "";
                out.add(Finding.of(r.mode() + ": " + r.text(Columns.FAULT_VERDICT) + flags, List.of(r)));
            }
            compare(e.getKey(), e.getValue()).ifPresent(out::add);
        }
        for (DataRow r : rows) {
            if (r.failed() || r.param(SOAK_PARAM) == null) continue;
            out.add(Finding.of(String.format(Locale.ROOT, "soak %s, %s: heap after GC %s MB at the end, trend %s MB/min over the hold; p99 %s ms, %s req/s",
                    r.param(SOAK_PARAM), r.mode(), val(r, Columns.HEAP_AFTER_GC), slope(r), val(r, Columns.P99), val(r, Columns.RPS)), List.of(r)));
        }
        List<DataRow> failed = rows.stream().filter(DataRow::failed).toList();
        if (!failed.isEmpty()) out.add(Finding.of(failed.size() + " row(s) failed and are left out", failed));
        return out;
    }

    /** The params key of a soak row. */
    static final String SOAK_PARAM = "soak";

    /** Under one fault: virtual against the pool, and whether the limit gives back what the pool gave. */
    static java.util.Optional<Finding> compare(String fault, List<DataRow> rows) {
        Map<String, DataRow> by = new LinkedHashMap<>();
        rows.forEach(r -> by.putIfAbsent(r.mode(), r));
        DataRow p = by.get(Threads.PLATFORM.word), v = by.get(Threads.VIRTUAL.word), l = by.get(LIMITED);
        if (p == null || v == null) return java.util.Optional.empty();
        StringBuilder sb = new StringBuilder(fault + ": ");
        sb.append(String.format(Locale.ROOT, "without a limit, virtual threads took %s requests in flight and %s MB of heap (platform-200: %s, %s MB)",
                val(v, Columns.PEAK_IN_FLIGHT), val(v, Columns.PEAK_HEAP), val(p, Columns.PEAK_IN_FLIGHT), val(p, Columns.PEAK_HEAP)));
        sb.append(String.format(Locale.ROOT, "; failed from the fault on: platform %s%%, virtual %s%%", val(p, Columns.FAULT_SHED_PCT), val(v, Columns.FAULT_SHED_PCT)));
        sb.append("; recovery: platform ").append(recovery(p)).append(", virtual ").append(recovery(v));
        List<DataRow> evidence = new ArrayList<>(List.of(p, v));
        if (l != null) {
            sb.append(String.format(Locale.ROOT, "; with the limit: %s in flight, %s MB, %s%% failed, recovery %s", val(l, Columns.PEAK_IN_FLIGHT),
                    val(l, Columns.PEAK_HEAP), val(l, Columns.FAULT_SHED_PCT), recovery(l)));
            evidence.add(l);
        }
        return java.util.Optional.of(Finding.of(sb.toString(), evidence));
    }

    private static String slope(DataRow r) {
        String s = r.text(Columns.HEAP_AFTER_GC_SLOPE);
        return s.isEmpty() ? "n/a (under 3 GC pauses)" : String.format(Locale.ROOT, "%+.2f", Double.parseDouble(s));
    }

    private static String recovery(DataRow r) {
        String s = r.text(Columns.RECOVERY_S);
        return s.isEmpty() ? "not within the hold" : s + " s";
    }

    private static String val(DataRow r, Column col) {
        String s = r.text(col);
        if (s.isEmpty()) return "n/a";
        double d = r.num(col);
        return Double.isNaN(d) ? s : String.format(Locale.ROOT, "%,.0f", d);
    }
}
