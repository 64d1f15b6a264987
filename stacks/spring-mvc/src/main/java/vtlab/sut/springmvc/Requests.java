package vtlab.sut.springmvc;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/** The counters behind {@link RequestsMBean}, kept by {@link RequestGate}. */
public final class Requests implements RequestsMBean {
    public static final String NAME = "vtlab:type=Requests";

    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger inFlightMax = new AtomicInteger();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder completed = new LongAdder();

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
    public void resetMax() {
        inFlightMax.set(inFlight.get());
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
