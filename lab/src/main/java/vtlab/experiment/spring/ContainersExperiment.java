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
import vtlab.plan.LimitAxis;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.proc.ContainerLimits;
import vtlab.stack.Stack;
import vtlab.tier.tool.Jdk;

/**
 * Containers as Kubernetes sets them (issue 33): the Spring rig's order-summary at a constant open-model rate, its SUT in
 * a cgroup with a CPU quota and a memory limit (docs/containers.md), platform vs virtual vs virtual with a concurrency
 * limit, across quotas and memory limits, healthy and with the database locked within the hold (the faults
 * experiment's {@code db:lock}). The JVM sizes itself from the limits as in a pod (no -Xmx, no carrier count unless
 * --jvm-args or --carriers), and each row says what it saw (the container probe) and what the limits did: throttled
 * periods and time, memory against the limit, and, when the OOM killer ends the SUT, a row failed as "killed by the
 * memory limit" with what it held then.
 */
public final class ContainersExperiment implements SpringRig.OrderQueries {
    static final String LIMITED = FaultsExperiment.LIMITED;
    static final String LOCK = "db:lock@10s-15s";
    static final int HOLD_S = 40, QUICK_HOLD_S = 16;
    static final Opt MODES_OPT = FaultsExperiment.MODES_OPT;
    static final Opt RATE = Opt.of("rate", "150", "the constant open-model rate, req/s: one a 0.5 CPU quota still serves when healthy");
    static final Opt LIMIT = FaultsExperiment.LIMIT;
    static final Opt CPU_QUOTA = LimitAxis.CPU_QUOTA.withDefault("0.5,1").quick("0.5");
    static final Opt MEMORY_LIMIT = LimitAxis.MEMORY_LIMIT.withDefault("256m,512m,1g").quick("256m,1g");
    static final Opt FAULTS = Opt.of("fault", "none," + LOCK, FaultAxis.FAULT.help() + "\nhealthy (none) and the database locked for 5 s; times x"
            + ((double) QUICK_HOLD_S / HOLD_S) + " under --quick").quick(FaultAxis.scaled("none," + LOCK, (double) QUICK_HOLD_S / HOLD_S));
    static final List<Opt> TIMING = PlanContext.timingOptions("15s", HOLD_S + "s", 1,
            "the lock is timed from the hold's start; --quick keeps a hold of its own with the lock scaled into it", QUICK_HOLD_S + "s");
    /** The generator's in-flight cap: what a 5 s lock piles up at the default rate, with room (vegeta and k6 ready them all). */
    static final int CAP = 2000;

    @Override
    public String name() {
        return "containers";
    }

    @Override
    public String summary() {
        return "Spring rig in a container (CPU quota, memory limit, sized by the JVM itself), healthy and with the database locked: platform vs virtual vs virtual with a limit";
    }

    @Override
    public List<Opt> options() {
        return FaultsExperiment.options(List.of(MODES_OPT, RATE, LIMIT, CPU_QUOTA, MEMORY_LIMIT, FAULTS), TIMING);
    }

    /** vegeta, as the faults experiment's: errors by kind per second (k6, opt-in: --generator k6). */
    @Override
    public String generator() {
        return "vegeta";
    }

    @Override
    public List<String> faults(Options o) throws UsageError {
        return FaultsExperiment.schedules(FAULTS, o);
    }

    @Override
    public List<String> probes(List<String> runProbes) {
        return vtlab.plan.Experiment.withProbes(runProbes, "jvm", "hikari", vtlab.probe.ContainerProbe.NAME);
    }

