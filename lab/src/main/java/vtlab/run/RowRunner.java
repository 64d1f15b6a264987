package vtlab.run;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.check.RowValidity;
import vtlab.check.Validity;
import vtlab.data.RowValues;
import vtlab.load.Generator;
import vtlab.load.LoadModel;
import vtlab.load.LoadResult;
import vtlab.load.LoadSpec;
import vtlab.plan.Drain;
import vtlab.plan.PlannedRow;
import vtlab.plan.Row;
import vtlab.probe.ProbeContext;
import vtlab.probe.Probes;
import vtlab.probe.Proc;
import vtlab.proc.Env;
import vtlab.stack.Stack;
import vtlab.proc.CoreMap;
import vtlab.tier.RunTier;
import vtlab.tier.SutHandle;
import vtlab.tier.SutProcess;
import vtlab.tier.host.TierProcess;

/**
 * Carries out one planned row: SUT up (or the previous row's kept, see {@link SutReuse}) -> verify -> warm-up
 * (discarded) -> drain -> measured load with probes, and turns what was measured into one dataset row. Everything
 * the row's experiment decides (probes, a fresh JVM, extra checks, drains) comes resolved in the {@link PlannedRow}.
 */
public final class RowRunner {
    /** Generator timeout: far above any latency a row should see, so slow answers are measured, not dropped. */
    static final Duration LOAD_TIMEOUT = Duration.ofSeconds(30);
    static final Duration DRAIN_MAX = Duration.ofSeconds(60);

    /** Checks a started SUT before load (runtime-info against the row, one request to the workload); the runtime-info. */
    interface Verification {
        JsonNode verify(String runtimeInfo, Row row, URI url, Stack.Workload workload) throws Exception;
    }

    /** A row's values for matrix.csv and its per-second series for series.jsonl (null for a failed row). */
    public record Result(RowValues values, Map<String, List<double[]>> series) {
        public boolean failed() {
            return "failed".equals(values.get(Validity.STATUS));
        }
    }

    /** Hook for a step a row goes through, so the caller can show progress. */
    public interface Steps {
        void step(String what);
    }

    private final Generator generator;
    private final CoreMap cores;
    private final int port;
    private final Duration warmupMax;
    private final SutHandle.Launcher launcher;
    private final Verification verification;
    private final SutReuse suts = new SutReuse();
    /** Why a SUT configuration did not start: its later rows fail at once instead of waiting out the start-up again. */
    private final Map<String, String> startFailures = new java.util.HashMap<>();
    /** The forked configurations (scenarios) an ok row's explaining hold explained: see {@link #explainsAgain}. */
    private final java.util.Set<String> explained = new java.util.HashSet<>();

    public RowRunner(Generator generator, CoreMap cores, int port, Duration warmupMax) {
        this(generator, cores, port, warmupMax, SutProcess::start);
    }

    /** @param launcher where the SUT runs: {@link SutProcess#start} here, a host's (--hosts) */
    public RowRunner(Generator generator, CoreMap cores, int port, Duration warmupMax, SutHandle.Launcher launcher) {
        this(generator, cores, port, warmupMax, launcher, RowRunner::verifyOverHttp);
    }

    RowRunner(Generator generator, CoreMap cores, int port, Duration warmupMax, SutHandle.Launcher launcher,
              Verification verification) {
        this.generator = generator;
        this.cores = cores;
        this.port = port;
        this.warmupMax = warmupMax;
        this.launcher = launcher;
        this.verification = verification;
    }

    /** Stops the SUT kept for the next row, if any (end of run). */
    public void close() {
        suts.close();
    }

