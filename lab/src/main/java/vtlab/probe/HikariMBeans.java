package vtlab.probe;

import java.io.IOException;
import java.util.Set;

import javax.management.ObjectName;

/**
 * HikariCP's pool MBeans of another JVM, over {@link LocalJmx}: how a
 * service the lab did not build shows its pool. Summed over its pools.
 */
final class HikariMBeans implements AutoCloseable {
    private final LocalJmx jmx;
    private final Set<ObjectName> pools;

    private HikariMBeans(LocalJmx jmx, Set<ObjectName> pools) {
        this.jmx = jmx;
        this.pools = pools;
    }

    /** Attached to pid, or null when it registers no Hikari pool (a service without one, or without its MBeans). */
    static HikariMBeans attach(long pid) throws Exception {
        LocalJmx jmx = LocalJmx.attach(pid);
        Set<ObjectName> pools = jmx.names("com.zaxxer.hikari:type=Pool (*");
        if (pools.isEmpty()) {
            jmx.close();
            return null;
        }
        return new HikariMBeans(jmx, pools);
    }

    /** {active connections, threads waiting for one}, over every pool. */
    int[] read() throws Exception {
        int active = 0, pending = 0;
        for (ObjectName p : pools) {
            active += ((Number) jmx.server().getAttribute(p, "ActiveConnections")).intValue();
            pending += ((Number) jmx.server().getAttribute(p, "ThreadsAwaitingConnection")).intValue();
        }
        return new int[] {active, pending};
    }

    @Override
    public void close() throws IOException {
        jmx.close();
    }
}
