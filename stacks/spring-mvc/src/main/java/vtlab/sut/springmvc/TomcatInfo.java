package vtlab.sut.springmvc;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.catalina.connector.Connector;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.core.env.Environment;

/** Tomcat's part of runtime-info: its connector's executor (a pool of maxThreads, or virtual threads) and limits. */
final class TomcatInfo {
    private TomcatInfo() {}

    static Map<String, Object> of(WebServer server, Environment env) {
        Map<String, Object> m = new LinkedHashMap<>();
        Connector connector = ((TomcatWebServer) server).getTomcat().getConnector();
        java.util.concurrent.Executor executor = connector.getProtocolHandler().getExecutor();
        boolean virtual = executor != null && executor.getClass().getSimpleName().contains("VirtualThread");
        m.put("thread_mode", virtual ? "virtual" : "platform");
        m.put("server", "tomcat " + org.apache.catalina.util.ServerInfo.getServerNumber());
        m.put("executor_class", executor == null ? null : executor.getClass().getName());
        // Tomcat's platform pool is its own ThreadPoolExecutor (not java.util.concurrent's); virtual: no pool
        if (executor instanceof org.apache.tomcat.util.threads.ThreadPoolExecutor tpe) {
            m.put("max_threads", tpe.getMaximumPoolSize());
            m.put("pool_size", tpe.getPoolSize());
        } else {
            m.put("max_threads", null);
        }
        m.put("tomcat_max_threads_setting", env.getProperty("server.tomcat.threads.max", Integer.class));
        m.put("max_connections", Integer.parseInt(String.valueOf(connector.getProperty("maxConnections"))));
        m.put("accept_count", Integer.parseInt(String.valueOf(connector.getProperty("acceptCount"))));
        m.put("processor_cache", Integer.parseInt(String.valueOf(connector.getProperty("processorCache"))));
        m.put("tomcat_version", org.apache.catalina.util.ServerInfo.getServerNumber());
        return m;
    }
}
