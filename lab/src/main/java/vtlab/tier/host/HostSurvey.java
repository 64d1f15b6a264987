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

    /** One entry per distinct host, in topology order; a host that fails gives "error" instead of its facts. */
    public static List<Map<String, Object>> of(Topology t) throws InterruptedException {
        Map<String, List<HostSpec>> byHost = new LinkedHashMap<>();
        for (HostSpec h : t.all()) byHost.computeIfAbsent(h.where(), k -> new ArrayList<>()).add(h);
        List<Map<String, Object>> out = new ArrayList<>();
        for (var e : byHost.entrySet()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host", e.getKey());
            m.put("roles", e.getValue().stream().map(HostSpec::role).toList());
            List<String> cpus = e.getValue().stream().map(HostSpec::cpus).filter(c -> c != null).distinct().toList();
            if (!cpus.isEmpty()) m.put("pinned_cpus", cpus);
            Host host = Host.of(e.getValue().getFirst());
            try {
                HostFacts f = host.facts();
                m.put("cpus", f.cpus());
                m.put("cpu_model", f.cpuModel());
                m.put("kernel", f.kernel());
                m.put("jdk", f.jdk());
                ClockOffset o = host.clockOffset(CLOCK_EXCHANGES);
                m.put("clock_offset_ms", round(o.offsetMs()));
                m.put("clock_uncertainty_ms", round(o.uncertaintyMs()));
            } catch (java.io.IOException ex) {
                m.put("error", ex.getMessage());
            }
            out.add(m);
        }
        return out;
    }

    private static double round(double ms) {
        return Math.round(ms * 1000) / 1000.0;
    }

    /** Whether every host answered. */
    public static boolean allReached(List<Map<String, Object>> survey) {
        return survey.stream().noneMatch(m -> m.containsKey("error"));
    }
}
