package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.data.Column;
import vtlab.load.Generator;
import vtlab.load.LoadResult;
import vtlab.load.LoadSpec;
import vtlab.plan.Drain;
import vtlab.plan.PlannedRow;
import vtlab.plan.Row;
import vtlab.plan.RowCheck;
import vtlab.probe.Measurements;
import vtlab.probe.Probe;
import vtlab.probe.ProbeContext;
import vtlab.probe.Probes;
import vtlab.proc.CoreMap;
import vtlab.proc.Env;
import vtlab.stack.Params;
import vtlab.tier.tool.Jdk;
import vtlab.tier.SutHandle;
import vtlab.tier.host.TierProcess;

/** The runner's parts with a fake SUT and a fake generator: no process is started, no port is used. */
class RowRunnerTest {
    @TempDir
    Path raw;

    final List<String> events = new ArrayList<>();
    final List<LoadSpec> specs = new ArrayList<>();
    final List<FakeSut> started = new ArrayList<>();
    /** Runs when the fake generator's load is awaited (e.g. the SUT dies mid-hold). */
    Runnable duringHold = () -> {};
    /** What the fake's load agents did (none: one generator). */
    List<vtlab.data.AgentLoad> agents = List.of();
    /** The fake SUT's JVM as the probes reach it (this test's own, unless a test gives one whose jcmd fails). */
    TierProcess sutProcess = TierProcess.local(ProcessHandle.current());

    static ProcessHandle finished;
    /** The running test's events, for the probes the registry makes. */
    static List<String> current;

    @org.junit.jupiter.api.BeforeEach
    void events() {
        current = events;
    }

