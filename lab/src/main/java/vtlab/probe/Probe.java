package vtlab.probe;

import java.util.List;
import java.util.Map;

import vtlab.core.UsageError;
import vtlab.data.Column;
import vtlab.plan.Drain;
import vtlab.plan.Row;

/**
 * A measurement taken alongside the load, like a JMH profiler: a small class selected by name (--probes cpu,rss),
 * with options after a colon (jfr-pinning:threshold=5ms).
 * A fresh instance serves one row: beforeLoad() once the SUT is verified (before warm-up), start() when the measured
 * load begins, sample() about once a second during the hold, stop() on every probe as soon as the load has ended,
 * then finish() on each (the SUT is still up).
 * In beforeLoad() the context has no load tier yet.
 */
public interface Probe {
    String name();

    String description();

    /** The dataset columns this probe fills; the only ones it may put into {@link Measurements}. */
    List<Column> columns();

    /**
     * Whether it reads the SUT and the tiers only through their {@link ProbeContext#tiers() processes}: /proc read where
     * they run, jcmd run there and its files copied back ({@link vtlab.tier.host.Site}), so it works when they run on other
     * hosts (--hosts). One that attaches JMX through this machine's attach API or reads files of this machine directly
     * does not (yet): a run across hosts leaves it out of the default set and refuses it by name.
     */
    default boolean remote() {
        return false;
    }

    /**
     * Whether it costs the SUT enough to move the answer (a profiler: samplers, events with stacks). Such a probe never
     * runs in the measured hold: it gets a hold of its own after it, on the same SUT and load (see
     * vtlab.run.ExplainingHold), so no throughput, latency or CPU figure of the row is taken while it runs. Its
     * beforeLoad() comes after the measured hold, right before its own hold's load.
     */
    default boolean explains() {
        return false;
    }

    /** The options given after the name; unknown options and bad values are refused before anything starts. */
    default void configure(Map<String, String> options) throws UsageError {
        if (!options.isEmpty()) {
            throw new UsageError("probe " + name() + " takes no options (got '" + options.keySet().iterator().next() + "')");
        }
    }

    /** JVM options the SUT must be started with for this probe (e.g. NMT). */
    default List<String> jvmArgs() {
        return List.of();
    }

    /** Waits this probe's subject needs before a row's hold (e.g. an idle connection pool); resolved when planning. */
    default List<Drain> drains(Row row) {
        return List.of();
    }

    /** The SUT is up and verified, no load sent yet: for idle readings (e.g. footprint before load). */
    default void beforeLoad(ProbeContext ctx, Measurements out) throws Exception {}

    /**
     * The measured (or profiled) hold's load is about to start: a probe whose window must hold the load's first
     * connections (a kernel counter their set-up moves) opens it here; the context has no load tier yet.
     */
    default void beforeHold(ProbeContext ctx) throws Exception {}

    default void start(ProbeContext ctx) throws Exception {}

    default void sample(ProbeContext ctx, double second, Measurements out) throws Exception {}

    /**
     * The load has ended and no probe has acted on the SUT yet: a probe whose window must close before the others'
     * finish() touch the SUT (a jcmd Thread.print is itself a ~50 ms safepoint) closes it here.
     */
    default void stop(ProbeContext ctx) throws Exception {}

    void finish(ProbeContext ctx, Measurements out) throws Exception;

    /**
     * After finish(), once the generator's columns are in the row (throughput, latency, the hold as measured): a probe
     * that relates what it saw to the load (the profile probe's shares of request time) puts those columns here.
     */
    default void afterLoad(vtlab.data.RowValues row, Measurements out) throws Exception {}
}
