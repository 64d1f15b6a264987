package vtlab.plan;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

import vtlab.proc.ContainerLimits;
import vtlab.proc.Env;
import vtlab.stack.Params;
import vtlab.tier.StackVariants;
import vtlab.tier.fault.Fault;
import vtlab.tier.tool.Jdk;

/**
 * One measured scenario of a plan: which stack, in which configuration, under which load. Rows are made by an
 * {@link Experiment} and carried out by the runner; every field is known before anything starts.
 * <p>
 * A row is made with its {@link #builder()}, each component named, e.g.
 * {@code Row.builder().experiment("servlet").stack("servlet").threadMode("virtual").workload("sleep").concurrency(200)
 * .rep(1).jdk(jdk).params(params).warmup(warmup).hold(hold).build()}; a variant of a row with {@link #toBuilder()} or
 * one of the {@code with...}/{@code at...} methods. The components a builder need not be given default to none: no
 * pool, path or connection mode, bound, rate or limits (null, {@link ContainerLimits#NONE}), empty maps and lists.
 * Nothing outside this class calls the canonical constructor, whose 26 components in a row are easy to mix up.
 * <p>
 * What a row's params name for the scenario and the dataset (its faults, limits, rate profile, build and own probe
 * set) is also a typed component, parsed once when the row is planned ({@link #withFaults}, {@link #withLimits},
 * {@link #atProfile}, {@link #withBuild}, {@link #withProbes}): the runner and the checks read the component, never
 * the param's text again.
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
 * @param limits     the SUT's cgroup limits ({@link #withLimits}); {@link ContainerLimits#NONE} when it runs on its
 *                   cpuset alone
 * @param rateProfile the rate profile this open row follows in its hold ({@link #atProfile}; its spec is also its
 *                   {@link RateProfile#PARAM} param), or null: a constant rate
 * @param build      the library versions the SUT's jar is built with instead of its pom's defaults
 *                   ({@link #withBuild}; its spec is also its {@link #BUILD_PARAM} param), or null: the stack's own jar
 * @param ownProbes  the probes of this row where its own set replaces the run's --probes ({@link #withProbes}; also
 *                   its {@link #PROBES_PARAM} param), or null: the run's
 * @param fork       which fresh JVM of its configuration the row is measured in (JMH's fork, 1 on): its first
 *                   iteration starts a JVM of its own and warms it up; 0 (default): not forked, the row may reuse the
 *                   JVM of the row before with the same configuration (--fresh-sut aside), as reps did before forks
 * @param iteration  which hold of its fork the row is (JMH's iteration, 1 on): iterations after the first reuse the
 *                   fork's JVM, warm already, and need no warm-up of their own; 1 (default) for a row not forked
 */
