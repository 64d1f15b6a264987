package vtlab.plan;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

import vtlab.tier.fault.Fault;
import vtlab.tier.tool.Jdk;

/**
 * One measured scenario of a plan: which stack, in which configuration, under which load. Rows are made by an
 * {@link Experiment} and carried out by the runner; every field is known before anything starts.
 *
 * @param params     workload placeholders and knobs (e.g. sleepMs=50, maxThreads=200), also written to the dataset
 * @param sutEnv     environment the SUT is started with
 * @param expectInfo what the SUT's runtime-info must report before load is sent (verification)
 * @param boundRps   the theoretical throughput ceiling, or null where none can be derived (CPU-bound workloads)
 * @param tiers      tiers the row needs besides SUT and generator (e.g. pg, stub), started once per run
 * @param rate       the open model's target rate, req/s; null for a closed-model row. An open row's concurrency is
 *                   the generator's in-flight cap (--max-in-flight), not a number of busy connections
 * @param appArgs    program arguments the SUT is started with (after its jar or command): how a service from the
 *                   command line is switched (./vtlab ab); empty for the lab's stacks, which read env variables
 * @param faults     the faults of its hold, parsed once when planned ({@link #withFaults}; their spec is also its
 *                   "fault" param, for the scenario and the dataset); empty for a hold without one
 */
