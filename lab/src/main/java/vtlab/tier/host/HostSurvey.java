package vtlab.tier.host;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every host of a topology reached once, for environment.json's "hosts" and ./vtlab hosts check: its roles, CPU
 * count and model, kernel, JDK and clock offset, or why it could not be reached. A host that carries several roles
 * (the SUT and the stub on one machine) is one entry.
 */
public final class HostSurvey {
    static final int CLOCK_EXCHANGES = 5;

    private HostSurvey() {}

    /**
     * One host as reached: its entries of the topology (the roles it carries), and its facts and clock offset, or why
     * it could not be reached (error; facts and clock null).
     */
    public record Entry(String host, List<HostSpec> specs, HostFacts facts, ClockOffset clock, String error) {
        public boolean reached() {
            return error == null;
        }

        /** As environment.json's "hosts" holds it. */
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host", host);
            m.put("roles", specs.stream().map(HostSpec::role).toList());
            List<String> cpus = specs.stream().map(HostSpec::cpus).filter(c -> c != null).distinct().toList();
            if (!cpus.isEmpty()) m.put("pinned_cpus", cpus);
            if (error != null) {
                m.put("error", error);
                return m;
            }
            m.put("cpus", facts.cpus());
            m.put("cpu_model", facts.cpuModel());
            m.put("kernel", facts.kernel());
            m.put("jdk", facts.jdk());
            m.put("boot_id", facts.bootId());
            m.put("clock_offset_ms", round(clock.offsetMs()));
            m.put("clock_uncertainty_ms", round(clock.uncertaintyMs()));
            return m;
        }
    }

    /** Every distinct host of the topology reached once, in topology order. */
    public static List<Entry> survey(Topology t) throws InterruptedException {
        Map<String, List<HostSpec>> byHost = new LinkedHashMap<>();
        for (HostSpec h : t.all()) byHost.computeIfAbsent(h.where(), k -> new ArrayList<>()).add(h);
        List<Entry> out = new ArrayList<>();
        for (var e : byHost.entrySet()) {
            Host host = Host.of(e.getValue().getFirst());
            try {
                HostFacts f = host.facts();
                out.add(new Entry(e.getKey(), List.copyOf(e.getValue()), f, host.clockOffset(CLOCK_EXCHANGES), null));
            } catch (java.io.IOException ex) {
                out.add(new Entry(e.getKey(), List.copyOf(e.getValue()), null, null, ex.getMessage()));
            }
        }
        return out;
    }

    /** One entry per distinct host, in topology order; a host that fails gives "error" instead of its facts. */
    public static List<Map<String, Object>> of(Topology t) throws InterruptedException {
        return survey(t).stream().map(Entry::toMap).toList();
    }

    private static double round(double ms) {
        return Math.round(ms * 1000) / 1000.0;
    }

    /** Whether every host answered. */
    public static boolean allReached(List<Map<String, Object>> survey) {
        return survey.stream().noneMatch(m -> m.containsKey("error"));
    }
}
