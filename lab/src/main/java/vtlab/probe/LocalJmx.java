package vtlab.probe;

import java.io.IOException;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import com.sun.tools.attach.VirtualMachine;

/**
 * Another JVM's MBeans over the local attach API (its local JMX agent, started on demand). JMX answers on the
 * agent's own threads, so it reads a server whose request threads are all busy, where an HTTP endpoint would queue.
 */
final class LocalJmx implements JvmProbe.Mbeans {
    private final JMXConnector connector;
    private final MBeanServerConnection server;

    private LocalJmx(JMXConnector connector) throws IOException {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
    }

    static LocalJmx attach(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        return new LocalJmx(JMXConnectorFactory.connect(new JMXServiceURL(address)));
    }

    MBeanServerConnection server() {
        return server;
    }

    /** Whether the JVM registers an MBean of this name (a pattern matches any). */
    @Override
    public boolean has(String name) throws Exception {
        return !server.queryNames(new ObjectName(name), null).isEmpty();
    }

    java.util.Set<ObjectName> names(String pattern) throws Exception {
        return server.queryNames(new ObjectName(pattern), null);
    }

    @Override
    public Object get(String name, String attribute) throws Exception {
        return server.getAttribute(new ObjectName(name), attribute);
    }

    @Override
    public boolean hasOperation(String name, String operation) throws Exception {
        for (var op : server.getMBeanInfo(new ObjectName(name)).getOperations()) {
            if (op.getName().equals(operation) && op.getSignature().length == 0) return true;
        }
        return false;
    }

    /** An operation without arguments. */
    @Override
    public Object invoke(String name, String operation) throws Exception {
        return server.invoke(new ObjectName(name), operation, null, null);
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
