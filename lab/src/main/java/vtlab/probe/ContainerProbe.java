package vtlab.probe;

import java.util.List;
import java.util.Locale;

import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.proc.Cgroups;

/**
 * A SUT in a cgroup of its own (--cpu-quota, --memory-limit; vtlab.tier.ContainedSut): what the JVM saw of its limits
 * and what the limits did. Added to every contained row.
 * <p>
 * What the JVM saw, over JMX once it is up (the same for the lab's stacks and a user's service):
 * {@code availableProcessors()}, the virtual-thread scheduler's parallelism, the collector the JVM chose and its
 * threads, the max heap. What the limits did, from the group's own files (cpu.stat, memory.*): CFS periods throttled and
 * the time throttled in the hold, and per second; memory in use against the limit; how often the limit was hit
 * (failcnt). While the SUT runs it notes its requests in flight and heap every half second on the group, so a row the
 * OOM killer ends says what the SUT held at that moment.
 */
public final class ContainerProbe implements Probe {
    public static final String NAME = "container";

    static final Column PROCESSORS = Columns.JVM_PROCESSORS;
    static final Column PARALLELISM = Columns.JVM_VT_PARALLELISM;
    static final Column GC = Columns.JVM_GC;
    static final Column GC_THREADS = Columns.JVM_GC_THREADS;
    static final Column MAX_HEAP = Columns.JVM_MAX_HEAP;
    static final Column QUOTA = Columns.CG_CPU_QUOTA;
    static final Column MEM_LIMIT = Columns.CG_MEMORY_LIMIT;
    static final Column PERIODS = Columns.CG_PERIODS;
    static final Column THROTTLED = Columns.CG_THROTTLED_PERIODS;
    static final Column THROTTLED_PCT = Columns.CG_THROTTLED_PCT;
    static final Column THROTTLED_MS = Columns.CG_THROTTLED_MS;
    static final Column THROTTLED_TOTAL_MS = Columns.CG_THROTTLED_TOTAL_MS;
    static final Column MEM_MAX = Columns.CG_MEMORY_MAX;
    static final Column FAILCNT = Columns.CG_MEMORY_FAILCNT;

    private Cgroups.Group group;
    private Cgroups.Stat first, last;
    private LocalJmx jmx;
    private Thread watcher;
    private volatile boolean stopped;

    /** The probes with this one added (a contained row's). */
    public static List<String> with(List<String> probes) {
        return Probes.with(probes, NAME);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "a SUT under --cpu-quota/--memory-limit: what its JVM saw (processors, carriers, GC, max heap) and what the limits did "
                + "(throttled periods and time, memory against the limit, failcnt), per row and per second";
    }

    @Override
    public List<Column> columns() {
        return List.of(PROCESSORS, PARALLELISM, GC, GC_THREADS, MAX_HEAP, QUOTA, MEM_LIMIT, PERIODS, THROTTLED, THROTTLED_PCT,
                THROTTLED_MS, THROTTLED_TOTAL_MS, MEM_MAX, FAILCNT);
    }

    @Override
    public void beforeLoad(ProbeContext ctx, Measurements out) throws Exception {
        long pid = ctx.app().pid();
        group = Cgroups.of(pid);
        if (group == null) throw new IllegalStateException("the SUT (pid " + pid + ") is in no cgroup of the lab's: run it with --cpu-quota or --memory-limit");
        if (group.limits().cpus() != null) out.put(QUOTA, group.limits().cpus());
        if (group.limits().memoryBytes() != null) out.put(MEM_LIMIT, group.limits().memoryMb());
        jmx = LocalJmx.attach(pid);
        saw(out);
        watcher = Thread.ofPlatform().daemon().name("vtlab-container-watch").start(() -> watch(ctx));
    }

    /** What the JVM made of its limits. */
    private void saw(Measurements out) throws Exception {
        out.put(PROCESSORS, ((Number) jmx.get("java.lang:type=OperatingSystem", "AvailableProcessors")).intValue());
        String scheduler = "jdk.management:type=VirtualThreadScheduler";
        if (jmx.has(scheduler)) out.put(PARALLELISM, ((Number) jmx.get(scheduler, "Parallelism")).intValue());
        String gc = "Serial";
        for (String[] c : new String[][] {{"UseG1GC", "G1"}, {"UseParallelGC", "Parallel"}, {"UseZGC", "Z"}, {"UseShenandoahGC", "Shenandoah"}, {"UseEpsilonGC", "Epsilon"}}) {
            if ("true".equals(flag(c[0]))) gc = c[1];
        }
        out.put(GC, gc);
        String threads = flag("ParallelGCThreads");
        out.put(GC_THREADS, gc.equals("Serial") ? 1 : threads == null ? null : Integer.valueOf(threads));
        String max = flag("MaxHeapSize");
        if (max != null) out.put(MAX_HEAP, Long.parseLong(max) >> 20);
    }

