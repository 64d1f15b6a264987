package vtlab.probe;

import java.io.IOException;
import java.util.Set;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import com.sun.tools.attach.VirtualMachine;

/**
 * HikariCP's pool MBeans of another JVM, over the local attach API (its local JMX agent, started on demand): how a
 * service the lab did not build shows its pool. Summed over its pools.
 */
final class HikariMBeans implements AutoCloseable {
    private final JMXConnector connector;
    private final MBeanServerConnection server;
    private final Set<ObjectName> pools;

    private HikariMBeans(JMXConnector connector, Set<ObjectName> pools) throws IOException {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
        this.pools = pools;
    }

    /** Attached to pid, or null when it registers no Hikari pool (a service without one, or without its MBeans). */
    static HikariMBeans attach(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        JMXConnector c = JMXConnectorFactory.connect(new JMXServiceURL(address));
        Set<ObjectName> pools = c.getMBeanServerConnection().queryNames(new ObjectName("com.zaxxer.hikari:type=Pool (*"), null);
        if (pools.isEmpty()) {
            c.close();
            return null;
        }
        return new HikariMBeans(c, pools);
    }

    /** {active connections, threads waiting for one}, over every pool. */
    int[] read() throws Exception {
        int active = 0, pending = 0;
        for (ObjectName p : pools) {
            active += ((Number) server.getAttribute(p, "ActiveConnections")).intValue();
            pending += ((Number) server.getAttribute(p, "ThreadsAwaitingConnection")).intValue();
        }
        return new int[] {active, pending};
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
