package vtlab.sut.servlet;

import java.io.IOException;
import java.net.http.HttpResponse;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * GET /call-async?ms=N: the same call refactored to non-blocking (seed 003's alternative): an async servlet hands the
 * request to HttpClient.sendAsync and returns its thread at once; the client's completion writes the answer.
 */
public class CallAsyncServlet extends HttpServlet {
    private final Downstream downstream;

    public CallAsyncServlet(Downstream downstream) {
        this.downstream = downstream;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        long ms = Downstream.ms(req, resp);
        if (ms < 0) return;
        AsyncContext ac = req.startAsync();
        ac.setTimeout(60_000);
        downstream.client().sendAsync(downstream.request(ms), HttpResponse.BodyHandlers.ofString()).whenComplete((r, err) -> {
            HttpServletResponse out = (HttpServletResponse) ac.getResponse();
            try {
                if (err != null) out.sendError(502, "downstream failed: " + err);
                else answer(out, r, "async", ms);
            } catch (IOException | RuntimeException e) {
                // the client went away: nothing left to answer
            } finally {
                ac.complete();
            }
        });
    }

    static void answer(HttpServletResponse resp, HttpResponse<String> r, String how, long ms) throws IOException {
        if (r.statusCode() != 200) {
            resp.sendError(502, "downstream answered " + r.statusCode());
            return;
        }
        resp.setContentType("text/plain");
        resp.setCharacterEncoding("UTF-8");
        resp.getWriter().print("downstream answered after " + ms + " ms (" + how + " call)\n");
    }
}
