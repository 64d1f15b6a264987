package vtlab.sut.springmvc;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import vtlab.sut.kit.RequestCounter;

/**
 * The counters behind {@link RequestsMBean}, kept by {@link RequestGate}: a request is in flight from the moment the
 * gate lets it through (after its permit, when there is a limit) until it leaves the handlers; a request the limit
 * turns away is counted as rejected and never as in flight. The peak is kept on every admission, so a window's peak is
 * exact however seldom it is read (a one-second sample of {@link #getInFlight()} misses what came and went between).
 */
public final class Requests implements RequestsMBean {
    public static final String NAME = "vtlab:type=Requests";

    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger inFlightMax = new AtomicInteger();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder completed = new LongAdder();
    /** The kit's counts of the requests that reached the gate: by path and by the kind of thread that ran them. */
    private final RequestCounter counted = new RequestCounter(RequestGate.LAB_PATHS);

    /** A request that reached the gate (let through or turned away), on the thread that runs it. */
    void reached(String path) {
        counted.count(path);
    }

    /** Requests that reached the gate since start by the kind of thread that ran them (runtime-info's requests_by_thread). */
    public java.util.Map<String, Long> byThread() {
        return counted.byThread();
    }

    /** Requests that reached the gate since start by path (runtime-info's requests_by_path). */
    public java.util.Map<String, Long> byPath() {
        return counted.byPath();
    }

    /** A request let through the gate: in flight until {@link #left()}. */
    void entered() {
        inFlightMax.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    }

    void left() {
        inFlight.decrementAndGet();
    }

    void rejected() {
        rejected.increment();
    }

    void completed() {
        completed.increment();
    }

    @Override
    public int getInFlight() {
        return inFlight.get();
    }

    @Override
    public int getInFlightMax() {
        return inFlightMax.get();
    }

    @Override
    public long getRejected() {
        return rejected.sum();
    }

    @Override
    public long getCompleted() {
        return completed.sum();
    }

    @Override
    public int takeMax() {
        // a new window starts at 0, then at the number in flight now: a request admitted meanwhile raises it itself
        int peak = inFlightMax.getAndSet(0);
        inFlightMax.accumulateAndGet(inFlight.get(), Math::max);
        return peak;
    }

    @Override
    public void resetMax() {
        takeMax();
    }

    /** Registers these counters as {@link #NAME} on the platform MBean server, replacing an earlier registration. */
    public Requests register() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(NAME);
            if (server.isRegistered(name)) server.unregisterMBean(name);
            server.registerMBean(this, name);
            return this;
        } catch (JMException e) {
            throw new IllegalStateException("cannot register " + NAME + ": " + e.getMessage(), e);
        }
    }
}