    public Result run(PlannedRow planned, int index, Path raw, Map<String, RunTier> runTiers, Steps shown)
            throws InterruptedException {
        PhaseClock steps = new PhaseClock(shown);
        Row row = planned.row();
        RowValues out = base(row);
        String stem = row.fileStem(index);
        SutHandle sut = null;
        ProbeSession probes = null, explainers = null;
        try {
            // a probe that explains (the profiler) never runs in the measured hold: it gets a hold of its own after it
            List<vtlab.probe.Probe> chosen = Probes.create(planned.probes());
            probes = new ProbeSession(chosen.stream().filter(p -> !p.explains()).toList());
            explainers = new ProbeSession(chosen.stream().filter(vtlab.probe.Probe::explains).toList());
            // a row with a build runs that build's jar (made before the first row): part of the configuration below
            Stack stack = vtlab.tier.StackVariants.forRow(Stack.load(row.stack()), row.build());
            Stack.Workload w = stack.workload(row.workload()).withParams(row.params());
            List<String> jvmArgs = new ArrayList<>(row.jvmArgs());
            jvmArgs.addAll(probes.jvmArgs());
            jvmArgs.addAll(explainers.jvmArgs());
            Env env = runTiers.values().stream().map(RunTier::sutEnv).reduce(row.sutEnv(), Env::merge);
            String config = stack.name() + "|" + stack.jar() + "|" + row.jdk().home() + "|" + jvmArgs + "|" + row.appArgs() + "|" + env + "|" + row.limits();

            String failedBefore = startFailures.get(config);
            if (failedBefore != null) throw new RowFailed(failedBefore + " (an earlier row's start with the same configuration; not retried)");
            // a fork's first iteration is a fresh JVM whatever ran before; its later ones are that JVM's or nothing
            if (row.continuesFork() && !suts.keeps(config)) {
                throw new RowFailed("fork " + row.fork() + "'s JVM is gone (its iteration before failed or it died): iteration " + row.iteration() + " has no warm JVM to run in");
            }
            SutReuse.Acquired got = suts.acquire(config, planned.freshSut() || row.startsFork(), steps, () -> vtlab.tier.ContainedSut.around(launcher, row.limits()).start(stack, row.jdk(),
                    jvmArgs, row.appArgs(), env, cores.of(CoreMap.APP), port, raw.resolve(stem + ".sut.log")));
            sut = got.sut();
            out.put(RowColumns.SUT_JVM, got.reused() ? "reused" : "fresh");
            out.put(RowColumns.SUT_LOG, sut.log().getFileName().toString());

            steps.step("verifying");
            URI url = sut.base().resolve(w.pathFor(row.params()));
            JsonNode runtime = verify(planned, stack, sut, config, url, w, raw, stem, runTiers, steps);
            out.put(RowColumns.SUT_LAUNCH, sut.launch()); // once it answers: a cache the JVM refused is in its log by then

            // a service without runtime-info proves its thread mode under the warm-up's load; its JFR witness starts
            // before the probes' recordings, so that its stack depth applies to them all
            // a fork's later iteration runs in the JVM its first one warmed up and proved: no warm-up, no second proof
            boolean warm = row.continuesFork();
            ThreadModeCheck modeCheck = stack.reportsRuntimeInfo() || warm ? null : new ThreadModeCheck(Stack.threadsOf(row.stack(), row.threadMode()), stack.launch().appPackages());
            if (warm && !stack.reportsRuntimeInfo()) out.put(RowColumns.MODE_PROOF, "fork " + row.fork() + "'s JVM, proven in its iteration 1");
            if (modeCheck != null && row.warmup().isZero()) throw new RowFailed("a service without runtime-info needs a warm-up to prove its thread mode");
            if (modeCheck != null) modeCheck.begin(row.jdk(), sut.process(), raw, stem);
            try {
                probes.beforeLoad(new ProbeContext(row, tiers(sut, null, runTiers), Map.of(), sut.base(), raw, stem));
                if (!row.warmup().isZero() && !warm) warmUp(row, sut, url, w, raw, stem, steps, out, modeCheck);
                if (modeCheck != null) {
                    modeCheck.conclude(row.jdk(), sut.process());
                    out.put(RowColumns.MODE_PROOF, modeCheck.proof());
                }
            } finally {
                if (modeCheck != null && sut.alive()) {
                    try {
                        modeCheck.stop(row.jdk(), sut.process());
                    } catch (RowFailed e) {
                        // only after a failure before the verdict (conclude stops it): that failure is the row's, and a
                        // failed row's SUT is stopped, its recording with it
                    }
                }
            }
            drain(planned, sut, steps, out);
            FaultSchedule faults = FaultSchedule.of(row, runTiers);
            LoadResult r = measure(row, sut, url, w, raw, stem, runTiers, probes, steps, faults, row.hold());
            steps.enter("probes");

            out.putAll(r.values());
            probes.afterLoad(out);
            out.putAll(probes.measurements().columns());
            boolean explaining = !explainers.none() && explainsAgain(row);
            if (explaining) explain(planned, sut, url, w, raw, stem, runTiers, explainers, steps, out, r);
            else if (!explainers.none()) steps.step("no profiled hold: an earlier fork of this configuration explained it");
            Map<String, List<double[]>> series = series(probes.measurements().series(), r);
            faults.into(out);
            HoldWindow window = HoldWindow.of(faults, row);
            if (window != null) window.into(out, row, series, r);
            List<String> probeErrors = new ArrayList<>(probes.errors());
            probeErrors.addAll(explainers.errors());
            // a probe's recording left running would sample into the next row's hold: this row's numbers were taken
            // before it, the next row's are taken in a fresh JVM
            boolean clean = probes.sutClean() && explainers.sutClean();
            if (!clean) probeErrors.add("the SUT was not kept for the next row: a probe could not stop what it started in it");
            validity(out, row, r, runtime, probeErrors, window == null ? null : window.faultFromS());
            // explained: an ok row whose explaining probes measured without an error
            if (explaining && row.fork() > 0 && "ok".equals(out.get(Validity.STATUS)) && explainers.errors().isEmpty()) explained.add(row.scenario());
            // a fork's JVM is kept for its next iteration even under --fresh-sut (the fork is already a JVM of its own),
            // never one a probe left unclean (its next row or iteration then starts afresh, or fails saying why)
            if (suts.release(sut, config, planned.freshSut() && row.fork() == 0 || !clean)) sut = null;
            return new Result(out, series);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            // what the probes had measured before the row failed stays (e.g. the JVM's view of its container limits
            // when the memory limit's OOM killer ended it); the row's status says none of its load figures exist
            if (probes != null) out.putAll(probes.measurements().columns());
            if (explainers != null) out.putAll(explainers.measurements().columns());
            out.put(Validity.STATUS, "failed");
            out.put(Validity.NOTE, e instanceof RowFailed || e instanceof vtlab.plan.VerificationFailed || e instanceof Generator.LoadException
                    ? e.getMessage() : e.toString());
            return new Result(out, null); // a failed row has no series line
        } finally {
            if (sut != null) {
                steps.step("stopping SUT");
                sut.close();
            }
            steps.into(out);
        }
    }