    /** A VM flag's value over the HotSpot diagnostic MBean, or null where the JVM has no such flag. */
    private String flag(String name) {
        try {
            CompositeData d = (CompositeData) jmx.server().invoke(new ObjectName("com.sun.management:type=HotSpotDiagnostic"), "getVMOption",
                    new Object[] {name}, new String[] {String.class.getName()});
            return (String) d.get("value");
        } catch (Exception e) {
            return null;
        }
    }

    /** Every half second until the SUT ends or the row is over: what it holds, noted on its group (see ContainedSut). */
    private void watch(ProbeContext ctx) {
        long t0 = System.nanoTime();
        boolean requests;
        try {
            requests = jmx.has(JvmProbe.REQUESTS);
        } catch (Exception e) {
            requests = false;
        }
        while (!stopped && ctx.app().alive()) {
            try {
                CompositeData heap = (CompositeData) jmx.get("java.lang:type=Memory", "HeapMemoryUsage");
                long used = ((Number) heap.get("used")).longValue() >> 20, committed = ((Number) heap.get("committed")).longValue() >> 20;
                String inFlight = requests ? jmx.get(JvmProbe.REQUESTS, "InFlight") + " requests in flight, " : "";
                group.note(String.format(Locale.ROOT, "%sheap %d MB used of %d MB committed, %d MB charged to the cgroup, %.1f s after its verification",
                        inFlight, used, committed, group.stat().memoryBytes() >> 20, (System.nanoTime() - t0) / 1e9));
                Thread.sleep(500);
            } catch (InterruptedException e) {
                break;
            } catch (Exception e) {
                break; // the SUT is gone or no longer answers: the last note stands
            }
        }
        try {
            jmx.close();
        } catch (Exception e) {
            // the SUT is gone
        }
    }

    @Override
    public void start(ProbeContext ctx) {
        first = last = group.stat();
    }

    @Override
    public void sample(ProbeContext ctx, double second, Measurements out) {
        Cgroups.Stat now = group.stat();
        if (now.periods() >= 0 && last.periods() >= 0) {
            out.point("cg_throttled_periods", second, now.throttledPeriods() - last.throttledPeriods());
            out.point("cg_throttled_ms", second, (now.throttledNanos() - last.throttledNanos()) / 1e6);
        }
        if (now.memoryBytes() >= 0) {
            double mb = Math.round(now.memoryBytes() / 1024.0 / 102.4) / 10.0;
            out.point("cg_memory_mb", second, mb);
            out.max(MEM_MAX, mb);
            out.point("cg_memory_failcnt", second, now.failcnt() - last.failcnt());
        }
        last = now;
    }

    @Override
    public void stop(ProbeContext ctx) {
        last = group.stat();
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) throws Exception {
        stopped = true;
        if (watcher != null) {
            watcher.interrupt();
            watcher.join(2_000);
        }
        Cgroups.Stat end = last == null ? group.stat() : last;
        if (first != null && end.periods() >= 0) {
            long periods = end.periods() - first.periods(), throttled = end.throttledPeriods() - first.throttledPeriods();
            out.put(PERIODS, periods);
            out.put(THROTTLED, throttled);
            out.put(THROTTLED_PCT, periods == 0 ? 0.0 : Math.round(1000.0 * throttled / periods) / 10.0);
            out.put(THROTTLED_MS, Math.round((end.throttledNanos() - first.throttledNanos()) / 1e5) / 10.0);
        }
        if (end.throttledNanos() >= 0) out.put(THROTTLED_TOTAL_MS, Math.round(end.throttledNanos() / 1e5) / 10.0);
        if (first != null && end.memoryBytes() >= 0) {
            out.max(MEM_MAX, Math.round(end.memoryBytes() / 1024.0 / 102.4) / 10.0);
            out.put(FAILCNT, end.failcnt() - first.failcnt());
        }
    }
}
