package vtlab.plan;

import vtlab.stack.ThreadMode;

/**
 * Theoretical throughput ceilings for a closed load model (each connection sends its next request when the previous
 * one returns): with N requests in flight at most and a fixed service time S, throughput cannot exceed N / S.
 */
public final class Bounds {
    private Bounds() {}

    /**
     * Requests that can be in service at once, as the stack declares its mode (stack.json "modes"): N where N bounds
     * them (a pool of N threads, at most N virtual threads), else the connections; both capped by the connector's
     * connection limit (beyond it the server stops accepting).
     */
    public static int inFlight(ThreadMode.RequestBound bound, int connections, int maxConnections) {
        int cap = Math.min(connections, maxConnections);
        Integer n = bound.cap();
        return n != null ? Math.min(n, cap) : cap;
    }

    /** Closed model, fixed service time: in-flight requests / service time. */
    public static double closedModelRps(int inFlight, double serviceMs) {
        if (serviceMs <= 0) throw new IllegalArgumentException("service time must be positive");
        return inFlight * 1000.0 / serviceMs;
    }

    /** The bound in words: what caps the requests in flight ("200 pool threads", "1000 connections") over the service time. */
    public static String note(ThreadMode.RequestBound bound, int connections, int maxConnections, double serviceMs) {
        int n = inFlight(bound, connections, maxConnections);
        Integer cap = bound.cap();
        String what = cap != null && n == cap ? n + (bound.kind() == ThreadMode.Bound.POOL ? " pool threads" : " virtual threads at most")
                : n == maxConnections && connections > maxConnections ? n + " (maxConnections)" : n + " connections";
        return what + " / " + fmt(serviceMs) + " ms";
    }

    /**
     * An open row's bound: the capacity the closed formula gives when the connections are the in-flight cap
     * (PlanContext plans open rows at concurrency = cap). With the default cap (10,000) above every pool and
     * connector limit this is the unlimited-connections capacity: platform sleep 200 threads / 50 ms = 4,000 req/s;
     * virtual, the connector's maxConnections / service time. An offered rate above it is overload: the queue, and
     * with it the latency, grows for as long as the hold lasts.
     */
    public static Double openModelRps(Double closedBoundAtCap) {
        return closedBoundAtCap;
    }

    public static String openModelNote(String closedNote) {
        return closedNote == null ? null : "open model: capacity " + closedNote;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
