package vtlab.plan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.proc.CoreMap;
import vtlab.tier.tool.Jdk;

/**
 * What every experiment's plan shares: the JDKs to run on, the SUT's JVM arguments and the common timing options.
 *
 * @param carriers  the virtual-thread scheduler's parallelism given to every SUT (-Djdk.virtualThreadScheduler.parallelism)
 * @param warmupMax how long a row's warm-up may go on waiting for a steady rate (see vtlab.run.WarmUp); --quick: no wait
 * @param open      the run's load model is open (--load-model open): rows at --rates instead of --conc
 * @param rates     the open model's target rates, req/s (empty for a closed run)
 * @param maxInFlight the open model's in-flight cap (the generator's connections), which open rows carry as concurrency
 * @param rateProfile the open model's offered rate over each hold instead of --rates (--rate-profile), or null
 */
public record PlanContext(List<Jdk> jdks, List<String> jvmArgs, int carriers, Duration warmupMax, boolean open,
                          List<Double> rates, int maxInFlight, RateProfile rateProfile) {
    public static final String CARRIERS_PROPERTY = "jdk.virtualThreadScheduler.parallelism";

    // The load model, declared once for every load experiment (RunCommand accepts them wherever rows are planned).
    public static final Opt LOAD_MODEL = Opt.of("load-model", "closed", "closed: --conc connections, each sending when its answer arrives;\n"
            + "open: --rates req/s sent on schedule, latency from each request's intended send time").inScenario("load")
            .withChoices(List.of("closed", "open")); // vtlab.load.LoadModel's labels (a floor above: PlanContextTest holds them equal)
    public static final Opt RATES = Opt.of("rates", null, "open model: target rates, req/s (e.g. 2000,4000); the axis --conc is in the closed model").typed(Opt.Type.NUMBERS).inScenario("load");
    public static final Opt MAX_IN_FLIGHT = Opt.of("max-in-flight", "10000", "open model: most requests in flight (the generator's connections);\n"
            + "open rows carry it in the concurrency column").typed(Opt.Type.INT).inScenario("load");
    public static final Opt RATE_PROFILE = Opt.of("rate-profile", null, "open model, vegeta (default) or k6: the offered rate over each hold instead of --rates:\n"
            + "RATE@TIME steps, RATE@FROM-TO linear ramps, seconds into the hold, first point @0s,\n"
            + "e.g. 1000@0s,5000@10s,1000@20s (a 10 s spike); a row's rate is the profile's mean over its hold").inScenario("load");
    public static final List<Opt> LOAD_OPTIONS = List.of(LOAD_MODEL, RATES, MAX_IN_FLIGHT, RATE_PROFILE, FaultAxis.FAULT,
            LimitAxis.CPU_QUOTA, LimitAxis.MEMORY_LIMIT);

    /**
     * The options every experiment declares with defaults of its own (timing by {@link #timingOptions}, --conc as its
     * axis): these name them where the plan reads them whatever the experiment.
     */
    public static final Opt REPS = Opt.of("reps", null, "repetitions of each row (--quick: 1)").typed(Opt.Type.INT).inScenario("load"),
            WARMUP = Opt.of("warmup", null, "warm-up before each row's hold (--quick: at most " + PlanContext.QUICK_WARMUP_MAX_S + "s)").inScenario("load"),
            HOLD = Opt.of("hold", null, "measured hold of each row").inScenario("load"),
            CONC = Opt.of("conc", null, "concurrent connections (closed model)");

    public static PlanContext from(Options o) throws UsageError {
        List<Jdk> jdks = new ArrayList<>();
        for (String spec : RunOptions.JDK.list(o)) jdks.add(Jdk.resolve(spec));
        if (jdks.isEmpty()) jdks.add(Jdk.current());
        String args = RunOptions.JVM_ARGS.string(o, "-Xms512m -Xmx512m");
        List<String> jvmArgs = args.isBlank() ? List.of() : List.of(args.trim().split("\\s+"));
        int appCpus = appCpus(o);
        int carriers = carriers(RunOptions.CARRIERS.string(o), appCpus);
        if (jvmArgs.stream().anyMatch(a -> a.startsWith("-D" + CARRIERS_PROPERTY + "="))) {
            throw new UsageError("set the carrier count with --carriers, not with -D" + CARRIERS_PROPERTY + " in --jvm-args");
        }
        Duration warmupMax = RunOptions.WARMUP_MAX.duration(o, true);
        String model = LOAD_MODEL.choice(o);
        RateProfile profile = rateProfile(o);
        if (profile != null && RATES.given(o)) {
            throw new UsageError("--rate-profile: it replaces --rates (a row's rate is the profile's mean over its hold): drop --rates");
        }
        if (profile != null && LOAD_MODEL.given(o) && model.equals("closed")) {
            throw new UsageError("--rate-profile: a profile schedules an open-model load: drop --load-model closed");
        }
        boolean open = profile != null || model.equals("open");
        List<Double> rates = open && profile == null ? rates(o) : List.of();
        if (!open && RATES.given(o)) throw new UsageError("--rates is the open model's axis: add --load-model open, or use --conc");
        if (open && CONC.given(o)) throw new UsageError("--conc is the closed model's axis: an open run takes --rates or --rate-profile (and --max-in-flight)");
        return new PlanContext(List.copyOf(jdks), jvmArgs, carriers, warmupMax, open, rates, MAX_IN_FLIGHT.integer(o), profile);
    }

    /** The CPUs the SUT is pinned to (the core map this machine and the options give). */
    public static int appCpus(Options o) throws UsageError {
        return CoreMap.compute(vtlab.proc.LabAffinity.machineCpus(), o).count(CoreMap.APP);
    }

    /** --rate-profile parsed (refused in one line if it does not), or null without it. */
    static RateProfile rateProfile(Options o) throws UsageError {
        if (!RATE_PROFILE.given(o)) return null;
        try {
            return RateProfile.parse(RATE_PROFILE.string(o));
        } catch (IllegalArgumentException e) {
            throw new UsageError("--rate-profile: " + e.getMessage());
        }
    }

    /** A closed run's context (tests, rows made by hand). */
    public PlanContext(List<Jdk> jdks, List<String> jvmArgs, int carriers, Duration warmupMax) {
        this(jdks, jvmArgs, carriers, warmupMax, false, List.of(), 0, null);
    }

    static List<Double> rates(Options o) throws UsageError {
        if (!RATES.given(o)) throw new UsageError("--load-model open needs --rates (req/s, e.g. --rates 2000,4000)");
        List<Double> out = new ArrayList<>();
        for (String v : RATES.list(o))
            for (String part : v.split(",")) {
                double r;
                try {
                    r = Double.parseDouble(part.trim());
                } catch (NumberFormatException e) {
                    throw new UsageError("--rates takes positive numbers of requests per second, not '" + part.trim() + "'");
                }
                if (!(r > 0) || Double.isInfinite(r)) throw new UsageError("--rates must be positive, not '" + part.trim() + "'");
                out.add(r);
            }
        return List.copyOf(new java.util.LinkedHashSet<>(out));
    }

    /**
     * The options an experiment plans from. Open: every row's concurrency is the in-flight cap, so the experiments'
     * own bounds (the closed formula at that many connections, see {@link Bounds#openModelNote}) are the open rows'
     * capacity; --conc itself is refused in an open run.
     */
    public Options forExperiments(Options o) {
        return open ? o.withDefaults(Map.of(CONC.name(), Integer.toString(maxInFlight))) : o;
    }

    /**
     * The planned rows under the run's load model: closed as they are; open, each once per rate, or once following the
     * rate profile (refused in one line when a point of it is beyond a row's hold).
     */
    public List<Row> underLoadModel(List<Row> rows) throws UsageError {
        if (!open) return rows;
        List<Row> out = new ArrayList<>();
        for (Row r : rows) {
            if (rateProfile != null) out.add(withProfile(r, rateProfile));
            else for (double rate : rates) out.add(r.atRate(rate));
        }
        return List.copyOf(out);
    }

    static Row withProfile(Row r, RateProfile p) throws UsageError {
        try {
            return r.atProfile(p);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--rate-profile: " + e.getMessage() + " (row " + r.label() + ")");
        }
    }

    /**
     * "auto" is the JVM's own default (one carrier per CPU the SUT may use) except on a one-CPU SUT, which gets two.
     * With a single carrier every virtual thread waits whenever the OS runs Tomcat's poller, the GC or the JIT on that
     * CPU instead; measured here at 1,000 connections of the sleep servlet: 10.1k req/s with one carrier, 14.6k with
     * two, for the same CPU time (docs/results.md, "Two defaults").
     */
    static int carriers(String spec, int appCpus) throws UsageError {
        if (spec.equals("auto")) return Math.max(2, appCpus);
        try {
            int n = Integer.parseInt(spec.trim());
            if (n > 0 && n <= 32767) return n;
        } catch (NumberFormatException e) {
            // falls through to the usage error
        }
        throw new UsageError("--carriers must be auto or a whole number from 1 to 32767, not '" + spec + "'");
    }

    /** The run's --jvm-args (or the lab's default heap) plus the carrier count. */
    public List<String> jvmArgs() {
        return withCarriers(jvmArgs);
    }

    /** The run's --jvm-args (or the lab's default heap) without a carrier count: the JVM picks it (as-shipped rows). */
    public List<String> jvmArgsWithoutCarriers() {
        return jvmArgs;
    }

    /** Some stacks need their own heap (see SpringRig): their arguments, still with the run's carrier count. */
    public List<String> withCarriers(List<String> args) {
        List<String> all = new ArrayList<>(args);
        all.add("-D" + CARRIERS_PROPERTY + "=" + carriers);
        return List.copyOf(all);
    }

    /** Warm-up, hold and reps with an experiment's own defaults; --quick shortens them for a smoke run. */
    public record Timing(Duration warmup, Duration hold, int reps) {}

    /**
     * An experiment's --reps, --warmup and --hold, declared with its defaults (warm-up and hold as durations, e.g.
     * "10s"); a note (e.g. how cold rows warm up) goes under them.
     */
    public static List<Opt> timingOptions(String warmup, String hold, int reps, String note) {
        return timingOptions(warmup, hold, reps, note, null);
    }

    /**
     * As {@link #timingOptions(String, String, int, String)}, with a hold of its own under --quick (quickHold, e.g. "24s")
     * instead of at most 5 s: an experiment whose rows need room in the hold (a fault between a before and an after)
     * says why in the note.
     */
    public static List<Opt> timingOptions(String warmup, String hold, int reps, String note, String quickHold) {
        Opt holdOpt = quickHold == null
                ? Opt.of("hold", hold, "measured hold of each row (--quick: at most " + QUICK_HOLD_MAX_S + "s)" + (note == null ? "" : "\n" + note))
                : Opt.of("hold", hold, "measured hold of each row" + (note == null ? "" : "\n" + note)).quick(quickHold);
        return List.of(REPS.withDefault(Integer.toString(reps)), WARMUP.withDefault(warmup), holdOpt.inScenario("load"));
    }

    /** --quick's warm-up and hold at most, in seconds, unless an experiment declares its own quick hold. */
    public static final int QUICK_WARMUP_MAX_S = 3, QUICK_HOLD_MAX_S = 5;

    /**
     * The timing declared by {@link #timingOptions}, with --quick's profile under the defaults: one rep, a warm-up of at
     * most 3 s and a hold of at most 5 s, or the hold the declaration gives --quick.
     */
    public Timing timing(Options o, List<Opt> declared) throws UsageError {
        int reps = 0;
        Duration warmup = null, hold = null, quickHold = null;
        for (Opt d : declared) {
            if (d.name().equals(REPS.name())) reps = Integer.parseInt(d.dflt());
            if (d.name().equals(WARMUP.name())) warmup = WARMUP.withDefault(d.dflt()).duration(Options.parse(List.of()), true);
            if (d.name().equals(HOLD.name())) {
                hold = HOLD.withDefault(d.dflt()).duration(Options.parse(List.of()), false);
                if (d.quickDflt() != null) quickHold = HOLD.withDefault(d.quickDflt()).duration(Options.parse(List.of()), false);
            }
        }
        if (RunOptions.QUICK.on(o)) {
            warmup = Duration.ofSeconds(Math.min(QUICK_WARMUP_MAX_S, warmup.toSeconds()));
            hold = quickHold != null ? quickHold : Duration.ofSeconds(Math.min(QUICK_HOLD_MAX_S, hold.toSeconds()));
            reps = 1;
        }
        return new Timing(WARMUP.duration(o, warmup, true), HOLD.duration(o, hold, false), REPS.integer(o, reps));
    }
}
