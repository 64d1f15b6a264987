package vtlab.sut.servlet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.apache.catalina.Context;
import org.apache.catalina.Executor;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardThreadExecutor;
import org.apache.catalina.core.StandardVirtualThreadExecutor;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.AbstractProtocol;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

import vtlab.sut.kit.EnvSettings;
import vtlab.sut.kit.ParentWatch;
import vtlab.sut.kit.RuntimeInfo;

/**
 * The article's Tomcat rig as one embedded server: the same connector and servlets in both modes, only the
 * executor differs (StandardThreadExecutor with Tomcat's defaults, or StandardVirtualThreadExecutor).
 * Configured by environment variables so the lab can start it without a config file.
 */
public final class ServletMain {

    private ServletMain() {}

    public static void main(String[] args) throws Exception {
        Settings settings = Settings.fromEnv(System.getenv());
        Tomcat tomcat = start(settings);
        ParentWatch.exitWhenParentDies();
        tomcat.getServer().await();
    }

    /**
     * Starts Tomcat on 127.0.0.1 (or the ADDRESS given: the lab's run across hosts reaches it at its host's address)
     * with the given settings; returns once it accepts connections.
     */
    public static Tomcat start(Settings s) throws IOException, LifecycleException {
        Path base = Files.createTempDirectory("vtlab-tomcat");
        // Tomcat fills its base dir (work/): remove it whole when the JVM stops, or every row leaves one behind
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(base), "vtlab-tomcat-cleanup"));
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());

        Executor executor = newExecutor(s);
        tomcat.getService().addExecutor(executor);

        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(s.port());
        connector.setProperty("address", s.address());
        connector.setProperty("maxConnections", Integer.toString(s.maxConnections()));
        connector.setProperty("acceptCount", Integer.toString(s.acceptCount()));
        // Tomcat keeps at most processorCache idle request processors (default 200, sized for a 200-thread pool);
        // with one virtual thread per connection every request above that builds a new ~50 KB processor
        connector.setProperty("processorCache", Integer.toString(s.processorCache()));
        ((AbstractProtocol<?>) connector.getProtocolHandler()).setExecutor(executor);
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);

        Context ctx = tomcat.addContext("", null);
        PathCounter paths = countRequests(ctx);
        Tomcat.addServlet(ctx, "hello", new HelloServlet());
        ctx.addServletMappingDecoded("/hello", "hello");
        Tomcat.addServlet(ctx, "sleep", new SleepServlet(s.defaultSleepMs()));
        ctx.addServletMappingDecoded("/sleep", "sleep");
        Tomcat.addServlet(ctx, "monitor", new MonitorServlet());
        ctx.addServletMappingDecoded("/monitor", "monitor");
        Tomcat.addServlet(ctx, "alloc", new AllocServlet());
        ctx.addServletMappingDecoded("/alloc", "alloc");
        Tomcat.addServlet(ctx, "mixed", new MixedServlet());
        ctx.addServletMappingDecoded("/mixed", "mixed");
        Tomcat.addServlet(ctx, "runtime-info", new JsonServlet(() -> runtimeInfo(s, executor, connector, paths)));
        ctx.addServletMappingDecoded("/runtime-info", "runtime-info");
        IoEndpoints.addTo(ctx, connector, s.stubUrl());
        Tomcat.addServlet(ctx, "echo", new EchoServlet());
        ctx.addServletMappingDecoded("/echo", "echo");

        String accessLog = System.getenv("ACCESS_LOG");
        if (accessLog != null && !accessLog.isBlank()) tomcat.getHost().getPipeline().addValve(accessLog(Path.of(accessLog)));

        tomcat.start();
        return tomcat;
    }

    /** The kit's request counting on every path (runtime-info's own left out). */
    static PathCounter countRequests(Context ctx) {
        PathCounter c = new PathCounter();
        FilterDef def = new FilterDef();
        def.setFilterName(PathCounter.NAME);
        def.setFilter(c);
        ctx.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName(PathCounter.NAME);
        map.addURLPatternDecoded("/*");
        ctx.addFilterMap(map);
        return c;
    }

    /**
     * ACCESS_LOG=DIR: Tomcat's AccessLogValve with its default pattern, common (%h %l %u %t "%r" %s %b), into
     * DIR/access_log.YYYY-MM-DD.txt, unbuffered (a line a request, whole when the server is stopped by a signal).
     */
    static org.apache.catalina.valves.AccessLogValve accessLog(Path dir) throws IOException {
        Files.createDirectories(dir);
        org.apache.catalina.valves.AccessLogValve v = new org.apache.catalina.valves.AccessLogValve();
        v.setDirectory(dir.toAbsolutePath().toString());
        v.setPrefix("access_log");
        v.setSuffix(".txt");
        v.setPattern("common");
        v.setBuffered(false);
        return v;
    }

    static void deleteTree(Path root) {
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort at exit
        }
    }

    static Executor newExecutor(Settings s) {
        if (s.virtual()) {
            StandardVirtualThreadExecutor vt = new StandardVirtualThreadExecutor();
            vt.setName("vtlab-exec");
            vt.setNamePrefix("vt-exec-");
            return vt;
        }
        StandardThreadExecutor pool = new StandardThreadExecutor();
        pool.setName("vtlab-exec");
        pool.setNamePrefix("http-exec-");
        pool.setMaxThreads(s.maxThreads());
        pool.setMinSpareThreads(s.minSpareThreads());
        return pool;
    }

    /** What the server really runs with, read back from the live objects (not from the settings). */
    static Map<String, Object> runtimeInfo(Settings s, Executor executor, Connector connector, PathCounter paths) {
        Map<String, Object> m = RuntimeInfo.of("servlet", executor instanceof StandardVirtualThreadExecutor ? "virtual" : "platform");
        m.put("server", "tomcat " + org.apache.catalina.util.ServerInfo.getServerNumber());
        m.put("executor_class", executor.getClass().getName());
        if (executor instanceof StandardThreadExecutor pool) {
            m.put("max_threads", pool.getMaxThreads());
            m.put("min_spare_threads", pool.getMinSpareThreads());
            m.put("pool_size", pool.getPoolSize());
        } else {
            m.put("max_threads", null); // unbounded: one virtual thread per request
        }
        m.put("max_connections", Integer.parseInt(String.valueOf(connector.getProperty("maxConnections"))));
        m.put("accept_count", Integer.parseInt(String.valueOf(connector.getProperty("acceptCount"))));
        m.put("processor_cache", Integer.parseInt(String.valueOf(connector.getProperty("processorCache"))));
        m.put("protocol", connector.getProtocolHandlerClassName());
        Object address = connector.getProperty("address");
        m.put("address", address instanceof java.net.InetAddress ia ? ia.getHostAddress() : String.valueOf(address));
        m.put("port", connector.getLocalPort());
        m.put("sleep_ms_default", s.defaultSleepMs());
        m.put("downstream", Downstream.describe(s.stubUrl()));
        m.put("tomcat_version", org.apache.catalina.util.ServerInfo.getServerNumber());
        // requests received per path since start (a scenario's mix, counted here), by the kind of thread that ran them, the peak in flight
        RuntimeInfo.requests(m, paths.counter());
        return m;
    }

    /** Start-up switches; Tomcat's own defaults where the variable is absent. */
    public record Settings(int port, boolean virtual, int maxThreads, int minSpareThreads, int maxConnections,
                           int acceptCount, int processorCache, long defaultSleepMs, String stubUrl, String address) {
        public static Settings fromEnv(Map<String, String> env) {
            String mode = env.getOrDefault("THREAD_MODE", "platform");
            if (!mode.equals("platform") && !mode.equals("virtual")) {
                throw new IllegalArgumentException("THREAD_MODE must be platform or virtual, not " + mode);
            }
            EnvSettings e = new EnvSettings(env);
            return new Settings(
                    e.integer("PORT", 8080),
                    mode.equals("virtual"),
                    e.integer("MAX_THREADS", 200),
                    e.integer("MIN_SPARE_THREADS", 25),
                    e.integer("MAX_CONNECTIONS", 8192),
                    e.integer("ACCEPT_COUNT", 100),
                    e.integer("PROCESSOR_CACHE", 200),
                    e.integer("SLEEP_MS", 50),
                    env.get("STUB_URL"),
                    e.text("ADDRESS", "127.0.0.1"));
        }
    }
}
