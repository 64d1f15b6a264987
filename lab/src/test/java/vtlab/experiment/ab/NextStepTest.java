package vtlab.experiment.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.check.JarLibraries;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.RequestTime.Cause;
import vtlab.experiment.ab.Levers.Lever;
import vtlab.experiment.ab.NextStep.Numbered;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;

/**
 * ab's next step: which lever answers which cause and with which values, the rows it runs one after another (twice
 * the present value, four times only when twice gained with the same cause), and the verdict's words on what a
 * variant bought, failed at, or could not show within the noise.
 */
class NextStepTest {
    static final NextStep.Facts SPRING = new NextStep.Facts(true, true, null, List.of(), Map.of(), List.of(), 24_000);

    static Levers.Known known(List<String> args, List<String> jvm, Map<String, String> row) {
        return SPRING.known(args, jvm, vtlab.data.DataRow.of(row));
    }

    // ---- levers

    @Test
    void thePoolsPresentSizeIsTheArgumentElseTheBusyConnectionsOfAFullPool() {
        assertEquals(List.of("20", "40"), Levers.POOL.values(known(List.of("--spring.datasource.hikari.maximum-pool-size=10"), List.of(), Map.of())));
        Map<String, String> full = Map.of("hikari_active_max", "10", "hikari_pending_max", "183");
        assertEquals(List.of("20", "193"), Levers.POOL.values(known(List.of(), List.of(), full)), "doubled, then what the load asked for");
        assertEquals(List.of("20"), Levers.POOL.values(known(List.of(), List.of(), Map.of("hikari_active_max", "10", "hikari_pending_max", "5"))),
                "doubled is more than the load asked for");
        // connections busy but nobody waiting: the pool was not full, its size is not known from that
        assertEquals(List.of(), Levers.POOL.values(known(List.of(), List.of(), Map.of("hikari_active_max", "7", "hikari_pending_max", "0"))));
        assertEquals("10", Levers.POOL.now(known(List.of(), List.of(), full)));
    }

    @Test
    void threadsFitPlatformRowsOfASpringBootJarAndReadTheirCountFromTheEvidence() {
        Map<String, String> row = Map.of("time_top_evidence", "400 connections on 50 request threads, busy 99% of the hold: ...");
        Levers.Known k = known(List.of(), List.of(), row);
        assertEquals(List.of("100", "200"), Levers.THREADS.values(k));
        assertEquals(List.of("400", "800"), Levers.THREADS.values(known(List.of(), List.of(), Map.of())), "Spring Boot's default: 200");
        assertTrue(Levers.THREADS.fits(k, "platform", Cause.THREAD_WAIT));
        assertFalse(Levers.THREADS.fits(k, "virtual", Cause.THREAD_WAIT), "virtual threads have no pool to enlarge");
        assertFalse(Levers.THREADS.fits(k, "platform", Cause.POOL_WAIT));
        Levers.Known cmd = new NextStep.Facts(true, false, "java -jar x.jar", List.of(), Map.of(), List.of(), 24_000).known(List.of(), List.of(), vtlab.data.DataRow.of(row));
        assertFalse(Levers.THREADS.fits(cmd, "platform", Cause.THREAD_WAIT), "a Spring Boot property on a service that is not one");
    }

    @Test
    void theHeapDoublesFromXmxNeverBeyondHalfTheMachineAndNotWhereACommandSetsItsOwn() {
        assertEquals(List.of("1024m", "2048m"), Levers.HEAP.values(known(List.of(), List.of("-Xms64m", "-Xmx512m"), Map.of())));
        assertEquals(List.of("2048m"), Levers.HEAP.values(new NextStep.Facts(true, false, null, List.of(), Map.of(), List.of(), 6000)
                .known(List.of(), List.of("-Xmx1g"), vtlab.data.DataRow.of(Map.of()))), "4 GB is more than half of 6 GB");
        assertEquals(List.of("12000m"), Levers.HEAP.values(known(List.of(), List.of(), Map.of())), "the JVM's default: a quarter of 24,000 MB");
        assertEquals(List.of("256m", "512m"), Levers.HEAP.values(known(List.of(), List.of(), Map.of("jvm_max_heap_mb", "128"))), "under a memory limit");
        Levers.Known ownXmx = new NextStep.Facts(true, false, "java -Xmx64m -jar s.jar", List.of(), Map.of(), List.of(), 24_000).known(List.of(), List.of(), vtlab.data.DataRow.of(Map.of()));
        assertFalse(Levers.HEAP.fits(ownXmx, "virtual", Cause.GC), "the command's -Xmx beats JAVA_TOOL_OPTIONS'");
        assertTrue(Levers.HEAP.fits(known(List.of(), List.of(), Map.of()), "virtual", Cause.GC));
    }

    @Test
    void aLeverChangesOnlyTheRowsArgumentsOptionsOrEnvironmentAndNamesItselfInTheParams() throws UsageError {
        Row base = AbExperimentTest.plan("--app", AbExperimentTest.SPRING_JAR, "--url", "/x", "--conc", "200", "--variants", "tuned",
                "--jvm-args", "-Xmx256m", "--virtual-args", "--spring.datasource.hikari.maximum-pool-size=10").getLast();
        Row pool = Levers.POOL.apply(base, "20");
        assertTrue(pool.appArgs().contains("--spring.datasource.hikari.maximum-pool-size=20"), pool.appArgs().toString());
        assertFalse(pool.appArgs().contains("--spring.datasource.hikari.maximum-pool-size=10"), "replaced, not added beside");
        assertTrue(pool.appArgs().contains("--spring.datasource.hikari.minimum-idle=20"), "a fixed-size pool: " + pool.appArgs());
        assertEquals(base.appArgs().size() + 1, pool.appArgs().size());
        assertEquals("pool:20", pool.params().get("lever"));
        assertEquals(base.params().get("tuning"), pool.params().get("tuning"));
        assertTrue(pool.scenario().contains("lever=pool:20") && !pool.scenario().equals(base.scenario()));
        Row heap = Levers.HEAP.apply(base, "512m");
        assertTrue(heap.jvmArgs().contains("-Xmx512m") && !heap.jvmArgs().contains("-Xmx256m"), heap.jvmArgs().toString());
        assertEquals(base.carriers(), heap.carriers(), "the tuned row keeps its carriers");
        Row env = Levers.user("pool_wait:DB_POOL=30").apply(base, "30");
        assertEquals("30", env.sutEnv().get("DB_POOL"));
        assertEquals(base.appArgs(), env.appArgs());
    }

