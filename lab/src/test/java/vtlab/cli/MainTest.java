package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Row;
import vtlab.planning.Preflight;
import vtlab.planning.RowHooks;

/** Bad input is refused with one clear line before anything starts. */
class MainTest {

    /** A free port on the loopback: the default 18080 may be held on a developer's machine, which is not what a refusal tests. */
    static String freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return Integer.toString(s.getLocalPort());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String refusal(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of(args));
        if (all.getFirst().equals("run") && !all.contains("--port")) all.addAll(List.of("--port", freePort()));
        UsageError e = assertThrows(UsageError.class, () -> {
            Options o = vtlab.cli.Main.parse(all);
            RunCommand.prepare(o, o.positional().subList(1, o.positional().size()));
        });
        assertEquals(1, e.getMessage().lines().count(), "one line: " + e.getMessage());
        return e.getMessage();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "run nosuch                               | unknown experiment 'nosuch'",
            "run servlet --modes green                | unknown value 'green' for --modes",
            "run servlet-io --modes virtual-as-shipped | unknown value 'virtual-as-shipped' for --modes",
            "run servlet --workloads fib              | unknown value 'fib' for --workloads",
            "run servlet --conc 0                     | --conc must be positive",
            "run servlet --conc 4x0                   | --conc takes positive whole numbers",
            "run servlet --conc -5                    | --conc must be positive",
            "run servlet --reps 0                     | --reps must be positive",
            "run servlet --hold 10parsecs             | --hold takes a duration",
            "run servlet --hold 0s                    | --hold must be longer than zero",
            "run servlet --pools 50                   | option --pools is not known to servlet",
            "run servlet --probes cpu,flux            | unknown probe 'flux'",
            "run servlet --generator ab               | unknown value 'ab' for --generator (choose from wrk, hey, oha, vegeta, k6)",
            "run servlet --wrk-per-second maybe       | unknown value 'maybe' for --wrk-per-second (choose from on, off)",
            "run order-summary --conn-mode leased     | unknown value 'leased' for --conn-mode (choose from released, held)",
            "run servlet --cpus-app 9                 | --cpus-app",
            "run servlet --cpus-app 0 --cpus-load 0   | pass --allow-shared-cpus",
            "run servlet --port 70000                 | --port must be at most 65535",
            "run servlet --conc 900000                | 900000 connections need about",
            "run servlet --jdk /nonexistent           | not a JDK folder",
            "run servlet --min-spare-threads 300      | exceeds --max-threads",
            "run servlet --probes cpu:every=1s        | probe cpu takes no options",
            "run servlet --probes jfr-pinning:depth=3 | probe jfr-pinning has no option 'depth'",
            "run servlet --probes jfr-pinning:threshold=soon | jfr-pinning:threshold takes a duration",
            "run servlet --probes jfr-pinning:threshold | is not KEY=VALUE",
            "run servlet --pin-threshold 5parsecs     | --pin-threshold takes a duration",
            "run servlet --load-model half            | unknown value 'half' for --load-model (choose from closed, open)",
            "run servlet --rates 2000                 | --rates is the open model's axis",
            "run servlet --load-model open            | --load-model open needs --rates",
            "run servlet --load-model open --rates 0  | --rates must be positive",
            "run servlet --load-model open --rates -5 | --rates must be positive",
            "run servlet --load-model open --rates 2k | --rates takes positive numbers",
            "run servlet --load-model open --rates 1000,,x | --rates takes positive numbers",
            "run servlet --load-model open --rates 1000 --conc 400 | --conc is the closed model's axis",
            "run servlet --load-model open --rates 1000 --max-in-flight 0 | --max-in-flight must be positive",
            "run servlet --load-model open --rates 1000 --generator wrk | wrk runs closed-model load only; use --generator oha or vegeta or k6",
            "run servlet --load-model open --rates 1000 --generator hey | hey runs closed-model load only",
            "run thread-cost --load-model open        | option --load-model is not known to thread-cost",
            "run servlet --ramp 8s                    | --ramp is an option of generator k6, not of wrk",
            "run servlet --generator k6 --ramp 8s --load-model open --rates 100 | --ramp ramps the closed model's VUs",
            "run servlet --generator k6 --ramp soon   | --ramp takes a duration",
            "run capacity --slo p99>3ms               | --slo term 'p99>3ms' does not parse",
            "run servlet --fail-on p99_ms=200         | --fail-on term 'p99_ms=200' does not parse",
            "run servlet --fail-on error_rate>2       | --fail-on 'error_rate>2': errors above 100% never bind",
            "run capacity --conc 400                  | capacity searches rates: --conc is not an axis here",
            "run capacity --of thread-cost            | --of takes a load experiment",
            "run capacity servlet                     | capacity runs open-model rows: run it on its own",
            "run capacity --generator wrk             | wrk runs closed-model load only",
            "run servlet --rate-profile 1000@0s,5000@10s --hold 20s --generator oha | --rate-profile: oha sends constant rates only; use --generator vegeta or k6",
            "run servlet --rate-profile 1000@0s,5000@10s --hold 20s --generator wrk | --rate-profile: wrk sends constant rates only; use --generator vegeta or k6",
            "run servlet --rate-profile 1000@0s --ramp 8s | --ramp is an option of generator k6, not of vegeta",
            "run servlet --rate-profile 1000@0s --ramp 8s --generator k6 | --ramp ramps the closed model's VUs",
            "run servlet --rate-profile 1000@0s,5000@20s --hold 20s | --rate-profile: point 5000@20s is beyond the 20s hold",
            "run servlet --rate-profile 1000@0s,5000@10s --rates 1000 | --rate-profile: it replaces --rates",
            "run servlet --rate-profile 1000@0s --load-model closed | --rate-profile: a profile schedules an open-model load",
            "run servlet --rate-profile 1000@0s,5000@x | --rate-profile: '5000@x' is not a point",
            "run capacity --rate-profile 1000@0s      | --rate-profile: capacity searches constant rates",
            "run faults --rate-profile 100@0s         | --rate-profile: a fault row is judged at a constant rate",
    })
    void refusesBadInput(String args, String expected) {
        String msg = refusal(args.trim().split("\\s+"));
        assertTrue(msg.contains(expected), msg);
    }

    /** ./vtlab tiers refuses what it cannot start before starting anything. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "tiers mysql               | unknown tier 'mysql' (pg, stub)",
            "tiers pg --data-of nope   | no stack 'nope'",
            "tiers pg --conc 4         | option --conc is not known to tiers",
    })
    void tiersRefusesBadInput(String args, String expected) {
        UsageError e = assertThrows(UsageError.class, () -> Main.run(List.of(args.trim().split("\\s+")), new java.io.PrintStream(java.io.OutputStream.nullOutputStream())));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    /** ./vtlab hosts refuses a wrong action or count before it touches the network or asks for root. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "hosts                     | hosts needs up or down",
            "hosts sideways            | unknown hosts action 'sideways'",
            "hosts up                  | hosts up takes the number of hosts, 1 to 50",
            "hosts up two              | hosts up takes the number of hosts",
            "hosts up 0                | hosts up takes the number of hosts",
            "hosts up 51               | hosts up takes the number of hosts",
            "hosts down 2              | hosts down takes nothing more",
            "hosts up 2 --conc 4       | option --conc is not known to hosts",
            "hosts check /nonexistent.toml | --hosts /nonexistent.toml: cannot read it (no such file)",
            "hosts check a.toml b.toml | hosts check takes one topology file",
    })
    void hostsRefusesBadInput(String args, String expected) {
        UsageError e = assertThrows(UsageError.class, () -> Main.run(List.of(args.trim().split("\\s+")), new java.io.PrintStream(java.io.OutputStream.nullOutputStream())));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    /** ./vtlab setup refuses an unknown tool before installing anything; doctor lists every registered tool. */
    @Test
    void setupRefusesAnUnknownToolAndDoctorListsEveryTool() throws Exception {
        UsageError e = assertThrows(UsageError.class, () -> Main.run(List.of("setup", "wrk", "wrk2"), new java.io.PrintStream(java.io.OutputStream.nullOutputStream())));
        assertTrue(e.getMessage().startsWith("unknown tool 'wrk2'"), e.getMessage());
        String doctor = DoctorCommand.doctor();
        for (String t : vtlab.tier.tool.Tools.all().keySet()) {
            assertTrue(doctor.lines().anyMatch(l -> l.matches("tool +" + t + " .*")), t + " in:\n" + doctor);
        }
    }

    @Test
    void runsOnSharedCpusWhenAllowed() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "servlet", "--cpus-app", "0", "--cpus-load", "0", "--allow-shared-cpus",
                "--port", Integer.toString(vtlab.proc.LoopbackPort.free()))); // the default port may be a running lab's
        assertEquals("0", RunCommand.prepare(o, List.of("servlet")).cores().shared());
    }

    @Test
    void refusesAnInFlightCapTheFileLimitCannotHold() {
        UsageError e = assertThrows(UsageError.class, () -> Preflight.checkFileLimit(900_000, true));
        assertTrue(e.getMessage().startsWith("an in-flight cap of 900000 (--max-in-flight) needs about 901024 open files"), e.getMessage());
    }

    /** Open: the rates replace the concurrency axis; every row runs at the in-flight cap with the open capacity as bound. */
    @Test
    void plansOpenRowsAtEachRate() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "servlet", "--workloads", "sleep", "--load-model", "open", "--rates", "2000,6000",
                "--reps", "2", "--hold", "10s"));
        vtlab.plan.PlanContext ctx = vtlab.plan.PlanContext.from(o);
        List<Row> rows = ctx.underLoadModel(vtlab.experiment.registry.Experiments.byName("servlet").plan(ctx.forExperiments(o), ctx));
        assertEquals(2 * 2 * 2, rows.size(), "modes x rates x reps");
        assertTrue(rows.stream().allMatch(r -> r.open() && r.concurrency() == 10_000), "concurrency holds the in-flight cap");
        Row platform = rows.stream().filter(r -> r.threadMode().equals("platform") && r.rate() == 6000).findFirst().orElseThrow();
        assertEquals(4000.0, platform.boundRps(), 1e-9, "200 threads / 50 ms, whatever the rate");
        assertTrue(platform.boundNote().startsWith("open model: capacity 200 pool threads / 50 ms"), platform.boundNote());
        Row virtual = rows.stream().filter(r -> r.threadMode().equals("virtual")).findFirst().orElseThrow();
        assertTrue(virtual.boundRps() > 100_000, "virtual: no thread bound, only the connector's: " + virtual.boundRps());
        assertTrue(platform.scenario().contains("open rate=6000 cap=10000"), platform.scenario());
        assertTrue(platform.fileStem(3).contains("-rate6000-r"), platform.fileStem(3));
        assertEquals(List.of(2000.0, 6000.0), rows.stream().filter(r -> r.rep() == 1 && r.threadMode().equals("virtual"))
                .map(Row::rate).toList());
    }

    @Test
    void closedRunsPlanAsBefore() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "servlet", "--workloads", "sleep", "--conc", "400"));
        vtlab.plan.PlanContext ctx = vtlab.plan.PlanContext.from(o);
        List<Row> rows = ctx.underLoadModel(vtlab.experiment.registry.Experiments.byName("servlet").plan(ctx.forExperiments(o), ctx));
        assertTrue(rows.stream().noneMatch(Row::open));
        assertTrue(rows.getFirst().scenario().contains("c=400"));
        assertEquals("closed", rows.getFirst().loadModel());
    }

    @Test
    void refusesAPortInUse() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String msg = refusal("run", "servlet", "--port", Integer.toString(s.getLocalPort()));
            assertTrue(msg.contains("in use"), msg);
        }
    }

    @Test
    void plansTheArticlesMatrix() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "servlet", "--workloads", "hello,sleep", "--conc", "400,1000", "--reps", "3",
                "--hold", "20s", "--warmup", "10s"));
        List<Row> rows = vtlab.experiment.registry.Experiments.byName("servlet").plan(o, vtlab.plan.PlanContext.from(o));
        assertEquals(2 * 2 * 2 * 3, rows.size());
        Row platformSleep = rows.stream().filter(r -> r.threadMode().equals("platform") && r.workload().equals("sleep")
                && r.concurrency() == 1000).findFirst().orElseThrow();
        assertEquals(4000.0, platformSleep.boundRps(), 1e-9);
        assertEquals("platform", platformSleep.sutEnv().get("THREAD_MODE"));
        assertEquals(200, platformSleep.expectInfo().get("max_threads"));
        Row virtualSleep = rows.stream().filter(r -> r.threadMode().equals("virtual") && r.workload().equals("sleep")
                && r.concurrency() == 1000).findFirst().orElseThrow();
        assertEquals(20000.0, virtualSleep.boundRps(), 1e-9);
        Row hello = rows.stream().filter(r -> r.workload().equals("hello")).findFirst().orElseThrow();
        assertEquals(null, hello.boundRps(), "hello is CPU-bound: no closed-form bound");
        int carriers = vtlab.plan.PlanContext.from(o).carriers();
        assertEquals(List.of("-Xms512m", "-Xmx512m", "-Djdk.virtualThreadScheduler.parallelism=" + carriers), hello.jvmArgs());
        assertEquals(carriers, hello.carriers());
        // every request keeps a cached Tomcat processor (see ServletExperiment.processorCache), verified before load
        assertEquals("-1", virtualSleep.sutEnv().get("PROCESSOR_CACHE"));
        assertEquals(-1, virtualSleep.expectInfo().get("processor_cache"));
        // rows of one SUT configuration (workload x mode) are consecutive, so they can share a warm JVM
        List<String> configs = rows.stream().map(r -> r.workload() + r.sutEnv()).toList();
        for (int i = 1; i < configs.size(); i++) {
            String previous = configs.get(i - 1);
            if (!configs.get(i).equals(previous)) {
                assertTrue(configs.subList(i, configs.size()).stream().noneMatch(previous::equals), "config comes back: " + previous);
            }
        }
        assertEquals(4, configs.stream().distinct().count());
    }

    /**
     * The demo (no experiment named): platform, tuned virtual and virtual as shipped (Tomcat's processorCache 200, the
     * JVM's own carriers), verified as such before load; within about 3.5 minutes.
     */
    @Test
    void theDemoRunsVirtualThreadsTunedAndAsShipped() throws Exception {
        RunCommand.Prepared p = RunCommand.prepare(vtlab.cli.Main.parse(List.of("run", "--port", freePort())), List.of());
        assertEquals(List.of("platform", "virtual", "virtual-as-shipped"), p.plan().rows().stream()
                .map(r -> r.threadMode() + (r.params().containsKey("tuning") ? "-" + r.params().get("tuning") : "")).distinct().toList());
        Row tuned = p.plan().rows().stream().filter(r -> r.threadMode().equals("virtual") && !r.params().containsKey("tuning")).findFirst().orElseThrow();
        Row shipped = p.plan().rows().stream().filter(r -> "as-shipped".equals(r.params().get("tuning"))).findFirst().orElseThrow();
        assertEquals("virtual", shipped.threadMode());
        assertEquals("200", shipped.sutEnv().get("PROCESSOR_CACHE"));
        assertEquals(200, shipped.expectInfo().get("processor_cache"), "verified before load");
        assertEquals(null, shipped.carriers(), "the JVM's own carrier count");
        assertEquals(Math.max(2, p.cores().count("app")), tuned.carriers());
        assertEquals("-1", tuned.sutEnv().get("PROCESSOR_CACHE"));
        assertTrue(!shipped.params().containsKey("processorCache"), "the variant's own setting is not a knob: " + shipped.params());
        assertEquals(tuned.boundRps(), shipped.boundRps());
        long seconds = p.plan().rows().stream().mapToLong(r -> r.plannedSeconds() + 6).sum();
        assertTrue(seconds <= 210, "the demo takes about " + seconds + " s");
        assertEquals(6, p.plan().rows().size());
    }

    @Test
    void asShippedLeavesItsSettingsToTheServer() throws Exception {
        String msg = refusal("run", "servlet", "--modes", "virtual-as-shipped", "--processor-cache", "-1");
        assertTrue(msg.contains("virtual-as-shipped runs processorCache as the server ships it (200)"), msg);
        // another setting still applies to it, and off its baseline is a knob of the scenario
        Options o = vtlab.cli.Main.parse(List.of("run", "servlet", "--modes", "virtual-as-shipped", "--max-connections", "4096", "--workloads", "sleep"));
        Row r = vtlab.experiment.registry.Experiments.byName("servlet").plan(o, vtlab.plan.PlanContext.from(o)).getFirst();
        assertEquals("4096", r.sutEnv().get("MAX_CONNECTIONS"));
        assertEquals("200", r.sutEnv().get("PROCESSOR_CACHE"));
    }

    @Test
    void refusesABadProcessorCache() throws Exception {
        assertTrue(refusal("run", "servlet", "--processor-cache", "-2").contains("--processor-cache"));
        assertTrue(refusal("run", "servlet", "--processor-cache", "many").contains("--processor-cache"));
    }

    @Test
    void quickShortensTheTiming() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("--quick"));
        List<Row> rows = vtlab.experiment.registry.Experiments.byName("servlet").plan(o, vtlab.plan.PlanContext.from(o));
        assertTrue(rows.stream().allMatch(r -> r.hold().toSeconds() <= 5 && r.rep() == 1));
    }

    @Test
    void helpExplainsTheCommands() throws Exception {
        var buf = new java.io.ByteArrayOutputStream();
        assertEquals(0, Main.run(List.of("--help"), new java.io.PrintStream(buf)));
        String help = buf.toString();
        for (String word : List.of("./vtlab run", "./vtlab ab", "./vtlab list", "./vtlab test", "--conc", "matrix.csv")) {
            assertTrue(help.contains(word), word);
        }
    }

    @Test
    void plannedRowsCarryTheirExperimentsHooks() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "footprint", "--reps", "1"));
        Row footprint = vtlab.experiment.registry.Experiments.byName("footprint").plan(o, vtlab.plan.PlanContext.from(o)).getFirst();
        vtlab.plan.PlannedRow p = new RowHooks(List.of("cpu", "jfr-pinning"), false, "5ms").planned(footprint);
        assertTrue(p.freshSut(), "footprint reads a fresh JVM's idle state");
        assertTrue(p.probes().contains("nmt"), p.probes().toString());
        // --pin-threshold is short for the jfr-pinning probe's option
        assertTrue(p.probes().contains("jfr-pinning:threshold=5ms"), p.probes().toString());
        assertTrue(p.drains().isEmpty(), "no Hikari pool, no pool drain");
        Row pooled = Row.builder().experiment("hand-made").stack("spring-mvc").threadMode("virtual").workload("orders")
                .concurrency(10).rep(1).hikariPool(8).jdk(footprint.jdk()).warmup(footprint.warmup()).hold(footprint.hold()).build();
        vtlab.plan.PlannedRow q = new RowHooks(List.of(), false, null).planned(pooled);
        assertEquals(List.of("the pool"), q.drains().stream().map(vtlab.plan.Drain::what).toList(), "drained with or without the hikari probe");
        assertEquals(false, q.freshSut());
    }

    /** A capacity step must not inherit the heap and caches of the steps before it (see CapacityExperiment). */
    @Test
    void capacityStepsRunInAFreshJvmEach() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "capacity"));
        var ctx = vtlab.plan.PlanContext.from(o);
        var search = vtlab.experiment.registry.Experiments.byName("capacity").searches(o, ctx).getFirst();
        Row step = search.next(List.of());
        assertTrue(new RowHooks(List.of("cpu"), false, null).planned(step).freshSut(), "a step reusing a JVM ran on its predecessor's heap");
    }

    @Test
    void listColumnsPrintsEveryDeclaredColumnSeedFirst() throws Exception {
        var buf = new java.io.ByteArrayOutputStream();
        assertEquals(0, Main.run(List.of("list", "columns"), new java.io.PrintStream(buf)));
        List<String> lines = buf.toString().lines().skip(1).toList();
        assertEquals(vtlab.run.MatrixSchema.full().size(), lines.size());
        assertTrue(lines.getFirst().trim().startsWith("ts_iso "), lines.getFirst());
        assertTrue(lines.get(22).trim().startsWith("pinned_events "), lines.get(22));
        assertTrue(lines.stream().anyMatch(l -> l.trim().startsWith("nmt_threads ") && l.contains("threads NMT counts")));
    }
}