public record Row(String experiment, String stack, String threadMode, String workload, int concurrency, int rep,
                  Integer hikariPool, String pathMode, String connMode, Jdk jdk,
                  Params params, Env sutEnv, Map<String, Object> expectInfo,
                  Double boundRps, String boundNote, List<String> tiers, Duration warmup, Duration hold,
                  List<String> jvmArgs, Double rate, List<String> appArgs, List<Fault> faults,
                  ContainerLimits limits, RateProfile rateProfile, StackVariants.Variant build, List<String> ownProbes,
                  int fork, int iteration) {
    /** This row with the SUT's program arguments. */
    public Row withAppArgs(List<String> args) {
        return toBuilder().appArgs(List.copyOf(args)).build();
    }

    public Row {
        if (rate != null && !(rate > 0)) throw new IllegalArgumentException("an open row's rate must be positive");
        faults = List.copyOf(faults);
        if (limits == null) limits = ContainerLimits.NONE;
        if (ownProbes != null) ownProbes = List.copyOf(ownProbes);
        if (fork < 0 || iteration < 1) throw new IllegalArgumentException("a row's fork is 0 (not forked) or more, its iteration 1 or more");
    }

    /** Whether the row starts its fork: a fresh JVM, warmed up, whatever the row before ran. */
    public boolean startsFork() {
        return fork > 0 && iteration == 1;
    }

    /** Whether the row is a later hold of its fork: the JVM of the iteration before, warm, no warm-up of its own. */
    public boolean continuesFork() {
        return fork > 0 && iteration > 1;
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
        return toBuilder().boundRps(open() ? boundRps : Bounds.openModelRps(boundRps))
                .boundNote(open() ? boundNote : Bounds.openModelNote(boundNote)).rate(rps).build();
    }

    /**
     * This row as an open row that follows a rate profile over its hold: its rate is the profile's mean over the hold
     * (what the open checks compare the achieved rate with), its params carry the profile (scenario, dataset).
     * IllegalArgumentException when a point of the profile is beyond the hold.
     */
    public Row atProfile(RateProfile profile) {
        profile.check(hold);
        Params withProfile = params.with(RateProfile.PARAM, profile.spec());
        double mean = Math.round(profile.meanRate(hold.toMillis() / 1000.0) * 100) / 100.0; // to a hundredth: the scenario names it
        return toBuilder().params(withProfile).rateProfile(profile).build().atRate(mean);
    }

    /** A param naming the probes of this row ('+'-joined), where the row's own set replaces the run's --probes. */
    public static final String PROBES_PARAM = "probes";

    /**
     * A param naming the library versions the SUT's jar is built with instead of its pom's defaults
     * ("pgjdbc:42.7.8+hikari:7.1.0"; see vtlab.tier.StackVariants): the row runs that build's jar, built before the
     * first row.
     */
    public static final String BUILD_PARAM = "build";

    /**
     * This row built with other library versions, the variant's spec its {@link #BUILD_PARAM} param (kept where the
     * params already name it, so the scenario's words stay in their order).
     */
    public Row withBuild(StackVariants.Variant v) {
        return toBuilder().params(params.with(BUILD_PARAM, v.spec())).build(v).build();
    }

    /** This row with a probe set of its own, which replaces the run's --probes; its {@link #PROBES_PARAM} param the set '+'-joined. */
    public Row withProbes(List<String> probes) {
        return toBuilder().params(params.with(PROBES_PARAM, String.join("+", probes))).ownProbes(probes).build();
    }

    /** This row with more runtime-info fields it must report (e.g. the library versions of its build). */
    public Row withExpect(Map<String, Object> more) {
        Map<String, Object> all = new java.util.LinkedHashMap<>(expectInfo);
        all.putAll(more);
        return toBuilder().expectInfo(java.util.Collections.unmodifiableMap(all)).build();
    }

    /** The probes this row runs with: its own set if it has one (probe-cost), else the run's. */
    public List<String> probes(List<String> runProbes) {
        return ownProbes == null ? runProbes : ownProbes;
    }

    /** This row under another experiment's name, with other params (experiments built on another's rows). */
    public Row as(String experiment, Params params) {
        return toBuilder().experiment(experiment).params(params).build();
    }

    /** This row under another thread-mode label (a variant of a mode, e.g. virtual-limit: the SUT's env says what it runs). */
    public Row withThreadMode(String mode) {
        return toBuilder().threadMode(mode).build();
    }

    /** This row with another measured hold (a soak). */
    public Row withHold(Duration d) {
        return toBuilder().hold(d).build();
    }

    /** This row with the faults of its hold, their spec its "fault" param ("none" for none: a baseline of a fault sweep). */
    public Row withFaults(List<Fault> faults) {
        Params withSpec = params.with(Fault.PARAM, faults.isEmpty() ? Fault.NONE : String.join("+", faults.stream().map(Fault::spec).toList()));
        return toBuilder().params(withSpec).faults(faults).build();
    }

    /** This row with other tiers (a fault proxy added, see FaultAxis). */
    public Row withTiers(List<String> tiers) {
        return toBuilder().tiers(List.copyOf(tiers)).build();
    }

    /** The params naming a contained row's limits (for the scenario and the dataset): see {@link #withLimits}. */
    public static final String CPU_QUOTA_PARAM = "cpu_quota", MEMORY_LIMIT_PARAM = "memory_limit";

    /**
     * This row with its SUT in a cgroup of its own (see {@link LimitAxis}), the limits parsed once here and named in its
     * params ("none" for the side not limited), and the SUT's JVM arguments it runs with under them.
     */
    public Row withLimits(ContainerLimits l, List<String> jvmArgs) {
        Params p = params.with(CPU_QUOTA_PARAM, l.cpus() == null ? "none" : l.cpuSpec())
                .with(MEMORY_LIMIT_PARAM, l.memoryBytes() == null ? "none" : l.memorySpec());
        return toBuilder().params(p).jvmArgs(List.copyOf(jvmArgs)).limits(l).build();
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
        return scenario() + (fork > 0 ? " fork " + fork + " iteration " + iteration : " rep " + rep);
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

    /** A builder of a row: each component by name, the optional ones defaulting to none (see {@link Row}). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this row's components: what every variant of a row ({@code with...}, {@code at...}) starts from. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.experiment = experiment;
        b.stack = stack;
        b.threadMode = threadMode;
        b.workload = workload;
        b.concurrency = concurrency;
        b.rep = rep;
        b.hikariPool = hikariPool;
        b.pathMode = pathMode;
        b.connMode = connMode;
        b.jdk = jdk;
        b.params = params;
        b.sutEnv = sutEnv;
        b.expectInfo = expectInfo;
        b.boundRps = boundRps;
        b.boundNote = boundNote;
        b.tiers = tiers;
        b.warmup = warmup;
        b.hold = hold;
        b.jvmArgs = jvmArgs;
        b.rate = rate;
        b.appArgs = appArgs;
        b.faults = faults;
        b.limits = limits;
        b.rateProfile = rateProfile;
        b.build = build;
        b.ownProbes = ownProbes;
        b.fork = fork;
        b.iteration = iteration;
        return b;
    }

    /**
     * The components of a row, one named setter each, in the record's order. Maps and lists are kept as given (not
     * copied), as the record keeps them. Required: experiment, stack, threadMode, workload, concurrency, rep, jdk, warmup
     * and hold ({@link #build} says which is missing); the rest default to a closed row with no pool, path or connection
     * mode, bound, tiers, JVM or program arguments, faults or limits.
     */
    public static final class Builder {
        private String experiment, stack, threadMode, workload;
        private Integer concurrency, rep;
        private int fork, iteration = 1;
        private Integer hikariPool;
        private String pathMode, connMode;
        private Jdk jdk;
        private Params params = Params.NONE;
        private Env sutEnv = Env.NONE;
        private Map<String, Object> expectInfo = Map.of();
        private Double boundRps;
        private String boundNote;
        private List<String> tiers = List.of();
        private Duration warmup, hold;
        private List<String> jvmArgs = List.of();
        private Double rate;
        private List<String> appArgs = List.of();
        private List<Fault> faults = List.of();
        private ContainerLimits limits = ContainerLimits.NONE;
        private RateProfile rateProfile;
        private StackVariants.Variant build;
        private List<String> ownProbes;

        private Builder() {
        }

        public Builder experiment(String experiment) {
            this.experiment = experiment;
            return this;
        }

        public Builder stack(String stack) {
            this.stack = stack;
            return this;
        }

        public Builder threadMode(String threadMode) {
            this.threadMode = threadMode;
            return this;
        }

        public Builder workload(String workload) {
            this.workload = workload;
            return this;
        }

        public Builder concurrency(int concurrency) {
            this.concurrency = concurrency;
            return this;
        }

        public Builder rep(int rep) {
            this.rep = rep;
            return this;
        }

        /** The HikariCP pool size, or null (default): not a component of the scenario. */
        public Builder hikariPool(Integer hikariPool) {
            this.hikariPool = hikariPool;
            return this;
        }

        /** null (default): not a component of the scenario. */
        public Builder pathMode(String pathMode) {
            this.pathMode = pathMode;
            return this;
        }

        /** null (default): not a component of the scenario. */
        public Builder connMode(String connMode) {
            this.connMode = connMode;
            return this;
        }

        public Builder jdk(Jdk jdk) {
            this.jdk = jdk;
            return this;
        }

        public Builder params(Params params) {
            this.params = params;
            return this;
        }

        public Builder sutEnv(Env sutEnv) {
            this.sutEnv = sutEnv;
            return this;
        }

        public Builder expectInfo(Map<String, Object> expectInfo) {
            this.expectInfo = expectInfo;
            return this;
        }

        /** null (default): no bound can be derived. */
        public Builder boundRps(Double boundRps) {
            this.boundRps = boundRps;
            return this;
        }

        public Builder boundNote(String boundNote) {
            this.boundNote = boundNote;
            return this;
        }

        public Builder tiers(List<String> tiers) {
            this.tiers = tiers;
            return this;
        }

        public Builder warmup(Duration warmup) {
            this.warmup = warmup;
            return this;
        }

        public Builder hold(Duration hold) {
            this.hold = hold;
            return this;
        }

        public Builder jvmArgs(List<String> jvmArgs) {
            this.jvmArgs = jvmArgs;
            return this;
        }

        /** The open model's rate, req/s; null (default): a closed row. */
        public Builder rate(Double rate) {
            this.rate = rate;
            return this;
        }

        public Builder appArgs(List<String> appArgs) {
            this.appArgs = appArgs;
            return this;
        }

        public Builder faults(List<Fault> faults) {
            this.faults = faults;
            return this;
        }

        /** {@link ContainerLimits#NONE} (default, as is null): the SUT on its cpuset alone. */
        public Builder limits(ContainerLimits limits) {
            this.limits = limits;
            return this;
        }

        /** null (default): a constant rate (see {@link Row#atProfile}, which names it in the params too). */
        public Builder rateProfile(RateProfile rateProfile) {
            this.rateProfile = rateProfile;
            return this;
        }

        /** null (default): the stack's own jar (see {@link Row#withBuild}, which names it in the params too). */
        public Builder build(StackVariants.Variant build) {
            this.build = build;
            return this;
        }

        /** null (default): the run's probes (see {@link Row#withProbes}, which names them in the params too). */
        public Builder ownProbes(List<String> ownProbes) {
            this.ownProbes = ownProbes;
            return this;
        }

        /** 0 (default): not forked; see {@link Row#fork}. */
        public Builder fork(int fork) {
            this.fork = fork;
            return this;
        }

        /** 1 (default); see {@link Row#iteration}. */
        public Builder iteration(int iteration) {
            this.iteration = iteration;
            return this;
        }

        /** The row; NullPointerException naming the first required component not given. */
        public Row build() {
            return new Row(required(experiment, "experiment"), required(stack, "stack"), required(threadMode, "threadMode"),
                    required(workload, "workload"), required(concurrency, "concurrency"), required(rep, "rep"), hikariPool,
                    pathMode, connMode, required(jdk, "jdk"), params, sutEnv, expectInfo, boundRps, boundNote, tiers,
                    required(warmup, "warmup"), required(hold, "hold"), jvmArgs, rate, appArgs, faults, limits, rateProfile, build,
                    ownProbes, fork, iteration);
        }

        private static <T> T required(T value, String component) {
            return java.util.Objects.requireNonNull(value, () -> "a row needs its " + component);
        }
    }
}
