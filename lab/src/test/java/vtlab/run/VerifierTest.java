package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.stack.Request;

/** The check before load sends the request the generators send. */
class VerifierTest {
    @Test
    void theCheckSendsTheWorkloadsMethodHeadersAndBody() throws Exception {
        Request r = new Request("PATCH", List.of(new Request.Header("Content-Type", "application/json"), new Request.Header("X-Trace", "7")),
                Request.Body.of(new byte[] {'{', 0, (byte) 0xff, '}'}));
        HttpRequest h = Verifier.request(URI.create("http://127.0.0.1:1/x"), r);
        assertEquals("PATCH", h.method());
        assertEquals(Map.of("Content-Type", List.of("application/json"), "X-Trace", List.of("7")), h.headers().map());
        assertEquals(4, h.bodyPublisher().orElseThrow().contentLength());
        HttpRequest get = Verifier.request(URI.create("http://127.0.0.1:1/x"), Request.of("GET"));
        assertEquals(Map.of(), get.headers().map());
        assertEquals(0, get.bodyPublisher().orElseThrow().contentLength());
    }
}