    /** Waits for the SUT, keeps its runtime-info in raw/, checks it and the endpoint, then the experiment's own check. */
    private JsonNode verify(PlannedRow planned, Stack stack, SutHandle sut, String config, URI url, Stack.Workload w, Path raw,
                            String stem, Map<String, RunTier> runTiers, PhaseClock clock) throws Exception {
        String info;
        try {
            clock.enter("start"); // a fresh JVM's start-up is the wait for its first answer
            info = sut.awaitReady(stack.launch().startTimeout());
            clock.enter("verify");
        } catch (java.io.IOException e) {
            startFailures.put(config, e.getMessage()); // exited or never ready: its later rows are not started again
            throw new RowFailed(e.getMessage());
        }
        JsonNode runtime;
        if (stack.reportsRuntimeInfo()) {
            Files.writeString(raw.resolve(stem + ".runtime-info.json"), info);
            runtime = verification.verify(info, planned.row(), url, w);
        } else {
            new Verifier().verifyEndpoint(url, w); // nothing to compare the configuration with: the thread dump does it
            runtime = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        }
        planned.extraVerification().verify(planned.row(), sut.base(), runTiers);
        return runtime;
    }

    private static JsonNode verifyOverHttp(String info, Row row, URI url, Stack.Workload w) throws Exception {
        Verifier v = new Verifier();
        JsonNode runtime = v.verifyConfig(info, row);
        v.verifyEndpoint(url, w);
        return runtime;
    }

