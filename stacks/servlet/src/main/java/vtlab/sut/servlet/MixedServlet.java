package vtlab.sut.servlet;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The profile probe's negative control: all of it the request's own work. Every request computes for ms milliseconds
 * in the service's own code, sleeps ms, then parks ms with no one to unpark it (the park ends at its own timeout): at one
 * connection about a third of its time each on CPU, sleeping and parked, and nothing queued for anything another thread
 * holds, so a breakdown that names the park a lock's queue, or any part of it a bottleneck, is wrong.
 */
public class MixedServlet extends HttpServlet {
    static volatile double sink;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        Long ms = SleepServlet.millis(req, resp, 1, 1_000);
        if (ms == null) return;
        compute(ms);
        if (!SleepServlet.sleep(ms, resp)) return;
        park(ms);
        resp.setContentType("text/plain");
        resp.getWriter().print("computed, slept and parked " + ms + " ms each\n");
    }

    static void compute(long ms) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        double x = 1;
        while (System.nanoTime() < end) x += Math.sqrt(x);
        sink = x;
    }

    /** Parked for the whole time (a spurious wake-up parks again). */
    static void park(long ms) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        for (long left; (left = end - System.nanoTime()) > 0; ) LockSupport.parkNanos(MixedServlet.class, left);
    }
}
