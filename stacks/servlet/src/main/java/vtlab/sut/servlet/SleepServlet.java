package vtlab.sut.servlet;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** The article's blocking servlet: Thread.sleep(ms) on the request thread, then a short text. */
public class SleepServlet extends HttpServlet {
    private final long defaultMs;

    public SleepServlet(long defaultMs) {
        this.defaultMs = defaultMs;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        long ms = defaultMs;
        String p = req.getParameter("ms");
        if (p != null) {
            try {
                ms = Long.parseLong(p);
            } catch (NumberFormatException e) {
                resp.sendError(400, "ms must be a whole number of milliseconds");
                return;
            }
            if (ms < 0 || ms > 60_000) {
                resp.sendError(400, "ms must be between 0 and 60000");
                return;
            }
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            resp.sendError(503, "interrupted");
            return;
        }
        resp.setContentType("text/plain");
        resp.getWriter().print("slept " + ms + " ms\n");
    }
}
