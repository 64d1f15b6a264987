package vtlab.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import vtlab.core.UsageError;

/**
 * The probes selectable with --probes a,b,c (like JMH's -prof); a fresh instance per row. A probe spec is a name,
 * optionally with options the probe parses itself: jfr-pinning:threshold=5ms (several: name:a=1;b=2).
 */
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
        ALL.put("gc", GcProbe::new);
        ALL.put("hikari", HikariProbe::new);
        ALL.put("jvm", JvmProbe::new);
        ALL.put("ctxsw", ContextSwitchProbe::new);
        ALL.put("profile", ProfileProbe::new);
        ALL.put(ContainerProbe.NAME, ContainerProbe::new);
        ALL.put(PathsProbe.NAME, PathsProbe::new);
        ALL.put(ServedProbe.NAME, ServedProbe::new);
        ALL.put(ListenQueueProbe.NAME, ListenQueueProbe::new);
        ALL.put(LiveSetProbe.NAME, LiveSetProbe::new);
    }

    /**
     * On unless --probes says otherwise. nmt is not: its cost could not be shown to stay under 3% of throughput on a
     * one-CPU SUT (README, probe-cost), so it is on only where memory is the measurement (footprint, reactive) or
     * when asked for.
     */
    public static final List<String> DEFAULT = List.of("cpu", "rss", "threads", "cpu-threads", "gc", "jfr-pinning", "hikari");

    private Probes() {}

    public static Map<String, Supplier<Probe>> all() {
        return ALL;
    }

    /** Registers a probe (experiments with their own tiers add theirs, e.g. hikari). */
    public static void register(String name, Supplier<Probe> probe) {
        ALL.put(name, probe);
    }

    /** The probe name of a spec (the part before ':'). */
    public static String name(String spec) {
        int colon = spec.indexOf(':');
        return colon < 0 ? spec : spec.substring(0, colon);
    }

    /** The options of a spec by key, in order; a part without '=' or given twice is refused. */
    static Map<String, String> options(String spec) throws UsageError {
        Map<String, String> out = new LinkedHashMap<>();
        int colon = spec.indexOf(':');
        if (colon < 0) return out;
        for (String part : spec.substring(colon + 1).split(";")) {
            int eq = part.indexOf('=');
            if (eq <= 0) throw new UsageError("probe option '" + part + "' of " + spec + " is not KEY=VALUE");
            if (out.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim()) != null) {
                throw new UsageError("probe option '" + part.substring(0, eq) + "' given twice in " + spec);
            }
        }
        return out;
    }

    /**
     * The probes a run asked for: --probes a,b replaces the default set; specs written +a (--probes +profile) add to it
     * (or to the names given beside them), -a takes one away.
     */
    public static List<String> resolve(List<String> given, List<String> defaults) throws UsageError {
        boolean relative = given.stream().anyMatch(s -> s.startsWith("+") || s.startsWith("-"));
        java.util.LinkedHashMap<String, String> out = new java.util.LinkedHashMap<>();
        if (relative && given.stream().allMatch(s -> s.startsWith("+") || s.startsWith("-"))) defaults.forEach(d -> out.put(name(d), d));
        for (String spec : given) {
            if (spec.startsWith("-")) out.remove(name(spec.substring(1)));
            else {
                String s = spec.startsWith("+") ? spec.substring(1) : spec;
                out.put(name(s), s);
            }
        }
        return validate(List.copyOf(out.values()));
    }

    /** Checks every spec (known name, options the probe accepts) before anything starts. */
    public static List<String> validate(List<String> specs) throws UsageError {
        for (String spec : specs) configured(spec);
        return specs;
    }

    /** The specs with the probe {@code name} added at the end, unless one of them is it already. */
    public static List<String> with(List<String> specs, String name) {
        if (specs.stream().anyMatch(p -> name(p).equals(name))) return specs;
        List<String> out = new ArrayList<>(specs);
        out.add(name);
        return List.copyOf(out);
    }

    /** The specs with {@code key=value} set on every spec of probe {@code name} that does not set the key itself. */
    public static List<String> withOption(List<String> specs, String name, String key, String value) throws UsageError {
        List<String> out = new ArrayList<>();
        for (String spec : specs) {
            if (name(spec).equals(name) && !options(spec).containsKey(key)) spec += (spec.contains(":") ? ";" : ":") + key + "=" + value;
            out.add(spec);
        }
        return out;
    }

    private static Probe configured(String spec) throws UsageError {
        String n = name(spec);
        Supplier<Probe> s = ALL.get(n);
        if (s == null) throw new UsageError("unknown probe '" + n + "' (known: " + String.join(", ", ALL.keySet()) + ")");
        Probe p = s.get();
        p.configure(options(spec));
        return p;
    }

    /** Fresh, configured instances of validated specs. */
    public static List<Probe> create(List<String> specs) {
        List<Probe> out = new ArrayList<>();
        for (String spec : specs) {
            try {
                out.add(configured(spec));
            } catch (UsageError e) {
                throw new IllegalArgumentException("probe spec not validated: " + e.getMessage(), e);
            }
        }
        return out;
    }
}
