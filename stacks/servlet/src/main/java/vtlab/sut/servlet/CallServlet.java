package vtlab.sut.servlet;

import java.io.IOException;
import java.net.http.HttpResponse;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * GET /call?ms=N: the downstream call as plain blocking code (HttpClient.send). On the platform pool it holds a pool
 * thread for the whole wait; on virtual threads the thread parks and its carrier serves other requests.
 */
public class CallServlet extends HttpServlet {
    private final Downstream downstream;

    public CallServlet(Downstream downstream) {
        this.downstream = downstream;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        long ms = Downstream.ms(req, resp);
        if (ms < 0) return;
        HttpResponse<String> r;
        try {
            r = downstream.client().send(downstream.request(ms), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            resp.sendError(503, "interrupted");
            return;
        } catch (IOException e) {
            resp.sendError(502, "downstream failed: " + e);
            return;
        }
        CallAsyncServlet.answer(resp, r, "blocking", ms);
    }
}
