package vtlab.proc;

import java.util.LinkedHashMap;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;

/**
 * Which CPUs each tier is pinned to. Computed from the machine's CPU count so the SUT and the load generator never
 * share a core; the database and the stub share the generator's CPUs when there are too few to give them their own
 * (as the seed rig shares load and stub). Every entry can be overridden: --cpus-app, --cpus-load, --cpus-pg, --cpus-stub.
 *
 * <p>In a run across hosts (--hosts) a tier's CPUs are those of the machines it runs on: machines says which, by
 * tier (empty: every tier on this one). Load agents on k machines, each pinned to the same list, have k times its
 * CPUs; the SUT and the generator share CPUs only where they share a machine ({@link #HERE} is this one).
 */
public record CoreMap(Map<String, String> cpus, int machineCpus, Map<String, java.util.Set<String>> machines) {
    public static final String APP = "app", LOAD = "load", PG = "pg", STUB = "stub";
    /** The overrides of the map, one per tier with CPUs of its own (declared here, where they are read; the run lists them). */
    public static final Opt CPUS_APP = Opt.of("cpus-app", null, "the SUT's CPUs (a taskset list, e.g. 0 or 0-1): core map override");
    public static final Opt CPUS_LOAD = Opt.of("cpus-load", null, "the generator's CPUs (a taskset list): core map override");
    public static final Opt CPUS_PG = Opt.of("cpus-pg", null, "PostgreSQL's CPUs (a taskset list): core map override");
    public static final Opt CPUS_STUB = Opt.of("cpus-stub", null, "the stub's CPUs (a taskset list): core map override");
    private static final Map<String, Opt> OVERRIDES = Map.of(APP, CPUS_APP, LOAD, CPUS_LOAD, PG, CPUS_PG, STUB, CPUS_STUB);
    /** The machine the lab runs on, in {@link #machines}. */
    public static final String HERE = "this machine";

    /** Every tier on this machine. */
    public CoreMap(Map<String, String> cpus, int machineCpus) {
        this(cpus, machineCpus, Map.of());
    }

    public CoreMap {
        machines = Map.copyOf(machines);
    }

    public String of(String tier) {
        return cpus.get(tier);
    }

    /** The CPUs a tier has: its list's, once per machine it runs on. */
    public int count(String tier) {
        return parse(cpus.get(tier), machineCpus).length * Math.max(1, machinesOf(tier).size());
    }

    /** The machines a tier runs on (this one unless a run across hosts says otherwise). */
    public java.util.Set<String> machinesOf(String tier) {
        return machines.getOrDefault(tier, java.util.Set.of(HERE));
    }

    /**
     * The CPUs the lab's own JVM may use: every CPU the SUT does not run on, as a taskset list, or null when the SUT
     * has them all (a one-CPU machine). The lab samples probes, starts jcmd and parses JFR while the SUT is measured.
     */
    public String labCpus() {
        if (!machinesOf(APP).contains(HERE)) return null; // the SUT runs elsewhere: nothing here to keep off
        java.util.Set<Integer> app = java.util.Arrays.stream(parse(of(APP), machineCpus)).boxed().collect(java.util.stream.Collectors.toSet());
        String list = java.util.stream.IntStream.range(0, machineCpus).filter(c -> !app.contains(c)).mapToObj(Integer::toString)
                .collect(java.util.stream.Collectors.joining(","));
        return list.isEmpty() ? null : list;
    }

    /**
     * CPUs the SUT and the generator both run on, as a taskset list, or null when they are disjoint: the generator's
     * work is then taken from the SUT's cores, the measurement's instrument part of what it measures.
     */
    public String shared() {
        if (java.util.Collections.disjoint(machinesOf(APP), machinesOf(LOAD))) return null; // on machines of their own
        java.util.Set<Integer> load = java.util.Arrays.stream(parse(of(LOAD), machineCpus)).boxed().collect(java.util.stream.Collectors.toSet());
        String list = java.util.Arrays.stream(parse(of(APP), machineCpus)).filter(load::contains).mapToObj(Integer::toString)
                .collect(java.util.stream.Collectors.joining(","));
        return list.isEmpty() ? null : list;
    }