    /** Load until the rate and the JIT settle (see {@link WarmUp}); discarded but for the warm-up columns. */
    private void warmUp(Row row, SutHandle sut, URI url, Stack.Workload w, Path raw, String stem, Steps steps,
                        RowValues out, ThreadModeCheck modeCheck) throws Exception {
        WarmUp.Result warm = WarmUp.run(row.warmup(), warmupMax, (d, slice) -> {
            steps.step(slice == 0 ? "warming up " + d.toSeconds() + "s" : "warming up: +" + d.toSeconds() + "s until the rate settles");
            LoadSpec spec = spec(row, url, w, d, raw, stem + ".warmup" + (slice == 0 ? "" : "-" + slice)).forRateOnly();
            long jit0 = Proc.jitTicks(sut.process()), t0 = System.nanoTime();
            Generator.RunningLoad load = generator.start(spec);
            boolean proving = modeCheck != null && !modeCheck.concluded();
            if (proving) {
                steps.step("warming up " + d.toSeconds() + "s: thread dumps and JFR samples prove the thread mode");
                try {
                    modeCheck.during(row.jdk(), sut.process(), d, t0, raw, stem);
                } catch (Exception e) {
                    load.await(); // the next row's load must not overlap this one
                    throw e;
                }
            }
            double rps = load.await().rps();
            if (!sut.alive()) throw new RowFailed(sut.died("during warm-up"));
            if (proving) modeCheck.afterSlice(row.jdk(), sut.process(), raw, stem);
            long jit1 = Proc.jitTicks(sut.process());
            double jitPct = jit0 < 0 || jit1 < 0 ? Double.NaN : Proc.pct(jit1 - jit0, (System.nanoTime() - t0) / 1e9);
            WarmUp.Slice done = new WarmUp.Slice(rps, jitPct);
            if (!WarmUp.jitQuiet(done)) { // the compiler was busy: let it finish before the next slice
                steps.step("warming up: letting the JIT catch up");
                WarmUp.catchUp(() -> Proc.jitNanos(sut.process()), Thread::sleep);
            }
            return done;
        });
        out.put(RowColumns.WARMUP_S, warm.total().toSeconds());
        out.put(RowColumns.WARMUP_STEADY, warm.steady());
        out.put(RowColumns.WARMUP_TREND, warm.trend());
        out.put(RowColumns.WARMUP_RPS, warm.slices().stream().map(v -> String.format(Locale.ROOT, "%.0f", v.rps()))
                .collect(Collectors.joining(";")));
        out.put(RowColumns.WARMUP_JIT_PCT, warm.slices().stream().map(v -> String.format(Locale.ROOT, "%.1f", v.jitPct()))
                .collect(Collectors.joining(";")));
    }

    /** The warm-up's (or the previous row's) queued requests would otherwise eat into the measured hold. */
    private static void drain(PlannedRow planned, SutHandle sut, Steps steps, RowValues out) throws InterruptedException {
        long t0 = System.nanoTime();
        awaitIdle(planned, sut, steps);
        out.put(RowColumns.DRAIN_MS, (System.nanoTime() - t0) / 1_000_000);
    }

    /** Until the SUT has served what was sent before and each of the row's drains is idle (at most DRAIN_MAX each). */
    private static void awaitIdle(PlannedRow planned, SutHandle sut, Steps steps) throws InterruptedException {
        steps.step("draining");
        sut.drain(DRAIN_MAX);
        for (Drain d : planned.drains()) {
            if (!d.await(sut.base(), DRAIN_MAX)) steps.step(d.what() + " did not go idle in " + DRAIN_MAX.toSeconds() + " s; measuring anyway");
        }
    }

    /**
     * Whether the row gets a profiled hold: every row but a fork of a configuration that an earlier fork's ok row has
     * explained. Forks are one configuration run again in fresh JVMs for the interval between them; where a request's
     * time goes is the configuration's, and read from one ok row (the verdict and the next step name it), so each
     * further fork costs its start, warm-up and hold, not a profiled hold too (up to 20 s: within a --budget, more forks).
     * The profile's JVM options stay on every fork, so that the forks are one configuration. A flagged first fork's
     * breakdown does not count: the next fork is profiled, until one is ok.
     */
    boolean explainsAgain(Row row) {
        return row.fork() == 0 || !explained.contains(row.scenario());
    }

    /**
     * The hold that explains the row ({@link ExplainingHold}): after the measured one, drained, the same load with only
     * the explaining probes; their columns from its own throughput and latency, and what it cost beside the row's.
     */
    private void explain(PlannedRow planned, SutHandle sut, URI url, Stack.Workload w, Path raw, String stem, Map<String, RunTier> runTiers,
                         ProbeSession explainers, Steps steps, RowValues out, LoadResult measured) throws Exception {
        Row row = planned.row();
        awaitIdle(planned, sut, steps); // the measured hold's last requests would otherwise fall into this one
        Duration d = ExplainingHold.length(row);
        steps.step("profiling " + d.toSeconds() + "s: a hold of its own, after the measured one (its numbers explain the row, they are not the row's)");
        // their beforeLoad here, after the measured hold and before this one's load: a recording started then is ready
        explainers.beforeLoad(new ProbeContext(row, tiers(sut, null, runTiers), Map.of(), sut.base(), raw, stem + ".profiled"));
        LoadResult profiled = measure(row, sut, url, w, raw, stem + ".profiled", runTiers, explainers, what -> {}, FaultSchedule.NONE, d);
        RowValues held = new RowValues();
        held.putAll(profiled.values()); // the breakdown's request time is the profiled hold's own (its throughput × mean latency)
        explainers.afterLoad(held);
        out.putAll(explainers.measurements().columns());
        ExplainingHold.into(out, measured, profiled);
    }

