package vtlab.sut.servlet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.function.IntSupplier;

/**
 * The service the /call endpoints wait on (seed 003, "Easy to use"): the stub tier when STUB_URL is set (Reactor
 * Netty, a non-blocking delay, so the downstream itself holds no thread), else this server's own /sleep. One JDK
 * HttpClient (HTTP/1.1, its default unbounded connection pool) for both the blocking and the async variant.
 */
public final class Downstream {
    private final String stubUrl;
    private final IntSupplier ownPort;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    public Downstream(String stubUrl, IntSupplier ownPort) {
        this.stubUrl = stubUrl == null || stubUrl.isBlank() ? null : stubUrl.replaceAll("/+$", "");
        this.ownPort = ownPort;
    }

    HttpClient client() {
        return client;
    }

    HttpRequest request(long ms) {
        return HttpRequest.newBuilder(uri(ms)).timeout(Duration.ofSeconds(30)).build();
    }

    URI uri(long ms) {
        return URI.create(stubUrl != null ? stubUrl + "/delay?ms=" + ms : "http://127.0.0.1:" + ownPort.getAsInt() + "/sleep?ms=" + ms);
    }

    /** For runtime-info: where the calls go. */
    static String describe(String stubUrl) {
        return stubUrl == null || stubUrl.isBlank() ? "self /sleep" : "stub " + stubUrl.replaceAll("/+$", "");
    }

    /** The wait asked of the downstream, from ?ms= (default 100), or -1 after a 400 has been sent. */
    static long ms(jakarta.servlet.http.HttpServletRequest req, jakarta.servlet.http.HttpServletResponse resp) throws java.io.IOException {
        String p = req.getParameter("ms");
        long ms;
        try {
            ms = p == null ? 100 : Long.parseLong(p);
        } catch (NumberFormatException e) {
            ms = -1;
        }
        if (ms < 0 || ms > 60_000) {
            resp.sendError(400, "ms must be a whole number between 0 and 60000");
            return -1;
        }
        return ms;
    }
}
