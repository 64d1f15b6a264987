package vtlab.experiment.ab;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.experiment.ThreadModes;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.plan.RunOptions;
import vtlab.proc.Env;
import vtlab.stack.Params;
import vtlab.stack.Settings;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.tool.Jdk;

/**
 * ./vtlab ab: the user's own service (a Spring Boot jar or any command), platform against virtual threads, and on
 * Spring Boot's Tomcat a third, tuned variant. Its rows go through the same runner as the lab's stacks (own CPUs,
 * verification, warm-up until steady, probes, validity); the thread mode, which the service does not report, is
 * proven by thread dumps under the warm-up's load. The findings are the verdict ({@link Verdict}), with the jar's
 * libraries that the lab knows to matter for virtual threads ({@link ServiceLibraries}).
 */
public final class AbExperiment implements Experiment {
    public static final String NAME = "ab";
    static final Opt MODES = ThreadModes.OPTION.withHelp("thread modes (platform: the flag off; virtual: on)");
    static final Opt VARIANTS = Opt.of("variants", "as-shipped,tuned", "virtual rows as shipped (the flag alone) and tuned (what the lab\n"
            + "knows matters on that server: Spring Boot's Tomcat processor-cache -1 and\n--carriers); a --cmd or a plain jar has as-shipped only").typed(Opt.Type.STRINGS).inScenario("service")
            .withChoices(List.of(Service.AS_SHIPPED, Service.TUNED));
    static final Opt CONC = Opt.of("conc", "200,1000", "concurrent connections (200: Tomcat's default pool)");
    // --reps as the other experiments declare it, said as what it is here: forks
    static final List<Opt> TIMING = PlanContext.timingOptions("10s", "20s", 1,
            "the warm-up also proves the thread mode (thread dumps): it cannot be 0").stream()
            .map(t -> t.name().equals("reps") ? t.withHelp("N forks of one iteration each, as scripts before --forks wrote it\n(--quick: 1); not with --forks, --iterations or --budget") : t).toList();
    static final Opt FORKS = Opt.of("forks", "auto", "fresh JVMs per configuration (JMH's forks), each started, warmed up, then\n"
            + "measured over --iterations holds; the spread of their means is the noise\nevery ratio's 95% interval is from; auto (the default): forks are added,\n"
            + "configurations interleaved, until every ratio is settled or --budget is\nspent (at most 5 looks, 2 to 6 forks a side, each judged at 97.5%: a\nrule on the width keeps the run's false claims under 5%, docs/ab.md); a number: that many, no more (--reps N is N forks of one iteration\neach; --quick one)").inScenario("load");
    static final Opt ITERATIONS = Opt.of("iterations", "1", "measured holds per fork (JMH's iterations): the fork's JVM, warm, without a\n"
            + "second warm-up; they show whether a fork held steady, not the noise").typed(Opt.Type.INT).inScenario("load");
    static final Opt BUDGET = Opt.of("budget", "10m", "with --forks auto (the default): the wall time the A/B's forks may\n"
            + "take, each fork's start and warm-up counted (10m: a coffee break; a\nconfiguration's first fork takes about a minute at the defaults here: start,\nwarm-up, hold, profiled hold; a later fork about 45 s: no profiled hold)").inScenario("load");
    /** What a fork costs besides its warm-up and holds: the JVM's start, the verification, the drain (a Spring Boot jar here). */
    static final long FORK_START_S = 15;

    /**
     * How the configurations are measured: forks (fresh JVMs) of iterations (holds in one JVM) each; budget null for a
     * fixed number of forks, else the wall time within which forks are added until every ratio is settled.
     */
    record Forks(int forks, int iterations, java.time.Duration budget) {
        boolean auto() {
            return budget != null;
        }
    }

