package vtlab.sut.servlet;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * A positive control for the profile probe's "blocked on a monitor": every request enters one shared
 * {@code synchronized} lock and holds it for ms milliseconds (a Thread.sleep inside it, so the lock, not the CPU, is
 * the limit: at most 1000 / ms requests a second whatever the threads), then answers a short text.
 */
public class MonitorServlet extends HttpServlet {
    /** The one lock every request takes; a class of its own so a profile names it. */
    static final class Ledger {
        long entries;
    }

    static final Ledger LEDGER = new Ledger();

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        Long ms = SleepServlet.millis(req, resp, 1, 1_000);
        if (ms == null) return;
        synchronized (LEDGER) {
            LEDGER.entries++;
            if (!SleepServlet.sleep(ms, resp)) return;
        }
        resp.setContentType("text/plain");
        resp.getWriter().print("held the lock " + ms + " ms\n");
    }
}