    @BeforeAll
    static void aFinishedProcess() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        finished = p.toHandle(); // a load that is already over: the sampling loop does not wait
        Probes.register("test-throws", ThrowingProbe::new);
        Probes.register("test-before-load", BeforeLoadProbe::new);
        Probes.register("test-explains", ExplainingProbe::new);
    }

    final class FakeSut implements SutHandle {
        boolean alive = true;

        @Override
        public TierProcess process() {
            return sutProcess;
        }

        @Override
        public URI base() {
            return URI.create("http://127.0.0.1:9");
        }

        @Override
        public Path log() {
            return raw.resolve("fake.sut.log");
        }

        @Override
        public boolean alive() {
            return alive;
        }

        @Override
        public String awaitReady(Duration timeout) {
            return "{}";
        }

        @Override
        public Duration drain(Duration max) {
            events.add("drain");
            return Duration.ZERO;
        }

        @Override
        public String tail(int n) {
            return "fake log";
        }

        @Override
        public void close() {
            events.add("stop");
            alive = false;
        }
    }

    final class FakeGenerator implements Generator {
        @Override
        public String name() {
            return "fake";
        }

        @Override
        public String description() {
            return "answers at once";
        }

        @Override
        public void ensureAvailable() {}

        @Override
        public String version() {
            return "0";
        }

        @Override
        public RunningLoad start(LoadSpec spec) {
            events.add("load " + spec.stem());
            specs.add(spec);
            return new RunningLoad() {
                @Override
                public TierProcess process() {
                    return TierProcess.local(finished);
                }

                @Override
                public LoadResult await() {
                    duringHold.run();
                    // 1,000 req/s at 10 ms with 10 connections: Little's law holds; a profiled hold is slower (800 req/s, p99 40 ms)
                    boolean profiled = spec.stem().endsWith(".profiled");
                    return LoadResult.builder().requests(profiled ? 800 : 1000, 1).latencyMs(profiled ? 12.5 : 10, 9, 12, 14, profiled ? 40 : 20, 30, 45).bytes(1000)
                            .raw(spec.rawDir().resolve(spec.stem() + ".fake.txt")).agents(agents).build();
                }
            };
        }
    }

    public static final class ThrowingProbe implements Probe {
        @Override
        public String name() {
            return "test-throws";
        }

        @Override
        public String description() {
            return "fails every call";
        }

        @Override
        public List<Column> columns() {
            return List.of();
        }

        @Override
        public void finish(ProbeContext ctx, Measurements out) {
            throw new IllegalStateException("boom");
        }
    }

    /** A probe that explains (as the profiler does): it sees only the hold of its own, and the throughput of that hold. */
    public static final class ExplainingProbe implements Probe {
        static final Column SAW = Column.number("test_explained_rps", "req/s", "the throughput the explaining probe was given");

        @Override
        public String name() {
            return "test-explains";
        }

        @Override
        public String description() {
            return "explains";
        }

        @Override
        public boolean explains() {
            return true;
        }

        @Override
        public List<Column> columns() {
            return List.of(SAW);
        }

        @Override
        public void start(ProbeContext ctx) {
            current.add("explainer starts with " + ctx.stem() + (ctx.row().hold().equals(Duration.ofSeconds(1)) ? "" : " for " + ctx.row().hold().toSeconds() + " s"));
        }

        /** Set by a test: the next finish fails, as a profile whose recording could not be read. */
        static volatile boolean failNext;

        @Override
        public void finish(ProbeContext ctx, Measurements out) throws Exception {
            current.add("explainer finishes");
            if (failNext) {
                failNext = false;
                throw new java.io.IOException("the recording could not be read");
            }
        }

        @Override
        public void afterLoad(vtlab.data.RowValues row, Measurements out) {
            out.put(SAW, ((Number) row.get("throughput_rps")).doubleValue());
        }
    }

    /** Measures one column before the load, as the container probe notes what the JVM saw of its limits. */
    public static final class BeforeLoadProbe implements Probe {
        static final Column SAW = Column.integer("test_saw_before_load", "CPUs", "what the SUT reported before its load");

        @Override
        public String name() {
            return "test-before-load";
        }

        @Override
        public String description() {
            return "one column before the load";
        }

        @Override
        public List<Column> columns() {
            return List.of(SAW);
        }

        @Override
        public void beforeLoad(ProbeContext ctx, Measurements out) {
            out.put(SAW, 1);
        }

        @Override
        public void finish(ProbeContext ctx, Measurements out) {}
    }

    /** On two CPUs' core map whatever the machine: SUT and generator apart. */
    RowRunner runner() throws Exception {
        return runner(CoreMap.compute(2, null));
    }

    RowRunner runner(CoreMap cores) throws Exception {
        SutHandle.Launcher launcher = (stack, jdk, jvmArgs, appArgs, env, cpus, port, log) -> {
            events.add("start");
            FakeSut s = new FakeSut();
            started.add(s);
            return s;
        };
        return new RowRunner(new FakeGenerator(), cores, 18080,
                Duration.ZERO, launcher, (info, row, url, w) -> new ObjectMapper().readTree(info));
    }

    static Row row(String mode, int rep) {
        return Row.builder().experiment("servlet").stack("servlet").threadMode(mode).workload("hello").concurrency(10).rep(rep)
                .jdk(Jdk.current()).sutEnv(Env.NONE.with("THREAD_MODE", mode)).warmup(Duration.ZERO).hold(Duration.ofSeconds(1)).build();
    }

    RowRunner.Result run(RowRunner r, PlannedRow p, int index) throws InterruptedException {
        return r.run(p, index, raw, Map.of(), what -> {});
    }

    /**
     * The row's numbers come from a hold where no explaining probe runs; the explaining probe gets a hold of its own
     * after it, on the same SUT, and relates what it saw to that hold's load; what that hold cost stands beside.
     */
    @Test
    void anExplainingProbeRunsInAHoldOfItsOwnAfterTheMeasuredOne() throws Exception {
        RowRunner.Result res = run(runner(), PlannedRow.of(row("virtual", 1), List.of("cpu", "test-explains")), 1);
        assertEquals("ok", res.values().get("status"), String.valueOf(res.values().get("note")));
        List<String> order = events.stream().filter(e -> e.startsWith("load") || e.startsWith("explainer")).toList();
        assertEquals(List.of("load 001-servlet-virtual-hello-c10-r1", "load 001-servlet-virtual-hello-c10-r1.profiled",
                "explainer starts with 001-servlet-virtual-hello-c10-r1.profiled", "explainer finishes"), order, events.toString());
        assertEquals(1, started.size(), "the same SUT");
        assertEquals(1000.0, ((Number) res.values().get("achieved_rps")).doubleValue(), 1e-9, "the row's throughput is the measured hold's");
        assertEquals(20.0, ((Number) res.values().get("p99_ms")).doubleValue(), 1e-9);
        assertEquals(800.0, ((Number) res.values().get("test_explained_rps")).doubleValue(), 1e-9, "the explanation relates to its own hold");
        assertEquals(800.0, ((Number) res.values().get("profiled_rps")).doubleValue(), 1e-9);
        assertEquals(-20.0, ((Number) res.values().get("profile_cost_rps_pct")).doubleValue(), 1e-9);
        assertEquals(100.0, ((Number) res.values().get("profile_cost_p99_pct")).doubleValue(), 1e-9);
        assertEquals(1L, ((Number) res.values().get("profiled_hold_s")).longValue());
        // a long row's profiled hold is at most 20 s, and its probes are told so (the thread dumps are spread over it)
        events.clear();
        run(runner(), PlannedRow.of(row("virtual", 1).withHold(Duration.ofSeconds(60)), List.of("test-explains")), 3);
        assertTrue(events.contains("explainer starts with 003-servlet-virtual-hello-c10-r1.profiled for 20 s"), events.toString());
        // a row without an explaining probe has one hold only
        events.clear();
        run(runner(), PlannedRow.of(row("virtual", 1), List.of("cpu")), 2);
        assertEquals(1, events.stream().filter(e -> e.startsWith("load")).count(), events.toString());
    }

    /**
     * Forks are one configuration: its first fork whose row is ok and explained (no explaining probe failed) is its
     * profiled hold; its later forks run the measured hold only. A fork whose explanation failed leaves the next fork
     * to explain it; unforked rows (reps) and another configuration's forks are explained each.
     */
    @Test
    void aConfigurationIsExplainedByOneOkForkAndItsLaterForksRunNoProfiledHold() throws Exception {
        RowRunner r = runner();
        java.util.function.BiFunction<String, Integer, Row> fork = (mode, f) -> row(mode, f).toBuilder().fork(f).iteration(1).build();
        java.util.function.Function<Integer, Long> profiledHolds = n -> events.stream().filter(e -> e.startsWith("load") && e.endsWith(".profiled")).count();
        ExplainingProbe.failNext = true;
        RowRunner.Result first = run(r, PlannedRow.of(fork.apply("virtual", 1), List.of("test-explains")), 1);
        assertEquals(1L, profiledHolds.apply(1), "fork 1 is profiled: " + events);
        assertTrue(String.valueOf(first.values().get("note")).contains("the recording could not be read") || !"ok".equals(first.values().get("status")),
                "its explanation failed: " + first.values().get("note"));
        run(r, PlannedRow.of(fork.apply("virtual", 2), List.of("test-explains")), 2);
        assertEquals(2L, profiledHolds.apply(2), "a failed explanation leaves the next fork to explain the configuration: " + events);
        RowRunner.Result third = run(r, PlannedRow.of(fork.apply("virtual", 3), List.of("test-explains")), 3);
        assertEquals(2L, profiledHolds.apply(3), "fork 2 explained it: fork 3 runs no profiled hold: " + events);
        assertEquals("ok", third.values().get("status"), String.valueOf(third.values().get("note")));
        assertEquals(null, third.values().get("profiled_hold_s"), "no profiled hold's columns");
        assertEquals(1000.0, ((Number) third.values().get("achieved_rps")).doubleValue(), 1e-9, "its measured hold as any fork's");
        run(r, PlannedRow.of(fork.apply("platform", 2), List.of("test-explains")), 4);
        assertEquals(3L, profiledHolds.apply(4), "another configuration is explained on its own: " + events);
        // reps are not forks: each is explained
        run(r, PlannedRow.of(row("virtual", 1), List.of("test-explains")), 5);
        run(r, PlannedRow.of(row("virtual", 2), List.of("test-explains")), 6);
        assertEquals(5L, profiledHolds.apply(6), events.toString());
        r.close();
    }

    @Test
    void rowsOfOneConfigurationShareASutAndAnotherConfigurationStartsANewOne() throws Exception {
        RowRunner r = runner();
        RowRunner.Result first = run(r, PlannedRow.of(row("virtual", 1), List.of()), 1);
        RowRunner.Result second = run(r, PlannedRow.of(row("virtual", 2), List.of()), 2);
        assertEquals(1, started.size(), events.toString());
        assertEquals("fresh", first.values().get("sut_jvm"));
        assertEquals("reused", second.values().get("sut_jvm"));
        assertEquals("ok", second.values().get("status"), String.valueOf(second.values().get("note")));

        RowRunner.Result other = run(r, PlannedRow.of(row("platform", 1), List.of()), 3);
        assertEquals(2, started.size());
        assertTrue(!started.getFirst().alive, "the kept SUT is stopped before another configuration starts");
        assertEquals("fresh", other.values().get("sut_jvm"));
        r.close();
        assertTrue(!started.getLast().alive, "close() stops the SUT kept for a next row");
    }

    /** "pgjdbc:42.7.8+hikari:7.1.0" as its versions, in order (a row's build is typed when planned; the runner never parses it). */
    static Map<String, String> versions(String spec) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (String part : spec.split("\\+")) out.put(part.substring(0, part.indexOf(':')), part.substring(part.indexOf(':') + 1));
        return out;
    }

    @Test
    void aRowWithABuildRunsThatBuildsJarAndNeverSharesAJvmWithAnotherBuild() throws Exception {
        List<java.nio.file.Path> jars = new ArrayList<>();
        SutHandle.Launcher launcher = (stack, jdk, jvmArgs, appArgs, env, cpus, port, log) -> {
            jars.add(stack.jar());
            FakeSut s = new FakeSut();
            started.add(s);
            return s;
        };
        RowRunner r = new RowRunner(new FakeGenerator(), CoreMap.compute(2, null), 18080, Duration.ZERO, launcher,
                (info, row, url, w) -> new ObjectMapper().readTree(info));
        java.util.function.BiFunction<String, Integer, Row> built = (build, rep) -> Row.builder().experiment("libraries")
                .stack("spring-mvc").threadMode("virtual").workload("sleep").concurrency(10).rep(rep).jdk(Jdk.current())
                .params(Params.NONE.with("sleepMs", "10")).build(build == null ? null : new vtlab.tier.StackVariants.Variant("spring-mvc", versions(build)))
                .sutEnv(Env.NONE.with("VT_ENABLED", "true")).warmup(Duration.ZERO).hold(Duration.ofSeconds(1)).build();
        assertEquals("ok", run(r, PlannedRow.of(built.apply("pgjdbc:42.7.8+hikari:7.1.0", 1), List.of()), 1).values().get("status"));
        run(r, PlannedRow.of(built.apply("pgjdbc:42.7.8+hikari:7.1.0", 2), List.of()), 2);
        assertEquals(1, started.size(), "the same build: one warm JVM");
        run(r, PlannedRow.of(built.apply("pgjdbc:42.7.8+hikari:7.0.2", 1), List.of()), 3);
        run(r, PlannedRow.of(built.apply(null, 1), List.of()), 4);
        run(r, PlannedRow.of(built.apply("pgjdbc:42.7.13+hikari:7.0.2", 1), List.of()), 5);
        assertEquals(3, started.size(), "another build is another JVM; the pom's defaults are the stack's own jar: " + jars);
        java.nio.file.Path own = vtlab.stack.Stack.load("spring-mvc").jar();
        assertEquals(List.of(vtlab.core.LabHome.get().resolve(".vtlab/jars/spring-mvc-pgjdbc42.7.8-hikari7.1.0.jar"),
                vtlab.core.LabHome.get().resolve(".vtlab/jars/spring-mvc-pgjdbc42.7.8-hikari7.0.2.jar"), own), jars);
        RowRunner.Result bad = run(r, PlannedRow.of(built.apply("pgjbdc:42.7.8", 1), List.of()), 6); // no such property in the pom
        assertEquals("failed", bad.values().get("status"));
        r.close();
    }

    @Test
    void aRowThatAsksForAFreshSutGetsOne() throws Exception {
        RowRunner r = runner();
        PlannedRow fresh = new PlannedRow(row("virtual", 1), List.of(), true, RowCheck.NONE, List.of());
        run(r, fresh, 1);
        run(r, new PlannedRow(row("virtual", 2), List.of(), true, RowCheck.NONE, List.of()), 2);
        assertEquals(2, started.size());
        assertTrue(started.stream().noneMatch(s -> s.alive), "fresh SUTs are not kept");
    }

    @Test
    void theDrainsRunBeforeTheHold() throws Exception {
        Drain pool = Drain.of("the pool", (base, max) -> {
            events.add("pool idle");
            return true;
        });
        PlannedRow p = new PlannedRow(row("virtual", 1), List.of(), false, RowCheck.NONE, List.of(pool));
        RowRunner.Result res = run(runner(), p, 1);
        String stem = p.row().fileStem(1);
        assertEquals(List.of("start", "drain", "pool idle", "load " + stem), events.subList(0, 4));
        assertTrue(res.values().get("drain_ms") instanceof Long);
    }

    /** --allow-shared-cpus (a one-CPU machine): every row says so, as a caveat that does not void it. */
    @Test
    void rowsOfASutAndGeneratorOnSharedCpusAreFlagged() throws Exception {
        RowRunner.Result res = run(runner(CoreMap.compute(1, null)), PlannedRow.of(row("virtual", 1), List.of()), 1);
        assertEquals("shared-cpu", res.values().get("flags"));
        assertEquals("ok", res.values().get("status"));
        assertTrue(String.valueOf(res.values().get("note")).contains("shared CPU 0"), String.valueOf(res.values().get("note")));
        assertEquals("", run(runner(), PlannedRow.of(row("virtual", 2), List.of()), 2).values().get("flags"));
    }

    @Test
    void aProbeThatThrowsCostsItsColumnsNotTheRow() throws Exception {
        RowRunner.Result res = run(runner(), PlannedRow.of(row("virtual", 1), List.of("test-throws")), 1);
        assertEquals("ok", res.values().get("status"));
        assertEquals("probe errors: test-throws: boom", res.values().get("note"));
        assertEquals(1000.0, res.values().get("throughput_rps"));
        assertTrue(res.series() != null);
    }

    /**
     * The pinning probe's JFR recording whose JFR.stop times out in a SUT that still runs would sample on into the next
     * row's measured hold: that SUT is not kept, the next row of the same configuration gets a fresh JVM, and the row
     * says so. Its own numbers were taken before the stop: it stays valid. Any other probe error keeps the SUT.
     */
    @Test
    void aProbeWhoseRecordingCannotBeStoppedKeepsItsSutFromTheNextRow() throws Exception {
        sutProcess = ThreadModeCheckTest.stopTimesOut(true);
        RowRunner r = runner();
        RowRunner.Result first = run(r, PlannedRow.of(row("virtual", 1), List.of("jfr-pinning")), 1);
        RowRunner.Result second = run(r, PlannedRow.of(row("virtual", 2), List.of()), 2);
        assertEquals("ok", first.values().get("status"), String.valueOf(first.values().get("note")));
        String note = String.valueOf(first.values().get("note"));
        assertTrue(note.contains("jfr-pinning: ") && note.contains("no answer from 4242 within 60 s") && note.contains("not kept for the next row"), note);
        assertEquals(2, started.size(), "the next row was measured in the JVM whose recording still ran: " + events);
        assertTrue(!started.getFirst().alive, "the SUT left recording is stopped");
        assertEquals("fresh", second.values().get("sut_jvm"));
        r.close();

        started.clear();
        RowRunner kept = runner();
        run(kept, PlannedRow.of(row("virtual", 1), List.of("test-throws")), 1);
        assertEquals("reused", run(kept, PlannedRow.of(row("virtual", 2), List.of()), 2).values().get("sut_jvm"), "another probe error keeps the SUT");
        assertEquals(1, started.size());
        kept.close();
    }

    @Test
    void aSutThatDiesMidHoldFailsTheRowWithAReason() throws Exception {
        duringHold = () -> started.getLast().alive = false;
        RowRunner.Result res = run(runner(), PlannedRow.of(row("virtual", 1), List.of()), 1);
        assertTrue(res.failed());
        assertEquals("SUT died during the measured load: fake log", res.values().get("note"));
        assertEquals(null, res.series());
    }

    /** A row the memory limit's OOM killer ends keeps what its JVM saw of the limits (a probe's columns before the load). */
    @Test
    void aRowThatFailsMidHoldKeepsWhatItsProbesMeasuredBefore() throws Exception {
        duringHold = () -> started.getLast().alive = false;
        RowRunner.Result res = run(runner(), PlannedRow.of(row("virtual", 1), List.of("test-before-load")), 1);
        assertTrue(res.failed());
        assertEquals(1, res.values().get("test_saw_before_load"));
        assertEquals(null, res.values().get("throughput_rps"), "a failed row has no load figures");
    }

    @Test
    void aFailedExtraVerificationFailsTheRowBeforeAnyLoad() throws Exception {
        RowCheck refuse = (row, base, tiers) -> {
            throw new IllegalStateException("no query issued");
        };
        RowRunner.Result res = run(runner(), new PlannedRow(row("virtual", 1), List.of(), false, refuse, List.of()), 1);
        assertTrue(res.failed());
        assertTrue(String.valueOf(res.values().get("note")).contains("no query issued"));
        assertTrue(events.stream().noneMatch(e -> e.startsWith("load")), events.toString());
        assertTrue(events.contains("stop"), "a failed row's SUT is not kept");
    }

    /**
     * A row is its phases, in order; the progress line's steps are theirs, and the phase clock files each step's time
     * under its phase's name (the warm-up's JIT catch-up and thread-mode proof under names of their own).
     */
    @Test
    void aRowRunsItsPhasesInOrderAndTheClockFilesTheirStepsUnderTheirNames() throws Exception {
        RowRunner r = runner();
        assertEquals(List.of("start", "verify", "warm-up", "drain", "hold", "probes", "profiled-hold", "validity", "keep", "stop"), r.phaseNames());
        List<String> shown = new ArrayList<>();
        Row warmed = row("virtual", 1).toBuilder().warmup(Duration.ofSeconds(1)).build();
        RowRunner.Result res = r.run(PlannedRow.of(warmed, List.of("test-explains")), 1, raw, Map.of(), shown::add);
        assertEquals("ok", res.values().get("status"), String.valueOf(res.values().get("note")));
        List<String> phases = new ArrayList<>();
        for (String step : shown) {
            String phase = PhaseClock.phase(step);
            if (!phase.equals("jit-catch-up") && (phases.isEmpty() || !phases.getLast().equals(phase))) phases.add(phase);
        }
        assertEquals(List.of("start", "verify", "warm-up", "drain", "hold", "drain", "profiled-hold"), phases, shown.toString());
        List<String> clocked = Arrays.stream(String.valueOf(res.values().get(PhaseClock.PHASES)).split(";"))
                .map(e -> e.substring(0, e.lastIndexOf(' '))).sorted().toList();
        List<String> expected = new ArrayList<>(List.of("drain", "hold", "probes", "profiled-hold", "start", "verify", "warm-up"));
        if (clocked.contains("jit-catch-up")) expected.add("jit-catch-up"); // the test JVM's own JIT may be busy
        assertEquals(expected.stream().sorted().toList(), clocked, "the kept SUT is not stopped: no stop");
        r.close();
    }

    @Test
    void theWarmUpRunsBeforeTheDrainAndIsNotTheMeasurement() throws Exception {
        Row r = row("virtual", 1);
        Row warmed = r.toBuilder().warmup(Duration.ofSeconds(1)).build();
        RowRunner.Result res = run(runner(), PlannedRow.of(warmed, List.of()), 1);
        String stem = warmed.fileStem(1);
        assertEquals(List.of("start", "load " + stem + ".warmup", "drain", "load " + stem), events);
        assertEquals(1L, res.values().get("warmup_s"));
        assertEquals("1000", res.values().get("warmup_rps"));
        assertEquals(null, res.values().get("warmup_steady"), "no room to check: --warmup-max not above --warmup");
        assertEquals(null, res.values().get("warmup_trend"));
    }

    /** An open row is warmed and measured at its own rate, with its in-flight cap as the generator's connections. */
    @Test
    void anOpenRowLoadsAtItsRateAndIsCheckedAgainstIt() throws Exception {
        Row r = row("virtual", 1);
        Row open = r.toBuilder().concurrency(1000).warmup(Duration.ofSeconds(1)).build().atRate(1000);
        RowRunner.Result res = run(runner(), PlannedRow.of(open, List.of()), 1);
        assertEquals(2, specs.size(), "warm-up and hold");
        for (LoadSpec s : specs) {
            assertEquals(vtlab.load.LoadModel.OPEN, s.model());
            assertEquals(1000.0, s.rate());
            assertEquals(1000, s.connections(), "the in-flight cap");
        }
        assertEquals("open", res.values().get("load_model"));
        assertEquals(1000.0, res.values().get("target_rps"));
        assertEquals(1000.0, res.values().get("achieved_rps"));
        assertEquals("ok", res.values().get("status"), String.valueOf(res.values().get("note")));

        specs.clear();
        RowRunner.Result notHeld = run(runner(), PlannedRow.of(open.as(open.experiment(), Params.NONE.with("x", "1")).atRate(2000), List.of()), 2);
        assertEquals("flagged", notHeld.values().get("status"));
        assertEquals("rate-not-held", notHeld.values().get("flags"));
        assertTrue(String.valueOf(notHeld.values().get("note")).contains("neither tier saturated"), String.valueOf(notHeld.values().get("note")));
    }

    /** Load from several agents: one that fell behind flags the row with its name, whatever the merged numbers say. */
    @Test
    void anAgentThatFellBehindFlagsTheRowWithItsName() throws Exception {
        agents = List.of(new vtlab.data.AgentLoad("agent1", "root@10.77.0.12", 5, null, 600, 600, 1, null),
                new vtlab.data.AgentLoad("agent2", "root@10.77.0.13", 5, null, 400, 400, 1, null));
        RowRunner.Result res = run(runner(), PlannedRow.of(row("virtual", 1), List.of()), 1);
        assertEquals("flagged", res.values().get("status"));
        assertEquals("agent-behind:agent2", res.values().get("flags"));
        String note = String.valueOf(res.values().get("note"));
        assertTrue(note.startsWith("flagged: agent-behind:agent2 | agent-behind:agent2: 80.00 req/s per connection"), note);

        agents = List.of(new vtlab.data.AgentLoad("agent1", "root@10.77.0.12", 5, null, 500, 500, 1, null),
                new vtlab.data.AgentLoad("agent2", "root@10.77.0.13", 5, null, 500, 500, 1, null));
        assertEquals("ok", run(runner(), PlannedRow.of(row("virtual", 1), List.of()), 1).values().get("status"));
    }

    @Test
    void theGeneratorsSecondsGoIntoTheRowsSeriesBeforeTheProbes() {
        var seconds = vtlab.load.LoadSeries.of(java.util.EnumSet.of(vtlab.load.LoadSeries.Kind.REQUESTS, vtlab.load.LoadSeries.Kind.P99),
                List.of(new vtlab.load.LoadSeries.Second(0, 950, 0, 10.0, 40.0), new vtlab.load.LoadSeries.Second(1, 0, 3, null, null)));
        LoadResult r = LoadResult.builder().requests(950, 2).latencyMs(10, 9, 12, 14, 20, 30, 40).errors(0, 0, 0, 3, 0).bytes(1000)
                .raw(Path.of("x.oha.txt")).dropped(0L).series(seconds).build();
        Map<String, List<double[]>> probes = new java.util.LinkedHashMap<>();
        probes.put("app_cpu_pct", List.<double[]>of(new double[] {1.0, 55.0}));
        Map<String, List<double[]>> all = RowRunner.series(probes, r);
        assertEquals(List.of("load_requests_rps", "load_p99_ms", "app_cpu_pct"), List.copyOf(all.keySet()));
        assertEquals(2, all.get("load_requests_rps").size(), "a stalled second is a zero, not a gap");
        assertEquals(0.0, all.get("load_requests_rps").get(1)[1]);
        assertEquals(1, all.get("load_p99_ms").size(), "no latency where nothing was answered");
        assertEquals(List.of("app_cpu_pct"), List.copyOf(RowRunner.series(probes, LoadResult.builder().requests(1, 1).latencyMs(1).bytes(1)
                .raw(Path.of("x.wrk.txt")).build()).keySet()), "wrk declares no seconds: the probes' alone");
    }

    /** The hold's sampling loop looks for the load's end between samples, instead of sleeping a whole second past it. */
    @Test
    void theHoldEndsWithTheLoadNotAtTheNextWholeSecond() throws Exception {
        Process load = new ProcessBuilder("sleep", "0.3").start();
        try {
            long t0 = System.nanoTime();
            assertEquals(false, RowLoad.aliveAfter(TierProcess.local(load.toHandle()), Duration.ofSeconds(5)));
            double s = (System.nanoTime() - t0) / 1e9;
            assertTrue(s >= 0.25 && s < 2, "returned when the load ended, " + s + " s after");
        } finally {
            load.destroyForcibly();
        }
        long t0 = System.nanoTime();
        assertTrue(RowLoad.aliveAfter(TierProcess.local(ProcessHandle.current()), Duration.ofMillis(200)), "a load still running");
        assertTrue((System.nanoTime() - t0) / 1e6 >= 200, "after the whole wait");
        assertEquals(false, RowLoad.aliveAfter(TierProcess.local(finished), Duration.ofSeconds(5)), "an ended load: at once");
    }
}