    /** Refuses a SUT and generator on shared CPUs unless allowed (--allow-shared-cpus; a one-CPU machine has no other way). */
    public void refuseShared(boolean allowed) throws UsageError {
        String shared = shared();
        if (shared == null || allowed) return;
        throw new UsageError(machineCpus == 1
                ? "this machine has one CPU, so the SUT and the load generator would share it (the generator's work taken from the SUT's);"
                        + " pass --allow-shared-cpus to run anyway, its rows flagged shared-cpu"
                : "--cpus-app " + of(APP) + " and --cpus-load " + of(LOAD) + " share CPU " + shared + " (the generator's work would be taken"
                        + " from the SUT's): give them disjoint CPUs, or pass --allow-shared-cpus (rows flagged shared-cpu)");
    }

    public static CoreMap compute(int n, Options o) throws UsageError {
        return compute(n, o, Map.of());
    }

    /**
     * As above, with an entry for each tier that runs on another's CPUs: beside maps it to that tier (the fault proxy
     * forwards the stub's and the database's traffic: toxiproxy -> stub). The tiers declare it (vtlab.tier.Tiers.cores).
     */
    public static CoreMap compute(int n, Options o, Map<String, String> beside) throws UsageError {
        Map<String, String> m = new LinkedHashMap<>();
        if (n < 2) {
            m.put(APP, "0");
            m.put(LOAD, "0");
            m.put(PG, "0");
            m.put(STUB, "0");
        } else if (n < 6) {
            int app = n / 2; // 2 -> 0 | 1; 4 -> 0-1 | 2-3
            m.put(APP, range(0, app - 1));
            m.put(LOAD, range(app, n - 1));
            m.put(PG, range(n - 1, n - 1));
            m.put(STUB, range(app, n - 1));
        } else {
            int app = n / 2;
            m.put(APP, range(0, app - 1));
            m.put(PG, range(app, app));
            m.put(LOAD, range(app + 1, n - 1));
            m.put(STUB, range(app + 1, n - 1));
        }
        beside.forEach((tier, of) -> m.put(tier, m.get(of)));
        for (String tier : m.keySet()) {
            Opt override = OVERRIDES.get(tier); // a tier beside another has none: no option names it
            if (o != null && override != null && override.given(o)) {
                String v = override.string(o);
                try {
                    parse(v, n);
                } catch (IllegalArgumentException e) {
                    throw new UsageError("--cpus-" + tier + ": " + e.getMessage());
                }
                m.put(tier, v);
            }
        }
        return new CoreMap(m, n);
    }

    private static String range(int a, int b) {
        return a == b ? Integer.toString(a) : a + "-" + b;
    }

    /** A taskset CPU list (e.g. 0,2-3) as CPU numbers; refuses CPUs the machine does not have. */
    public static int[] parse(String list, int machineCpus) throws IllegalArgumentException {
        if (list == null || !list.matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*")) {
            throw new IllegalArgumentException("'" + list + "' is not a CPU list like 0 or 0-1 or 0,2");
        }
        return java.util.Arrays.stream(list.split(",")).flatMapToInt(part -> {
            String[] ab = part.split("-");
            int a = Integer.parseInt(ab[0]), b = ab.length > 1 ? Integer.parseInt(ab[1]) : a;
            if (b < a || b >= machineCpus) {
                throw new IllegalArgumentException("CPU list '" + list + "' names CPUs this machine does not have (0-" + (machineCpus - 1) + ")");
            }
            return java.util.stream.IntStream.rangeClosed(a, b);
        }).distinct().toArray();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        cpus.forEach((k, v) -> sb.append(sb.isEmpty() ? "" : "  ").append(k).append("=").append(v));
        if (machines.isEmpty()) return sb + "  (of " + machineCpus + " CPUs)";
        return sb + "  (app on " + String.join(", ", new java.util.TreeSet<>(machinesOf(APP))) + "; load on "
                + String.join(", ", new java.util.TreeSet<>(machinesOf(LOAD))) + ")";
    }
}
