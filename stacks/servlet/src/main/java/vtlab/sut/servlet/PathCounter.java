package vtlab.sut.servlet;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;

import org.apache.catalina.Context;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * Requests received per path (the query left out), since start: runtime-info's requests_by_path, so the lab can count
 * a scenario's mix at the SUT itself (the generator's word is not the evidence). runtime-info's own requests are not
 * counted. One LongAdder per path: no lock on the request path. Each request is also counted by the kind of thread
 * that runs it (runtime-info's requests_by_thread: virtual, platform), so that a virtual row whose requests were also
 * served on platform threads is seen, not assumed away.
 */
final class PathCounter implements Filter {
    static final String RUNTIME_INFO = "/runtime-info";
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final LongAdder onVirtual = new LongAdder(), onPlatform = new LongAdder();

    static PathCounter addTo(Context ctx) {
        PathCounter c = new PathCounter();
        FilterDef def = new FilterDef();
        def.setFilterName("vtlab-path-counter");
        def.setFilter(c);
        ctx.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName("vtlab-path-counter");
        map.addURLPatternDecoded("/*");
        ctx.addFilterMap(map);
        return c;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        String path = ((HttpServletRequest) req).getRequestURI();
        if (!RUNTIME_INFO.equals(path)) {
            counts.computeIfAbsent(path, p -> new LongAdder()).increment();
            (Thread.currentThread().isVirtual() ? onVirtual : onPlatform).increment();
        }
        chain.doFilter(req, res);
    }

    /** Requests since start by the kind of thread that ran them: virtual, platform. */
    Map<String, Long> byThread() {
        Map<String, Long> out = new TreeMap<>();
        out.put("platform", onPlatform.sum());
        out.put("virtual", onVirtual.sum());
        return out;
    }

    /** The counts by path, sorted. */
    Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((p, n) -> out.put(p, n.sum()));
        return out;
    }
}
