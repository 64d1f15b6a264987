package vtlab.sut.kit;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runtime-info contract: what a system under test reports at {@link #PATH} (or its stack.json's "runtimeInfo"),
 * read back from the live objects, never from the settings it was given, so the lab can check each row ran as planned.
 * A stack starts from {@link #of} and adds its server's own fields:
 * <ul>
 * <li>{@code stack}: its stack.json name; {@code server}: the server in words (e.g. "jetty 12.1.14");</li>
 * <li>{@code thread_mode}: one of the modes its stack.json declares, as the server really runs;</li>
 * <li>the pool that runs requests, by the field names of its stack.json settings ({@code max_threads}, null where no
 * pool bounds the requests), and the connection cap ({@code max_connections});</li>
 * <li>the requests ({@link #requests}): {@code requests_by_path}, {@code requests_by_thread} (platform, virtual),
 * {@code in_flight_peak};</li>
 * <li>the JVM ({@link #of} fills these): jdk_version, jdk_major, java_vendor, available_processors, vt_carriers,
 * heap_max_mb, heap_init_mb, pid, jvm_args, uptime_ms.</li>
 * </ul>
 */
public final class RuntimeInfo {
    /** Where a stack serves it unless its stack.json says otherwise. */
    public static final String PATH = "/runtime-info";

    private RuntimeInfo() {}

    /** A new runtime-info: stack and thread mode first, then the JVM's fields; the server's own go in between. */
    public static Map<String, Object> of(String stack, String threadMode) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("stack", stack);
        m.put("thread_mode", threadMode);
        m.putAll(jvm());
        return m;
    }

    /** The JVM the server runs on. */
    public static Map<String, Object> jvm() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jdk_version", Runtime.version().toString());
        m.put("jdk_major", Runtime.version().feature());
        m.put("java_vendor", System.getProperty("java.vendor"));
        m.put("available_processors", Runtime.getRuntime().availableProcessors());
        m.put("vt_carriers", vtCarriers());
        m.put("heap_max_mb", Runtime.getRuntime().maxMemory() / (1024 * 1024));
        m.put("heap_init_mb", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getInit() / (1024 * 1024));
        m.put("pid", ProcessHandle.current().pid());
        m.put("jvm_args", ManagementFactory.getRuntimeMXBean().getInputArguments());
        m.put("uptime_ms", ManagementFactory.getRuntimeMXBean().getUptime());
        return m;
    }

    /** Adds the counter's requests: requests_by_path, requests_by_thread, in_flight_peak. */
    public static Map<String, Object> requests(Map<String, Object> info, RequestCounter counter) {
        info.put("requests_by_path", counter.byPath());
        info.put("requests_by_thread", counter.byThread());
        info.put("in_flight_peak", counter.inFlightPeak());
        return info;
    }

    /** The virtual-thread scheduler's parallelism: its system property if set, else one carrier per processor. */
    public static int vtCarriers() {
        return Integer.getInteger("jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
    }

    /** Live threads whose name starts with the prefix (a server's selectors, acceptors, event loops). */
    public static long liveThreads(String namePrefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(namePrefix)).count();
    }
}
