package vtlab.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

import vtlab.proc.Env;
import vtlab.tier.fault.Fault;
import vtlab.tier.tool.Jdk;

/**
 * The fault proxy against the real toxiproxy-server (the pinned build, installed by ./vtlab setup): it fronts a
 * dependency, rewrites the SUT's address to it, and each fault changes what a client through it sees, until ended.
 * The dependency here is the JDK's own HTTP server, a fixture that answers at once (not a system under test), as an
 * ExternalDependency: what ./vtlab ab --dependency puts behind the proxy.
 */
class ToxiproxyTierTest {
    @TempDir
    Path tmp;
    HttpServer upstream;
    ToxiproxyTier proxy;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeEach
    void start() throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", ex -> {
            byte[] body = "ok".getBytes();
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        upstream.start();
        proxy = new ToxiproxyTier();
        String ep = "127.0.0.1:" + upstream.getAddress().getPort();
        proxy.start(new RunTier.Context("0-" + (Runtime.getRuntime().availableProcessors() - 1), tmp, tmp, Jdk.current(), TierOptions.NONE, null,
                Map.of("stub", new ExternalDependency("stub", ep, Env.NONE.with("STUB_URL", "http://" + ep).with("OTHER_URL", "http://" + ep + "/other")))));
    }

    @AfterEach
    void stop() {
        if (proxy != null) proxy.close();
        if (upstream != null) upstream.stop(0);
    }

    URI viaProxy() {
        return URI.create(proxy.sutEnv().get("STUB_URL") + "/x");
    }

    /** Milliseconds a request through the proxy took, on a fresh connection each time. */
    long timedGet() throws Exception {
        HttpClient fresh = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long t0 = System.nanoTime();
        HttpResponse<String> r = fresh.send(HttpRequest.newBuilder(viaProxy()).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("ok", r.body());
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Test
    void theSutIsPointedAtTheProxyWhichForwards() throws Exception {
        Env env = proxy.sutEnv();
        assertNotEquals("http://127.0.0.1:" + upstream.getAddress().getPort(), env.get("STUB_URL"), "the dependency's own address is replaced");
        assertEquals(proxy.listens().get("stub"), env.get("STUB_URL").substring("http://".length()));
        assertEquals("http://" + proxy.listens().get("stub") + "/other", env.get("OTHER_URL"), "every setting that held the address");
        assertTrue(timedGet() < 1000);
        assertTrue(proxy.process().isAlive());
    }

    @Test
    void latencyDelaysEachAnswerUntilEnded() throws Exception {
        Fault f = Fault.parse("stub:latency=400ms@0s-1s").getFirst();
        AutoCloseable on = f.kind().begin(f, f.kind().carrier(f, Map.of(ToxiproxyTier.NAME, proxy)));
        assertEquals("vtlab-latency", proxy.proxy("stub").path("toxics").path(0).path("name").asText());
        long slow = timedGet();
        assertTrue(slow >= 400, "with the toxic: " + slow + " ms");
        on.close();
        long fast = timedGet();
        assertTrue(fast < 300, "toxic removed: " + fast + " ms");
        assertEquals(0, proxy.proxy("stub").path("toxics").size());
    }

    @Test
    void downRefusesConnectionsUntilEnded() throws Exception {
        Fault f = Fault.parse("stub:down@0s-1s").getFirst();
        AutoCloseable on = f.kind().begin(f, f.kind().carrier(f, Map.of(ToxiproxyTier.NAME, proxy)));
        assertFalse(proxy.proxy("stub").path("enabled").asBoolean());
        assertThrows(IOException.class, this::timedGet, "nothing listens on the proxy's port while it is down");
        on.close();
        assertTrue(proxy.proxy("stub").path("enabled").asBoolean());
        assertTrue(timedGet() < 1000);
    }

    @Test
    void aDependencyItDoesNotFrontOrALockIsNotItsToCarry() {
        Fault latency = Fault.parse("db:latency=1s@0s-1s").getFirst(), lock = Fault.parse("db:lock@0s-1s").getFirst();
        assertNull(latency.kind().carrier(latency, Map.of(ToxiproxyTier.NAME, proxy)), "no pg behind this proxy");
        assertNull(lock.kind().carrier(lock, Map.of(ToxiproxyTier.NAME, proxy)));
    }

    @Test
    void closingStopsTheServer() {
        ProcessHandle p = proxy.process();
        proxy.close();
        assertFalse(p.isAlive());
        proxy = null;
    }
}