public record Row(String experiment, String stack, String threadMode, String workload, int concurrency, int rep,
                  Integer hikariPool, String pathMode, String connMode, Jdk jdk,
                  Map<String, String> params, Map<String, String> sutEnv, Map<String, Object> expectInfo,
                  Double boundRps, String boundNote, List<String> tiers, Duration warmup, Duration hold,
                  List<String> jvmArgs, Double rate, List<String> appArgs, List<Fault> faults,
                  vtlab.proc.ContainerLimits limits) {
    /** A row without container limits (the SUT runs on its cpuset alone). */
    public Row(String experiment, String stack, String threadMode, String workload, int concurrency, int rep,
               Integer hikariPool, String pathMode, String connMode, Jdk jdk, Map<String, String> params,
               Map<String, String> sutEnv, Map<String, Object> expectInfo, Double boundRps, String boundNote,
               List<String> tiers, Duration warmup, Duration hold, List<String> jvmArgs, Double rate, List<String> appArgs,
               List<Fault> faults) {
        this(experiment, stack, threadMode, workload, concurrency, rep, hikariPool, pathMode, connMode, jdk, params, sutEnv,
                expectInfo, boundRps, boundNote, tiers, warmup, hold, jvmArgs, rate, appArgs, faults, vtlab.proc.ContainerLimits.NONE);
    }

    /** A row without faults. */
    public Row(String experiment, String stack, String threadMode, String workload, int concurrency, int rep,
               Integer hikariPool, String pathMode, String connMode, Jdk jdk, Map<String, String> params,
               Map<String, String> sutEnv, Map<String, Object> expectInfo, Double boundRps, String boundNote,
               List<String> tiers, Duration warmup, Duration hold, List<String> jvmArgs, Double rate, List<String> appArgs) {
        this(experiment, stack, threadMode, workload, concurrency, rep, hikariPool, pathMode, connMode, jdk, params, sutEnv,
                expectInfo, boundRps, boundNote, tiers, warmup, hold, jvmArgs, rate, appArgs, List.of());
    }

    /** A closed-model row (every experiment plans these; PlanContext turns them into open rows). */
    public Row(String experiment, String stack, String threadMode, String workload, int concurrency, int rep,
               Integer hikariPool, String pathMode, String connMode, Jdk jdk, Map<String, String> params,
               Map<String, String> sutEnv, Map<String, Object> expectInfo, Double boundRps, String boundNote,
               List<String> tiers, Duration warmup, Duration hold, List<String> jvmArgs) {
        this(experiment, stack, threadMode, workload, concurrency, rep, hikariPool, pathMode, connMode, jdk, params, sutEnv,
                expectInfo, boundRps, boundNote, tiers, warmup, hold, jvmArgs, null, List.of());
    }

    /** This row with the SUT's program arguments. */
    public Row withAppArgs(List<String> args) {
        return new Row(experiment, stack, threadMode, workload, concurrency, rep, hikariPool, pathMode, connMode, jdk, params, sutEnv,
                expectInfo, boundRps, boundNote, tiers, warmup, hold, jvmArgs, rate, List.copyOf(args), faults, limits);
    }

    public Row {
        if (rate != null && !(rate > 0)) throw new IllegalArgumentException("an open row's rate must be positive");
        faults = List.copyOf(faults);
        if (limits == null) limits = vtlab.proc.ContainerLimits.NONE;
    }

    /** Open model: requests sent at {@link #rate} whatever the server does. */
    public boolean open() {
        return rate != null;
    }

    /** closed or open, as vtlab.load.LoadModel's labels (plan does not depend on load). */
    public String loadModel() {
        return open() ? "open" : "closed";
    }

    /** This closed row as an open row at a rate: its concurrency is the in-flight cap, its bound the open capacity. */
    public Row atRate(double rps) {
        return new Row(experiment, stack, threadMode, workload, concurrency, rep, hikariPool, pathMode, connMode, jdk, params, sutEnv,
                expectInfo, open() ? boundRps : Bounds.openModelRps(boundRps), open() ? boundNote : Bounds.openModelNote(boundNote),
                tiers, warmup, hold, jvmArgs, rps, appArgs, faults, limits);
    }

    /**
     * This row as an open row that follows a rate profile over its hold: its rate is the profile's mean over the hold
     * (what the open checks compare the achieved rate with), its params carry the profile (scenario, dataset).
     * IllegalArgumentException when a point of the profile is beyond the hold.
     */
    public Row atProfile(RateProfile profile) {
        profile.check(hold);
        Map<String, String> withProfile = new java.util.LinkedHashMap<>(params);
        withProfile.put(RateProfile.PARAM, profile.spec());
        double mean = Math.round(profile.meanRate(hold.toMillis() / 1000.0) * 100) / 100.0; // to a hundredth: the scenario names it
        return as(experiment, withProfile).atRate(mean);
    }

    /** The rate profile this open row follows in its hold (see {@link #atProfile}), or null: a constant rate. */
    public RateProfile rateProfile() {
        String spec = params.get(RateProfile.PARAM);
        return spec == null ? null : RateProfile.parse(spec);
    }

    /** A param naming the probes of this row ('+'-joined), where the row's own set replaces the run's --probes. */
    public static final String PROBES_PARAM = "probes";

    /**
     * A param naming the library versions the SUT's jar is built with instead of its pom's defaults
     * ("pgjdbc:42.7.8+hikari:7.1.0"; see vtlab.tier.StackVariants): the row runs that build's jar, built before the
     * first row.
     */
    public static final String BUILD_PARAM = "build";

    /** This row with more runtime-info fields it must report (e.g. the library versions of its build). */
    public Row withExpect(Map<String, Object> more) {
        Map<String, Object> all = new java.util.LinkedHashMap<>(expectInfo);
        all.putAll(more);
        return new Row(experiment, stack, threadMode, workload, concurrency, rep, hikariPool, pathMode, connMode, jdk, params, sutEnv,
                java.util.Collections.unmodifiableMap(all), boundRps, boundNote, tiers, warmup, hold, jvmArgs, rate, appArgs, faults, limits);
    }

    /** The probes this row runs with: its own set if it has one (probe-cost), else the run's. */
    public List<String> probes(List<String> runProbes) {
        String own = params.get(PROBES_PARAM);
        return own == null ? runProbes : List.of(own.split("\\+"));
    }

    /** This row under another experiment's name, with other params (experiments built on another's rows). */
    public Row as(String experiment, Map<String, String> params) {
        return new Row(experiment, stack, threadMode, workload, concurrency, rep, hikariPool, pathMode, connMode, jdk, params, sutEnv,
                expectInfo, boundRps, boundNote, tiers, warmup, hold, jvmArgs, rate, appArgs, faults, limits);
    }

    /** This row under another thread-mode label (a variant of a mode, e.g. virtual-limit: the SUT's env says what it runs). */
    public Row withThreadMode(String mode) {
        return new Row(experiment, stack, mode, workload, concurrency, rep, hikariPool, pathMode, connMode, jdk, params, sutEnv,
                expectInfo, boundRps, boundNote, tiers, warmup, hold, jvmArgs, rate, appArgs, faults, limits);
    }

    /** This row with another measured hold (a soak). */
    public Row withHold(Duration d) {
        return new Row(experiment, stack, threadMode, workload, concurrency, rep, hikariPool, pathMode, connMode, jdk, params, sutEnv,
                expectInfo, boundRps, boundNote, tiers, warmup, d, jvmArgs, rate, appArgs, faults, limits);
    }

    /** This row with the faults of its hold, their spec its "fault" param ("none" for none: a baseline of a fault sweep). */
    public Row withFaults(List<Fault> faults) {
        Map<String, String> withSpec = new java.util.LinkedHashMap<>(params);
        withSpec.put(Fault.PARAM, faults.isEmpty() ? Fault.NONE : String.join("+", faults.stream().map(Fault::spec).toList()));
        return new Row(experiment, stack, threadMode, workload, concurrency, rep, hikariPool, pathMode, connMode, jdk, withSpec, sutEnv,
                expectInfo, boundRps, boundNote, tiers, warmup, hold, jvmArgs, rate, appArgs, faults, limits);
    }

    /** This row with other tiers (a fault proxy added, see FaultAxis). */
    public Row withTiers(List<String> tiers) {
        return new Row(experiment, stack, threadMode, workload, concurrency, rep, hikariPool, pathMode, connMode, jdk, params, sutEnv,
                expectInfo, boundRps, boundNote, List.copyOf(tiers), warmup, hold, jvmArgs, rate, appArgs, faults, limits);
    }

    /** The params naming a contained row's limits (for the scenario and the dataset): see {@link #withLimits}. */
    public static final String CPU_QUOTA_PARAM = "cpu_quota", MEMORY_LIMIT_PARAM = "memory_limit";

    /**
     * This row with its SUT in a cgroup of its own (see {@link LimitAxis}), the limits parsed once here and named in its
     * params ("none" for the side not limited), and the SUT's JVM arguments it runs with under them.
     */
    public Row withLimits(vtlab.proc.ContainerLimits l, List<String> jvmArgs) {
        Map<String, String> p = new java.util.LinkedHashMap<>(params);
        p.put(CPU_QUOTA_PARAM, l.cpus() == null ? "none" : l.cpuSpec());
        p.put(MEMORY_LIMIT_PARAM, l.memoryBytes() == null ? "none" : l.memorySpec());
        return new Row(experiment, stack, threadMode, workload, concurrency, rep, hikariPool, pathMode, connMode, jdk, p, sutEnv,
                expectInfo, boundRps, boundNote, tiers, warmup, hold, List.copyOf(jvmArgs), rate, appArgs, faults, l);
    }

    /** Identity of the scenario without the rep: rows with the same key are repetitions of each other. */
    public String scenario() {
        StringJoiner j = new StringJoiner(" ");
        j.add(experiment).add(threadMode).add(workload);
        // open rows at different rates are different scenarios; the cap is a setting of the generator
        if (open()) j.add("open").add("rate=" + fmt(rate)).add("cap=" + concurrency);
        else j.add("c=" + concurrency);
        if (hikariPool != null) j.add("pool=" + hikariPool);
        if (pathMode != null) j.add(pathMode);
        if (connMode != null) j.add(connMode);
        params.forEach((k, v) -> j.add(k + "=" + v));
        j.add("jdk" + jdk.major());
        return j.toString();
    }

    public String label() {
        return scenario() + " rep " + rep;
    }

    /** A string safe for file names, unique within a run given the row number. */
    public String fileStem(int index) {
        String load = open() ? "rate" + fmt(rate) : "c" + concurrency;
        return String.format("%03d-%s-%s-%s-%s-r%d", index, experiment, threadMode, workload, load, rep)
                .replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** The virtual-thread carrier count the SUT is started with (see PlanContext), or null if the JVM picks it. */
    public Integer carriers() {
        String prefix = "-D" + PlanContext.CARRIERS_PROPERTY + "=";
        return jvmArgs.stream().filter(a -> a.startsWith(prefix)).map(a -> Integer.valueOf(a.substring(prefix.length())))
                .reduce((a, b) -> b).orElse(null);
    }

    /** A rate as written: 2000, or 2000.5 when it has a fraction. */
    static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    public long plannedSeconds() {
        return warmup.toSeconds() + hold.toSeconds();
    }
}
