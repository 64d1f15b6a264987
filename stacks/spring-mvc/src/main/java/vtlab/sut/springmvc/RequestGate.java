package vtlab.sut.springmvc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.Semaphore;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * In front of the application's handlers: when CONCURRENCY_LIMIT is above 0, lets at most that many through at once,
 * and counts the requests it lets through as in flight ({@link Requests}; those it turns away as rejected only). An
 * unbounded virtual-thread executor has no implicit bulkhead; the limit restores the cap a 200-thread pool gave. It
 * does not queue: a request that finds no permit is answered 503 at once (as Resilience4j's SemaphoreBulkhead with its
 * default maxWaitDuration 0), so overload shows as rejections rather than as waiting. The lab's own endpoints
 * ({@link #LAB_PATHS}) pass uncounted and unlimited: the lab must reach them under any load.
 */
public final class RequestGate implements Filter {
    static final Set<String> LAB_PATHS = Set.of("/api/runtime-info", "/api/pool");

    private final int limit;
    private final Semaphore permits;
    private final Requests requests;

    /** @param limit at most this many requests in the handlers at once; 0: no limit */
    public RequestGate(int limit, Requests requests) {
        if (limit < 0) throw new IllegalArgumentException("the concurrency limit must be 0 (off) or positive, not " + limit);
        this.limit = limit;
        this.permits = limit == 0 ? null : new Semaphore(limit);
        this.requests = requests;
    }

    /** The counters it keeps. */
    public Requests requests() {
        return requests;
    }

    /** The limit in force; 0: none. */
    public int limit() {
        return limit;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) req;
        String path = http.getRequestURI().substring(http.getContextPath().length());
        if (LAB_PATHS.contains(path)) {
            chain.doFilter(req, res);
            return;
        }
        requests.reached(path); // what ran it: a virtual row's request on a platform thread is seen
        if (permits != null && !permits.tryAcquire()) {
            // turned away: counted as rejected, never as in flight (the peak is of requests the limit let in)
            requests.rejected();
            reject((HttpServletResponse) res);
            return;
        }
        requests.entered();
        try {
            chain.doFilter(req, res);
        } finally {
            requests.completed();
            // out of flight before its permit is free: in flight never exceeds the limit, not even for an instant
            requests.left();
            if (permits != null) permits.release();
        }
    }

    private void reject(HttpServletResponse res) throws IOException {
        res.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        res.setContentType("text/plain;charset=UTF-8");
        res.getOutputStream().write(("concurrency limit " + limit + " reached").getBytes(StandardCharsets.UTF_8));
    }
}
