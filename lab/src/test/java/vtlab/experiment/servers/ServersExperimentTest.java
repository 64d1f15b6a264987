package vtlab.experiment.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;

/** The servers experiment plans every server in every mode it declares, each against its own declared bound. */
class ServersExperimentTest {

    private static List<Row> plan(String... args) throws UsageError {
        List<String> all = new ArrayList<>(List.of("run", "servers"));
        all.addAll(List.of(args));
        Options o = vtlab.cli.Main.parse(all);
        return new ServersExperiment().plan(o, PlanContext.from(o));
    }

    @Test
    void everyServerInEveryModeItDeclares() throws Exception {
        List<Row> rows = plan("--quick");
        Set<String> targets = rows.stream().map(r -> r.stack() + " " + r.threadMode()).collect(Collectors.toCollection(java.util.TreeSet::new));
        assertEquals(Set.of("helidon virtual", "jetty platform", "jetty virtual", "jetty virtual-pool", "servlet platform", "servlet virtual",
                "webflux coroutine", "webflux reactive", "webflux virtual-netty"), targets);
        assertTrue(rows.stream().allMatch(r -> r.concurrency() == 1000), "--quick: 1,000 connections only");
        assertEquals(2 * targets.size(), rows.size(), "hello and sleep, one rep each");
    }

    @Test
    void repsAreForksSoTheIntervalIsBetweenJvms() throws Exception {
        List<Row> rows = plan("--workloads", "sleep", "--conc", "1000", "--reps", "2", "--servers", "helidon");
        assertEquals(List.of(1, 2), rows.stream().map(Row::fork).toList(), "each rep a JVM of its own");
        assertTrue(rows.stream().allMatch(Row::startsFork), "each warmed up in its own JVM");
        assertTrue(plan("--workloads", "sleep", "--conc", "1000", "--reps", "1", "--servers", "helidon").stream().allMatch(r -> r.fork() == 0),
                "one rep may share the row before's warm JVM");
    }

    @Test
    void anIntervalOfThroughputNeverStartsBelowZero() {
        // two forks of Tomcat's hello at 1,000 connections on a 3 s warm-up (run 20261128T224239Z-servers)
        vtlab.data.judge.Stats.Interval i = vtlab.data.judge.Stats.mean95(new double[] {30494.74, 25048.26});
        assertTrue(i.low() < 0, "the t interval of two forks this far apart: " + i);
        assertEquals("27,772 req/s (95% CI 0–62,374)", ServersExperiment.render(i));
    }

    @Test
    void eachRowIsBoundedAsItsServerDeclaresItsMode() throws Exception {
        Map<String, Row> sleep = new LinkedHashMap<>();
        for (Row r : plan("--workloads", "sleep", "--conc", "1000", "--reps", "1")) sleep.put(r.stack() + " " + r.threadMode(), r);
        // a pool of 200 platform threads, or at most 200 virtual threads (Jetty's VirtualThreadPool): 200 / 50 ms
        assertEquals(4000.0, sleep.get("servlet platform").boundRps(), 1e-9);
        assertEquals(4000.0, sleep.get("jetty platform").boundRps(), 1e-9);
        assertEquals(4000.0, sleep.get("jetty virtual-pool").boundRps(), 1e-9);
        assertTrue(sleep.get("jetty virtual-pool").boundNote().contains("at most 200 virtual threads"), sleep.get("jetty virtual-pool").boundNote());
        // a pool in front of virtual threads, or none: the connections
        assertEquals(20000.0, sleep.get("jetty virtual").boundRps(), 1e-9);
        assertTrue(sleep.get("jetty virtual").boundNote().contains("a pool of 200 in front of virtual threads"), sleep.get("jetty virtual").boundNote());
        assertEquals(20000.0, sleep.get("helidon virtual").boundRps(), 1e-9);
        assertEquals(20000.0, sleep.get("servlet virtual").boundRps(), 1e-9);
    }

    @Test
    void thePoolSizeIsSetByRoleOnEveryServerThatHasOne() throws Exception {
        for (Row r : plan("--workloads", "sleep", "--conc", "1000", "--reps", "1", "--pool-size", "100", "--servers", "servlet,jetty,helidon")) {
            boolean pooled = !r.stack().equals("helidon");
            if (pooled) assertEquals("100", r.sutEnv().get("MAX_THREADS"), r.stack() + " " + r.threadMode());
            if (r.threadMode().equals("platform") || r.threadMode().equals("virtual-pool")) assertEquals(2000.0, r.boundRps(), 1e-9);
        }
    }

