package vtlab.probe;

import java.util.List;

/**
 * A measurement taken alongside the load, like a JMH profiler: a small class selected by name (--probes cpu,rss).
 * A fresh instance serves one row: beforeLoad() once the SUT is verified (before warm-up), start() when the measured
 * load begins, sample() about once a second during the hold, finish() when the load has ended (the SUT is still up).
 * In beforeLoad() the context has no load tier yet.
 */
public interface Probe {
    String name();

    String description();

    /** JVM options the SUT must be started with for this probe (e.g. NMT). */
    default List<String> jvmArgs() {
        return List.of();
    }

    /** The SUT is up and verified, no load sent yet: for idle readings (e.g. footprint before load). */
    default void beforeLoad(ProbeContext ctx, Measurements out) throws Exception {}

    default void start(ProbeContext ctx) throws Exception {}

    default void sample(ProbeContext ctx, double second, Measurements out) throws Exception {}

    void finish(ProbeContext ctx, Measurements out) throws Exception;
}
