package vtlab.stack;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.core.UsageError;

/**
 * One thread mode a stack declares (stack.json "modes"): what runs a request's handler and what bounds the requests
 * in flight, so bounds, labels, the thread-mode proof and the checks read the declaration instead of the mode's name.
 *
 * @param name    the mode's name, a value of the stack's "mode" setting (platform, virtual, virtual-pool, reactive, ...)
 * @param threads what runs a request's handler
 * @param bound   what bounds the requests in flight
 * @param size    the setting whose value is the bound's N (e.g. maxThreads), or null (no N, or none known before start)
 */
public record ThreadMode(String name, Threads threads, Bound bound, String size) {

    /** The kind of thread a request's handler runs on: what the thread-mode proof and the checks expect. */
    public enum Threads {
        PLATFORM("platform"), VIRTUAL("virtual"),
        /** an event loop accepts the request (a handler may hand it on: the count is of the loop's threads) */
        EVENT_LOOP("event-loop");

        public final String word;

        Threads(String word) {
            this.word = word;
        }

        /** Whether requests must be seen on virtual threads (and none on platform threads in the server's request path). */
        public boolean virtual() {
            return this == VIRTUAL;
        }

        /** Whether requests run on platform threads (a pool's, not an event loop's). */
        public boolean platform() {
            return this == PLATFORM;
        }

        /** Whether the requests' own count by kind of thread is checked against the mode (an event loop's is not: it is the loop's). */
        public boolean checked() {
            return this != EVENT_LOOP;
        }

        static Threads of(String word) {
            for (Threads t : values()) if (t.word.equals(word)) return t;
            throw new IllegalArgumentException("threads must be platform, virtual or event-loop, not '" + word + "'");
        }
    }

    /** What bounds the requests in flight, and whether N of them is the bound. */
    public enum Bound {
        /** a pool of N platform threads runs the requests: at most N in flight */
        POOL("pool", "a pool of %s threads", true),
        /** a pool of N platform threads runs the server (selectors, acceptors), each request a virtual thread of its own */
        POOL_BEFORE_VIRTUAL("pool-before-virtual", "a pool of %s in front of virtual threads", false),
        /** virtual threads, at most N running tasks at once (a semaphore): at most N in flight */
        VIRTUAL_CAP("virtual-cap", "at most %s virtual threads", true),
        /** no pool: a virtual thread per request, only the connections bound them */
        NONE("none", "no pool", false),
        /** an event loop of N threads, which a non-blocking request does not hold while it waits */
        EVENT_LOOP("event-loop", "an event loop of %s", false);

        public final String word;
        private final String phrase;
        /** whether N bounds the requests in flight (else only the connections do) */
        public final boolean boundsRequests;

        Bound(String word, String phrase, boolean boundsRequests) {
            this.word = word;
            this.phrase = phrase;
            this.boundsRequests = boundsRequests;
        }

        /** In words, with N where known ("a pool of 200 threads", "an event loop of N"). */
        public String describe(Integer n) {
            return describe(n == null ? "N" : n.toString());
        }

        /** In words, N named (a setting's name, before its value is known). */
        public String describe(String n) {
            return phrase.contains("%s") ? String.format(phrase, n == null ? "N" : n) : phrase;
        }

        static Bound of(String word) {
            for (Bound b : values()) if (b.word.equals(word)) return b;
            throw new IllegalArgumentException("bound must be one of " + String.join(", ", java.util.Arrays.stream(values()).map(x -> x.word).toList())
                    + ", not '" + word + "'");
        }
    }

    /** The bound of one row: its kind and N (null where N is not known or there is none). */
    public record RequestBound(Bound kind, Integer n) {
        /** The requests in flight this bound allows, null where only the connections bound them. */
        public Integer cap() {
            return kind.boundsRequests ? n : null;
        }

        public String describe() {
            return kind.describe(n);
        }
    }

    /** This mode's bound for a row's setting values (N from its size setting). */
    public RequestBound bound(Settings values) {
        String v = size == null ? null : values.get(size);
        return new RequestBound(bound, v == null ? null : Integer.valueOf(v.trim()));
    }

    /** In words, for help and listings: "platform: platform threads, a pool of maxThreads threads". */
    public String describe() {
        return name + ": " + threads.word + " threads, " + bound.describe(size);
    }

    /** stack.json "modes": {"name": {"threads": ..., "bound": ..., "size": setting}}, in order. */
    static Map<String, ThreadMode> parse(JsonNode modes) {
        Map<String, ThreadMode> out = new LinkedHashMap<>();
        modes.properties().forEach(e -> {
            JsonNode m = e.getValue();
            out.put(e.getKey(), new ThreadMode(e.getKey(), Threads.of(m.path("threads").asText()), Bound.of(m.path("bound").asText()),
                    m.hasNonNull("size") ? m.get("size").asText() : null));
        });
        return out;
    }

    /**
     * The modes of a stack that declares none (a service from the command line, ./vtlab ab, whose modes are only a
     * flag's two values): platform is a pool of the maxThreads setting if there is one, a virtual mode no pool.
     */
    static Map<String, ThreadMode> undeclared(Map<String, Stack.Setting> settings) {
        Map<String, ThreadMode> out = new LinkedHashMap<>();
        Stack.Setting mode = settings.get(Stack.MODE);
        if (mode == null) return out;
        for (String v : mode.values()) {
            boolean virtual = v.startsWith(Threads.VIRTUAL.word);
            out.put(v, new ThreadMode(v, virtual ? Threads.VIRTUAL : Threads.PLATFORM, virtual ? Bound.NONE : Bound.POOL,
                    virtual || !settings.containsKey("maxThreads") ? null : "maxThreads"));
        }
        return out;
    }

    /** The declared mode of that name, or a refusal in one line naming the modes there are. */
    static ThreadMode of(String stack, Map<String, ThreadMode> modes, String name) throws UsageError {
        ThreadMode m = modes.get(name);
        if (m == null) {
            throw new UsageError("stack " + stack + " has no thread mode '" + name + "' (it has " + String.join(", ", modes.keySet()) + ")");
        }
        return m;
    }

    /** The modes' names, for a check that every one is a value of the mode setting. */
    static List<String> names(Map<String, ThreadMode> modes) {
        return List.copyOf(modes.keySet());
    }
}
