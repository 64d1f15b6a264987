package vtlab.plan;

/**
 * Theoretical throughput ceilings for a closed load model (each connection sends its next request when the previous
 * one returns): with N requests in flight at most and a fixed service time S, throughput cannot exceed N / S.
 */
public final class Bounds {
    private Bounds() {}

    /**
     * Requests that can be in service at once: the pool's threads in platform mode, the connections in virtual mode,
     * both capped by the connector's connection limit (beyond it Tomcat stops accepting).
     */
    public static int inFlight(String threadMode, Integer maxThreads, int connections, int maxConnections) {
        int cap = Math.min(connections, maxConnections);
        return "platform".equals(threadMode) && maxThreads != null ? Math.min(maxThreads, cap) : cap;
    }

    /** Closed model, fixed service time: in-flight requests / service time. */
    public static double closedModelRps(int inFlight, double serviceMs) {
        if (serviceMs <= 0) throw new IllegalArgumentException("service time must be positive");
        return inFlight * 1000.0 / serviceMs;
    }

    public static String note(String threadMode, Integer maxThreads, int connections, int maxConnections, double serviceMs) {
        int n = inFlight(threadMode, maxThreads, connections, maxConnections);
        String what = "platform".equals(threadMode) && maxThreads != null && n == maxThreads ? n + " pool threads"
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
