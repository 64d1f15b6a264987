package vtlab.sut.jetty;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import jakarta.servlet.DispatcherType;

import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Jetty;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

import vtlab.sut.kit.EnvSettings;
import vtlab.sut.kit.ParentWatch;
import vtlab.sut.kit.RuntimeInfo;
import vtlab.sut.servlet.HelloServlet;
import vtlab.sut.servlet.JsonServlet;
import vtlab.sut.servlet.PathCounter;
import vtlab.sut.servlet.SleepServlet;

/**
 * The servlet stack's servlets on embedded Jetty 12.1 (ee10), in Jetty's three thread modes; only the thread pool
 * differs:
 * <ul>
 * <li>platform: a QueuedThreadPool of MAX_THREADS platform threads runs the selectors, the acceptor and every request;</li>
 * <li>virtual: the same QueuedThreadPool runs the selectors and the acceptor, and hands each request to a virtual thread
 * of its own (setVirtualThreadsExecutor): the pool in front, no bound on the requests;</li>
 * <li>virtual-pool: a VirtualThreadPool: every thread virtual, at most MAX_THREADS tasks running at once (a semaphore),
 * so the requests in flight are bounded as by a pool of that size.</li>
 * </ul>
 */
public final class JettyMain {
    static final List<String> MODES = List.of("platform", "virtual", "virtual-pool");
    static final String POOL_NAME = "jetty-qtp", VIRTUAL_PREFIX = "jetty-vt-";

    private JettyMain() {}

    public static void main(String[] args) throws Exception {
        ParentWatch.exitWhenParentDies();
        Server server = start(Settings.fromEnv(System.getenv()));
        server.join();
    }

    /** Starts Jetty on the address and port given; returns once it accepts connections. */
    public static Server start(Settings s) throws Exception {
        Server server = new Server(threadPool(s));
        ServerConnector connector = new ServerConnector(server);
        connector.setHost(s.address());
        connector.setPort(s.port());
        connector.setAcceptQueueSize(s.acceptQueueSize()); // the listening socket's backlog (0: the JDK's 50)
        server.addConnector(connector);
        // the connection cap: past it Jetty stops accepting until one closes (Tomcat's maxConnections)
        server.addBean(new NetworkConnectionLimit(s.maxConnections(), connector));

        ServletContextHandler ctx = new ServletContextHandler("/");
        PathCounter paths = new PathCounter();
        ctx.addFilter(new FilterHolder(paths), "/*", EnumSet.of(DispatcherType.REQUEST));
        ctx.addServlet(new ServletHolder(new HelloServlet()), "/hello");
        ctx.addServlet(new ServletHolder(new SleepServlet(s.defaultSleepMs())), "/sleep");
        ctx.addServlet(new ServletHolder(new JsonServlet(() -> runtimeInfo(server, connector, paths))), RuntimeInfo.PATH);
        server.setHandler(ctx);
        server.start();
        return server;
    }

    static ThreadPool threadPool(Settings s) {
        if (s.mode().equals("virtual-pool")) {
            VirtualThreadPool vtp = new VirtualThreadPool(s.maxThreads());
            vtp.setName(VIRTUAL_PREFIX);
            return vtp;
        }
        QueuedThreadPool qtp = new QueuedThreadPool(s.maxThreads(), Math.min(s.minThreads(), s.maxThreads()));
        qtp.setName(POOL_NAME);
        if (s.mode().equals("virtual")) qtp.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor(VIRTUAL_PREFIX));
        return qtp;
    }

    /** What the server really runs with, read back from the live pool and connector. */
    static Map<String, Object> runtimeInfo(Server server, ServerConnector connector, PathCounter paths) {
        ThreadPool pool = server.getThreadPool();
        String mode = pool instanceof VirtualThreadPool ? "virtual-pool"
                : pool instanceof QueuedThreadPool q && q.getVirtualThreadsExecutor() != null ? "virtual" : "platform";
        Map<String, Object> m = RuntimeInfo.of("jetty", mode);
        m.put("server", "jetty " + Jetty.VERSION);
        m.put("jetty_version", Jetty.VERSION);
        m.put("thread_pool_class", pool.getClass().getName());
        if (pool instanceof VirtualThreadPool v) {
            m.put("max_threads", v.getMaxConcurrentTasks()); // the cap on virtual threads running at once
        } else if (pool instanceof QueuedThreadPool q) {
            m.put("max_threads", q.getMaxThreads()); // the queued pool: all requests (platform) or the pool in front (virtual)
            m.put("min_threads", q.getMinThreads());
            m.put("pool_threads", q.getThreads());
            m.put("virtual_threads_executor", q.getVirtualThreadsExecutor() == null ? null : q.getVirtualThreadsExecutor().getClass().getName());
        }
        NetworkConnectionLimit limit = server.getBean(NetworkConnectionLimit.class);
        m.put("max_connections", limit == null ? null : limit.getMaxNetworkConnectionCount());
        m.put("accept_queue_size", connector.getAcceptQueueSize());
        m.put("acceptors", connector.getAcceptors());
        m.put("selectors", connector.getSelectorManager().getSelectorCount());
        m.put("address", connector.getHost());
        m.put("port", connector.getLocalPort());
        RuntimeInfo.requests(m, paths.counter());
        return m;
    }

    /** Start-up switches; Jetty's own defaults where the variable is absent (200 threads, at least 8). */
    public record Settings(int port, String address, String mode, int maxThreads, int minThreads, int maxConnections,
                           int acceptQueueSize, long defaultSleepMs) {
        public static Settings fromEnv(Map<String, String> env) {
            EnvSettings e = new EnvSettings(env);
            return new Settings(e.integer("PORT", 8080), e.text("ADDRESS", "127.0.0.1"), e.choice("THREAD_MODE", MODES, "platform"),
                    e.integer("MAX_THREADS", 200), e.integer("MIN_THREADS", 8), e.integer("MAX_CONNECTIONS", 8192),
                    e.integer("ACCEPT_QUEUE_SIZE", 0), e.integer("SLEEP_MS", 50));
        }
    }
}
