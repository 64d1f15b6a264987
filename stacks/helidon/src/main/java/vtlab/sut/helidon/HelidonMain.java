package vtlab.sut.helidon;

import java.util.List;
import java.util.Map;

import io.helidon.common.Version;
import io.helidon.webserver.ListenerConfig;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import vtlab.sut.kit.Article;
import vtlab.sut.kit.EnvSettings;
import vtlab.sut.kit.Json;
import vtlab.sut.kit.ParentWatch;
import vtlab.sut.kit.RequestCounter;
import vtlab.sut.kit.RuntimeInfo;

/**
 * The article's endpoints as Helidon SE 4 handlers: /hello, /sleep?ms= (Thread.sleep on the request's thread) and
 * runtime-info. Helidon's WebServer runs each connection, and the requests on it, on a virtual thread of its own with
 * no pool: its one thread mode is virtual, and only the connections (MAX_CONNECTIONS, Helidon's maxTcpConnections)
 * bound the requests in flight.
 */
public final class HelidonMain {
    static final List<String> MODES = List.of("virtual");

    private HelidonMain() {}

    public static void main(String[] args) {
        ParentWatch.exitWhenParentDies();
        start(Settings.fromEnv(System.getenv()));
    }

    /** Starts the server on the address and port given; returns once it accepts connections. */
    public static WebServer start(Settings s) {
        RequestCounter counter = RequestCounter.standard();
        WebServer[] self = new WebServer[1];
        self[0] = WebServer.builder()
                .host(s.address())
                .port(s.port())
                .maxTcpConnections(s.maxConnections())
                .backlog(s.backlog())
                .routing(r -> r
                        // the kit's counting around every handler: by path, by the thread that runs it, in flight
                        .addFilter((chain, req, res) -> {
                            boolean counted = counter.enter(req.path().path());
                            try {
                                chain.proceed();
                            } finally {
                                if (counted) counter.leave();
                            }
                        })
                        .get("/hello", (req, res) -> res.header("Content-Type", "text/html; charset=UTF-8").send(Article.HELLO_PAGE))
                        .get("/sleep", (req, res) -> sleep(req, res, s.defaultSleepMs()))
                        .get(RuntimeInfo.PATH, (req, res) -> res.header("Content-Type", "application/json")
                                .send(Json.write(runtimeInfo(self[0], counter)))))
                .build()
                .start();
        return self[0];
    }

    static void sleep(ServerRequest req, ServerResponse res, long dflt) {
        long ms;
        try {
            ms = Article.millis(req.query().first("ms").orElse(null), dflt, Article.MAX_SLEEP_MS);
        } catch (IllegalArgumentException e) {
            res.status(400).send(e.getMessage());
            return;
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            res.status(503).send("interrupted");
            return;
        }
        res.header("Content-Type", "text/plain").send(Article.slept(ms));
    }

    /** What the server really runs with, read back from its live configuration; the mode from the thread that answers. */
    static Map<String, Object> runtimeInfo(WebServer server, RequestCounter counter) {
        // Helidon has no switch to turn virtual threads off: the handler's own thread says which ran it
        Map<String, Object> m = RuntimeInfo.of("helidon", Thread.currentThread().isVirtual() ? "virtual" : "platform");
        m.put("server", "helidon " + Version.VERSION);
        m.put("helidon_version", Version.VERSION);
        ListenerConfig listener = server.prototype().sockets().getOrDefault(WebServer.DEFAULT_SOCKET_NAME, server.prototype());
        m.put("max_threads", null); // no pool: a virtual thread per connection
        m.put("max_connections", listener.maxTcpConnections());
        m.put("max_concurrent_requests", listener.maxConcurrentRequests());
        m.put("backlog", listener.backlog());
        m.put("address", listener.host());
        m.put("port", server.port());
        RuntimeInfo.requests(m, counter);
        return m;
    }

    /** Start-up switches. MAX_CONNECTIONS: the lab's 8192 (as Tomcat's and Jetty's), where Helidon's own is unlimited (-1). */
    public record Settings(int port, String address, int maxConnections, int backlog, long defaultSleepMs) {
        public static Settings fromEnv(Map<String, String> env) {
            EnvSettings e = new EnvSettings(env);
            e.choice("THREAD_MODE", MODES, "virtual"); // a mode Helidon does not have is refused at start
            return new Settings(e.integer("PORT", 8080), e.text("ADDRESS", "127.0.0.1"), e.integer("MAX_CONNECTIONS", 8192),
                    e.integer("BACKLOG", 1024), e.integer("SLEEP_MS", 50));
        }
    }
}
