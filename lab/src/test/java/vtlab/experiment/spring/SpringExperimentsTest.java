package vtlab.experiment.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.run.Verifier;
import vtlab.stack.Settings;
import vtlab.stack.Stack;

class SpringExperimentsTest {

    static List<Row> plan(vtlab.plan.Experiment e, String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of("run", e.name()));
        a.addAll(List.of(args));
        Options o = vtlab.cli.Main.parse(a);
        return e.plan(o, PlanContext.from(o));
    }

    static Row find(List<Row> rows, String mode, int conc) {
        return rows.stream().filter(r -> r.threadMode().equals(mode) && r.concurrency() == conc).findFirst().orElseThrow();
    }

    @Test
    void orderSummarySetsTheRigsEnvironmentAndExpectsItBack() throws Exception {
        List<Row> rows = plan(new OrderSummaryExperiment(), "--quick");
        assertEquals(4, rows.size()); // 2 modes x (100, 1000) x 1 rep
        Row p = find(rows, "platform", 1000), v = find(rows, "virtual", 1000);
        assertEquals("false", p.sutEnv().get("VT_ENABLED"));
        assertEquals("true", v.sutEnv().get("VT_ENABLED"));
        for (Row r : rows) {
            assertEquals("spring-mvc", r.stack());
            assertEquals(List.of("pg", "stub"), r.tiers());
            assertEquals(50, r.hikariPool());
            assertEquals("released", r.connMode());
            assertEquals("normal", r.pathMode());
            assertEquals("50", r.sutEnv().get("HIKARI_MAX_POOL"));
            assertEquals("released", r.sutEnv().get("CONN_MODE"));
            assertEquals("100", r.sutEnv().get("DOWNSTREAM_DELAY_MS"));
            assertEquals("16384", r.sutEnv().get("TOMCAT_MAX_CONNECTIONS"));
            assertEquals(r.threadMode(), r.expectInfo().get("thread_mode"));
            assertEquals(16384, r.expectInfo().get("max_connections"));
            assertEquals("java.net.http.HttpClient", r.expectInfo().get("downstream_http_library"));
            // wrk repeats one URL: the SUT draws the id
            assertEquals("/api/order-summary/random", Stack.load("spring-mvc").workload(r.workload()).pathFor(r.params()));
        }
        assertEquals(200, p.expectInfo().get("max_threads"));
        assertTrue(v.expectInfo().containsKey("max_threads"));
        assertNull(v.expectInfo().get("max_threads"), "virtual threads have no pool to report");
        // platform: 200 threads / 100 ms; virtual: every connection / 100 ms
        assertEquals(2000.0, p.boundRps(), 1e-9);
        assertEquals(10000.0, v.boundRps(), 1e-9);
        assertEquals(1000.0, find(rows, "platform", 100).boundRps(), 1e-9);
        assertEquals("200 Tomcat threads / (100 ms downstream + query time)", p.boundNote());
    }

    @Test
    void theDefaultSweepIsTheRigsAndModesRunBackToBack() throws Exception {
        List<Row> rows = plan(new OrderSummaryExperiment(), "--reps", "1");
        assertEquals(List.of(100, 500, 1000, 2500, 5000, 10000),
                rows.stream().filter(r -> r.threadMode().equals("platform")).map(Row::concurrency).toList());
        // all platform rows first: one warm SUT per mode
        assertEquals("platform", rows.get(5).threadMode());
        assertEquals("virtual", rows.get(6).threadMode());
        List<Row> held = plan(new OrderSummaryExperiment(), "--quick", "--conn-mode", "held", "--path-mode", "synchronized",
                "--client", "urlconnection", "--pool", "30");
        Row h = find(held, "virtual", 1000);
        assertEquals("held", h.sutEnv().get("CONN_MODE"));
        assertEquals("synchronized", h.sutEnv().get("PATH_MODE"));
        assertEquals("urlconnection", h.sutEnv().get("DOWNSTREAM_CLIENT"));
        assertEquals("java.net.HttpURLConnection", h.expectInfo().get("downstream_http_library"));
        assertEquals(300.0, h.boundRps(), 1e-9); // 30 connections held for 100 ms each
        assertEquals("http1", h.sutEnv().get("DOWNSTREAM_HTTP"), "HttpURLConnection speaks HTTP/1.1 only");
        assertEquals(List.of("-Xms2g", "-Xmx2g", "-Djdk.virtualThreadScheduler.parallelism=" + h.carriers()), h.jvmArgs(),
                "10,000 connections outgrow a 512 MB heap; the run's carrier count follows it");
        assertTrue(h.carriers() >= 2, "auto never leaves a SUT with one carrier");
        assertThrows(UsageError.class, () -> plan(new OrderSummaryExperiment(), "--client", "urlconnection", "--downstream-http", "h2c"));
        Row h2 = find(plan(new OrderSummaryExperiment(), "--quick", "--downstream-http", "h2c", "--jvm-args", "-Xmx1g"), "virtual", 100);
        assertEquals("h2c", h2.sutEnv().get("DOWNSTREAM_HTTP"));
        assertEquals("HTTP_2", h2.expectInfo().get("downstream_negotiated"), "the runtime-info must show h2c was really negotiated");
        assertEquals(List.of("-Xmx1g", "-Djdk.virtualThreadScheduler.parallelism=" + h2.carriers()), h2.jvmArgs());
        // a few hundred connections fit any open-file limit: the rig's HTTP/1.1
        Row auto = find(plan(new OrderSummaryExperiment(), "--quick", "--conc", "300"), "virtual", 300);
        assertEquals("http1", auto.sutEnv().get("DOWNSTREAM_HTTP"));
        assertEquals("HTTP_1_1", auto.expectInfo().get("downstream_negotiated"));
        assertThrows(UsageError.class, () -> plan(new OrderSummaryExperiment(), "--conn-mode", "sometimes"));
    }

    @Test
    void heldModeIsBoundByThePoolAndPlatformAlsoByItsThreads() throws Exception {
        List<Row> rows = plan(new PoolBottleneckExperiment(), "--reps", "1");
        assertEquals(10, rows.size()); // 2 modes x 5 pools at 2,000 connections
        Map<String, Double> bound = rows.stream().collect(Collectors.toMap(r -> r.threadMode() + r.hikariPool(), Row::boundRps));
        assertEquals(500.0, bound.get("virtual50"), 1e-9);
        assertEquals(1000.0, bound.get("virtual100"), 1e-9);
        assertEquals(8000.0, bound.get("virtual800"), 1e-9);
        assertEquals(500.0, bound.get("platform50"), 1e-9);
        assertEquals(2000.0, bound.get("platform200"), 1e-9);
        assertEquals(2000.0, bound.get("platform800"), 1e-9); // no more than 200 threads can hold a connection
        Row v100 = rows.stream().filter(r -> r.threadMode().equals("virtual") && r.hikariPool() == 100).findFirst().orElseThrow();
        assertEquals("held", v100.sutEnv().get("CONN_MODE"));
        assertEquals(100, v100.expectInfo().get("hikari_pool"));
        assertEquals("100 pooled connections held across the call / (100 ms downstream + query time)", v100.boundNote());
        assertEquals(2000, v100.concurrency());
        assertThrows(UsageError.class, () -> plan(new PoolBottleneckExperiment(), "--pools", "50,1000"));
        assertEquals(List.of(50, 100, 400), plan(new PoolBottleneckExperiment(), "--quick", "--modes", "virtual").stream()
                .map(Row::hikariPool).toList());
    }

    @Test
    void springSleepHasTheArticlesAndTheTalksVariants() throws Exception {
        List<Row> rows = plan(new SpringSleepExperiment(), "--reps", "1");
        // article: (platform-200, virtual) x (400, 1000); talk: (platform-200, platform-2000, virtual) x 2000
        assertEquals(7, rows.size());
        List<Row> talk = rows.stream().filter(r -> "talk".equals(r.params().get("variant"))).toList();
        assertEquals(List.of("platform-200", "platform-2000", "virtual"), talk.stream().map(r -> r.threadMode()
                + (r.params().containsKey("maxThreads") ? "-" + r.params().get("maxThreads") : "")).toList());
        assertEquals(List.of(2000.0, 20000.0, 20000.0), talk.stream().map(Row::boundRps).toList());
        assertEquals("2000", talk.get(1).sutEnv().get("TOMCAT_MAX_THREADS"));
        assertEquals(2000, talk.get(1).expectInfo().get("max_threads"));
        Row article = rows.stream().filter(r -> "article".equals(r.params().get("variant")) && r.threadMode().equals("virtual")
                && r.concurrency() == 1000).findFirst().orElseThrow();
        assertEquals(20000.0, article.boundRps(), 1e-9); // 1,000 connections / 50 ms
        assertEquals("/sleep?ms=50", Stack.load("spring-mvc").workload("sleep").pathFor(article.params()));
        assertNull(article.hikariPool(), "the pool is no axis of the sleep rows");
        assertEquals(2, plan(new SpringSleepExperiment(), "--variants", "talk", "--modes", "platform", "--reps", "1").size());
    }

    @Test
    void springSleepOnJettyIsTheStarterSwapWithItsOwnBounds() throws Exception {
        List<Row> rows = plan(new SpringSleepExperiment(), "--reps", "1", "--server", "jetty", "--variants", "talk");
        assertTrue(rows.stream().allMatch(r -> r.stack().equals("spring-jetty")), rows.toString());
        Row virtual = find(rows, "virtual", 2000);
        // Boot 4.1's Jetty runs virtual threads on a VirtualThreadPool capped at server.jetty.threads.max (200):
        // 200 / 100 ms, where Tomcat's virtual threads are bounded only by the 2,000 connections
        assertEquals(2000.0, virtual.boundRps(), 1e-9);
        assertEquals("200", virtual.sutEnv().get("JETTY_MAX_THREADS"));
        assertEquals(200, virtual.expectInfo().get("max_threads"));
        assertEquals("spring-jetty", virtual.expectInfo().get("stack"));
        assertEquals(20000.0, find(plan(new SpringSleepExperiment(), "--reps", "1", "--variants", "talk"), "virtual", 2000).boundRps(), 1e-9);
        assertEquals(List.of("tomcat", "jetty"), SpringRig.SERVER.choices());
    }

    @Test
    void theRowsExpectationsMatchWhatTheSutReports() throws Exception {
        Row v = find(plan(new OrderSummaryExperiment(), "--quick"), "virtual", 100);
        Map<String, Object> info = new LinkedHashMap<>(v.expectInfo());
        info.put("pid", 42);
        var json = new ObjectMapper().valueToTree(info);
        assertTrue(Verifier.mismatches(json, v.expectInfo()).isEmpty());
        info.put("hikari_pool", 10);
        assertEquals(List.of("hikari_pool=10 (expected 50)"), Verifier.mismatches(new ObjectMapper().valueToTree(info), v.expectInfo()));
    }

    @Test
    void theConcurrencyLimitIsOffByDefaultAndVerifiedAtAnyValue() throws Exception {
        Stack mvc = Stack.load("spring-mvc");
        ObjectMapper json = new ObjectMapper();
        for (String limit : new String[] {null, "200"}) {
            Stack.Config c = mvc.configure("virtual", "sleep", limit == null ? Settings.NONE : Settings.NONE.with("concurrencyLimit", limit), 25);
            int want = limit == null ? 0 : 200;
            assertEquals(Integer.toString(want), c.env().get("CONCURRENCY_LIMIT"));
            assertEquals(want, c.expectInfo().get("concurrency_limit"));
            // runtime-info reports the gate's limit as a number
            Map<String, Object> info = new LinkedHashMap<>(c.expectInfo());
            assertTrue(Verifier.mismatches(json.valueToTree(info), c.expectInfo()).isEmpty());
            info.put("concurrency_limit", want == 0 ? 200 : 0);
            assertEquals(List.of("concurrency_limit=" + (want == 0 ? 200 : 0) + " (expected " + want + ")"),
                    Verifier.mismatches(json.valueToTree(info), c.expectInfo()));
        }
        assertThrows(UsageError.class, () -> mvc.configure("virtual", "sleep", Settings.NONE.with("concurrencyLimit", "lots"), 25));
    }

    // ---- the words of findings

    static Map<String, String> row(String mode, int conc, Integer pool, double rps, String status, double appCpu) {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("experiment", "x");
        r.put("thread_mode", mode);
        r.put("concurrency", Integer.toString(conc));
        r.put("hikari_pool", pool == null ? "" : pool.toString());
        r.put("conn_mode", "released");
        r.put("throughput_rps", Double.toString(rps));
        r.put("p99_ms", "100");
        r.put("status", status);
        r.put("params", "orderId=random;delayMs=100" + (mode.equals("platform") ? ";maxThreads=200" : ""));
        r.put("app_cpu_pct", Double.toString(appCpu));
        r.put("app_cpus", "0");
        r.put("load_cpu_pct", "20");
        r.put("load_cpus", "1");
        return r;
    }

    @Test
    void cpuLoadsNameTheTiersOnEachCpu() {
        Map<String, String> r = row("virtual", 1000, 50, 1000, "ok", 95);
        r.put("load_cpu_pct", "40");
        r.put("pg_cpu_pct", "30");
        r.put("stub_cpu_pct", "25");
        List<SpringRig.CpuLoad> loads = SpringRig.cpuLoads(vtlab.data.DataRow.of(r), Map.of("pg", "1", "stub", "1"), 2);
        assertEquals("CPU 0 (app 95.0%)", loads.getFirst().words());
        assertEquals("CPU 1 (load 40.0% + pg 30.0% + stub 25.0% = 95.0%)", loads.get(1).words());
        assertTrue(loads.stream().allMatch(SpringRig.CpuLoad::saturated));
        // a tier on two CPUs counts half on each
        r.put("app_cpus", "0-1");
        r.put("app_cpu_pct", "150");
        r.put("load_cpu_pct", "");
        r.put("pg_cpu_pct", "");
        r.put("stub_cpu_pct", "");
        List<SpringRig.CpuLoad> spread = SpringRig.cpuLoads(vtlab.data.DataRow.of(r), Map.of(), 2);
        assertEquals(75.0, spread.getFirst().busyPct(), 1e-9);
        assertFalse(spread.getFirst().saturated());
    }

    @Test
    void orderSummaryFindingsQuoteThePlateauAndIgnoreRowsThatAreNotOk() {
        List<Map<String, String>> rows = List.of(
                row("platform", 100, 50, 950, "ok", 40), row("platform", 500, 50, 1900, "ok", 60),
                row("platform", 1000, 50, 1950, "ok", 65),
                row("virtual", 100, 50, 960, "ok", 40), row("virtual", 500, 50, 4700, "ok", 80),
                row("virtual", 1000, 50, 9000, "ok", 97), row("virtual", 2500, 50, 31000, "flagged", 99));
        String f = String.join("\n", OrderSummaryExperiment.findingsOf(vtlab.data.DataRow.numbered(rows)));
        assertTrue(f.contains("platform plateaus at 1,950 req/s for concurrency [500, 1000] (200 Tomcat threads): 98% of 200 / 100 ms = 2,000 req/s; the shortfall is query time and overhead (at c=1000: no CPU saturated; busiest CPU 0 (app 65.0%))"), f);
        assertTrue(f.contains("c=1000: virtual 9,000 req/s = 4.62x platform (1,950 req/s), above the platform wall of 2,000 req/s; saturated: CPU 0 (app 97.0%)"), f);
        assertFalse(f.contains("31,000"), "a flagged row is no evidence: " + f);
        assertTrue(f.contains("1 row(s) not ok"), f);
    }

    @Test
    void poolBottleneckFindingsFollowThePoolAndNameTheTierWhereItStops() {
        List<Map<String, String>> rows = new ArrayList<>();
        rows.add(row("virtual", 2000, 50, 480, "ok", 30));
        rows.add(row("virtual", 2000, 100, 950, "ok", 45));
        rows.add(row("virtual", 2000, 200, 1900, "ok", 80));
        rows.add(row("virtual", 2000, 400, 2000, "ok", 97));
        rows.add(row("platform", 2000, 100, 940, "ok", 40));
        rows.add(row("platform", 2000, 200, 1880, "ok", 70));
        rows.add(row("platform", 2000, 400, 1900, "ok", 72));
        String f = String.join("\n", PoolBottleneckExperiment.findingsOf(vtlab.data.DataRow.numbered(rows)));
        assertTrue(f.contains("virtual throughput follows the pool: pool 100 = 1.98x pool 50"), f);
        assertTrue(f.contains("virtual stops following the pool above pool 200 (1,900 req/s -> 2,000 req/s at pool 400)"
                + ": the bottleneck moved to CPU 0 (app 97.0%), saturated"), f);
        assertTrue(f.contains("platform stops rising once the pool exceeds its 200 threads: pool 200 1,880 req/s, pool 400 1,900 req/s (+1%)"), f);
    }

    @Test
    void springSleepFindingsCompareEachConfigurationWithThe200ThreadPool() {
        List<Map<String, String>> rows = new ArrayList<>();
        for (String[] c : new String[][] {{"platform", "200", "1900"}, {"platform", "2000", "15000"}, {"virtual", null, "18000"}}) {
            Map<String, String> r = row(c[0], 2000, null, Double.parseDouble(c[2]), "ok", 50);
            r.put("params", "variant=talk;sleepMs=100" + (c[1] == null ? "" : ";maxThreads=" + c[1]));
            r.put("bound_rps", c[1] != null && c[1].equals("200") ? "2000" : "20000");
            rows.add(r);
        }
        String f = String.join("\n", SpringSleepExperiment.findingsOf(vtlab.data.DataRow.numbered(rows)));
        assertTrue(f.contains("talk, c=2000: platform-200 1,900 req/s (95% of its bound 2,000 req/s)"), f);
        assertTrue(f.contains("talk, c=2000: virtual 18,000 req/s (90% of its bound 20,000 req/s) = 9.47x platform-200"), f);
    }

    /** The plan is parsed through the declarations: what `vtlab list` shows as default (and --quick's) is what runs. */
    @Test
    void orderSummaryPlansItsDeclaredDefaultsAndRefusesUnknownOptions() throws Exception {
        OrderSummaryExperiment e = new OrderSummaryExperiment();
        Map<String, vtlab.core.Opt> declared = e.options().stream().collect(Collectors.toMap(vtlab.core.Opt::name, d -> d));
        for (boolean quick : List.of(false, true)) {
            List<Row> rows = quick ? plan(e, "--quick", "--downstream-http", "http1") : plan(e, "--downstream-http", "http1");
            vtlab.core.Opt conc = declared.get("conc");
            List<Integer> expected = java.util.Arrays.stream((quick ? conc.quickDflt() : conc.dflt()).split(",")).map(Integer::valueOf).toList();
            assertEquals(expected, rows.stream().map(Row::concurrency).distinct().toList());
            assertEquals(List.of("platform", "virtual"), rows.stream().map(Row::threadMode).distinct().toList());
            for (Row r : rows) {
                assertEquals(Integer.valueOf(declared.get("pool").dflt()), r.hikariPool());
                assertEquals(declared.get("delay-ms").dflt(), r.sutEnv().get("DOWNSTREAM_DELAY_MS"));
                // the connector limit no experiment sets: stack.json's default
                assertEquals(Stack.load("spring-mvc").dflt("maxConnections"), r.sutEnv().get("TOMCAT_MAX_CONNECTIONS"));
            }
            assertEquals(quick ? 1 : 3, rows.stream().mapToInt(Row::rep).max().orElseThrow());
        }
        Options o = vtlab.cli.Main.parse(List.of("run", "order-summary", "--pools", "50"));
        assertEquals(List.of("pools"), vtlab.planning.LabOptions.unknown(o, List.of(e)));
        UsageError u = assertThrows(UsageError.class, () -> vtlab.cli.RunCommand.prepare(o, List.of("order-summary")));
        assertEquals("option --pools is not known to order-summary (see ./vtlab list)", u.getMessage());
    }
}