    /** A hold: the load, the probes started with it and sampled about once a second. */
    private LoadResult measure(Row row, SutHandle sut, URI url, Stack.Workload w, Path raw, String stem, Map<String, RunTier> runTiers,
                               ProbeSession probes, Steps steps, FaultSchedule faults, Duration hold) throws Exception {
        steps.step("measuring " + hold.toSeconds() + "s" + (faults.any() ? ", fault " + faults.spec() : ""));
        // the hold follows the row's rate profile, if any; warm-up slices run at its mean, so their rates can settle
        // (an explaining hold shorter than the row's runs at the profile's mean: the profile's seconds are the row's)
        // the probes see the hold they run in (a profiled hold may be shorter than the row's: at most 20 s)
        Row held = hold.equals(row.hold()) ? row : row.withHold(hold);
        probes.beforeHold(probeContext(held, tiers(sut, null, runTiers), sut, raw, stem));
        Generator.RunningLoad load = generator.start(spec(row, url, w, hold, raw, stem).withProfile(hold.equals(row.hold()) ? row.rateProfile() : null));
        ProbeContext ctx = probeContext(held, tiers(sut, load.process(), runTiers), sut, raw, stem);
        probes.start(ctx);
        long t0 = System.nanoTime();
        LoadResult r;
        try (faults) {
            faults.start(t0);
            long holdS = hold.toSeconds();
            // a partial last second would read as a drop in every series: no sample once the load has ended
            while (aliveAfter(load.process(), SAMPLE_EVERY)) {
                double at = (System.nanoTime() - t0) / 1e9;
                probes.sample(ctx, at);
                // a long hold (a soak) says where it is, so a user sees it move
                if (holdS >= 120 && (long) at % 30 == 0) steps.step("measuring " + holdS + "s: " + (long) at + " s done, " + Math.max(0, holdS - (long) at) + " s to go");
            }
            r = load.await();
        }
        if (!sut.alive()) throw new RowFailed(sut.died("during the measured load"));
        probes.finish(ctx);
        if (!sut.alive()) throw new RowFailed(sut.died("while probes read it"));
        return r;
    }

    /** The probes' view of a hold: its tiers' processes and the CPUs each is pinned to. */
    private ProbeContext probeContext(Row held, Map<String, TierProcess> tiers, SutHandle sut, Path raw, String stem) {
        return new ProbeContext(held, tiers, tiers.keySet().stream().collect(Collectors.toMap(t -> t, cores::count)), sut.base(), raw, stem);
    }

    /** How often the probes sample in the hold, and how often the load's end is looked for meanwhile. */
    static final Duration SAMPLE_EVERY = Duration.ofSeconds(1), LOAD_END_POLL = Duration.ofMillis(25);