    @Test
    void aUsersLeverIsAnEnvironmentVariableAPropertyOrAnArgumentWithAnOptionalCause() throws UsageError {
        Lever env = Levers.user("DB_POOL_SIZE=20,40");
        assertEquals(Levers.Where.ENV, env.where());
        assertEquals(List.of("20", "40"), env.values(known(List.of(), List.of(), Map.of())));
        assertNull(env.answers(), "tried whatever the largest cause");
        assertTrue(env.fits(known(List.of(), List.of(), Map.of()), "virtual", Cause.CPU));
        assertEquals("DB_POOL_SIZE=20", env.label("20"));
        Lever caused = Levers.user("gc:-Dcache.size=100");
        assertEquals(Levers.Where.JVM, caused.where());
        assertEquals(Cause.GC, caused.answers());
        assertFalse(caused.fits(known(List.of(), List.of(), Map.of()), "virtual", Cause.CPU));
        assertEquals(List.of("-Dcache.size=100"), caused.apply(AbExperimentTest.plan("--app", AbExperimentTest.SPRING_JAR, "--url", "/x",
                "--conc", "20", "--modes", "platform").getFirst(), "100").jvmArgs());
        assertEquals(Levers.Where.ARG, Levers.user("--threads=4").where());
        for (String bad : List.of("DB_POOL", "DB_POOL=", "nope:DB_POOL=1", "other:X=1", "1X=2", "X=a;b", "X=a b")) {
            assertThrows(UsageError.class, () -> Levers.user(bad), bad);
        }
    }

    /**
     * Refused in one line when the run is planned, before any row starts: a user's lever named as a lab lever (it would
     * share that lever's scenario and never run), a -D name with a space (JAVA_TOOL_OPTIONS would split it into more
     * JVM options), and an empty value in the list.
     */
    @Test
    void aUsersLeverThatWouldNeverRunOrRunOtherwiseIsRefusedAtPlanTime() {
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        for (Lever lab : Levers.ALL) cases.put(lab.name() + "=1,2", "is a lab lever's name");
        cases.put("gc:heap=1", "is a lab lever's name");
        cases.put("-Dmy prop=1", "has no space");
        cases.put("-Da\tb=1", "has no space");
        cases.put("X=1,,2", "an empty value");
        cases.put("X=1,", "an empty value");
        cases.put("X=,1", "an empty value");
        cases.put("X=", "NAME=VALUE");
        cases.forEach((spec, expected) -> {
            UsageError e = assertThrows(UsageError.class, () -> AbExperimentTest.plan("--app", AbExperimentTest.SPRING_JAR, "--url", "/x",
                    "--next-step", "--lever", spec), spec);
            assertTrue(e.getMessage().contains(expected) && e.getMessage().lines().count() == 1, spec + ": " + e.getMessage());
        });
    }

    @Test
    void aLeverIsRefusedWithoutTheNextStepAndTheNextStepWithAFault() {
        UsageError e = assertThrows(UsageError.class, () -> AbExperimentTest.plan("--app", AbExperimentTest.SPRING_JAR, "--url", "/x",
                "--lever", "DB_POOL=20"));
        assertTrue(e.getMessage().contains("--next-step"), e.getMessage());
        assertThrows(UsageError.class, () -> AbExperimentTest.plan("--app", AbExperimentTest.SPRING_JAR, "--url", "/x", "--next-step",
                "--lever", "DB_POOL"));
        UsageError fault = assertThrows(UsageError.class, () -> searches("--app", AbExperimentTest.SPRING_JAR, "--url", "/x", "--next-step",
                "--fault", "stub:down@1s-2s"));
        assertTrue(fault.getMessage().contains("--fault"), fault.getMessage());
    }

    @Test
    void theNextStepIsOffByDefaultAndASearchOfTheAbsRowsWithIt() throws UsageError {
        // by default the A/B adds forks until settled (AbForks), and no next step
        assertEquals(List.of(AbForks.class), searches("--app", AbExperimentTest.SPRING_JAR, "--url", "/x").stream().map(Object::getClass).toList());
        assertEquals(List.of(), searches("--app", AbExperimentTest.SPRING_JAR, "--url", "/x", "--forks", "2"), "a number of forks: no more");
        List<vtlab.plan.Search> on = searches("--app", AbExperimentTest.SPRING_JAR, "--url", "/x", "--conc", "200", "--next-step", "--reps", "1");
        assertEquals(1, on.size());
        assertEquals("closed", on.getFirst().template().loadModel());
        assertEquals("/x", on.getFirst().template().workload());
        // with a fault the default is one fork, no search of forks (no steady state to settle on)
        assertEquals(List.of(), searches("--app", AbExperimentTest.SPRING_JAR, "--url", "/x", "--fault", "downstream:latency=10ms@1s-2s",
                "--dependency", "downstream=127.0.0.1:9"));
    }

    static List<vtlab.plan.Search> searches(String... args) throws UsageError {
        List<String> all = new ArrayList<>(List.of("ab"));
        all.addAll(List.of(args));
        Options o = vtlab.cli.Main.parse(all);
        PlanContext ctx = PlanContext.from(o);
        return new AbExperiment().searches(o, ctx);
    }

