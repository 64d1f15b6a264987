package vtlab.sut.springmvc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gate on a real Tomcat, in front of a handler that holds each request until the test lets it go. */
class RequestGateTest {
    static final Duration WAIT = Duration.ofSeconds(10);
    /** Tomcat's loggers, held so their level sticks: its start-up lines and the failing handler's stack trace are not news. */
    static final List<java.util.logging.Logger> TOMCAT_LOGS = java.util.stream.Stream.of("org.apache.catalina", "org.apache.coyote",
            "org.apache.tomcat").map(java.util.logging.Logger::getLogger).toList();

    static {
        TOMCAT_LOGS.forEach(l -> l.setLevel(java.util.logging.Level.OFF));
    }

    @TempDir
    Path base;
    Tomcat tomcat;
    final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    /** Requests inside the handler; the handler waits for {@link #release}. */
    final Semaphore entered = new Semaphore(0);
    volatile CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() throws Exception {
        release.countDown();
        if (tomcat != null) {
            tomcat.stop();
            tomcat.destroy();
        }
    }

    URI start(RequestGate gate) throws Exception {
        tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setPort(0);
        tomcat.getConnector();
        Context ctx = tomcat.addContext("", null);
        // addContext sets (and pins) its own logger's level: off too, the failing handler's SEVERE line is expected
        java.util.Collections.list(java.util.logging.LogManager.getLogManager().getLoggerNames()).stream()
                .filter(n -> n.startsWith("org.apache.catalina.core.ContainerBase"))
                .forEach(n -> java.util.logging.Logger.getLogger(n).setLevel(java.util.logging.Level.OFF));
        Tomcat.addServlet(ctx, "app", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                if (req.getRequestURI().equals("/fail")) throw new IllegalStateException("the handler fails");
                if (!RequestGate.LAB_PATHS.contains(req.getRequestURI())) {
                    entered.release();
                    try {
                        if (!release.await(WAIT.toSeconds(), TimeUnit.SECONDS)) throw new IllegalStateException("never released");
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                res.getWriter().write("ok " + req.getRequestURI());
            }
        });
        ctx.addServletMappingDecoded("/", "app");
        FilterDef def = new FilterDef();
        def.setFilterName("gate");
        def.setFilter(gate);
        ctx.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName("gate");
        map.addURLPattern("/*");
        ctx.addFilterMap(map);
        tomcat.start();
        return URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort());
    }

    CompletableFuture<HttpResponse<String>> send(URI base, String path) {
        return client.sendAsync(HttpRequest.newBuilder(base.resolve(path)).timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends n requests and returns once all n are inside the handler. */
    List<CompletableFuture<HttpResponse<String>>> hold(URI base, int n) throws InterruptedException {
        List<CompletableFuture<HttpResponse<String>>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(send(base, "/sleep?i=" + i));
        assertTrue(entered.tryAcquire(n, WAIT.toSeconds(), TimeUnit.SECONDS), n + " requests should be let in");
        return out;
    }

    void releaseAll(List<CompletableFuture<HttpResponse<String>>> held) {
        release.countDown();
        for (var f : held) assertEquals(200, f.join().statusCode());
        release = new CountDownLatch(1);
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError(what);
            Thread.sleep(5);
        }
    }

    @Test
    void theLimitTurnsTheNextRequestAwayAtOnceAndGivesItsPermitsBack() throws Exception {
        Requests requests = new Requests();
        URI base = start(new RequestGate(2, requests));
        var held = hold(base, 2);
        assertEquals(2, requests.getInFlight());

        long t0 = System.nanoTime();
        HttpResponse<String> third = send(base, "/sleep?i=2").join();
        assertEquals(503, third.statusCode());
        assertEquals("concurrency limit 2 reached", third.body());
        assertTrue(System.nanoTime() - t0 < WAIT.toNanos() / 2, "rejected without waiting for a permit");
        assertEquals(1, requests.getRejected());
        assertEquals(0, entered.availablePermits(), "the rejected request never reached the handler");
        assertEquals(2, requests.getInFlight(), "a request the limit turns away is never in flight");
        assertEquals(2, requests.getInFlightMax(), "nor in the peak: the peak is of the requests the limit let in");

        // the lab's endpoints pass while the limit is reached, and are not counted
        HttpResponse<String> info = send(base, "/api/runtime-info").join();
        assertEquals(200, info.statusCode());
        assertEquals(2, requests.getInFlight());

        releaseAll(held);
        await(() -> requests.getInFlight() == 0, "in flight back to 0, was " + requests.getInFlight());
        assertEquals(2, requests.getCompleted());
        assertEquals(2, requests.getInFlightMax(), "the limit's 2, never the 3 that arrived");

        // both permits came back: two requests are let in together again
        releaseAll(hold(base, 2));
        await(() -> requests.getInFlight() == 0, "in flight back to 0");
        assertEquals(4, requests.getCompleted());
        assertEquals(1, requests.getRejected());
        requests.resetMax();
        assertEquals(0, requests.getInFlightMax());
    }

    @Test
    void aFailingHandlerGivesItsPermitBackAndCounts() throws Exception {
        Requests requests = new Requests();
        URI base = start(new RequestGate(1, requests));
        assertEquals(500, send(base, "/fail").join().statusCode());
        await(() -> requests.getInFlight() == 0, "in flight back to 0");
        assertEquals(1, requests.getCompleted());
        releaseAll(hold(base, 1)); // the one permit is free again
        assertEquals(0, requests.getRejected());
    }

    @Test
    void withoutALimitItOnlyCounts() throws Exception {
        Requests requests = new Requests();
        URI base = start(new RequestGate(0, requests));
        var held = hold(base, 5);
        assertEquals(5, requests.getInFlight());
        releaseAll(held);
        await(() -> requests.getInFlight() == 0, "in flight back to 0");
        assertEquals(5, requests.getInFlightMax());
        assertEquals(5, requests.getCompleted());
        assertEquals(0, requests.getRejected());
        assertEquals(java.util.Map.of("platform", 5L, "virtual", 0L), requests.byThread(), "Tomcat's own pool: platform threads");
        assertThrows(IllegalArgumentException.class, () -> new RequestGate(-1, requests));
    }

    /**
     * What the lab reads once a second is each second's peak, not a sample: requests that came and went between two
     * reads are in it, and a flood the limit turns away (dozens at once, while every permit is held) never raises it.
     */
    @Test
    void eachWindowsPeakIsOfAdmittedRequestsAndSurvivesBetweenReads() throws Exception {
        Requests requests = new Requests();
        URI base = start(new RequestGate(3, requests));
        assertEquals(0, requests.takeMax(), "nothing yet");

        var held = hold(base, 3);
        List<CompletableFuture<HttpResponse<String>>> flood = new ArrayList<>();
        for (int i = 0; i < 40; i++) flood.add(send(base, "/sleep?flood=" + i));
        for (var f : flood) assertEquals(503, f.join().statusCode());
        assertEquals(40, requests.getRejected());
        assertEquals(3, requests.getInFlight());
        assertEquals(3, requests.takeMax(), "the limit's 3, however many were turned away meanwhile");
        assertEquals(3, requests.getInFlightMax(), "the next window starts at the 3 still in flight");

        releaseAll(held);
        await(() -> requests.getInFlight() == 0, "in flight back to 0");
        // read now, a sample says 0; the window's peak still says 3
        assertEquals(0, requests.getInFlight());
        assertEquals(3, requests.takeMax(), "a peak between two reads is kept");
        assertEquals(0, requests.takeMax(), "and counted in one window only");

        // two requests in and out between reads: the next read says 2
        releaseAll(hold(base, 2));
        await(() -> requests.getInFlight() == 0, "in flight back to 0");
        assertEquals(2, requests.takeMax());
        assertEquals(5, requests.getCompleted());
    }

    @Test
    void theCountersAreAPlatformMBean() throws Exception {
        Requests requests = new Requests().register();
        URI base = start(new RequestGate(1, requests));
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(Requests.NAME);
        var held = hold(base, 1);
        assertEquals(503, send(base, "/sleep?i=1").join().statusCode());
        assertEquals(1, server.getAttribute(name, "InFlight"));
        assertEquals(1L, server.getAttribute(name, "Rejected"));
        assertEquals(1, server.getAttribute(name, "InFlightMax"), "the rejected one is not in the peak");
        server.invoke(name, "resetMax", null, null);
        assertEquals(1, server.getAttribute(name, "InFlightMax"));
        releaseAll(held);
        await(() -> requests.getInFlight() == 0, "in flight back to 0");
        assertEquals(1, server.invoke(name, "takeMax", null, null), "the window's peak, as the lab reads it");
        assertEquals(0, server.getAttribute(name, "InFlightMax"), "a new window from the 0 in flight now");
        assertEquals(1L, server.getAttribute(name, "Completed"));
        new Requests().register();
        assertEquals(0L, server.getAttribute(name, "Completed"), "a second registration replaces the first");
        server.unregisterMBean(name);
    }
}