    /**
     * wrk opens its 1,000 connections at once: a backlog shorter than that (Tomcat's 100, Jetty's JDK 50) dropped
     * ~2,000 handshakes per hold here and left the pool-bound rows at a Little's law ratio of 0.84–0.88. Every server
     * whose own backlog is shorter than the largest --conc gets that, by role; Helidon keeps its own 1,024.
     */
    @Test
    void theAcceptQueueHoldsTheLargestConcurrencyWhereAServersOwnIsShorter() throws Exception {
        Map<String, Row> rows = new LinkedHashMap<>();
        for (Row r : plan("--workloads", "sleep", "--conc", "400,1000", "--reps", "1", "--servers", "servlet,jetty,helidon,webflux")) {
            rows.put(r.stack() + " " + r.threadMode() + " " + r.concurrency(), r);
        }
        assertEquals("1000", rows.get("servlet platform 400").sutEnv().get("ACCEPT_COUNT"), "the sweep's largest, on every row of it");
        assertEquals(1000, rows.get("servlet virtual 1000").expectInfo().get("accept_count"), "runtime-info proves it");
        assertEquals("1000", rows.get("jetty virtual-pool 1000").sutEnv().get("ACCEPT_QUEUE_SIZE"));
        assertEquals(1000, rows.get("jetty platform 1000").expectInfo().get("accept_queue_size"));
        assertEquals("1024", rows.get("helidon virtual 1000").sutEnv().get("BACKLOG"), "Helidon's own 1,024 is larger: kept");
        assertEquals(1024, rows.get("helidon virtual 1000").expectInfo().get("backlog"));
        assertTrue(rows.get("webflux reactive 1000").sutEnv().names().stream().noneMatch(k -> k.contains("ACCEPT") || k.contains("BACKLOG")),
                "no acceptQueue role (Netty's backlog is the kernel's somaxconn)");

        assertEquals("100", plan("--workloads", "sleep", "--conc", "1000", "--reps", "1", "--servers", "servlet", "--modes", "platform",
                "--accept-queue", "50").getFirst().sutEnv().get("ACCEPT_COUNT"), "a server's own where it is larger than the one given");
        assertEquals("4096", plan("--workloads", "sleep", "--conc", "1000", "--reps", "1", "--servers", "servlet", "--accept-queue", "4096")
                .getFirst().sutEnv().get("ACCEPT_COUNT"));
        UsageError e = assertThrows(UsageError.class, () -> plan("--servers", "servlet", "--accept-queue", "0"));
        assertTrue(e.getMessage().startsWith("--accept-queue must be positive"), e.getMessage());
    }

    @Test
    void aModeAServerDoesNotDeclareIsRefusedNamingItsModes() {
        UsageError e = assertThrows(UsageError.class, () -> plan("--modes", "platform", "--servers", "servlet,helidon"));
        assertEquals("stack helidon has no thread mode 'platform' (it has virtual)", e.getMessage());
    }

    @Test
    void aModeCanBeGivenForOneServer() throws Exception {
        List<String> targets = plan("--quick", "--workloads", "sleep", "--servers", "jetty,helidon", "--modes", "jetty:virtual-pool").stream()
                .map(r -> r.stack() + " " + r.threadMode()).toList();
        assertEquals(List.of("jetty virtual-pool", "helidon virtual"), targets);
        assertEquals(List.of("servlet platform", "jetty platform", "jetty virtual-pool"),
                plan("--quick", "--workloads", "sleep", "--servers", "servlet,jetty", "--modes", "platform,jetty:virtual-pool,servlet:platform").stream()
                        .map(r -> r.stack() + " " + r.threadMode()).toList(), "a mode given twice runs once");
        UsageError e = assertThrows(UsageError.class, () -> plan("--servers", "jetty", "--modes", "helidon:virtual"));
        assertEquals("--modes helidon:virtual: helidon is not among --servers jetty", e.getMessage());
    }

    static DataRow row(String stack, String mode, double rps, String bound) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("experiment", "servers");
        m.put("stack", stack);
        m.put("thread_mode", mode);
        m.put("workload", "sleep");
        m.put("concurrency", "1000");
        m.put("status", "ok");
        m.put("throughput_rps", Double.toString(rps));
        m.put("bound_rps", bound);
        m.put("bound_note", "n / 50 ms");
        m.put("app_cpu_pct", "80");
        m.put("carriers", "2");
        return DataRow.of(m);
    }

    @Test
    void findingsCompareTheServersOfOneModelWithIntervals() {
        List<DataRow> rows = List.of(row("jetty", "virtual-pool", 3900, "4000"), row("jetty", "virtual-pool", 3950, "4000"),
                row("helidon", "virtual", 15000, "20000"), row("helidon", "virtual", 15400, "20000"),
                row("servlet", "platform", 3960, "4000"), row("servlet", "platform", 3970, "4000"));
        List<String> lines = Finding.texts(new ServersExperiment().findings(null, rows));
        String virtual = lines.stream().filter(l -> l.startsWith("sleep at 1000 connections, virtual threads")).findFirst().orElseThrow();
        assertTrue(virtual.contains("best helidon virtual 15,200 req/s (95% CI"), virtual);
        assertTrue(virtual.contains("ahead of jetty virtual-pool by 3.87× (95% CI"), virtual);
        assertTrue(virtual.contains("jetty virtual-pool 3,925 req/s") && virtual.contains("at its bound (98% of 4,000 req/s"), virtual);
        assertTrue(virtual.contains("76% of its bound 20,000 req/s (n / 50 ms), its CPU 80% of a core (2 carriers)"), virtual);
        String platform = lines.stream().filter(l -> l.startsWith("sleep at 1000 connections, platform threads")).findFirst().orElseThrow();
        assertTrue(platform.contains("best servlet platform"), platform);
        List<String> one = Finding.texts(new ServersExperiment().findings(null, List.of(row("jetty", "virtual", 11700, "20000"), row("helidon", "virtual", 12900, "20000"))));
        assertTrue(one.getFirst().contains("ahead of jetty virtual by 1.10× (one rep: no interval)"), one.getFirst());
        // a server whose hold still had the JIT busy is named not yet warm, with how much of its CPU that was
        Map<String, String> cold = new LinkedHashMap<>(row("webflux", "reactive", 2592, "").cells());
        cold.put("workload", "hello");
        cold.put("app_cpu_by_thread", "requests 29.3;jit 25.7;gc-vm 0.5");
        String hello = Finding.texts(new ServersExperiment().findings(null, List.of(DataRow.of(cold)))).getFirst();
        assertTrue(hello.contains("its CPU 80% of a core, 26% of a core the JIT: not yet warm"), hello);
    }
}
