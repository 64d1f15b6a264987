package vtlab.experiment.servlet;

import java.time.Duration;
import java.util.List;

import vtlab.core.UsageError;
import vtlab.plan.Bounds;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.Params;
import vtlab.stack.Settings;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode;
import vtlab.tier.tool.Jdk;

/**
 * Rows of the servlet stack, for every experiment on it (servlet, footprint, probe-cost, servlet-io, response-size):
 * the Tomcat settings come from stacks/servlet/stack.json's defaults unless an experiment sets an axis, so no
 * experiment can run Tomcat with a configuration the others do not (servlet-io once ran processorCache 200).
 */
final class ServletRig {
    static final String STACK = "servlet";

    private ServletRig() {}

    /**
     * One row. The bound holds only for a fixed wait (the workload's serviceMs): blocking requests are capped by the
     * pool in platform mode; an async request (call-async) holds no thread while it waits, so only the connections
     * cap it.
     *
     * @param modeName a --modes value: a thread mode or a declared variant of one (ThreadModes, e.g. virtual-as-shipped)
     * @param tomcat   axis values of stack settings (e.g. maxThreads), the stack's defaults (or the variant's) for the rest
     */
    static Row row(String experiment, Stack stack, String modeName, String workload, int c, int rep, Jdk jdk,
                   Params params, Settings tomcat, Duration warmup, Duration hold, PlanContext ctx)
            throws UsageError {
        vtlab.experiment.ThreadModes.Variant variant = vtlab.experiment.ThreadModes.variant(modeName);
        String mode = variant.threadMode();
        Stack.Config cfg = stack.configure(mode, workload, variant.settings(stack, tomcat), jdk.major());
        int maxThreads = cfg.intValue("maxThreads"), maxConnections = cfg.intValue(stack.role(Stack.CONNECTION_CAP));
        if (cfg.intValue("minSpareThreads") > maxThreads) {
            throw new UsageError("--min-spare-threads " + cfg.intValue("minSpareThreads") + " exceeds --max-threads " + maxThreads);
        }
        // what bounds the mode's requests, as stack.json declares it (a pool of maxThreads, or none)
        ThreadMode.RequestBound declared = stack.threadMode(mode).bound(cfg.values());
        Params p = declared.cap() != null ? params.with("maxThreads", Integer.toString(declared.cap())) : params;
        // a cache off the variant's own default is part of the scenario (the summary must not pool it with the default's rows)
        if (!cfg.values().get("processorCache").equals(variant.baseline(stack, "processorCache"))) {
            p = p.with("processorCache", cfg.values().get("processorCache"));
        }
        p = p.merge(variant.params());
        boolean async = workload.equals("call-async");
        Double waitMs = stack.workload(workload).serviceMsFor(params);
        Double bound = null;
        String note = (workload.equals("hello") ? "CPU-bound" : "CPU/IO-bound") + " workload: no closed-form bound";
        if (waitMs != null) {
            // an async request holds no thread while it waits: only the connections cap it
            ThreadMode.RequestBound held = async ? new ThreadMode.RequestBound(ThreadMode.Bound.NONE, null) : declared;
            bound = Bounds.closedModelRps(Bounds.inFlight(held, c, maxConnections), waitMs);
            note = Bounds.note(held, c, maxConnections, waitMs)
                    + (async && declared.cap() != null ? " (async: no pool thread held while waiting)" : "");
        }
        return Row.builder().experiment(experiment).stack(STACK).threadMode(mode).workload(workload).concurrency(c).rep(rep)
                .jdk(jdk).params(p).sutEnv(cfg.env()).expectInfo(cfg.expectInfo()).boundRps(bound).boundNote(note)
                .tiers(cfg.tiers()).warmup(warmup).hold(hold).jvmArgs(variant.jvmArgs(ctx)).build();
    }

    /**
     * The rows of one code path in one warm JVM (servlet-io, response-size): each params x concurrency x rep, the first
     * warming up for cold (its code not compiled yet), the rest for the timing's warm-up.
     */
    static void warmSweep(List<Row> rows, String experiment, Stack stack, Jdk jdk, String mode, String workload,
                          List<Params> params, List<Integer> conc, PlanContext.Timing t, Duration cold,
                          Settings tomcat, PlanContext ctx) throws UsageError {
        boolean first = true;
        for (Params p : params)
            for (int c : conc)
                for (int rep = 1; rep <= t.reps(); rep++) {
                    rows.add(row(experiment, stack, mode, workload, c, rep, jdk, p, tomcat, first ? cold : t.warmup(), t.hold(), ctx));
                    first = false;
                }
    }
}