    /**
     * --forks, --iterations, --budget, --reps: --reps N (scripts before forks) is N forks of one iteration, since a rep
     * in a JVM of its own is what an interval between JVMs needs; --quick is one fork of one iteration.
     */
    static Forks forks(Options o, PlanContext.Timing t) throws UsageError {
        boolean forksGiven = FORKS.given(o), iterationsGiven = ITERATIONS.given(o), budgetGiven = BUDGET.given(o);
        if (PlanContext.REPS.given(o) && (forksGiven || iterationsGiven || budgetGiven)) {
            throw new UsageError("--reps N is N forks of one iteration each: give --reps or --forks/--iterations/--budget, not both");
        }
        if (PlanContext.REPS.given(o) || (RunOptions.QUICK.on(o) && !forksGiven && !budgetGiven)) return new Forks(t.reps(), 1, null);
        // an A/A's forks are its measurement of the spread: a fixed number unless asked otherwise, not until a ratio settles
        if (Aa.on(o) && !forksGiven && !budgetGiven) return new Forks(Aa.FORKS, ITERATIONS.integer(o, 1), null);
        String f = FORKS.string(o, FORKS.dflt()).trim();
        // a fault or a rate profile is no steady state to settle a ratio on: the default takes one fork there (asked
        // for by name, --forks auto or --budget is refused with them, see searches)
        boolean unsteady = !vtlab.plan.FaultAxis.parse(o).isEmpty() || PlanContext.RATE_PROFILE.given(o);
        if (!forksGiven && !budgetGiven && unsteady) return new Forks(1, ITERATIONS.integer(o, 1), null);
        boolean auto = f.equals("auto") || budgetGiven;
        int forks = f.equals("auto") ? 1 : FORKS.integer(o, 1);
        int iterations = ITERATIONS.integer(o, 1);
        java.time.Duration budget = auto ? BUDGET.duration(o, java.time.Duration.ofMinutes(10), false) : null;
        return new Forks(forks, iterations, budget);
    }

    /** Whether forks are added until settled (--forks auto, the default, or --budget), as {@link #forks} decides. */
    static boolean autoForks(Options o) throws UsageError {
        boolean forksGiven = FORKS.given(o), budgetGiven = BUDGET.given(o);
        if (PlanContext.REPS.given(o) || (RunOptions.QUICK.on(o) && !forksGiven && !budgetGiven)) return false;
        if (Aa.on(o) && !forksGiven && !budgetGiven) return false;
        boolean unsteady = !vtlab.plan.FaultAxis.parse(o).isEmpty() || PlanContext.RATE_PROFILE.given(o);
        if (!forksGiven && !budgetGiven && unsteady) return false;
        return FORKS.string(o, FORKS.dflt()).trim().equals("auto") || budgetGiven;
    }

    /** A configuration's first fork's wall time, estimated: start, warm-up, each iteration's hold and one explaining hold. */
    static long forkSeconds(PlanContext.Timing t, int iterations) {
        return laterForkSeconds(t, iterations) + Math.min(t.hold().toSeconds(), 20);
    }

    /**
     * A later fork's: start, warm-up and each iteration's hold; no explaining hold (the profile's, at most 20 s), which
     * the configuration's first ok fork ran (ExplainPhase.explainsAgain).
     */
    static long laterForkSeconds(PlanContext.Timing t, int iterations) {
        return FORK_START_S + t.warmup().toSeconds() + iterations * t.hold().toSeconds();
    }

    static String minutes(long seconds) {
        return seconds >= 60 ? seconds / 60 + "m" + (seconds % 60 == 0 ? "" : String.format(java.util.Locale.ROOT, "%02ds", seconds % 60)) : seconds + "s";
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "your own service (--app JAR or --cmd \"...\", --url PATH): platform vs virtual threads (+ tuned on Spring Boot), with a verdict";
    }

    /**
     * The default probes and the profile (where each request's time goes: the verdict names its largest cause); a run
     * that chose its probes keeps its choice: --probes a,b, --no-probes, --probes -profile.
     */
    @Override
    public List<String> defaultProbes(List<String> labDefaults) {
        return Experiment.withProbes(labDefaults, "profile", vtlab.probe.LiveSetProbe.NAME);
    }

    /**
     * The options that say what the service is and how it is switched and answered (--app or --cmd, --url and its
     * request, the modes' arguments and env, --dependency, --variants ...), not how it is loaded: what ./vtlab init
     * writes into a scenario file as well.
     */
    public static List<Opt> serviceOptions() {
        List<Opt> all = new ArrayList<>(Service.OPTIONS);
        all.add(VARIANTS);
        all.add(Dependencies.DEPENDENCY);
        return List.copyOf(all);
    }