    @Test
    void whatTheNextStepKnowsOfTheServiceIsKeptForTheVerdictOfTheRunAsItWas(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("ab", "--app", AbExperimentTest.SPRING_JAR, "--url", "/", "--next-step", "--lever", "gc:-Dx=1,2",
                "--jvm-args", "-Xmx300m", "--platform-args", "--server.tomcat.threads.max=50 --other=1"));
        Map<String, Object> kept = new AbExperiment().kept(o);
        vtlab.data.RunKept.planned(Map.of("ab", kept), List.of()).write(new vtlab.data.RunDir(dir));
        NextStep.Facts f = AbKept.read(dir).nextStep();
        assertTrue(f.run() && f.springBoot());
        assertNull(f.command());
        assertEquals(List.of("-Xmx300m"), f.jvmArgs());
        assertEquals(List.of("--server.tomcat.threads.max=50"), f.args().get("platform"), "a lever's own argument only");
        assertEquals(List.of(), f.args().get("virtual"));
        assertEquals(List.of("gc:-Dx=1,2"), f.levers());
        assertEquals(Cause.GC, f.user().getFirst().answers());
        assertNull(AbKept.read(dir.resolve("none")).nextStep(), "a run before the next step");
    }

    // ---- rows as matrix.csv holds them

    static Map<String, String> row(Row planned, int rep, double rps, double p99, Cause top, double share, String status) {
        Map<String, String> r = new LinkedHashMap<>(AbExperimentTest.row(planned.threadMode(), planned.params().get("tuning"), planned.concurrency(),
                rps, p99, status, status.equals("failed") ? "the service exited during start-up" : ""));
        r.put("workload", planned.workload());
        r.put("jdk", Integer.toString(planned.jdk().major()));
        r.put("rep", Integer.toString(rep));
        r.put("scenario", planned.scenario());
        r.put("params", planned.params().cell());
        r.put("error_rate", "0");
        if (top != null && !status.equals("failed")) {
            r.put("time_top_cause", top.key);
            r.put(top.column().name(), Double.toString(share));
            r.put("time_top_evidence", top == Cause.POOL_WAIT ? "HikariPool.getConnection, 183 waiting" : "");
        }
        return r;
    }

    static Map<String, String> poolFull(Map<String, String> r) {
        r.put("hikari_active_max", "10");
        r.put("hikari_pending_max", "183");
        return r;
    }

    static List<Row> planned() throws UsageError {
        return AbExperimentTest.plan("--app", AbExperimentTest.SPRING_JAR, "--url", "/api/orders", "--conc", "200", "--modes", "virtual",
                "--variants", "as-shipped", "--reps", "2");
    }

    // ---- the search

    /** The search's next row after these rows, as the runner hands them (read back typed). */
    static Row next(NextStep s, List<Map<String, String>> before, List<Map<String, String>> measured) {
        return s.next(vtlab.data.DataRow.numbered(before), measured.stream().map(vtlab.data.DataRow::of).toList());
    }

    /**
     * The search's next variant row, as the runner would reach it: each baseline fork it asks for first (one before
     * each of a variant's forks) is run, with the values of the A/B's fork of its number, and the search asked again.
     */
    static Row nextVariant(NextStep s, List<Map<String, String>> before, List<Map<String, String>> measured) {
        List<Map<String, String>> ran = new ArrayList<>(measured);
        while (true) {
            Row r = next(s, before, ran);
            if (r == null || r.params().get(NextStep.BESIDE) == null) return r;
            Map<String, String> like = new LinkedHashMap<>(before.get((r.fork() - 1) % before.size()));
            like.put("scenario", r.scenario());
            like.put("params", r.params().cell());
            like.put("rep", Integer.toString(r.rep()));
            ran.add(like);
        }
    }

    @Test
    void thePoolDoubledRunsItsRepsThenQuadrupledOnlyWhileItGainsWithTheSameCause() throws UsageError {
        List<Row> planned = planned();
        NextStep search = new NextStep(planned, SPRING, 2, 40);
        List<Map<String, String>> ab = List.of(poolFull(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok")),
                poolFull(row(planned.get(1), 2, 510, 410, Cause.POOL_WAIT, 73, "ok")));
        assertNull(search.next(List.<vtlab.data.DataRow>of()), "it starts from the A/B's rows");
        Row first = nextVariant(search, ab, List.of());
        assertEquals("pool:20", first.params().get("lever"));
        assertEquals(1, first.rep());
        assertEquals("virtual", first.threadMode());
        Row second = nextVariant(search, ab, List.of(row(first, 1, 1000, 210, Cause.POOL_WAIT, 60, "ok")));
        assertEquals("pool:20", second.params().get("lever"));
        assertEquals(2, second.rep());
        // doubled, twice the throughput, the pool still the largest cause: the pool the load asked for next (10 busy + 183 waiting)
        List<Map<String, String>> still = List.of(row(first, 1, 1000, 210, Cause.POOL_WAIT, 60, "ok"), row(second, 2, 990, 205, Cause.POOL_WAIT, 58, "ok"));
        Row third = nextVariant(search, ab, still);
        assertEquals("pool:193", third.params().get("lever"));
        assertTrue(third.appArgs().contains("--spring.datasource.hikari.maximum-pool-size=193"), third.appArgs().toString());
        assertEquals(1, third.rep());
        // the cause moved to the CPU: the next bottleneck is found, no more of the pool
        assertNull(nextVariant(search, ab, List.of(row(first, 1, 1000, 210, Cause.RUNQUEUE, 60, "ok"), row(second, 2, 990, 205, Cause.RUNQUEUE, 58, "ok"))));
        // no change (+1%): no more either
        assertNull(nextVariant(search, ab, List.of(row(first, 1, 505, 410, Cause.POOL_WAIT, 70, "ok"), row(second, 2, 512, 400, Cause.POOL_WAIT, 72, "ok"))));
        // the right way but within its reps' noise (+20%, reps far apart), the pool still the cause: a direction is enough to try more
        assertEquals("pool:193", nextVariant(search, ab, List.of(row(first, 1, 520, 410, Cause.POOL_WAIT, 70, "ok"),
                row(second, 2, 700, 400, Cause.POOL_WAIT, 72, "ok"))).params().get("lever"));
        // a variant that failed: neither its other rep nor a larger value
        assertNull(nextVariant(search, ab, List.of(row(first, 1, 0, 0, null, 0, "failed"))));
    }

    @Test
    void aLeverThatWouldOutlastTheNextStepsBudgetIsNotBegun() throws UsageError {
        List<Row> planned = planned();
        List<Map<String, String>> ab = List.of(poolFull(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok")),
                poolFull(row(planned.get(1), 2, 510, 410, Cause.POOL_WAIT, 73, "ok")));
        // a baseline fork and its variant's take 2 x 40 s: 79 s is not enough, 80 s is
        NextStep tight = new NextStep(planned, SPRING, 2, 40, java.time.Duration.ofSeconds(79));
        assertNull(nextVariant(tight, ab, List.of()), "the pair would end past the budget");
        assertTrue(tight.status(List.of()).contains("--next-step-budget 1m19s spent: pool 20"), tight.status(List.of()));
        assertEquals(1, tight.expectedRows(), "the ETA counts the rows the budget holds, not the plan's");
        NextStep room = new NextStep(planned, SPRING, 2, 40, java.time.Duration.ofSeconds(80));
        assertEquals("pool:20", nextVariant(room, ab, List.of()).params().get("lever"));
        assertEquals(2, room.expectedRows());
    }

    /**
     * Issue 62 item 7: a variant's forks alternate with fresh baseline forks (baseline, variant, baseline, variant), so a
     * drift over the run falls on both, and the variant is judged against the baseline forks beside it, not the A/B's,
     * which ran earlier. A baseline fork is the A/B's configuration labelled with the variant's lever: neither an A/B
     * fork nor the variant.
     */
    @Test
    void aVariantsForksAlternateWithFreshBaselineForksItIsJudgedAgainst() throws UsageError {
        List<Row> planned = planned();
        NextStep search = new NextStep(planned, SPRING, 2, 40);
        List<Map<String, String>> ab = List.of(poolFull(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok")),
                poolFull(row(planned.get(1), 2, 510, 410, Cause.POOL_WAIT, 73, "ok")));
        List<Map<String, String>> added = new ArrayList<>();
        List<Row> order = new ArrayList<>();
        double[] rps = {400, 800, 410, 820}; // the machine drifted down since the A/B: the baseline forks beside the variant show it
        for (int i = 0; i < 4; i++) {
            Row r = next(search, ab, added);
            order.add(r);
            added.add(poolFull(row(r, r.fork(), rps[i], 400, Cause.POOL_WAIT, 70, "ok")));
        }
        assertEquals(List.of("beside=pool:20 fork 1", "lever=pool:20 fork 1", "beside=pool:20 fork 2", "lever=pool:20 fork 2"),
                order.stream().map(r -> (r.params().get(NextStep.BESIDE) != null ? "beside=" + r.params().get(NextStep.BESIDE) : "lever=" + r.params().get("lever"))
                        + " fork " + r.fork()).toList(), "baseline, variant, baseline, variant");
        Row baseline = order.getFirst();
        assertEquals(planned.getFirst().appArgs(), baseline.appArgs(), "the A/B's configuration as it was");
        assertEquals(null, baseline.params().get("lever"));
        assertFalse(baseline.scenario().equals(planned.getFirst().scenario()), "not an A/B fork: " + baseline.scenario());
        assertTrue(baseline.startsFork() && order.get(2).startsFork(), "each a fresh JVM");
        // the verdict: the variant against the forks beside it (rows 3, 5), the A/B's rows not mixed in
        List<Map<String, String>> matrix = new ArrayList<>(ab);
        matrix.addAll(added);
        String line = NextStep.findings(numbered(matrix, 1), SPRING, null).getFirst().text();
        assertTrue(line.contains("pool 20 (rows 4, 6, against the base's forks beside them, rows 3, 5): +100% req/s"), line);
        // the A/B's verdict counts no baseline fork as one of its forks
        List<String> verdict = Verdict.of(vtlab.data.DataRow.numbered(matrix), java.nio.file.Path.of("/none"), null, Map.of(), SPRING);
        String gain = verdict.stream().filter(l -> l.startsWith("/api/orders at 200 connections")).findFirst().orElseThrow();
        assertTrue(gain.contains("(rows 1, 2)") && !gain.contains("row 3"), gain);
    }

    @Test
    void aCauseWithoutALeverRunsNothingAndAUsersLeverRunsEveryValueGiven() throws UsageError {
        List<Row> planned = planned();
        List<Map<String, String>> cpu = List.of(row(planned.get(0), 1, 2800, 120, Cause.RUNQUEUE, 80, "ok"),
                row(planned.get(1), 2, 2790, 121, Cause.RUNQUEUE, 82, "ok"));
        assertNull(nextVariant(new NextStep(planned, SPRING, 2, 40), cpu, List.of()), "one CPU full: no lever");
        NextStep.Facts withUser = new NextStep.Facts(true, true, null, List.of(), Map.of(), List.of("WORKERS=4,8"), 24_000);
        NextStep search = new NextStep(planned, withUser, 1, 40);
        Row w4 = nextVariant(search, cpu, List.of());
        assertEquals("4", w4.sutEnv().get("WORKERS"));
        Row w8 = nextVariant(search, cpu, List.of(row(w4, 1, 2700, 130, Cause.RUNQUEUE, 80, "ok")));
        assertEquals("8", w8.sutEnv().get("WORKERS"), "the user's values all run, whatever the first bought");
        assertNull(nextVariant(search, cpu, List.of(row(w4, 1, 2700, 130, Cause.RUNQUEUE, 80, "ok"), row(w8, 1, 2700, 130, Cause.RUNQUEUE, 80, "ok"))));
    }

    @Test
    void theVirtualConfigurationStartedFromIsTheTunedOne() throws UsageError {
        List<Row> planned = AbExperimentTest.plan("--app", AbExperimentTest.SPRING_JAR, "--url", "/x", "--conc", "200");
        List<Numbered> rows = new ArrayList<>();
        for (int i = 0; i < planned.size(); i++) rows.add(new Numbered(new vtlab.data.DataRow(i + 1, row(planned.get(i), 1, 1000, 100, Cause.MONITOR, 80, "ok"))));
        List<NextStep.Base> bases = NextStep.bases(rows);
        assertEquals(List.of("platform", "virtual tuned"), bases.stream().map(NextStep.Base::config).toList());
        assertEquals("/x at 200 connections", bases.getFirst().scenario());
    }

    // ---- the verdict

    static NextStep.Base base(List<Numbered> ab) {
        return NextStep.bases(ab).getFirst();
    }

    static List<Numbered> numbered(List<Map<String, String>> rows, int first) {
        return NextStep.numbered(rows.stream().map(vtlab.data.DataRow::of).toList(), first);
    }

    @Test
    void aGainIsSaidWithItsIntervalTheP99AndWhereTheTimeWentNext() throws UsageError {
        List<Row> planned = planned();
        Row v = Levers.POOL.apply(planned.getFirst(), "20");
        List<Numbered> ab = numbered(List.of(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok"), row(planned.get(1), 2, 510, 410, Cause.POOL_WAIT, 73, "ok")), 1);
        NextStep.Judged j = NextStep.judge(base(ab), "pool 20", numbered(List.of(row(v, 1, 900, 200, Cause.RUNQUEUE, 62, "ok"),
                row(v, 2, 920, 180, Cause.RUNQUEUE, 66, "ok")), 3));
        assertTrue(j.gain());
        assertEquals(Cause.RUNQUEUE, j.top());
        assertTrue(j.text().startsWith("pool 20 (rows 3, 4): +80% req/s (95% CI +"), j.text());
        assertTrue(j.text().contains(", p99 −54% (95% CI −"), j.text());
        assertTrue(j.text().endsWith("; the largest cause is now waiting to run (64%)"), j.text());
        NextStep.Judged still = NextStep.judge(base(ab), "pool 20", numbered(List.of(row(v, 1, 700, 300, Cause.POOL_WAIT, 50, "ok"),
                row(v, 2, 720, 290, Cause.POOL_WAIT, 52, "ok")), 3));
        assertTrue(still.text().endsWith("; the largest cause is still waiting for a pooled connection (51%, was 72%)"), still.text());
    }

    /**
     * A later fork has no profiled hold of its own (its configuration's first ok fork explained it): the base's
     * throughput is both forks' (the interval between them), its cause the explained fork's; the same for the variant.
     */
    @Test
    void aBaseIsEveryForkItsCauseTheExplainedOnes() throws UsageError {
        List<Row> planned = planned();
        Row v = Levers.POOL.apply(planned.getFirst(), "20");
        List<Numbered> ab = numbered(List.of(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok"), row(planned.get(1), 2, 510, 410, null, 0, "ok")), 1);
        NextStep.Base b = base(ab);
        assertEquals(2, b.rows().size(), "both forks: " + b.rows());
        assertEquals(Cause.POOL_WAIT, b.top());
        assertEquals(71, b.share(), 1e-9, "the explained fork's share, not a mean with a fork that has none");
        assertEquals(1, b.first().n());
        NextStep.Judged j = NextStep.judge(b, "pool 20", numbered(List.of(row(v, 1, 900, 200, Cause.RUNQUEUE, 62, "ok"), row(v, 2, 920, 180, null, 0, "ok")), 3));
        assertTrue(j.gain() && j.text().startsWith("pool 20 (rows 3, 4): +80% req/s (95% CI +"), "the interval between both forks a side: " + j.text());
        assertTrue(j.text().endsWith("; the largest cause is now waiting to run (62%)"), j.text());
        // no fork explained: no base to start from
        assertTrue(NextStep.bases(numbered(List.of(row(planned.get(0), 1, 500, 420, null, 0, "ok"), row(planned.get(1), 2, 510, 410, null, 0, "ok")), 1)).isEmpty());
    }

    @Test
    void aChangeWithinTheNoiseIsSaidAsSuchWithRepsAndWithOne() throws UsageError {
        List<Row> planned = planned();
        Row v = Levers.POOL.apply(planned.getFirst(), "20");
        List<Numbered> ab = numbered(List.of(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok"), row(planned.get(1), 2, 600, 410, Cause.POOL_WAIT, 73, "ok")), 1);
        NextStep.Judged j = NextStep.judge(base(ab), "pool 20", numbered(List.of(row(v, 1, 520, 400, Cause.POOL_WAIT, 70, "ok"),
                row(v, 2, 640, 380, Cause.POOL_WAIT, 72, "ok")), 3));
        assertFalse(j.gain(), "+5.5% with reps 100 req/s apart: the interval spans zero");
        // two forks a side whose spreads differ a little: Welch's df rounded down to 1, the set is everything
        assertTrue(j.text().contains(": undetermined: ") && j.text().contains(", no gain shown"), j.text());
        // beyond the interval between its forks: a gain, however small (the ±15% floor was for reps sharing one JVM)
        NextStep.Judged tight = NextStep.judge(base(numbered(List.of(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok"),
                row(planned.get(1), 2, 502, 410, Cause.POOL_WAIT, 73, "ok")), 1)), "pool 20", numbered(List.of(row(v, 1, 550, 400, Cause.POOL_WAIT, 70, "ok"),
                row(v, 2, 552, 380, Cause.POOL_WAIT, 72, "ok")), 3));
        assertTrue(tight.gain(), tight.text());
        assertTrue(tight.direction(), "+10%: the right way, enough to try more of the lever");
        assertTrue(tight.text().contains("+10% req/s (95% CI +"), tight.text());
        assertFalse(tight.text().contains("no gain"), tight.text());
        List<Numbered> one = numbered(List.of(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok")), 1);
        NextStep.Judged single = NextStep.judge(base(one), "pool 20", numbered(List.of(row(v, 1, 560, 400, Cause.POOL_WAIT, 70, "ok")), 2));
        assertFalse(single.gain());
        // no interval, no claim: a constant (once "this machine's ±15%") does not stand in for the noise the run did not measure
        assertTrue(single.text().contains("+12% req/s, p99 −5%: one fork a side, no interval between forks: no gain shown (a direction only; not measured on this machine: run ./vtlab ab --aa)"), single.text());
        NextStep.Judged worse = NextStep.judge(base(one), "pool 20", numbered(List.of(row(v, 1, 300, 800, Cause.POOL_WAIT, 70, "ok")), 2));
        assertTrue(worse.text().contains("−40% req/s, p99 +90%: one fork a side, no interval between forks: no gain shown"), worse.text());
        assertFalse(worse.gain() || worse.direction(), worse.text());
    }

    /** Issue 48 item 6: a fivefold p99 cut with flat throughput was "no gain shown"; a cut that holds between forks is a gain. */
    @Test
    void aP99CutThatHoldsIsAGainEvenWhenTheThroughputStays() throws UsageError {
        List<Row> planned = planned();
        Row v = Levers.POOL.apply(planned.getFirst(), "20");
        List<Numbered> ab = numbered(List.of(row(planned.get(0), 1, 500, 1000, Cause.POOL_WAIT, 71, "ok"), row(planned.get(1), 2, 505, 1040, Cause.POOL_WAIT, 73, "ok")), 1);
        NextStep.Judged cut = NextStep.judge(base(ab), "pool 20", numbered(List.of(row(v, 1, 498, 200, Cause.POOL_WAIT, 50, "ok"),
                row(v, 2, 507, 210, Cause.POOL_WAIT, 52, "ok")), 3));
        assertTrue(cut.gain(), cut.text());
        assertTrue(cut.text().contains("+0% req/s (95% CI "), cut.text());
        assertTrue(cut.text().contains(", p99 −80% (95% CI −"), cut.text());
        assertTrue(cut.text().contains(": a p99 cut that holds, throughput not told apart"), cut.text());
        // more throughput for a longer tail, both beyond the forks' noise: a trade
        NextStep.Judged trade = NextStep.judge(base(ab), "pool 20", numbered(List.of(row(v, 1, 700, 2000, Cause.POOL_WAIT, 50, "ok"),
                row(v, 2, 705, 2050, Cause.POOL_WAIT, 52, "ok")), 3));
        assertFalse(trade.gain());
        assertTrue(trade.text().contains(": more throughput for a longer p99 tail: a trade, not a gain"), trade.text());
    }

    /** A base whose fork failed: its survivors alone are not the base, and no gain is claimed against them. */
    @Test
    void aBaseWithAFailedForkGivesNoGain() throws UsageError {
        List<Row> planned = planned();
        Row v = Levers.POOL.apply(planned.getFirst(), "20");
        Map<String, String> dead = row(planned.get(0), 3, 0, 0, null, 0, "failed");
        dead.put("note", "the SUT died");
        List<Numbered> ab = numbered(List.of(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok"), row(planned.get(0), 2, 502, 410, Cause.POOL_WAIT, 73, "ok"),
                dead), 1);
        NextStep.Base base = base(ab);
        assertEquals(1, base.failed().size());
        NextStep.Judged j = NextStep.judge(base, "pool 20", numbered(List.of(row(v, 1, 800, 400, Cause.POOL_WAIT, 70, "ok"),
                row(v, 2, 802, 380, Cause.POOL_WAIT, 72, "ok")), 4));
        assertFalse(j.gain(), j.text());
        assertTrue(j.text().contains("its base, " + base.config() + ", had 1 fork FAILED (row 3: the SUT died): no gain claimed against its other forks alone"), j.text());
    }

    /** Issue 48 item 6: a variant whose fork failed was judged on its survivor alone without saying so. */
    @Test
    void aVariantWithAFailedForkSaysSoAndClaimsNothingFromTheSurvivor() throws UsageError {
        List<Row> planned = planned();
        Row v = Levers.POOL.apply(planned.getFirst(), "20");
        List<Numbered> ab = numbered(List.of(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok"), row(planned.get(1), 2, 510, 410, Cause.POOL_WAIT, 73, "ok")), 1);
        NextStep.Judged j = NextStep.judge(base(ab), "pool 20", numbered(List.of(row(v, 1, 2400, 100, Cause.RUNQUEUE, 62, "ok"),
                row(v, 2, 0, 0, null, 0, "failed")), 3));
        assertFalse(j.gain(), "+377% from one fork of two: the other failed");
        assertFalse(j.direction());
        assertTrue(j.text().startsWith("pool 20 (rows 3, 4): 1 of 2 forks FAILED (row 4: the service exited during start-up): no gain claimed from the other alone (+"),
                j.text());
    }

    @Test
    void aFailedVariantRisingErrorsAndFlaggedRowsAreNoGain() throws UsageError {
        List<Row> planned = planned();
        Row v = Levers.POOL.apply(planned.getFirst(), "20");
        List<Numbered> ab = numbered(List.of(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok")), 1);
        NextStep.Judged failed = NextStep.judge(base(ab), "pool 20", numbered(List.of(row(v, 1, 0, 0, null, 0, "failed")), 2));
        assertEquals("pool 20 (row 2): FAILED, no numbers: the service exited during start-up", failed.text());
        Map<String, String> errors = row(v, 1, 2000, 100, Cause.CPU, 60, "ok");
        errors.put("error_rate", "0.2");
        NextStep.Judged rose = NextStep.judge(base(ab), "pool 20", numbered(List.of(errors), 2));
        assertFalse(rose.gain());
        assertTrue(rose.text().contains("errors rose to 20.0% of requests (from 0.0%): not a gain"), rose.text());
        Map<String, String> flagged = row(v, 1, 2000, 100, Cause.CPU, 60, "flagged");
        flagged.put("flags", "littles-law");
        NextStep.Judged f = NextStep.judge(base(ab), "pool 20", numbered(List.of(flagged), 2));
        assertFalse(f.gain());
        assertTrue(f.direction(), "+300% on a flagged row: never a gain, still the way to try more");
        assertTrue(f.text().contains("not evidence (flagged littles-law)"), f.text());
    }

    @Test
    void theVerdictNamesTheLeverToTryWhenNotRunAndWhatWouldHelpWhenNoneAnswers() throws UsageError {
        List<Row> planned = planned();
        NextStep.Facts off = new NextStep.Facts(false, true, null, List.of(), Map.of(), List.of(), 24_000);
        List<Numbered> pool = numbered(List.of(poolFull(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok")),
                poolFull(row(planned.get(1), 2, 510, 410, Cause.POOL_WAIT, 73, "ok"))), 1);
        ServiceLibraries jar = new ServiceLibraries("/x/app.jar", List.of(new JarLibraries.Library("com.zaxxer", "HikariCP", "7.0.2", "BOOT-INF/lib/HikariCP-7.0.2.jar")), null);
        String line = NextStep.findings(pool, off, jar).getFirst().text();
        assertTrue(line.startsWith("next step, /api/orders at 200 connections, virtual as shipped (rows 1, 2): 72% of request time waiting for a pooled connection"), line);
        assertTrue(line.contains("→ would try pool 20, then 193 (HikariCP's pool size (spring.datasource.hikari.maximum-pool-size and minimum-idle, program arguments: a fixed-size pool), now 10)"), line);
        assertTrue(line.contains("not run (--next-step runs each value as rows of its own, 2 reps each)"), line);
        assertTrue(line.contains("known library fix: com.zaxxer:HikariCP 7.0.2 spins, fixed in 7.1.0"), line);
        List<Numbered> cpu = numbered(List.of(row(planned.get(0), 1, 2800, 120, Cause.CPU, 80, "ok")), 1);
        String none = NextStep.findings(cpu, off, null).getFirst().text();
        assertTrue(none.contains("80% of request time on CPU → no lever the lab can turn for it; what would help: less work per request"), none);
        assertTrue(NextStep.findings(cpu, null, null).isEmpty(), "a run before the next step: no line");
        Map<String, String> loader = row(planned.get(0), 1, 40, 2800, Cause.MONITOR, 83, "ok");
        loader.put("time_top_evidence", "lock org.springframework.boot.loader.net.protocol.jar.UrlJarFiles$Cache in ...");
        String extracted = NextStep.findings(numbered(List.of(loader), 1), off, null).getFirst().text();
        assertTrue(extracted.contains("→ would try run extracted (the jar run extracted (java -Djarmode=tools -jar APP.jar extract"), extracted);
        assertFalse(extracted.contains("what would help"), "a lab lever answers it");
        // a monitor of the service's own: no launch helps, the advice says what would
        Map<String, String> own = row(planned.get(0), 1, 40, 2800, Cause.MONITOR, 83, "ok");
        own.put("time_top_evidence", "lock com.acme.Ledger in com.acme.Ledger.post");
        String mine = NextStep.findings(numbered(List.of(own), 1), off, null).getFirst().text();
        assertTrue(mine.contains("→ no lever the lab can turn for it; what would help: a shorter critical section around that lock"), mine);
        // a full CPU whose largest owner is the nested-jar loader (PetClinic's virtual rows): running extracted answers it
        Map<String, String> busyLoader = row(planned.get(0), 1, 225, 1400, Cause.RUNQUEUE, 97, "ok");
        busyLoader.put("time_cpu_owners", "Spring Boot's nested-jar loader 61%;the web framework 23%;serialization and templates 16%");
        String queued = NextStep.findings(numbered(List.of(busyLoader), 1), off, null).getFirst().text();
        assertTrue(queued.contains("97% of request time waiting to run") && queued.contains("→ would try run extracted"), queued);
        // ... and not when the CPU went to the service's own code or the framework
        Map<String, String> busyOwn = row(planned.get(0), 1, 225, 1400, Cause.CPU, 90, "ok");
        busyOwn.put("time_cpu_owners", "the web framework 70%;Spring Boot's nested-jar loader 20%");
        String cpuOwn = NextStep.findings(numbered(List.of(busyOwn), 1), off, null).getFirst().text();
        assertTrue(cpuOwn.contains("→ no lever the lab can turn for it"), cpuOwn);
    }

    @Test
    void aQueueForACarrierWithRoomOnTheCpuIsNotAFullCpu() {
        assertTrue(Levers.advice(Cause.RUNQUEUE, "the SUT's CPU full: 100% busy on 1 CPU; 23% of request time queued before a worker took the request")
                .startsWith("the CPU was full"));
        String carriers = Levers.advice(Cause.RUNQUEUE, "virtual threads queued for one of 2 carriers on 1 CPU (thread dumps)");
        assertTrue(carriers.startsWith("virtual threads queued for a carrier while the CPU had room") && carriers.contains("jdk.virtualThreadScheduler.parallelism"), carriers);
        // the same dumps' queue in a row whose CPU was full (app-cpu-bound): the CPU, not held carriers
        assertTrue(Levers.advice(Cause.RUNQUEUE, "virtual threads queued for one of 2 carriers on 1 CPU (thread dumps)", true).startsWith("the CPU was full"));
    }

    /** A row with the breakdown's split: its bottleneck (a queue, or none: working) and its own work. */
    static Map<String, String> split(Map<String, String> r, Cause queue, String queueEvidence, double own) {
        r.put("time_queue_cause", queue == null ? "" : queue.key);
        if (queue != null) r.put("time_queue_evidence", queueEvidence);
        r.put("time_own_pct", Double.toString(own));
        return r;
    }

    /**
     * The sleep A/B at 400 connections: platform sleeps 50% of request time (its floor) and queues 49% for a
     * free thread (the bottleneck). The next step answers the queue, not the sleep: on a --cmd no lab lever sets its
     * pool, so the A/B's own virtual rows are the evidence; virtual, working not waiting, has nothing to answer.
     */
    @Test
    void theNextStepAnswersTheQueueNotTheRequestsOwnWork() throws UsageError {
        List<Row> planned = AbExperimentTest.plan("--cmd", "java -jar s.jar", "--platform-env", "M=p", "--virtual-env", "M=v", "--url", "/sleep?ms=50",
                "--conc", "400", "--reps", "1");
        Row p = planned.stream().filter(r -> r.threadMode().equals("platform")).findFirst().orElseThrow();
        Row v = planned.stream().filter(r -> r.threadMode().equals("virtual")).findFirst().orElseThrow();
        Map<String, String> pr = split(row(p, 1, 3900, 260, Cause.SLEEP, 50, "ok"), Cause.THREAD_WAIT,
                "400 connections on 200 request threads, busy 99% of the hold: the requests beyond the threads waited in the connector's queue for a free one", 51);
        pr.put(Cause.THREAD_WAIT.column().name(), "49");
        Map<String, String> vr = split(row(v, 1, 7500, 70, Cause.SLEEP, 95, "ok"), null, "", 98);
        NextStep.Facts cmd = new NextStep.Facts(false, false, "java -jar s.jar", List.of(), Map.of(), List.of(), 24_000);
        List<vtlab.data.Finding> found = NextStep.findings(numbered(List.of(pr, vr), 1), cmd, null);
        String platform = found.get(0).text(), virtual = found.get(1).text();
        assertTrue(platform.startsWith("next step, /sleep?ms=50 at 400 connections, platform (row 1): bottleneck: 49% of request time waiting for a free request thread"
                + " (400 connections on 200 request threads"), platform);
        assertTrue(platform.contains("what would help: more request threads"), platform);
        assertTrue(platform.contains("; the A/B's own virtual rows answer it: virtual as shipped 7,500 req/s, 1.92× (row 2)"), platform);
        assertFalse(platform.contains("the service's own sleep"), platform);
        assertTrue(virtual.contains("(row 2): working, not waiting (no queue of 10% or more), its largest own work: 95% of request time sleeping"), virtual);
        assertTrue(virtual.contains("nothing to set: the request's own sleep is its floor, and nothing queues in front of it"), virtual);
    }

    /**
     * The REST service: its CPU full, the user's lever named for cpu; a full CPU and its run queue are one cause
     * to a user, so it runs; a lever for another cause is said not run, with why; the CPU's work a request does not
     * need is named first, with how to turn it down.
     */
    @Test
    void aUsersCpuLeverAnswersTheRunQueueAndALeverNotRunIsSaid() throws UsageError {
        List<Row> planned = planned();
        Map<String, String> full = split(row(planned.get(0), 1, 1357, 900, Cause.RUNQUEUE, 88, "ok"), Cause.RUNQUEUE, "the SUT's CPU full: 112% busy on 1 CPU", 10);
        full.put("time_cpu_owners", "the JDBC driver, pool or ORM 42%;the web framework 37%;writing logs or the console 12%");
        NextStep.Facts levers = new NextStep.Facts(true, true, null, List.of(), Map.of(), List.of("cpu:--logging.level.root=WARN", "gc:-Dx=1"), 24_000);
        NextStep search = new NextStep(planned, levers, 1, 40);
        Row first = nextVariant(search, List.of(full), List.of());
        assertTrue(first != null && first.appArgs().contains("--logging.level.root=WARN"), "the cpu lever runs for a run queue: " + first);
        assertNull(nextVariant(search, List.of(full), List.of(split(row(first, 1, 2000, 300, Cause.CPU, 60, "ok"), null, "", 70))), "gc's lever does not");
        String line = NextStep.findings(numbered(List.of(full), 1), new NextStep.Facts(false, true, null, List.of(), Map.of(), List.of("gc:-Dx=1"), 24_000), null)
                .getFirst().text();
        assertTrue(line.contains("(--lever -Dx not run: it answers gc, and this configuration's bottleneck is runqueue)"), line);
        assertTrue(line.contains("; first, work a request does not need: writing logs or the console 12% (--lever cpu:--logging.level.root=WARN tries it"), line);
    }

    @Test
    void theVerdictSaysWhatEachVariantBoughtAndWhyTheNextValueWasNotTried() throws UsageError {
        List<Row> planned = planned();
        Row v = Levers.POOL.apply(planned.getFirst(), "20");
        List<Map<String, String>> matrix = List.of(poolFull(row(planned.get(0), 1, 500, 420, Cause.POOL_WAIT, 71, "ok")),
                poolFull(row(planned.get(1), 2, 510, 410, Cause.POOL_WAIT, 73, "ok")),
                row(v, 1, 900, 200, Cause.RUNQUEUE, 62, "ok"), row(v, 2, 920, 180, Cause.RUNQUEUE, 66, "ok"));
        List<String> verdict = Verdict.of(vtlab.data.DataRow.numbered(matrix), java.nio.file.Path.of("/nonexistent/pinning.txt"), null, Map.of(), SPRING);
        String line = verdict.stream().filter(l -> l.startsWith("next step")).findFirst().orElseThrow();
        assertTrue(line.contains("→ pool 20 (rows 3, 4): +80% req/s (95% CI"), line);
        assertTrue(line.contains("the largest cause is now waiting to run (64%) (pool 193 not tried: pool 20 — the largest cause moved)"), line);
        // the variants are not the A/B: its gain line names rows 1 and 2 only
        String gain = verdict.stream().filter(l -> l.startsWith("/api/orders at 200 connections")).findFirst().orElseThrow();
        assertFalse(gain.contains("row 3") || gain.contains("pool 20"), gain);
        // a failed variant is named with its configuration and lever
        List<Map<String, String>> failed = List.of(matrix.get(0), matrix.get(1), row(v, 1, 0, 0, null, 0, "failed"));
        List<String> f = Verdict.of(vtlab.data.DataRow.numbered(failed), java.nio.file.Path.of("/nonexistent/pinning.txt"), null, Map.of(), SPRING);
        assertTrue(f.getFirst().startsWith("FAILED, no numbers: virtual as shipped, pool 20 (row 3)"), f.getFirst());
        assertTrue(f.stream().anyMatch(l -> l.contains("→ pool 20 (row 3): FAILED, no numbers") && l.contains("(pool 193 not tried: pool 20 — it failed)")), f.toString());
    }

    // ---- the JDK: pinning on JDK 21-23

    /** A planned row of the A/B moved to a JDK 21 (no process starts: the JDK's home is never used here). */
    static Row onJdk21(Row planned) {
        return planned.toBuilder().jdk(new vtlab.tier.tool.Jdk(java.nio.file.Path.of("/nonexistent/jdk-21"), 21, "21.0.8", "test")).build();
    }

    /** jfr-pinning's pinned time over the hold, with the carriers the JVM ran. */
    static Map<String, String> pinned(Map<String, String> r, double pinnedMs, double holdS, int carriers) {
        r.put("pinned_total_ms", Double.toString(pinnedMs));
        r.put("pinned_events", "120");
        r.put("duration_s", Double.toString(holdS));
        r.put("jvm_vt_parallelism", Integer.toString(carriers));
        return r;
    }

    @Test
    void theJdkFitsAVirtualRowOnJdk21WhoseCarriersWerePinnedAndRunsItOnTheLabsJdk() throws UsageError {
        Row base = onJdk21(planned().getFirst());
        // the one carrier pinned 9 s of a 10 s hold: the others queued for it
        Map<String, String> heavy = pinned(row(base, 1, 10, 9000, Cause.RUNQUEUE, 90, "ok"), 9000, 10, 1);
        assertEquals(0.9, Levers.pinnedCarriers(known(List.of(), List.of(), heavy)), 1e-9);
        // the carriers when the JVM did not report them: a tuned row's on its command line, else one per CPU of the SUT
        Map<String, String> unreported = new LinkedHashMap<>(heavy);
        unreported.remove("jvm_vt_parallelism");
        unreported.put("app_cpus", "0-1");
        assertEquals(2, Levers.carriers(known(List.of(), List.of(), unreported)));
        assertEquals(4, Levers.carriers(known(List.of(), List.of("-Djdk.virtualThreadScheduler.parallelism=4"), unreported)));
        assertEquals(0.225, Levers.pinnedCarriers(known(List.of(), List.of("-Djdk.virtualThreadScheduler.parallelism=4"), unreported)), 1e-9);
        assertTrue(Levers.JDK.fits(known(List.of(), List.of(), heavy), "virtual", Cause.RUNQUEUE));
        assertTrue(Levers.JDK.fits(known(List.of(), List.of(), heavy), "virtual", Cause.DOWNSTREAM), "whatever cause the pins made");
        assertFalse(Levers.JDK.fits(known(List.of(), List.of(), heavy), "platform", Cause.RUNQUEUE), "platform threads do not pin");
        // a pin now and then (1 s of two carriers' 10 s): not what limits
        Map<String, String> light = pinned(row(base, 1, 900, 200, Cause.RUNQUEUE, 60, "ok"), 1000, 10, 2);
        assertFalse(Levers.JDK.fits(known(List.of(), List.of(), light), "virtual", Cause.RUNQUEUE));
        // the same pins on JDK 25 (a native frame pins there too): no newer JDK to try
        Map<String, String> on25 = pinned(row(planned().getFirst(), 1, 10, 9000, Cause.RUNQUEUE, 90, "ok"), 9000, 10, 1);
        assertFalse(Levers.JDK.fits(known(List.of(), List.of(), on25), "virtual", Cause.RUNQUEUE));
        // no pinning probe: nothing known, no lever
        assertFalse(Levers.JDK.fits(known(List.of(), List.of(), row(base, 1, 10, 9000, Cause.RUNQUEUE, 90, "ok")), "virtual", Cause.RUNQUEUE));
        assertEquals("21", Levers.JDK.now(known(List.of(), List.of(), heavy)));

        Row v = Levers.JDK.apply(base, Levers.JDK.values(known(List.of(), List.of(), heavy)).getFirst());
        assertEquals(vtlab.tier.tool.Jdk.current().major(), v.jdk().major(), "the lab's own JDK");
        assertEquals("jdk:" + vtlab.tier.tool.Jdk.current().major(), v.params().get("lever"));
        assertEquals(base.appArgs(), v.appArgs(), "nothing else changes");
        assertEquals(base.jvmArgs(), v.jvmArgs());
        assertEquals(base.sutEnv(), v.sutEnv());
    }

    @Test
    void theVerdictSetsTheLabsJdkAgainstTheRowsOnJdk21() throws UsageError {
        List<Row> planned = planned().stream().map(NextStepTest::onJdk21).toList();
        NextStep search = new NextStep(planned, SPRING, 2, 40);
        List<Map<String, String>> ab = List.of(pinned(row(planned.get(0), 1, 10, 9000, Cause.RUNQUEUE, 90, "ok"), 9000, 10, 1),
                pinned(row(planned.get(1), 2, 11, 8800, Cause.RUNQUEUE, 91, "ok"), 9100, 10, 1));
        Row v = nextVariant(search, ab, List.of());
        int lab = vtlab.tier.tool.Jdk.current().major();
        assertEquals("jdk:" + lab, v.params().get("lever"));
        assertEquals(lab, v.jdk().major());
        List<Map<String, String>> matrix = new java.util.ArrayList<>(ab);
        matrix.add(row(v, 1, 480, 420, Cause.POOL_WAIT, 70, "ok"));
        matrix.add(row(v.toBuilder().rep(2).build(), 2, 500, 410, Cause.POOL_WAIT, 72, "ok"));
        List<String> verdict = Verdict.of(vtlab.data.DataRow.numbered(matrix), java.nio.file.Path.of("/nonexistent/pinning.txt"), null, Map.of(), SPRING);
        String line = verdict.stream().filter(l -> l.startsWith("next step")).findFirst().orElseThrow(() -> new AssertionError(verdict.toString()));
        assertTrue(line.contains("; its 1 carrier pinned 90% of the hold (jfr-pinning) → JDK " + lab + " (rows 3, 4): +"), line);
        assertTrue(line.contains("the largest cause is now waiting for a pooled connection"), line);
    }
}
