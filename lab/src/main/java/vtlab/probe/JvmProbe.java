package vtlab.probe;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.management.openmbean.CompositeData;

import vtlab.data.Column;

/**
 * The SUT's JVM second by second over JMX ({@link LocalJmx}, so it answers while every request thread is busy): heap
 * used, live platform threads, the virtual-thread scheduler's mounted and queued threads (JDK 24+), and where the SUT
 * registers vtlab:type=Requests (the lab's stacks), the requests in flight and those its concurrency limit rejected.
 * What a fault shows: how much work piles up in the server, and what it costs in memory. Reads run off the sampling
 * loop: a read that has not answered when the next second comes is skipped, not waited for.
 */
public final class JvmProbe implements Probe {
    static final String REQUESTS = "vtlab:type=Requests", SCHEDULER = "jdk.management:type=VirtualThreadScheduler";
    static final Column HEAP_MAX = Column.number("heap_used_max_mb", "MB", "most heap in use at a one-second sample of the hold (jvm probe)");
    static final Column IN_FLIGHT_MAX = Column.integer("sut_in_flight_max", "requests", "most requests in the SUT at a one-second sample (jvm probe)");
    static final Column QUEUED_MAX = Column.integer("vt_queued_max", "threads", "most virtual threads queued for a carrier at a sample (JDK 24+)");
    static final Column REJECTED = Column.integer("sut_rejected", "requests", "requests the SUT's concurrency limit turned away in the hold (503)");

    private LocalJmx jmx;
    private boolean requests, scheduler;
    private final ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "vtlab-jvm-probe");
        t.setDaemon(true);
        return t;
    });
    private Future<?> pending;
    private long rejected0 = -1, rejectedLast = -1;

    @Override
    public String name() {
        return "jvm";
    }

    @Override
    public String description() {
        return "the SUT's heap, threads, virtual-thread scheduler and requests in flight each second, over JMX";
    }

    @Override
    public List<Column> columns() {
        return List.of(HEAP_MAX, IN_FLIGHT_MAX, QUEUED_MAX, REJECTED);
    }

    /** Attached before the warm-up: the JMX agent's start-up is not in the hold. */
    @Override
    public void beforeLoad(ProbeContext ctx, Measurements out) throws Exception {
        jmx = LocalJmx.attach(ctx.app().pid());
        requests = jmx.has(REQUESTS);
        scheduler = jmx.has(SCHEDULER);
    }

    @Override
    public void start(ProbeContext ctx) throws Exception {
        if (requests) {
            rejected0 = rejectedLast = ((Number) jmx.get(REQUESTS, "Rejected")).longValue();
        }
    }

    @Override
    public void sample(ProbeContext ctx, double second, Measurements out) {
        if (pending != null && !pending.isDone()) return;
        pending = reader.submit(() -> {
            try {
                read(second, out);
            } catch (Exception e) {
                // a sample the SUT could not answer in time is a gap in the series, not a failed row
            }
        });
    }

    private void read(double second, Measurements out) throws Exception {
        CompositeData heap = (CompositeData) jmx.get("java.lang:type=Memory", "HeapMemoryUsage");
        double heapMb = ((Number) heap.get("used")).doubleValue() / (1024 * 1024);
        out.point("heap_used_mb", second, heapMb);
        out.max(HEAP_MAX, heapMb);
        out.point("jvm_threads_live", second, ((Number) jmx.get("java.lang:type=Threading", "ThreadCount")).doubleValue());
        if (scheduler) {
            out.point("vt_mounted", second, ((Number) jmx.get(SCHEDULER, "MountedVirtualThreadCount")).doubleValue());
            double queued = ((Number) jmx.get(SCHEDULER, "QueuedVirtualThreadCount")).doubleValue();
            out.point("vt_queued", second, queued);
            out.max(QUEUED_MAX, queued);
        }
        if (requests) {
            double inFlight = ((Number) jmx.get(REQUESTS, "InFlight")).doubleValue();
            out.point("sut_in_flight", second, inFlight);
            out.max(IN_FLIGHT_MAX, inFlight);
            long rejected = ((Number) jmx.get(REQUESTS, "Rejected")).longValue();
            out.point("sut_rejected", second, rejected - rejectedLast);
            rejectedLast = rejected;
        }
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) throws Exception {
        try {
            if (pending != null) pending.cancel(true);
            if (requests && jmx != null) out.put(REJECTED, ((Number) jmx.get(REQUESTS, "Rejected")).longValue() - rejected0);
        } finally {
            reader.shutdownNow();
            if (jmx != null) jmx.close();
            jmx = null;
        }
    }
}