    @Override
    public List<Opt> options() {
        List<Opt> all = new ArrayList<>(List.of(MODES, VARIANTS, CONC));
        all.addAll(Service.OPTIONS);
        all.add(Dependencies.DEPENDENCY);
        all.addAll(List.of(NextStep.NEXT_STEP, NextStep.BUDGET, NextStep.LEVER, Aa.AA));
        all.addAll(TIMING);
        all.addAll(List.of(FORKS, ITERATIONS, BUDGET, Judging.MARGIN));
        return all;
    }

    /** ab has no service of its own: the example is the lab's own Spring Boot jar (./vtlab build) and its sleep endpoint. */
    @Override
    public List<String> example() {
        return List.of("--app", vtlab.core.LabHome.get().resolve("stacks/spring-mvc/target/vtlab-spring-mvc.jar").toString(), "--url", "/sleep?ms=50");
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        int port = RunOptions.PORT.integer(o);
        Service.Parsed s = Service.parse(o, port);
        List<Dependencies.Dependency> deps = Dependencies.parse(o, s.sharedEnv());
        Stack.define(s.stack());
        Dependencies.register(deps);
        boolean aa = Aa.on(o);
        if (aa) Aa.refuse(o, s.stack().workloads().size(), ctx.jdks().size(), ctx.open() ? ctx.rates().size() : 0);
        List<String> modes = aa ? Aa.modes(o) : MODES.chosen(o);
        List<String> variants = aa ? Aa.variants(o) : VARIANTS.given(o) ? VARIANTS.chosen(o)
                : s.springBoot() ? List.of(Service.AS_SHIPPED, Service.TUNED) : List.of(Service.AS_SHIPPED);
        if (variants.contains(Service.TUNED) && !s.springBoot()) {
            throw new UsageError("--variants tuned: the lab knows the settings that matter only for a Spring Boot jar (Tomcat); this service has as-shipped only");
        }
        List<Integer> conc = aa ? Aa.conc(o) : CONC.ints(o);
        PlanContext.Timing t = ctx.timing(o, TIMING);
        if (t.warmup().isZero()) throw new UsageError("ab proves the thread mode with thread dumps under the warm-up's load: --warmup cannot be 0");
        List<String> jvm = jvmArgs(o);
        facts(o, s); // a --lever that does not parse, or one without --next-step, is refused here
        Forks f = forks(o, t);
        Judging.of(o, f.auto()); // a --margin that is no percent in (0, 50%] is refused before anything starts
        List<Row> configs = new ArrayList<>();
        for (Jdk jdk : ctx.jdks())
            for (String mode : modes)
                for (String variant : mode.equals(Threads.VIRTUAL.word) ? variants : List.of(Service.AS_SHIPPED))
                    for (String url : s.stack().workloads().keySet())
                        for (int c : conc) {
                            Row config = Dependencies.withDependencies(row(s, mode, variant, url, c, 1, jdk, t, jvm, ctx), deps);
                            // an A/A: the one configuration twice, as A and A', so the judge sees an A/B whose true ratio is 1
                            if (aa) configs.addAll(Aa.sides(config));
                            else configs.add(config);
                        }
        if (f.auto()) {
            long first = configs.size() * (forkSeconds(t, f.iterations()) + (f.forks() - 1L) * laterForkSeconds(t, f.iterations()));
            if (f.budget().toSeconds() < first) {
                throw new UsageError(String.format(java.util.Locale.ROOT, "--budget %s: %d fork%s of each of the %d configurations take%s about %s (start %ds, warm-up %ds, %d hold%s of %ds"
                        + " each, and one explaining hold a configuration): give at least %s, or fewer --conc, --url or --variants", minutes(f.budget().toSeconds()), f.forks(),
                        f.forks() == 1 ? "" : "s", configs.size(), f.forks() == 1 ? "s" : "", minutes(first), FORK_START_S, t.warmup().toSeconds(), f.iterations(), f.iterations() == 1 ? "" : "s",
                        t.hold().toSeconds(), minutes(first)));
            }
        }
        // forks interleaved (platform, virtual, platform, ...): a drift of the machine over the run falls on every
        // configuration alike instead of on whichever ran last; a fork's iterations run back to back, in its one JVM
        List<Row> rows = new ArrayList<>();
        for (int fork = 1; fork <= f.forks(); fork++)
            for (Row c : configs)
                for (int it = 1; it <= f.iterations(); it++) rows.add(forkRow(c, fork, it, f.iterations()));
        return rows;
    }