    /**
     * Waits for the given time; true if the process is still alive then, false as soon as it ends. A whole-second sleep
     * past the load's end cost every row up to a second (~0.6 s on average) before its probes finished.
     */
    static boolean aliveAfter(TierProcess p, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (p.alive()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) return true;
            Thread.sleep(Math.max(1, Math.min(LOAD_END_POLL.toMillis(), left / 1_000_000)));
        }
        return false;
    }

    /**
     * The probes' per-second samples and the generator's own (requests, errors, latency: what it declares), one map
     * for series.jsonl; the generator's first, so the report shows load before what it did to the SUT.
     */
    static Map<String, List<double[]>> series(Map<String, List<double[]>> probes, LoadResult r) {
        Map<String, List<double[]>> all = new LinkedHashMap<>(r.series().asSeries());
        probes.forEach(all::putIfAbsent);
        return all;
    }

    private LoadSpec spec(Row row, URI url, Stack.Workload w, Duration d, Path raw, String stem) {
        // warm-up and hold alike: an open row is warmed at its own rate
        LoadSpec s = new LoadSpec(url, w.request(), row.concurrency(), cores.count(CoreMap.LOAD), d, LOAD_TIMEOUT,
                cores.of(CoreMap.LOAD), raw, stem, row.open() ? LoadModel.OPEN : LoadModel.CLOSED, row.rate()).withMix(w.mix());
        // a fault holds answers back: in flight can jump to the cap within a second
        return row.open() && !row.faults().isEmpty() ? s.withBursts() : s;
    }

    /** Processes by tier name: app, load (once the hold runs), then the run's tiers. */
    private static Map<String, TierProcess> tiers(SutHandle sut, TierProcess load, Map<String, RunTier> runTiers) {
        Map<String, TierProcess> tiers = new LinkedHashMap<>();
        tiers.put("app", sut.process());
        if (load != null) tiers.put("load", load);
        runTiers.forEach((name, t) -> {
            TierProcess p = t.tierProcess(); // read where it runs; a dependency the lab did not start has none
            if (p != null) tiers.put(name, p);
        });
        return tiers;
    }

    static final class RowFailed extends Exception {
        RowFailed(String message) {
            super(message);
        }
    }

    RowValues base(Row row) {
        return new RowValues()
                .put(RowColumns.TS, Instant.now().toString())
                .put(RowColumns.EXPERIMENT, row.experiment())
                .put(RowColumns.STACK, row.stack())
                .put(RowColumns.THREAD_MODE, row.threadMode())
                .put(RowColumns.WORKLOAD, row.workload())
                .put(RowColumns.CONCURRENCY, row.concurrency())
                .put(RowColumns.REP, row.rep())
                .put(RowColumns.FORK, row.fork() > 0 ? row.fork() : null)
                .put(RowColumns.ITERATION, row.fork() > 0 ? row.iteration() : null)
                .put(RowColumns.HIKARI_POOL, row.hikariPool())
                .put(RowColumns.PATH_MODE, row.pathMode())
                .put(RowColumns.CONN_MODE, row.connMode())
                .put(RowColumns.JDK, row.jdk().major())
                .put(RowColumns.CARRIERS, row.carriers())
                .put(RowColumns.GENERATOR, generator.name())
                .put(RowColumns.LOAD_MODEL, row.loadModel())
                .put(RowColumns.TARGET_RPS, row.rate())
                .put(RowColumns.BOUND_RPS, row.boundRps())
                .put(RowColumns.BOUND_NOTE, row.boundNote())
                .put(RowColumns.APP_CPUS, cores.of(CoreMap.APP))
                .put(RowColumns.LOAD_CPUS, cores.of(CoreMap.LOAD))
                .put(RowColumns.PARAMS, row.params().cell())
                .put(RowColumns.SCENARIO, row.scenario());
    }

    /**
     * The validity checks over what was measured, into the row ({@link RowValidity} judges it).
     *
     * @param faultFromS for a row with a fault, the hold's second it began: an open row's rate and errors are judged on
     *                   the seconds before it (was the rig healthy?); what the fault did is its verdict, not a flaw
     */
    void validity(RowValues out, Row row, LoadResult r, JsonNode runtime, List<String> probeErrors, Integer faultFromS) {
        out.put(RowColumns.ACHIEVED_RPS, r.rps());
        RowValidity.Measured measured = new RowValidity.Measured(r.rps(), r.meanMs(), r.errorRate(), r.durationS(), dropped(r),
                r.series().seconds().stream().map(s -> new RowValidity.Second(s.requests(), s.errors())).toList(), r.agents());
        Integer maxConn = runtime.hasNonNull("max_connections") ? runtime.get("max_connections").asInt() : null;
        Object steady = out.get(RowColumns.WARMUP_STEADY);
        RowValidity.judge(out, row, measured, new RowValidity.Context(cores.count(CoreMap.LOAD), cores.count(CoreMap.APP), cores.shared(),
                generator.inFlightLimit(row.rate(), row.concurrency()), maxConn, steady instanceof Boolean b ? b : null, faultFromS, probeErrors));
    }

    /** Requests due but never sent (k6: no free VU; oha: still queued when the hold ended); 0 where none is reported. */
    static long dropped(LoadResult r) {
        return r.dropped() == null ? 0 : r.dropped();
    }
}
