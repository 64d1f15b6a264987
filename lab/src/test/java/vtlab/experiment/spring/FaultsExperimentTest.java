package vtlab.experiment.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.FaultAxis;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;

class FaultsExperimentTest {
    final FaultsExperiment e = new FaultsExperiment();

    /** The rows as ./vtlab run plans them: the experiment's, then its fault schedules applied. */
    List<Row> plan(String... args) throws Exception {
        Options o = vtlab.cli.Main.parse(List.of(args));
        return FaultAxis.apply(e.plan(o, PlanContext.from(o)), e.faults(o));
    }

    @Test
    void threeModesEachUnderEveryDefaultFaultAndASpike() throws Exception {
        List<Row> rows = plan();
        assertEquals(3 * 4, rows.size(), "platform, virtual, virtual-limit x (3 faults + 1 spike)");
        assertEquals(List.of("platform", "virtual", "virtual-limit"), rows.stream().map(Row::threadMode).distinct().toList());
        List<String> faults = rows.stream().filter(r -> r.threadMode().equals("virtual")).map(r -> r.params().getOrDefault("fault", "spike")).toList();
        assertEquals(List.of("stub:latency=1900ms@10s-30s", "stub:down@10s-20s", "db:lock@10s-15s", "spike"), faults);
        for (Row r : rows) {
            assertTrue(r.open(), "a constant open-model rate");
            assertEquals(Duration.ofSeconds(60), r.hold());
            assertEquals(FaultsExperiment.CAP, r.concurrency(), "the in-flight cap");
            if (r.rateProfile() == null) assertEquals(200.0, r.rate());
            else assertEquals("200@0s,1000@10s,200@20s", r.rateProfile().spec());
        }
        Row limited = rows.stream().filter(r -> r.threadMode().equals("virtual-limit")).findFirst().orElseThrow();
        assertEquals("200", limited.sutEnv().get("CONCURRENCY_LIMIT"));
        assertEquals("true", limited.sutEnv().get("VT_ENABLED"), "the limit is on virtual threads");
        assertEquals("200", String.valueOf(limited.expectInfo().get("concurrency_limit")), "verified through runtime-info");
        Row plain = rows.stream().filter(r -> r.threadMode().equals("virtual")).findFirst().orElseThrow();
        assertEquals("0", plain.sutEnv().get("CONCURRENCY_LIMIT"));
        assertEquals(List.of("pg", "stub", "toxiproxy"), rows.getFirst().tiers(), "latency goes through the proxy");
        assertEquals("vegeta", e.generator());
        assertTrue(e.freshSutPerRow());
        assertTrue(e.probes(List.of("cpu")).containsAll(List.of("cpu", "jvm", "hikari")));
    }

    @Test
    void aSoakRowPerModeKeepsItsHoldAndNoFault() throws Exception {
        List<Row> rows = plan("--modes", "virtual", "--spike", "none", "--fault", "none", "--soak", "30m");
        assertEquals(2, rows.size(), rows.toString());
        Row soak = rows.stream().filter(r -> r.params().containsKey("soak")).findFirst().orElseThrow();
        assertEquals(Duration.ofMinutes(30), soak.hold());
        assertEquals("none", soak.params().get("fault"));
    }

    /**
     * --quick keeps a hold of its own (24 s) with the default schedules scaled into it (x0.4), so a smoke run still shows
     * each fault between a before and an after: not the 5 s every other --quick hold is, which no default fault fits.
     */
    @Test
    void quickScalesTheDefaultFaultsAndSpikeIntoItsOwnHold() throws Exception {
        List<Row> rows = plan("--quick");
        assertEquals(3 * 4, rows.size(), "the same axes as without --quick");
        List<String> faults = rows.stream().filter(r -> r.threadMode().equals("virtual")).map(r -> r.params().getOrDefault("fault", "spike")).toList();
        assertEquals(List.of("stub:latency=1900ms@4s-12s", "stub:down@4s-8s", "db:lock@4s-6s", "spike"), faults);
        for (Row r : rows) {
            assertEquals(Duration.ofSeconds(24), r.hold(), r.label());
            assertEquals(Duration.ofSeconds(3), r.warmup(), r.label());
            assertEquals(1, r.rep());
            if (r.rateProfile() != null) assertEquals("200@0s,1000@4s,200@8s", r.rateProfile().spec());
        }
        // the scale is the holds' ratio, applied to every time of the defaults (the latency's amount stays)
        for (int i = 0; i < FaultsExperiment.DEFAULT_FAULTS.size(); i++) {
            var full = vtlab.tier.fault.Fault.parse(FaultsExperiment.DEFAULT_FAULTS.get(i)).getFirst();
            var quick = vtlab.tier.fault.Fault.parse(faults.get(i)).getFirst();
            assertEquals(full.fromS() * 24 / 60, quick.fromS(), 1e-9, faults.get(i));
            assertEquals(full.toS() * 24 / 60, quick.toS(), 1e-9, faults.get(i));
            assertEquals(full.amount(), quick.amount());
        }
        // every quick fault leaves the recovery rule room after it (3 s back within the hold) and a baseline before it
        for (String f : faults.subList(0, 3)) {
            var fault = vtlab.tier.fault.Fault.parse(f).getFirst();
            assertTrue(fault.fromS() >= 3 && 24 - fault.toS() >= 3 * vtlab.check.FaultVerdict.STAY_S, f);
        }
    }