    /** A configuration's row as the given fork's iteration; its rep numbers the rows of the configuration (file names, labels). */
    static Row forkRow(Row config, int fork, int iteration, int iterations) {
        return config.toBuilder().fork(fork).iteration(iteration).rep((fork - 1) * iterations + iteration).build();
    }

    /** --jvm-args as given: the service's own heap unless asked (the lab's stacks get -Xms512m -Xmx512m; a user's service has its own). */
    static List<String> jvmArgs(Options o) {
        String given = RunOptions.JVM_ARGS.string(o, "");
        return given.isBlank() ? List.of() : List.of(given.trim().split("\\s+"));
    }

    /**
     * What the next step knows of the service (kept in kept.json): whether it runs, the service's kind, the
     * JVM options and the program arguments its levers read their present values from, the user's --lever.
     */
    /** --next-step-budget: a duration above zero (the next step's own, after the A/B's --budget). */
    static java.time.Duration nextStepBudget(Options o) throws UsageError {
        return NextStep.BUDGET.duration(o, NextStep.DEFAULT_BUDGET, false);
    }

    static NextStep.Facts facts(Options o, Service.Parsed s) throws UsageError {
        boolean run = NextStep.NEXT_STEP.on(o);
        List<String> levers = NextStep.LEVER.every(o);
        for (String l : levers) Levers.user(l);
        if (!levers.isEmpty() && !run) throw new UsageError("--lever is tried by the next step: add --next-step");
        Map<String, List<String>> args = new LinkedHashMap<>();
        for (String mode : ThreadModes.ALL) {
            args.put(mode, s.modeArgs(mode).stream().filter(a -> a.startsWith(Levers.POOL_KEY + "=") || a.startsWith(Levers.THREADS_KEY + "=")).toList());
        }
        // the jar's libraries: the library lever's (read again at findings time from kept.json, where ab keeps them)
        List<vtlab.check.JarLibraries.Library> libraries = Service.APP.given(o)
                ? ServiceLibraries.scan(Path.of(Service.APP.string(o)).toAbsolutePath().normalize()).libraries() : List.of();
        if (NextStep.BUDGET.given(o) && !run) throw new UsageError("--next-step-budget bounds the next step: add --next-step");
        long budget = run ? nextStepBudget(o).toSeconds() : 0;
        return new NextStep.Facts(run, s.springBoot(), Service.CMD.given(o) ? Service.CMD.string(o) : null, jvmArgs(o), args, levers,
                vtlab.data.Environment.memTotalKb() / 1024, libraries, budget);
    }

    /**
     * With --forks auto, the search that adds forks until every ratio is settled ({@link AbForks}); with --next-step,
     * the search that runs it after the A/B's rows (made from the same rows as planned: under the
     * load model and the limits, as the run makes them). Not with a fault or a rate profile: the next step explains a
     * steady state, as the explaining hold does.
     */
    @Override
    public List<vtlab.plan.Search> searches(Options o, PlanContext ctx) throws UsageError {
        boolean auto = forks(o, ctx.timing(o, TIMING)).auto();
        if (!NextStep.NEXT_STEP.on(o) && !auto) return List.of();
        String what = NextStep.NEXT_STEP.on(o) ? "--next-step" : "--forks auto (or --budget)";
        if (!vtlab.plan.FaultAxis.parse(o).isEmpty()) throw new UsageError(what + " explains a steady state: not with --fault (run them apart)");
        if (ctx.rateProfile() != null) throw new UsageError(what + " compares constant loads: not with --rate-profile (run them apart)");
        Service.Parsed s = Service.parse(o, RunOptions.PORT.integer(o));
        List<Row> rows = vtlab.plan.LimitAxis.apply(ctx.underLoadModel(plan(ctx.forExperiments(o), ctx)), vtlab.plan.LimitAxis.parse(o), o);
        PlanContext.Timing t = ctx.timing(o, TIMING);
        Forks f = forks(o, t);
        long perRow = forkSeconds(t, 1);
        List<vtlab.plan.Search> out = new ArrayList<>();
        // the forks it adds are later forks: no explaining hold of their own
        if (f.auto()) out.add(new AbForks(rows, f, laterForkSeconds(t, f.iterations())));
        if (!NextStep.NEXT_STEP.on(o)) return out;
        // a variant runs the A/B's forks; under --forks auto, two: the least that gives its change an interval
        out.add(new NextStep(rows.stream().filter(r -> r.iteration() == 1).toList(), facts(o, s), f.auto() ? Math.max(2, f.forks()) : f.forks(), perRow,
                nextStepBudget(o)));
        return out;
    }