    /** Each row from a fresh JVM in a fresh cgroup: one row's heap, throttling or failcnt must not be the next's. */
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
        double rate = FaultsExperiment.rate(RATE, o);
        int limit = FaultsExperiment.limit(o);
        List<ContainerLimits> limits = LimitAxis.parse(o, CPU_QUOTA, MEMORY_LIMIT);
        PlanContext.Timing t = ctx.timing(o, TIMING);
        int cap = PlanContext.MAX_IN_FLIGHT.given(o) ? ctx.maxInFlight() : CAP;
        List<Row> rows = new ArrayList<>();
        for (Jdk jdk : ctx.jdks())
            for (ContainerLimits l : limits)
                for (String mode : modes)
                    for (int rep = 1; rep <= t.reps(); rep++) {
                        Row r = FaultsExperiment.modeRow(name(), stack, jdk, mode, limit, cap, rep, t, SpringRig.jvmArgs(o, ctx));
                        rows.add(LimitAxis.contained(r, l, o).atRate(rate));
                    }
        return rows;
    }

    /** Each line with the rows it stands on. */
    @Override
    public List<Finding> findings(java.nio.file.Path runDir, List<DataRow> rows) {
        return findingsOf(rows);
    }

    /**
     * In words: what each container's JVM made of its limits; where throttling sets the tail (healthy p99 against the
     * share of periods throttled, per quota); where the JVM's own sizing hurts (its heap from the limit, and rows that
     * failed under it); which mode the memory limit killed first, and at how many requests in flight.
     */
    static List<Finding> findingsOf(List<DataRow> rows) {
        List<Finding> out = new ArrayList<>();
        Map<String, DataRow> saw = new LinkedHashMap<>();
        for (DataRow r : rows) {
            if (r.failed() || r.text(Columns.JVM_PROCESSORS).isEmpty()) continue;
            saw.putIfAbsent(limits(r), r);
        }
        saw.forEach((l, r) -> out.add(Finding.of(String.format(Locale.ROOT, "%s: the JVM saw %s CPU(s), ran %s carrier(s), chose %s GC with %s thread(s) and a %s MB max heap",
                l, r.text(Columns.JVM_PROCESSORS), or(r, Columns.JVM_VT_PARALLELISM), or(r, Columns.JVM_GC), or(r, Columns.JVM_GC_THREADS),
                or(r, Columns.JVM_MAX_HEAP)), List.of(r))));
        for (DataRow r : rows) {
            if (r.failed() || !"none".equals(fault(r))) continue;
            out.add(Finding.of(String.format(Locale.ROOT, "healthy, %s, %s: p99 %s ms, %s%% of CFS periods throttled (%s ms throttled in the hold), memory peak %s of %s MB, failcnt %s",
                    limits(r), r.mode(), num(r, Columns.P99), or(r, Columns.CG_THROTTLED_PCT), num(r, Columns.CG_THROTTLED_MS),
                    num(r, Columns.CG_MEMORY_MAX), or(r, Columns.CG_MEMORY_LIMIT), or(r, Columns.CG_MEMORY_FAILCNT)), List.of(r)));
        }
        for (DataRow r : rows) {
            if (r.failed() || fault(r) == null || "none".equals(fault(r))) continue;
            out.add(Finding.of(String.format(Locale.ROOT, "database locked, %s, %s: %s; %s requests in flight at most; %s%% of periods throttled",
                    limits(r), r.mode(), or(r, Columns.FAULT_VERDICT), or(r, Columns.SUT_IN_FLIGHT_MAX), or(r, Columns.CG_THROTTLED_PCT)), List.of(r)));
        }
        List<DataRow> killed = rows.stream().filter(r -> r.failed() && r.text(Columns.NOTE).contains("killed by the memory limit")).toList();
        for (DataRow r : killed) {
            out.add(Finding.of("killed: " + limits(r) + ", " + r.mode() + ", fault " + fault(r) + ": " + r.text(Columns.NOTE), List.of(r)));
        }
        if (killed.isEmpty()) out.add(Finding.of("no row was killed by its memory limit"));
        List<DataRow> otherFailed = rows.stream().filter(r -> r.failed() && !killed.contains(r)).toList();
        if (!otherFailed.isEmpty()) out.add(Finding.of(otherFailed.size() + " row(s) failed otherwise and are left out (see their notes)", otherFailed));
        return out;
    }

    /** The row's fault schedule (its param: "none" for a healthy row), or null. */
    private static String fault(DataRow r) {
        return r.param(vtlab.tier.fault.Fault.PARAM);
    }

    private static String limits(DataRow r) {
        return "cpu " + r.param(Row.CPU_QUOTA_PARAM) + ", memory " + r.param(Row.MEMORY_LIMIT_PARAM);
    }

    private static String or(DataRow r, Column col) {
        String s = r.text(col);
        return s.isEmpty() ? "n/a" : s;
    }

    private static String num(DataRow r, Column col) {
        String s = r.text(col);
        if (s.isEmpty()) return "n/a";
        double d = r.num(col);
        return Double.isNaN(d) ? s : String.format(Locale.ROOT, "%,.0f", d);
    }
}
