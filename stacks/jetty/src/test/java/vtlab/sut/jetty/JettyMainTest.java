package vtlab.sut.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JettyMainTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(Server s, String path) throws Exception {
        int port = ((ServerConnector) s.getConnectors()[0]).getLocalPort();
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual", "virtual-pool"})
    void servesTheArticlesEndpointsOnTheModesThreads(String mode) throws Exception {
        Server s = JettyMain.start(JettyMain.Settings.fromEnv(Map.of("PORT", "0", "THREAD_MODE", mode, "MAX_THREADS", "64")));
        try {
            HttpResponse<String> hello = get(s, "/hello");
            assertEquals(200, hello.statusCode());
            assertTrue(hello.body().contains("<h1>Hello World!</h1>"));
            long t0 = System.nanoTime();
            HttpResponse<String> sleep = get(s, "/sleep?ms=120");
            assertEquals("slept 120 ms\n", sleep.body());
            assertTrue((System.nanoTime() - t0) / 1_000_000 >= 120, "the servlet really blocks");
            assertEquals(400, get(s, "/sleep?ms=abc").statusCode());

            String info = get(s, "/runtime-info").body();
            assertTrue(info.contains("\"stack\":\"jetty\""), info);
            assertTrue(info.contains("\"thread_mode\":\"" + mode + "\""), info);
            assertTrue(info.contains("\"server\":\"jetty 12.1."), info);
            assertTrue(info.contains("\"max_threads\":64"), info);
            assertTrue(info.contains("\"max_connections\":8192"), info);
            assertTrue(info.contains("\"requests_by_path\":{\"/hello\":1,\"/sleep\":2}"), info);
            // the proof from the server itself: every request on the kind of thread the mode declares
            boolean virtual = !mode.equals("platform");
            assertTrue(info.contains("\"requests_by_thread\":{\"platform\":" + (virtual ? 0 : 3) + ",\"virtual\":" + (virtual ? 3 : 0) + "}"), info);
        } finally {
            s.stop();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"green", "Platform"})
    void anUndeclaredModeIsRefused(String mode) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JettyMain.Settings.fromEnv(Map.of("THREAD_MODE", mode)));
        assertTrue(e.getMessage().contains("platform, virtual, virtual-pool"), e.getMessage());
    }
}
