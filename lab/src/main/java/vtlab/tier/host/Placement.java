package vtlab.tier.host;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import vtlab.core.UsageError;
import vtlab.proc.CoreMap;

/**
 * The core map of a run across hosts: the SUT on its entry's CPUs (or every CPU of its host), each load agent on its
 * entry's (or every CPU of its host), the database and the stub on their entry's CPUs, else where this machine's core
 * map puts them when they run on this machine (here, or a test host of it), else on every CPU of their host; the
 * proxy where this machine's core map puts it (it stays here). Hosts that report the same kernel boot id are one machine (test hosts in namespaces are all this one): the
 * generator's CPUs are counted once per machine, and the SUT and the generator share CPUs only on a machine they
 * share. Each entry's CPUs are checked against its own host's count.
 */
public record Placement(CoreMap cores, List<String> agentCpus) {
    /**
     * @param survey      every host reached (HostSurvey), so each one's CPU count and boot id are known
     * @param local       this machine's core map (pg, stub, proxy)
     * @param localBootId this machine's boot id
     * @return the run's core map, and each load agent's CPUs in topology order
     */
    public static Placement of(Topology t, List<HostSurvey.Entry> survey, CoreMap local, String localBootId) throws UsageError {
        Map<String, HostFacts> facts = new LinkedHashMap<>();
        for (HostSurvey.Entry e : survey) if (e.reached()) facts.put(e.host(), e.facts());
        String app = cpus("sut", t.sut(), facts);
        Map<String, String> byAgent = new LinkedHashMap<>();
        Map<String, Set<Integer>> loadByMachine = new LinkedHashMap<>();
        int max = facts(t.sut(), facts).cpus();
        for (int i = 0; i < t.load().size(); i++) {
            HostSpec a = t.load().get(i);
            String list = cpus("load agent " + (i + 1), a, facts);
            byAgent.put(a.where() + "#" + i, list);
            HostFacts f = facts(a, facts);
            max = Math.max(max, f.cpus());
            Set<Integer> union = loadByMachine.computeIfAbsent(machine(f, facts, localBootId), k -> new TreeSet<>());
            Arrays.stream(CoreMap.parse(list, f.cpus())).forEach(union::add);
        }
        String load;
        if (new LinkedHashSet<>(byAgent.values()).size() == 1) load = byAgent.values().iterator().next();
        else if (loadByMachine.size() == 1) load = list(loadByMachine.values().iterator().next());
        else throw new UsageError("--hosts: load agents on different machines need the same cpus (give each entry cpus = \"...\"): "
                + byAgent.entrySet().stream().map(e -> e.getKey().replaceFirst("#\\d+$", "") + " " + e.getValue()).collect(Collectors.joining(", ")));
        Map<String, String> cpus = new LinkedHashMap<>(local.cpus());
        cpus.put(CoreMap.APP, app);
        cpus.put(CoreMap.LOAD, load);
        Map<String, Set<String>> machines = new LinkedHashMap<>();
        machines.put(CoreMap.APP, Set.of(machine(facts(t.sut(), facts), facts, localBootId)));
        machines.put(CoreMap.LOAD, Set.copyOf(loadByMachine.keySet()));
        for (HostSpec s : List.of(t.pg(), t.stub())) {
            String role = s.role();
            if (s.isLocal() && s.cpus() == null) continue; // this machine's core map, as without --hosts
            HostFacts f = facts(s, facts);
            String m = machine(f, facts, localBootId);
            max = Math.max(max, f.cpus());
            // on this machine (a test host) the local core map's CPUs for it, as if it ran here; elsewhere the host's own
            cpus.put(role, s.cpus() != null || !m.equals(CoreMap.HERE) ? cpus(role, s, facts) : local.of(role));
            machines.put(role, Set.of(m));
        }
        return new Placement(new CoreMap(cpus, max, machines), List.copyOf(byAgent.values()));
    }

    /** An entry's CPU list, or every CPU of its host; refused when it names CPUs the host does not have. */
    static String cpus(String what, HostSpec s, Map<String, HostFacts> facts) throws UsageError {
        int n = facts(s, facts).cpus();
        if (s.cpus() == null) return n == 1 ? "0" : "0-" + (n - 1);
        try {
            CoreMap.parse(s.cpus(), n);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--hosts: " + what + " (" + s.where() + "): cpus " + e.getMessage().replace("this machine", s.where()));
        }
        return s.cpus();
    }

    private static HostFacts facts(HostSpec s, Map<String, HostFacts> facts) throws UsageError {
        HostFacts f = facts.get(s.where());
        if (f == null) throw new UsageError("--hosts: " + s.where() + " was not reached");
        return f;
    }

    /** This machine ({@link CoreMap#HERE}), or the first host of the topology with the same boot id. */
    static String machine(HostFacts f, Map<String, HostFacts> facts, String localBootId) {
        if (f.bootId() != null && f.bootId().equals(localBootId)) return CoreMap.HERE;
        for (var e : facts.entrySet()) if (e.getValue().bootId() != null && e.getValue().bootId().equals(f.bootId())) return e.getKey();
        return facts.entrySet().stream().filter(e -> e.getValue() == f).map(Map.Entry::getKey).findFirst().orElse("?");
    }

    /** CPU numbers as a taskset list: 0-3,6. */
    static String list(Set<Integer> cpus) {
        List<String> parts = new ArrayList<>();
        Integer start = null, prev = null;
        for (int c : new TreeSet<>(cpus)) {
            if (start != null && c == prev + 1) {
                prev = c;
                continue;
            }
            if (start != null) parts.add(start.equals(prev) ? start.toString() : start + "-" + prev);
            start = prev = c;
        }
        if (start != null) parts.add(start.equals(prev) ? start.toString() : start + "-" + prev);
        return String.join(",", parts);
    }
}
