package vtlab.sut.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServletMainTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(Tomcat t, String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + t.getConnector().getLocalPort() + path);
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Tomcat start(String mode) throws Exception {
        return ServletMain.start(ServletMain.Settings.fromEnv(Map.of("PORT", "0", "THREAD_MODE", mode)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual"})
    void servesTheArticlesEndpointsInBothModes(String mode) throws Exception {
        Tomcat t = start(mode);
        try {
            HttpResponse<String> hello = get(t, "/hello");
            assertEquals(200, hello.statusCode());
            assertTrue(hello.body().contains("<h1>Hello World!</h1>"));
            int size = hello.body().getBytes().length;
            assertTrue(size > 350 && size < 420, "hello page is about 390 bytes, was " + size);

            long t0 = System.nanoTime();
            HttpResponse<String> sleep = get(t, "/sleep?ms=120");
            long tookMs = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(200, sleep.statusCode());
            assertEquals("slept 120 ms\n", sleep.body());
            assertTrue(tookMs >= 120, "the servlet really blocks: " + tookMs + " ms");

            assertEquals(400, get(t, "/sleep?ms=abc").statusCode());

            String info = get(t, "/runtime-info").body();
            assertTrue(info.contains("\"thread_mode\":\"" + mode + "\""), info);
            // every request counted by its path, the query left out, runtime-info's own not (a scenario's mix at the SUT)
            assertTrue(info.contains("\"requests_by_path\":{\"/hello\":1,\"/sleep\":2}"), info);
            // and by the kind of thread that ran them: all three on the mode's own
            assertTrue(info.contains("\"requests_by_thread\":{\"platform\":" + (mode.equals("virtual") ? 0 : 3) + ",\"virtual\":"
                    + (mode.equals("virtual") ? 3 : 0) + "}"), info);
            assertTrue(info.contains("\"max_connections\":8192"), info);
            assertTrue(info.contains("\"address\":\"127.0.0.1\""), info);
            if (mode.equals("virtual")) {
                assertTrue(info.contains("StandardVirtualThreadExecutor"), info);
                assertTrue(info.contains("\"max_threads\":null"), info);
            } else {
                assertTrue(info.contains("\"executor_class\":\"org.apache.catalina.core.StandardThreadExecutor\""), info);
                assertTrue(info.contains("\"max_threads\":200"), info);
                assertTrue(info.contains("\"min_spare_threads\":25"), info);
            }
        } finally {
            t.stop();
            t.destroy();
        }
    }

    /** ADDRESS: where a run across hosts reaches the service (its host's address), not only 127.0.0.1. */
    @org.junit.jupiter.api.Test
    void listensOnTheAddressGiven() throws Exception {
        Tomcat t = ServletMain.start(ServletMain.Settings.fromEnv(Map.of("PORT", "0", "ADDRESS", "127.0.0.2")));
        try {
            int port = t.getConnector().getLocalPort();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.2:" + port + "/runtime-info")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(r.body().contains("\"address\":\"127.0.0.2\""), r.body());
            try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1000);
                org.junit.jupiter.api.Assertions.fail("127.0.0.1:" + port + " is not where it listens");
            } catch (java.io.IOException refused) {
                // only on the address given
            }
        } finally {
            t.stop();
            t.destroy();
        }
    }

    @org.junit.jupiter.api.Test
    void sleepRunsOnAVirtualThreadInVirtualMode() throws Exception {
        Tomcat t = start("virtual");
        try {
            // The executor names its threads; a virtual executor's threads are virtual.
            var exec = (org.apache.catalina.Executor) t.getService().findExecutors()[0];
            var seen = new java.util.concurrent.CompletableFuture<Boolean>();
            exec.execute(() -> seen.complete(Thread.currentThread().isVirtual()));
            assertTrue(seen.get());
        } finally {
            t.stop();
            t.destroy();
        }
    }

    @org.junit.jupiter.api.Test
    void rejectsAnUnknownMode() {
        var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ServletMain.Settings.fromEnv(Map.of("THREAD_MODE", "green")));
        assertTrue(e.getMessage().contains("green"));
    }

    @org.junit.jupiter.api.Test
    void jsonEscapesStrings() {
        var m = new java.util.LinkedHashMap<String, Object>();
        m.put("a", "x\"y\n");
        m.put("b", java.util.Arrays.asList(1, null));
        assertEquals("{\"a\":\"x\\\"y\\n\",\"b\":[1,null]}", vtlab.sut.kit.Json.write(m));
    }
}
