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
        Long ms = millis(req, resp, defaultMs, 60_000);
        if (ms == null || !sleep(ms, resp)) return;
        resp.setContentType("text/plain");
        resp.getWriter().print("slept " + ms + " ms\n");
    }

    /** The request's ms parameter (dflt without one), or null once a 400 is sent for a bad one. */
    static Long millis(HttpServletRequest req, HttpServletResponse resp, long dflt, long max) throws IOException {
        String p = req.getParameter("ms");
        if (p == null) return dflt;
        long ms;
        try {
            ms = Long.parseLong(p);
        } catch (NumberFormatException e) {
            resp.sendError(400, "ms must be a whole number of milliseconds");
            return null;
        }
        if (ms < 0 || ms > max) {
            resp.sendError(400, "ms must be between 0 and " + max);
            return null;
        }
        return ms;
    }

    /** Thread.sleep(ms); false once a 503 is sent for an interrupt. */
    static boolean sleep(long ms, HttpServletResponse resp) throws IOException {
        try {
            Thread.sleep(ms);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            resp.sendError(503, "interrupted");
            return false;
        }
    }
}
