package vtlab.sut.springmvc;

import java.util.LinkedHashMap;
import java.util.Map;

import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Jetty;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;
import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.core.env.Environment;

/**
 * Jetty's part of runtime-info: the thread pool Spring Boot gave the server. Boot's platform mode is a
 * QueuedThreadPool of server.jetty.threads.max; with spring.threads.virtual.enabled it is a VirtualThreadPool whose
 * cap on running tasks is that same setting (Boot 4.1), so max_threads is a bound in both modes.
 */
final class JettyInfo {
    private JettyInfo() {}

    static Map<String, Object> of(WebServer web, Environment env) {
        Map<String, Object> m = new LinkedHashMap<>();
        Server server = ((JettyWebServer) web).getServer();
        ThreadPool pool = server.getThreadPool();
        boolean virtual = pool instanceof VirtualThreadPool
                || pool instanceof QueuedThreadPool q && q.getVirtualThreadsExecutor() != null;
        m.put("thread_mode", virtual ? "virtual" : "platform");
        m.put("server", "jetty " + Jetty.VERSION);
        m.put("executor_class", pool.getClass().getName());
        if (pool instanceof VirtualThreadPool v) {
            m.put("max_threads", v.getMaxConcurrentTasks()); // the cap on virtual threads running at once
        } else if (pool instanceof QueuedThreadPool q) {
            m.put("max_threads", q.getMaxThreads());
            m.put("pool_size", q.getThreads());
        } else {
            m.put("max_threads", null);
        }
        m.put("jetty_max_threads_setting", env.getProperty("server.jetty.threads.max", Integer.class));
        NetworkConnectionLimit limit = server.getBean(NetworkConnectionLimit.class);
        m.put("max_connections", limit == null ? null : limit.getMaxNetworkConnectionCount());
        m.put("jetty_version", Jetty.VERSION);
        return m;
    }
}
