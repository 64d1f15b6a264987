package vtlab.sut.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/** The real server (Reactor Netty on an ephemeral port), started once per mode that matters. */
class WebfluxApplicationTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static ConfigurableApplicationContext virtualNetty, reactive, coroutine;

    @BeforeAll
    static void start() {
        virtualNetty = start("virtual-netty");
        reactive = start("reactive");
        coroutine = start("coroutine");
    }

    @AfterAll
    static void stop() {
        if (virtualNetty != null) virtualNetty.close();
        if (reactive != null) reactive.close();
        if (coroutine != null) coroutine.close();
    }

    private static ConfigurableApplicationContext start(String mode) {
        return SpringApplication.run(WebfluxApplication.class, "--server.port=0", "--THREAD_MODE=" + mode);
    }

    private static URI uri(ConfigurableApplicationContext ctx, String path) {
        return URI.create("http://127.0.0.1:" + ctx.getEnvironment().getProperty("local.server.port") + path);
    }

    private static HttpResponse<String> get(ConfigurableApplicationContext ctx, String path) throws Exception {
        // One connection per request: twice (on a busy CI machine) the answer to /delay?ms=5, sent on a keep-alive
        // connection right after another answer, never came on Reactor Netty 1.3.7 (reactor-netty#4361, "stops
        // reading after a queued request completes synchronously"; the stack now pins 1.3.8, see
        // aKeepAliveConnectionAnswersRequestsQueuedBehindADelayedOne); these tests are about routing and waits.
        // The timeout still fails a lost answer in 30 s instead of hanging the suite.
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            return http.send(HttpRequest.newBuilder(uri(ctx, path)).timeout(java.time.Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    /**
     * reactor-netty#4361's case: two requests queued on one keep-alive connection behind a delayed one, then, once
     * all three are answered, a fourth on the same connection. On 1.3.7 the connection stopped reading when its queue
     * drained: the fourth never came, 20 times in 20 here (on one CPU with four event loops that stalled hello
     * connections under wrk for seconds). 1.3.8 answers it.
     */
    @Test
    void aKeepAliveConnectionStillReadsAfterRequestsQueuedBehindADelayedOne() throws Exception {
        java.net.URI base = uri(reactive, "/");
        try (java.net.Socket socket = new java.net.Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(5000);
            String req = "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
            java.io.OutputStream out = socket.getOutputStream();
            java.io.InputStream in = socket.getInputStream();
            out.write((req.formatted("/delay?ms=50") + req.formatted("/hello") + req.formatted("/hello")).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.flush();
            assertEquals(3, answers(in, 3), "the three queued requests answered");
            out.write(req.formatted("/hello").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.flush();
            assertEquals(1, answers(in, 1), "the connection still reads once its queue drained (reactor-netty#4361)");
        }
    }

    /** How many "200" status lines and hello pages arrive, up to want of each, before the socket's read timeout. */
    private static int answers(java.io.InputStream in, int want) throws java.io.IOException {
        StringBuilder got = new StringBuilder();
        byte[] buf = new byte[8192];
        while (count(got, "HTTP/1.1 200") < want || count(got, "</html>") < want - 1) {
            int n;
            try {
                n = in.read(buf);
            } catch (java.net.SocketTimeoutException e) {
                break;
            }
            if (n < 0) break;
            got.append(new String(buf, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1));
        }
        return count(got, "HTTP/1.1 200");
    }

    private static int count(CharSequence s, String what) {
        return s.toString().split(java.util.regex.Pattern.quote(what), -1).length - 1;
    }

    /** EVENT_LOOPS sets Reactor Netty's loops before it starts; anything but a whole number of 1 or more is refused. */
    @Test
    void eventLoopsAreSetBeforeReactorNettyStartsOrRefused() {
        String before = System.getProperty("reactor.netty.ioWorkerCount");
        try {
            WebfluxApplication.eventLoops(null);
            assertEquals(before, System.getProperty("reactor.netty.ioWorkerCount"), "unset: Reactor Netty's own");
            WebfluxApplication.eventLoops(" 2 ");
            assertEquals("2", System.getProperty("reactor.netty.ioWorkerCount"));
            IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> WebfluxApplication.eventLoops("0"));
            assertEquals("EVENT_LOOPS must be 1 or more, not 0", zero.getMessage());
            IllegalArgumentException word = assertThrows(IllegalArgumentException.class, () -> WebfluxApplication.eventLoops("four"));
            assertEquals("EVENT_LOOPS must be a whole number, not 'four'", word.getMessage());
        } finally {
            if (before == null) System.clearProperty("reactor.netty.ioWorkerCount");
            else System.setProperty("reactor.netty.ioWorkerCount", before);
        }
    }

    /** Each wait really waits, and concurrent waits overlap (no thread is held while waiting). */
    private static void assertWaitsAndOverlaps(String path, String body) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> r = get(virtualNetty, path);
        long tookMs = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(body, r.body());
        assertTrue(tookMs >= 150, path + " answered before its wait: " + tookMs + " ms");

        // 64 requests of 150 ms at once on a server with a handful of event loops: serialized they would take 9.6 s.
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        long t1 = System.nanoTime();
        for (int i = 0; i < 64; i++) {
            all.add(HTTP.sendAsync(HttpRequest.newBuilder(uri(virtualNetty, path)).timeout(java.time.Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (var f : all) assertEquals(200, f.get().statusCode());
        long allMs = (System.nanoTime() - t1) / 1_000_000;
        assertTrue(allMs < 4_000, "64 concurrent waits of 150 ms took " + allMs + " ms: they did not overlap");
    }

    @Test
    void monoDelayWaitsWithoutHoldingAThread() throws Exception {
        assertWaitsAndOverlaps("/delay?ms=150", "mono delayed 150 ms\n");
    }

    @Test
    void coroutineDelayWaitsWithoutHoldingAThread() throws Exception {
        assertWaitsAndOverlaps("/co/delay?ms=150", "coroutine delayed 150 ms\n");
    }

    @Test
    void blockingSleepRunsOnVirtualThreadsBehindNetty() throws Exception {
        assertWaitsAndOverlaps("/vt/sleep?ms=150", "slept 150 ms on a virtual thread\n");
    }

    @Test
    void blockingSleepIsRefusedWhereItWouldBlockTheEventLoop() throws Exception {
        // a sleep of 20 s asked: a refusal comes back in a fraction of it even on a machine busy with other builds
        // (2 s against 1.5 s failed there: the answer itself took 1.6 s)
        long t0 = System.nanoTime();
        HttpResponse<String> r = get(reactive, "/vt/sleep?ms=20000");
        assertEquals(503, r.statusCode());
        assertTrue((System.nanoTime() - t0) / 1_000_000 < 10_000, "refused without sleeping");
        assertEquals(200, get(reactive, "/delay?ms=1").statusCode());
    }

    @Test
    void sleepIsTheModesOwnHandler() throws Exception {
        assertEquals("slept 120 ms on a virtual thread\n", get(virtualNetty, "/sleep?ms=120").body());
        assertEquals("mono delayed 120 ms\n", get(reactive, "/sleep?ms=120").body());
        assertTrue(get(reactive, "/hello").body().contains("<h1>Hello World!</h1>"), "the article's page, as every server sends it");
        assertEquals("coroutine delayed 120 ms\n", get(coroutine, "/sleep?ms=120").body());
        assertTrue(get(coroutine, "/runtime-info").body().contains("\"sleep_handler\":\"/co/delay\""));
        // the explicit endpoints stay where they are
        assertEquals("mono delayed 5 ms\n", get(coroutine, "/delay?ms=5").body());
    }

    @Test
    void refusesWaitsOutOfRange() throws Exception {
        for (String p : List.of("/delay?ms=-1", "/co/delay?ms=60001", "/vt/sleep?ms=abc", "/delay?ms=abc")) {
            assertEquals(400, get(virtualNetty, p).statusCode(), p);
        }
    }

    @Test
    void runtimeInfoReportsTheVariant() throws Exception {
        String vn = get(virtualNetty, "/runtime-info").body();
        assertTrue(vn.contains("\"thread_mode\":\"virtual-netty\""), vn);
        assertTrue(vn.contains("\"blocking_executor\":\"VirtualThreadTaskExecutor\""), vn);
        assertTrue(vn.contains("\"server\":\"reactor-netty\""), vn);
        assertTrue(vn.contains("\"jdk_major\":" + Runtime.version().feature()), vn);
        int loops = Math.max(Runtime.getRuntime().availableProcessors(), 4);
        assertTrue(vn.contains("\"event_loop_threads\":" + loops), vn);

        String re = get(reactive, "/runtime-info").body();
        assertTrue(re.contains("\"thread_mode\":\"reactive\""), re);
        assertTrue(re.contains("\"blocking_executor\":null"), re);
    }

    @Test
    void refusesAnUnknownMode() {
        Exception e = assertThrows(Exception.class, () -> start("green").close());
        Throwable root = e;
        while (root.getCause() != null) root = root.getCause();
        assertTrue(root.getMessage().contains("green"), root.getMessage());
    }
}
