package vtlab.sut.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;

import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.sun.net.httpserver.HttpServer;

/** Seed 003's I/O endpoints on a real Tomcat: body counting, response sizes, blocking vs async downstream calls. */
class ServletIoTest {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static Tomcat start(String... kv) throws Exception {
        Map<String, String> env = new HashMap<>(Map.of("PORT", "0"));
        for (int i = 0; i < kv.length; i += 2) env.put(kv[i], kv[i + 1]);
        return ServletMain.start(ServletMain.Settings.fromEnv(env));
    }

    private static URI uri(Tomcat t, String path) {
        return URI.create("http://127.0.0.1:" + t.getConnector().getLocalPort() + path);
    }

    private HttpResponse<String> post(Tomcat t, String path, byte[] body) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(t, path)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<byte[]> getBytes(Tomcat t, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(t, path)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static void stop(Tomcat t) throws Exception {
        t.stop();
        t.destroy();
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual"})
    void bothCountersCountEveryByteOfTheBody(String mode) throws Exception {
        Tomcat t = start("THREAD_MODE", mode);
        try {
            for (int size : new int[] {0, 1, 1000, 8193, 1 << 20}) {
                for (String path : List.of("/count", "/count-async")) {
                    HttpResponse<String> r = post(t, path, new byte[size]);
                    assertEquals(200, r.statusCode(), path + " " + size);
                    assertEquals("Total bytes read = [" + size + "]", r.body(), path);
                }
            }
        } finally {
            stop(t);
        }
    }

    /** Starts a POST whose body arrives in two parts, the second one much later. */
    private static Socket slowUpload(Tomcat t, String path, int size) throws Exception {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", t.getConnector().getLocalPort()));
        OutputStream out = s.getOutputStream();
        out.write(("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + size + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(new byte[size / 2]);
        out.flush();
        return s;
    }

    private static void sendRest(Socket s, int size) throws Exception {
        s.getOutputStream().write(new byte[size - size / 2]);
        s.getOutputStream().flush();
    }

    private static String answer(Socket s) throws Exception {
        try (s) {
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    /** How long a GET /hello takes while two uploads are stalled half-way, on a one-thread pool. */
    private long helloMsWhileUploadsStall(String path) throws Exception {
        Tomcat t = start("THREAD_MODE", "platform", "MAX_THREADS", "1", "MIN_SPARE_THREADS", "1");
        try {
            List<Socket> uploads = List.of(slowUpload(t, path, 4000), slowUpload(t, path, 4000));
            Thread.sleep(300); // both requests are dispatched and waiting for the rest of their bodies
            CompletableFuture<HttpResponse<String>> hello = http.sendAsync(HttpRequest.newBuilder(uri(t, "/hello")).build(),
                    HttpResponse.BodyHandlers.ofString());
            long t0 = System.nanoTime();
            try {
                hello.get(1500, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // the only thread is blocked in a read
            }
            long waitedMs = (System.nanoTime() - t0) / 1_000_000;
            // complete every upload before reading any answer: which one the single thread took first is not fixed
            for (Socket s : uploads) sendRest(s, 4000);
            for (Socket s : uploads) assertTrue(answer(s).endsWith("Total bytes read = [4000]"), path);
            assertEquals(200, hello.get().statusCode());
            return waitedMs;
        } finally {
            stop(t);
        }
    }

    @Test
    void blockingReadHoldsThePoolThreadNonBlockingReadDoesNot() throws Exception {
        assertTrue(helloMsWhileUploadsStall("/count") >= 1400, "the blocking read held the only thread");
        assertTrue(helloMsWhileUploadsStall("/count-async") < 1000, "the ReadListener let the thread go");
    }

    @Test
    void bytesAnswersExactlyNBytes() throws Exception {
        Tomcat t = start("THREAD_MODE", "virtual");
        try {
            for (int n : new int[] {0, 10, 1024, 100 * 1024, 1 << 20}) {
                HttpResponse<byte[]> r = getBytes(t, "/bytes?n=" + n);
                assertEquals(200, r.statusCode());
                assertEquals(n, r.body().length);
                assertEquals(String.valueOf(n), r.headers().firstValue("content-length").orElseThrow());
                for (byte b : r.body()) assertEquals('x', b);
            }
            for (String bad : List.of("-1", "abc", String.valueOf(BytesServlet.MAX + 1))) {
                assertEquals(400, getBytes(t, "/bytes?n=" + bad).statusCode(), bad);
            }
            assertEquals(400, getBytes(t, "/bytes").statusCode());
        } finally {
            stop(t);
        }
    }

    /** A downstream like the stub: /delay?ms=N answers after N ms, on virtual threads (it never runs out). */
    private static HttpServer stub() throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
        s.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        s.createContext("/delay", ex -> {
            long ms = Long.parseLong(ex.getRequestURI().getQuery().replace("ms=", ""));
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "{\"source\":\"stub\"}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        s.start();
        return s;
    }

    /** Wall time of n concurrent GETs, each asserted to answer 200 with the call's text. */
    private long concurrentMs(Tomcat t, String path, int n, String how) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            all.add(http.sendAsync(HttpRequest.newBuilder(uri(t, path)).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (var f : all) {
            assertEquals(200, f.get().statusCode(), f.get().body());
            assertTrue(f.get().body().contains("(" + how + " call)"), f.get().body());
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Test
    void theAsyncCallFreesPoolThreadsTheBlockingCallHoldsThem() throws Exception {
        HttpServer stub = stub();
        Tomcat t = start("THREAD_MODE", "platform", "MAX_THREADS", "2", "MIN_SPARE_THREADS", "2",
                "STUB_URL", "http://127.0.0.1:" + stub.getAddress().getPort() + "/");
        try {
            assertTrue(http.send(HttpRequest.newBuilder(uri(t, "/runtime-info")).build(), HttpResponse.BodyHandlers.ofString())
                    .body().contains("\"downstream\":\"stub http://127.0.0.1:" + stub.getAddress().getPort() + "\""));
            // 10 calls of 300 ms: two pool threads serve the blocking ones five deep (>= 1.5 s); the async ones overlap
            long blocking = concurrentMs(t, "/call?ms=300", 10, "blocking");
            long async = concurrentMs(t, "/call-async?ms=300", 10, "async");
            assertTrue(blocking >= 1450, "blocking calls on 2 threads: " + blocking + " ms");
            assertTrue(async < 1200, "async calls on 2 threads: " + async + " ms");
            assertEquals(400, http.send(HttpRequest.newBuilder(uri(t, "/call-async?ms=x")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode());
        } finally {
            stop(t);
            stub.stop(0);
        }
    }

    @Test
    void blockingCallsOverlapOnVirtualThreadsAndFallBackToTheOwnSleep() throws Exception {
        Tomcat t = start("THREAD_MODE", "virtual");
        try {
            String info = http.send(HttpRequest.newBuilder(uri(t, "/runtime-info")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(info.contains("\"downstream\":\"self /sleep\""), info);
            long blocking = concurrentMs(t, "/call?ms=300", 10, "blocking");
            assertTrue(blocking >= 300 && blocking < 1200, "10 blocking calls on virtual threads overlap: " + blocking + " ms");
        } finally {
            stop(t);
        }
    }
}
