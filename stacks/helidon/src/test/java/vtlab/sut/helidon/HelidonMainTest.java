package vtlab.sut.helidon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import io.helidon.webserver.WebServer;
import org.junit.jupiter.api.Test;

class HelidonMainTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(WebServer s, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesTheArticlesEndpointsOnVirtualThreads() throws Exception {
        WebServer s = HelidonMain.start(HelidonMain.Settings.fromEnv(Map.of("PORT", "0", "MAX_CONNECTIONS", "500")));
        try {
            HttpResponse<String> hello = get(s, "/hello");
            assertEquals(200, hello.statusCode());
            assertTrue(hello.body().contains("<h1>Hello World!</h1>"));
            int size = hello.body().getBytes().length;
            assertTrue(size > 350 && size < 420, "the same ~390 B page as the servlets: " + size);
            long t0 = System.nanoTime();
            assertEquals("slept 120 ms\n", get(s, "/sleep?ms=120").body());
            assertTrue((System.nanoTime() - t0) / 1_000_000 >= 120, "the handler really blocks");
            assertEquals(400, get(s, "/sleep?ms=-1").statusCode());

            String info = get(s, "/runtime-info").body();
            assertTrue(info.contains("\"stack\":\"helidon\""), info);
            assertTrue(info.contains("\"thread_mode\":\"virtual\""), info);
            assertTrue(info.contains("\"server\":\"helidon 4.5.0\""), info);
            assertTrue(info.contains("\"max_threads\":null"), info);
            assertTrue(info.contains("\"max_connections\":500"), info);
            assertTrue(info.contains("\"requests_by_path\":{\"/hello\":1,\"/sleep\":2}"), info);
            assertTrue(info.contains("\"requests_by_thread\":{\"platform\":0,\"virtual\":3}"), info);
        } finally {
            s.stop();
        }
    }

    @Test
    void hasNoPlatformMode() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HelidonMain.Settings.fromEnv(Map.of("THREAD_MODE", "platform")));
        assertEquals("THREAD_MODE must be one of virtual, not platform", e.getMessage());
    }
}