    /** One row: the mode's and the variant's arguments and env, the run's env, the carriers for a tuned row only. */
    static Row row(Service.Parsed s, String mode, String variant, String url, int c, int rep, Jdk jdk, PlanContext.Timing t,
                   List<String> jvm, PlanContext ctx) throws UsageError {
        Stack.Config cfg = s.stack().configure(mode, url, Settings.NONE.with(Service.TUNING, variant), jdk.major());
        Env env = s.sharedEnv().merge(cfg.env());
        Params params = Params.NONE.with(Service.TUNING, variant);
        // as shipped is the JVM's own carrier count; tuned is the lab's (2 on a one-CPU SUT, see --carriers)
        List<String> jvmArgs = variant.equals(Service.TUNED) ? ctx.withCarriers(jvm) : jvm;
        return Row.builder().experiment(NAME).stack(s.stack().name()).threadMode(mode).workload(url).concurrency(c).rep(rep)
                .jdk(jdk).params(params).sutEnv(env).expectInfo(cfg.expectInfo())
                .boundNote("a service of the user's: no closed-form bound").tiers(cfg.tiers()).warmup(t.warmup()).hold(t.hold())
                .jvmArgs(jvmArgs).build().withAppArgs(cfg.args());
    }

    /** The verdict indexes rows by their number in matrix.csv: every row, open ones too. */
    @Override
    public boolean readsOpenRows() {
        return true;
    }

    /**
     * A jar's libraries, for the verdict's check against the lab's table (a --cmd has no jar to read), and what the
     * next step knows of the service (under next_step).
     */
    @Override
    public Map<String, Object> kept(Options o) throws UsageError {
        ServiceLibraries jar = Service.APP.given(o) ? ServiceLibraries.scan(Path.of(Service.APP.string(o)).toAbsolutePath().normalize()) : null;
        return new AbKept(jar, facts(o, Service.parse(o, RunOptions.PORT.integer(o))),
                Judging.of(o, autoForks(o)).withFloor(vtlab.data.MachineRecord.noiseFloor()), Map.of()).asMap();
    }

    /** The verdict, each claim with the rows it names (ab runs alone: its rows are the matrix's, numbered as there). */
    @Override
    public List<vtlab.data.Finding> findings(Path runDir, List<vtlab.data.DataRow> rows) {
        AbKept kept = AbKept.read(runDir);
        return Verdict.findings(rows, runDir.resolve("pinning.txt"), kept.libraries(), kept.jdks(), kept.nextStep(), kept.judging());
    }

    /** An A/A run that finished keeps its noise floor as this machine's (.vtlab/machines/HOST.json), said in one line. */
    @Override
    public void afterRun(Path runDir, List<vtlab.data.DataRow> rows, java.io.PrintStream out) throws java.io.IOException {
        vtlab.data.MachineRecord.NoiseFloor floor = NoiseFloorLine.measured(runDir.getFileName().toString(), rows);
        if (floor == null) return;
        Path kept = vtlab.data.MachineRecord.keep(floor);
        out.println("vtlab: this machine's noise floor, " + floor.words() + ", kept in " + kept);
    }
}
