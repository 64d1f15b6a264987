package vtlab.sut.kit;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The requests a server received, as runtime-info reports them: by path (the query left out: a scenario's mix counted
 * at the SUT, not taken on the generator's word), by the kind of thread that ran them (so a virtual row whose requests
 * also ran on platform threads is seen, not assumed away), and the most in flight at once since start. The lab's own
 * paths (runtime-info) are not counted. No lock on the request path: a LongAdder per path and per kind.
 *
 * <p>A server calls {@link #enter} when its handler starts and {@link #leave} when it ends (a filter, a Helidon
 * filter, a WebFilter); a server whose requests end elsewhere (asynchronously) may call {@link #count} alone.
 */
public final class RequestCounter {
    private final Set<String> labPaths;
    private final Map<String, LongAdder> byPath = new ConcurrentHashMap<>();
    private final LongAdder onVirtual = new LongAdder(), onPlatform = new LongAdder();
    private final AtomicInteger inFlight = new AtomicInteger(), inFlightPeak = new AtomicInteger();

    /** @param labPaths paths the lab reads (runtime-info): never counted */
    public RequestCounter(Set<String> labPaths) {
        this.labPaths = Set.copyOf(labPaths);
    }

    /** A counter that leaves runtime-info at {@link RuntimeInfo#PATH} out. */
    public static RequestCounter standard() {
        return new RequestCounter(Set.of(RuntimeInfo.PATH));
    }

    /** Whether a path is the lab's own (not counted). */
    public boolean labPath(String path) {
        return labPaths.contains(path);
    }

    /**
     * A request for the path, on the calling thread: counted by path and by kind of thread, not in flight.
     *
     * @return false for a lab path (not counted)
     */
    public boolean count(String path) {
        if (labPath(path)) return false;
        byPath.computeIfAbsent(path, p -> new LongAdder()).increment();
        (Thread.currentThread().isVirtual() ? onVirtual : onPlatform).increment();
        return true;
    }

    /**
     * A request's handler starts on the calling thread: counted ({@link #count}) and in flight until {@link #leave}.
     *
     * @return whether it was counted; call {@link #leave} exactly when it was
     */
    public boolean enter(String path) {
        if (!count(path)) return false;
        inFlightPeak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        return true;
    }

    /** A request {@link #enter} counted has left the handler. */
    public void leave() {
        inFlight.decrementAndGet();
    }

    /** Requests since start by the kind of thread that ran them: platform, virtual. */
    public Map<String, Long> byThread() {
        Map<String, Long> out = new TreeMap<>();
        out.put("platform", onPlatform.sum());
        out.put("virtual", onVirtual.sum());
        return out;
    }

    /** Requests since start by path, sorted. */
    public Map<String, Long> byPath() {
        Map<String, Long> out = new TreeMap<>();
        byPath.forEach((p, n) -> out.put(p, n.sum()));
        return out;
    }

    /** Requests in the handlers now. */
    public int inFlight() {
        return inFlight.get();
    }

    /** The most requests in the handlers at once since start. */
    public int inFlightPeak() {
        return inFlightPeak.get();
    }
}
