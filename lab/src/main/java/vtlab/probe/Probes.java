package vtlab.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import vtlab.core.UsageError;

/** The probes selectable with --probes a,b,c (like JMH's -prof); a fresh instance per row. */
public final class Probes {
    private static final Map<String, Supplier<Probe>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("cpu", CpuProbe::new);
        ALL.put("rss", RssProbe::new);
        ALL.put("threads", ThreadsProbe::new);
        ALL.put("cpu-threads", CpuByThreadProbe::new);
        ALL.put("nmt", NmtProbe::new);
        ALL.put("jfr-pinning", JfrPinningProbe::new);
        ALL.put("vtdump", VirtualThreadDumpProbe::new);
        ALL.put("hikari", HikariProbe::new);
    }

    /**
     * On unless --probes says otherwise. nmt is not: its cost could not be shown to stay under 3% of throughput on a
     * one-CPU SUT (README, probe-cost), so it is on only where memory is the measurement (footprint, reactive) or
     * when asked for.
     */
    public static final List<String> DEFAULT = List.of("cpu", "rss", "threads", "cpu-threads", "jfr-pinning", "hikari");

    private Probes() {}

    /** Run-wide probe settings (e.g. pin-threshold), set once from the command line before the run. */
    private static final Map<String, java.time.Duration> DURATIONS = new java.util.concurrent.ConcurrentHashMap<>();

    public static void setDuration(String name, java.time.Duration d) {
        DURATIONS.put(name, d);
    }

    public static java.time.Duration duration(String name, java.time.Duration dflt) {
        return DURATIONS.getOrDefault(name, dflt);
    }

    public static Map<String, Supplier<Probe>> all() {
        return ALL;
    }

    /** Registers a probe (experiments with their own tiers add theirs, e.g. hikari). */
    public static void register(String name, Supplier<Probe> probe) {
        ALL.put(name, probe);
    }

    public static List<String> validate(List<String> names) throws UsageError {
        for (String n : names) {
            if (!ALL.containsKey(n)) throw new UsageError("unknown probe '" + n + "' (known: " + String.join(", ", ALL.keySet()) + ")");
        }
        return names;
    }

    public static List<Probe> create(List<String> names) {
        List<Probe> out = new ArrayList<>();
        for (String n : names) out.add(ALL.get(n).get());
        return out;
    }
}
