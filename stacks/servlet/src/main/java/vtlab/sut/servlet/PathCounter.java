package vtlab.sut.servlet;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;

import vtlab.sut.kit.RequestCounter;

/**
 * The kit's request counting as a servlet filter on /*, for any servlet container (Tomcat here, Jetty's ee10 too):
 * each request by path, by the kind of thread that runs it and in flight while the chain runs (runtime-info's
 * requests_by_path, requests_by_thread, in_flight_peak). Plain jakarta.servlet: no container class, so another
 * container can register it.
 */
public final class PathCounter implements Filter {
    public static final String NAME = "vtlab-path-counter";
    private final RequestCounter counter = RequestCounter.standard();

    public RequestCounter counter() {
        return counter;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        boolean counted = counter.enter(((HttpServletRequest) req).getRequestURI());
        try {
            chain.doFilter(req, res);
        } finally {
            if (counted) counter.leave();
        }
    }
}
