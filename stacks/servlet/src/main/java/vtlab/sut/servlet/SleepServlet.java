package vtlab.sut.servlet;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import vtlab.sut.kit.Article;

/** The article's blocking servlet: Thread.sleep(ms) on the request thread, then a short text. */
public class SleepServlet extends HttpServlet {
    private final long defaultMs;

    public SleepServlet(long defaultMs) {
        this.defaultMs = defaultMs;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        Long ms = millis(req, resp, defaultMs, Article.MAX_SLEEP_MS);
        if (ms == null || !sleep(ms, resp)) return;
        resp.setContentType("text/plain");
        resp.getWriter().print(Article.slept(ms));
    }

    /** The request's ms parameter (dflt without one), or null once a 400 is sent for a bad one. */
    static Long millis(HttpServletRequest req, HttpServletResponse resp, long dflt, long max) throws IOException {
        try {
            return Article.millis(req.getParameter("ms"), dflt, max);
        } catch (IllegalArgumentException e) {
            resp.sendError(400, e.getMessage());
            return null;
        }
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
