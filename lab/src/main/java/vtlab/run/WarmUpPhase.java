package vtlab.run;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import vtlab.data.RowValues;
import vtlab.load.Generator;
import vtlab.load.LoadSpec;
import vtlab.plan.Row;
import vtlab.probe.ProbeContext;
import vtlab.probe.Proc;
import vtlab.run.RowRunner.RowFailed;
import vtlab.run.RowRunner.Steps;
import vtlab.stack.Stack;
import vtlab.tier.SutHandle;

/**
 * The warm-up, discarded but for its columns, with the thread-mode proof around it: a service without runtime-info
 * proves its thread mode under the warm-up's load ({@link ThreadModeCheck}); its JFR witness starts before the probes'
 * recordings (their beforeLoad, here for every row), so that its stack depth applies to them all. A fork's later
 * iteration runs in the JVM its first one warmed up and proved: no warm-up, no second proof.
 */
final class WarmUpPhase implements Phase {
    private final RowLoad load;
    private final Generator generator;
    private final Duration warmupMax;

    WarmUpPhase(RowLoad load, Duration warmupMax) {
        this.load = load;
        this.generator = load.generator;
        this.warmupMax = warmupMax;
    }

    @Override
    public String name() {
        return "warm-up";
    }

    @Override
    public void run(RowContext c) throws Exception {
        Row row = c.row;
        SutHandle sut = c.sut;
        boolean warm = row.continuesFork();
        ThreadModeCheck modeCheck = c.stack.reportsRuntimeInfo() || warm ? null : new ThreadModeCheck(Stack.threadsOf(row.stack(), row.threadMode()), c.stack.launch().appPackages());
        if (warm && !c.stack.reportsRuntimeInfo()) c.out.put(RowColumns.MODE_PROOF, "fork " + row.fork() + "'s JVM, proven in its iteration 1");
        if (modeCheck != null && row.warmup().isZero()) throw new RowFailed("a service without runtime-info needs a warm-up to prove its thread mode");
        if (modeCheck != null) modeCheck.begin(row.jdk(), sut.process(), c.raw, c.stem);
        try {
            c.probes.beforeLoad(new ProbeContext(row, RowLoad.tiers(sut, null, c.runTiers), Map.of(), sut.base(), c.raw, c.stem));
            if (!row.warmup().isZero() && !warm) warmUp(row, sut, c.url, c.workload, c.raw, c.stem, c.steps, c.out, modeCheck);
            if (modeCheck != null) {
                modeCheck.conclude(row.jdk(), sut.process());
                c.out.put(RowColumns.MODE_PROOF, modeCheck.proof());
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
    }

    /** Load until the rate and the JIT settle (see {@link WarmUp}); discarded but for the warm-up columns. */
    private void warmUp(Row row, SutHandle sut, URI url, Stack.Workload w, Path raw, String stem, Steps steps,
                        RowValues out, ThreadModeCheck modeCheck) throws Exception {
        JitFirst jitFirst = new JitFirst(sut.process(), JitFirst.CHRT);
        WarmUp.Result warm;
        try (jitFirst) {
            warm = warmUpSlices(row, sut, url, w, raw, stem, steps, modeCheck, jitFirst);
        }
        out.put(RowColumns.WARMUP_JIT_FIRST, jitFirst.state());
        out.put(RowColumns.WARMUP_S, warm.total().toSeconds());
        out.put(RowColumns.WARMUP_STEADY, warm.steady());
        out.put(RowColumns.WARMUP_TREND, warm.trend());
        out.put(RowColumns.WARMUP_RPS, warm.slices().stream().map(v -> String.format(Locale.ROOT, "%.0f", v.rps()))
                .collect(Collectors.joining(";")));
        out.put(RowColumns.WARMUP_JIT_PCT, warm.slices().stream().map(v -> String.format(Locale.ROOT, "%.1f", v.jitPct()))
                .collect(Collectors.joining(";")));
    }

    /** The warm-up's slices, the JIT's compiler threads raised before each one (see {@link JitFirst}). */
    private WarmUp.Result warmUpSlices(Row row, SutHandle sut, URI url, Stack.Workload w, Path raw, String stem, Steps steps,
                                       ThreadModeCheck modeCheck, JitFirst jitFirst) throws Exception {
        return WarmUp.run(row.warmup(), warmupMax, (d, slice) -> {
            jitFirst.raise();
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
    }

    private LoadSpec spec(Row row, URI url, Stack.Workload w, Duration d, Path raw, String stem) {
        return load.spec(row, url, w, d, raw, stem);
    }
}
