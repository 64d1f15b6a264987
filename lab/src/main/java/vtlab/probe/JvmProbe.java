package vtlab.probe;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.management.openmbean.CompositeData;

import vtlab.data.Column;
import vtlab.data.Columns;

/**
 * The SUT's JVM second by second over JMX ({@link LocalJmx}, so it answers while every request thread is busy): heap
 * used, live platform threads, the virtual-thread scheduler's mounted and queued threads (JDK 24+), and where the SUT
 * registers vtlab:type=Requests (the lab's stacks), the requests in flight and those its concurrency limit rejected.
 * What a fault shows: how much work piles up in the server, and what it costs in memory. Reads run off the sampling
 * loop: a read that has not answered when the next second comes is skipped, not waited for.
 * <p>
 * Requests in flight are a peak, not a sample: the SUT keeps the most requests its gate let in at once (rejected ones
 * never count) and hands it over with {@code takeMax}, which starts the next window; each second's point of
 * {@code sut_in_flight} is the peak since the previous read (a skipped read leaves it to the next), and
 * {@code sut_in_flight_max} the hold's. A SUT whose MBean has no takeMax is sampled (InFlight), as before.
 */
public final class JvmProbe implements Probe {
    static final String REQUESTS = "vtlab:type=Requests", SCHEDULER = "jdk.management:type=VirtualThreadScheduler", TAKE_MAX = "takeMax";
    static final Column HEAP_MAX = Columns.HEAP_USED_MAX;
    static final Column IN_FLIGHT_MAX = Columns.SUT_IN_FLIGHT_MAX;
    static final Column QUEUED_MAX = Column.integer("vt_queued_max", "threads", "most virtual threads queued for a carrier at a sample (JDK 24+)");
    static final Column REJECTED = Column.integer("sut_rejected", "requests", "requests the SUT's concurrency limit turned away in the hold (503)");

    /** The MBeans of the SUT's JVM, as the probe reads them ({@link LocalJmx}). */
    interface Mbeans extends AutoCloseable {
        boolean has(String name) throws Exception;

        boolean hasOperation(String name, String operation) throws Exception;

        Object get(String name, String attribute) throws Exception;

        Object invoke(String name, String operation) throws Exception;
    }

    /** How the probe reaches the SUT's MBeans. */
    interface Attach {
        Mbeans attach(ProbeContext ctx) throws Exception;
    }

    private final Attach attach;
    private Mbeans jmx;
    private boolean requests, peaks, scheduler;
    private final ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "vtlab-jvm-probe");
        t.setDaemon(true);
        return t;
    });
    private Future<?> pending;
    private long rejected0 = -1, rejectedLast = -1;
    /** The peak of the hold's last window, read at stop; -1: none. */
    private double last = -1;

    public JvmProbe() {
        this(ctx -> LocalJmx.attach(ctx.app().pid()));
    }

    JvmProbe(Attach attach) {
        this.attach = attach;
    }

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
        jmx = attach.attach(ctx);
        requests = jmx.has(REQUESTS);
        peaks = requests && jmx.hasOperation(REQUESTS, TAKE_MAX);
        scheduler = jmx.has(SCHEDULER);
    }

    @Override
    public void start(ProbeContext ctx) throws Exception {
        if (requests) {
            rejected0 = rejectedLast = ((Number) jmx.get(REQUESTS, "Rejected")).longValue();
            if (peaks) jmx.invoke(REQUESTS, TAKE_MAX); // the warm-up's peak is not the hold's
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
            double inFlight = inFlight();
            out.point("sut_in_flight", second, inFlight);
            out.max(IN_FLIGHT_MAX, inFlight);
            long rejected = ((Number) jmx.get(REQUESTS, "Rejected")).longValue();
            out.point("sut_rejected", second, rejected - rejectedLast);
            rejectedLast = rejected;
        }
    }

    /** The peak since the last read (the window then starts again), or without takeMax the number in flight now. */
    private double inFlight() throws Exception {
        return ((Number) (peaks ? jmx.invoke(REQUESTS, TAKE_MAX) : jmx.get(REQUESTS, "InFlight"))).doubleValue();
    }

    /** The hold's last window, from the last read to the load's end: its peak counts in the hold's (no point of its own). */
    @Override
    public void stop(ProbeContext ctx) throws Exception {
        if (!peaks || jmx == null) return;
        if (pending != null) {
            try {
                pending.get(2, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                // a read still stuck: its window goes into this one
            }
        }
        last = inFlight();
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) throws Exception {
        try {
            if (last >= 0) out.max(IN_FLIGHT_MAX, last);
            if (pending != null) pending.cancel(true);
            if (requests && jmx != null) out.put(REJECTED, ((Number) jmx.get(REQUESTS, "Rejected")).longValue() - rejected0);
        } finally {
            reader.shutdownNow();
            if (jmx != null) jmx.close();
            jmx = null;
        }
    }
}