    /** A schedule the user gave is not scaled: checked against --quick's hold, refused in one line when it does not fit. */
    @Test
    void quickChecksGivenSchedulesAgainstItsHold() throws Exception {
        String spike = refusal("--quick", "--spike", "200@0s,1000@10s,200@30s");
        assertTrue(spike.startsWith("--spike: point 200@30s is beyond the 24s hold"), spike);
        assertTrue(refusal("--quick", "--fault", "stub:down@10s-30s").startsWith("--fault: fault stub:down@10s-30s ends after the 24s hold"),
                refusal("--quick", "--fault", "stub:down@10s-30s"));
        List<Row> given = plan("--quick", "--fault", "stub:down@10s-20s", "--spike", "200@0s,1000@10s,200@20s");
        assertEquals(List.of("stub:down@10s-20s"), given.stream().map(r -> r.params().get("fault")).filter(java.util.Objects::nonNull).distinct().toList(),
                "a schedule that fits runs as given");
        assertEquals("200@0s,1000@10s,200@20s", given.stream().filter(r -> r.rateProfile() != null).findFirst().orElseThrow().rateProfile().spec());
        assertEquals(Duration.ofSeconds(60), plan("--quick", "--hold", "60s").getFirst().hold(), "--hold given wins over --quick's");
        // without --quick the defaults are the 60 s hold's, and a shorter --hold refuses them as before
        assertTrue(refusal("--hold", "24s").contains("ends after the 24s hold"), refusal("--hold", "24s"));
    }

    String refusal(String... args) {
        UsageError e = assertThrows(UsageError.class, () -> plan(args));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }

    @Test
    void badOptionsAreRefusedInOneLine() {
        assertTrue(assertThrows(UsageError.class, () -> plan("--rate", "fast")).getMessage().contains("--rate"));
        assertTrue(assertThrows(UsageError.class, () -> plan("--spike", "200@5s")).getMessage().startsWith("--spike: "));
        assertTrue(assertThrows(UsageError.class, () -> plan("--limit", "0")).getMessage().contains("--limit"));
        assertTrue(assertThrows(UsageError.class, () -> plan("--fault", "stub:down@50s-70s")).getMessage().contains("ends after the 60s hold"));
        assertTrue(assertThrows(UsageError.class, () -> plan("--modes", "virtual,limited")).getMessage().contains("limited"));
    }

    @Test
    void findingsSayPerFaultWhatEachModeDidAndCompareThem() {
        List<Map<String, String>> rows = List.of(row("platform", "2000", "250", "60.5", "12"), row("virtual", "3100", "410", "0.0", ""),
                row("virtual-limit", "200", "260", "48.0", "4"));
        List<vtlab.data.Finding> found = FaultsExperiment.findingsOf(vtlab.data.DataRow.numbered(rows));
        List<String> f = vtlab.data.Finding.texts(found);
        assertTrue(f.get(0).startsWith("platform: stub:latency=1900ms@10s-30s"), f.toString());
        assertEquals(List.of(1), found.get(0).rows(), "each mode's line stands on its row");
        assertEquals(List.of(1, 2, 3), found.get(3).rows(), "the comparison on every mode's row");
        String compare = f.get(3);
        assertTrue(compare.contains("without a limit, virtual threads took 3,100 requests in flight and 410 MB of heap (platform-200: 2,000, 250 MB)"), compare);
        assertTrue(compare.contains("recovery: platform 12 s, virtual not within the hold"), compare);
        assertTrue(compare.contains("with the limit: 200 in flight, 260 MB, 48% failed, recovery 4 s"), compare);
    }

    @Test
    void aRunWithoutAFaultSaysNoFaultLinesOnlyItsSoak() {
        // as matrix.csv has them (run 20261125T204214Z-faults): no fault column value, fault=none in the params
        Map<String, String> base = row("platform", "", "", "", ""), soak = row("platform", "", "", "", "");
        base.put("fault", "");
        base.put("fault_verdict", "");
        base.put("params", "fault=none");
        soak.put("fault", "");
        soak.put("fault_verdict", "");
        soak.put("params", "fault=none;soak=10m");
        soak.put("heap_after_gc_mb", "28");
        soak.put("heap_after_gc_slope_mb_min", "0.13");
        soak.put("p99_ms", "106");
        soak.put("throughput_rps", "200");
        List<String> f = e.findings(List.of(base, soak));
        assertTrue(f.stream().noneMatch(l -> l.contains("n/a") || l.equals("platform: ")), f.toString());
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.getFirst().startsWith("soak 10m, platform: heap after GC 28 MB at the end"), f.toString());
        assertEquals(List.of("no fault row finished: nothing to conclude"), e.findings(List.of(base)));
        base.put("fault", "none"); // a row that names its fault "none" is a baseline too
        assertEquals(List.of("no fault row finished: nothing to conclude"), e.findings(List.of(base)));
    }

    static Map<String, String> row(String mode, String inFlight, String heap, String shed, String recovery) {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("thread_mode", mode);
        r.put("status", "ok");
        r.put("flags", "");
        r.put("fault", "stub:latency=1900ms@10s-30s");
        r.put("fault_verdict", "stub:latency=1900ms@10s-30s (applied 10.0-30.0 s): ...");
        r.put("peak_in_flight", inFlight);
        r.put("peak_heap_mb", heap);
        r.put("fault_shed_pct", shed);
        r.put("recovery_s", recovery);
        r.put("params", "");
        return r;
    }
}
