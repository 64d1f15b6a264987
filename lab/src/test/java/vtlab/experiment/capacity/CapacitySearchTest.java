package vtlab.experiment.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleFunction;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.data.DataRow;
import vtlab.plan.Search;

/** The search's stepping, replayed on rows shaped as matrix.csv holds them. */
class CapacitySearchTest {
    static final String SLO = "p99<100ms,errors<0.1%";

    /** A step's row: ok or flagged, its p99, its flags. */
    static DataRow step(String mode, double rate, double p99, String flags) {
        return DataRow.of(cells(mode, rate, p99, flags));
    }

    /** A step's cells, to change before reading them as a row. */
    static Map<String, String> cells(String mode, double rate, double p99, String flags) {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("experiment", "capacity");
        r.put("thread_mode", mode);
        r.put("workload", "sleep");
        r.put("concurrency", "10000");
        r.put("jdk", "25");
        r.put("load_model", "open");
        r.put("target_rps", Double.toString(rate));
        r.put("p99_ms", Double.toString(p99));
        r.put("error_rate", "0");
        r.put("flags", flags);
        r.put("status", flags.contains("rate-not-held") || flags.contains("generator-bound") ? "flagged" : "ok");
        r.put("params", "sleepMs=50;" + ("platform".equals(mode) ? "maxThreads=200;" : "") + "capacityOf=servlet;slo=" + SLO);
        r.put("bound_note", "open model: capacity 200 pool threads / 50 ms");
        r.put("app_cpu_pct", "97");
        r.put("load_cpu_pct", "40");
        return r;
    }

    /** Runs the search against a modelled server: p99 as a function of the rate. */
    static List<DataRow> replay(String mode, double from, double max, DoubleFunction<DataRow> server) {
        List<DataRow> rows = new ArrayList<>();
        Double rate;
        while ((rate = CapacitySearch.nextRate(rows, from, max)) != null) {
            rows.add(server.apply(rate));
            assertTrue(rows.size() < 30, "the search ends");
        }
        return rows;
    }

    @Test
    void coarseDoublingThenBisectionToWithinFivePercent() {
        // a platform pool: fine up to 3,900 req/s, then the queue grows (p99 in seconds), overloaded above 4,000
        List<DataRow> rows = replay("platform", 1000, 64000, r -> step("platform", r, r <= 3900 ? 60 : 1500,
                r > 4000 ? "overloaded" : ""));
        assertEquals(List.of(1000.0, 2000.0, 4000.0, 3000.0, 3500.0, 3750.0, 3875.0), CapacitySearch.rates(rows));
        assertEquals("capacity 3,875 req/s", CapacitySearch.result(rows));
        double lo = 3875, hi = 4000;
        assertTrue((hi - lo) / lo <= CapacitySearch.PRECISION);
    }

    @Test
    void aFirstStepThatFailsHalvesUntilOnePasses() {
        List<DataRow> rows = replay("platform", 8000, 64000, r -> step("platform", r, r <= 1500 ? 60 : 900, ""));
        assertEquals(List.of(8000.0, 4000.0, 2000.0, 1000.0, 1500.0, 1750.0, 1625.0, 1563.0), CapacitySearch.rates(rows));
        assertEquals("capacity 1,500 req/s", CapacitySearch.result(rows));
    }

    @Test
    void theSearchStopsAtTheMaxRateAndWhereTheGeneratorSaturates() {
        assertEquals(List.of(1000.0, 2000.0, 3000.0), CapacitySearch.rates(replay("virtual", 1000, 3000, r -> step("virtual", r, 55, ""))));
        List<DataRow> gen = replay("virtual", 4000, 64000, r -> step("virtual", r, r < 16000 ? 55 : 70,
                r >= 16000 ? "rate-not-held;generator-bound" : ""));
        assertEquals(List.of(4000.0, 8000.0, 16000.0), CapacitySearch.rates(gen), "no bisection below a generator limit");
        assertTrue(CapacitySearch.limit(gen.getLast()).startsWith("the generator"), CapacitySearch.limit(gen.getLast()));
        assertNull(CapacitySearch.nextRate(List.of(step("virtual", 5, 900, "")), 5, 100), "below 10 req/s: no rate meets it");
    }

    @Test
    void overloadedStepsFailWhateverTheirLatencyAndTheSentenceNamesTheLimit() throws Exception {
        assertTrue(!CapacitySearch.passes(step("platform", 4400, 80, "overloaded")), "a queue that grows is not sustained");
        List<DataRow> rows = new ArrayList<>();
        rows.addAll(replay("platform", 1000, 64000, r -> step("platform", r, r <= 3900 ? 60 : 1500, r > 4000 ? "overloaded" : "")));
        rows.addAll(replay("virtual", 1000, 64000, r -> step("virtual", r, r <= 14000 ? 70 : 400, r > 14000 ? "app-cpu-bound" : "")));
        List<String> findings = capacity().findings(rows.stream().map(DataRow::cells).toList());
        assertEquals(1, findings.size(), findings.toString());
        String f = findings.getFirst();
        assertTrue(f.contains("platform-200 sustains 3,875 req/s"), f);
        assertTrue(f.contains("virtual sustains 14,000 req/s (3.61x)"), f);
        assertTrue(f.contains("platform-200: latency, with no CPU saturated (p99 1500 ms breaks p99 < 100 ms)"), f);
        assertTrue(f.contains("virtual: the SUT's CPU"), f);
    }

    /** A latency limit with no CPU saturated names the SUT's longest stop-the-world pause when the gc probe read one. */
    @Test
    void aLatencyLimitNamesTheLongestPause() {
        Map<String, String> r = cells("virtual", 9000, 152, "");
        r.put("app_cpu_pct", "50");
        assertEquals("latency, with no CPU saturated (p99 152 ms breaks p99 < 100 ms)", CapacitySearch.limit(DataRow.of(r)), "no gc probe, no pause named");
        r.put("stw_max_ms", "156.689");
        r.put("stw_max_cause", "SerialCollectForAllocation");
        r.put("gc_pauses", "4");
        assertEquals("latency, with no CPU saturated (p99 152 ms breaks p99 < 100 ms), its longest stop-the-world pause 157 ms"
                + " (SerialCollectForAllocation, 4 GC pauses in the hold)", CapacitySearch.limit(DataRow.of(r)));
    }

    /** As the registry has it: it searches the other experiments there. */
    static CapacityExperiment capacity() throws UsageError {
        return (CapacityExperiment) vtlab.experiment.registry.Experiments.byName("capacity");
    }

    @Test
    void planningRefusesTheClosedAxesAndABadSlo() throws Exception {
        PlanContext ctx = PlanContext.from(vtlab.cli.Main.parse(List.of()));
        CapacityExperiment c = capacity();
        for (List<String> bad : List.of(List.of("--conc", "400"), List.of("--rates", "2000"), List.of("--slo", "p99>3ms"),
                List.of("--of", "thread-cost"), List.of("--of", "nope"), List.of("--from", "0"), List.of("--from", "5000", "--max-rate", "100"))) {
            assertThrows(UsageError.class, () -> c.searches(vtlab.cli.Main.parse(bad), ctx), bad.toString());
        }
        List<Search> searches = c.searches(vtlab.cli.Main.parse(List.of()), ctx);
        assertEquals(2, searches.size(), "servlet sleep: platform and virtual");
        Row first = searches.getFirst().next(List.of());
        assertEquals(1000.0, first.rate());
        assertEquals("capacity", first.experiment());
        assertEquals("sleep", first.workload());
        assertEquals(SLO, first.params().get(CapacityExperiment.SLO_PARAM));
        assertEquals(4000.0, first.boundRps(), 1e-9, "platform: 200 threads / 50 ms");
    }

    /** A base with no sleep workload (servlet-io: count, call) is searched at its own default, not refused for sleep. */
    @Test
    void aBaseWithoutASleepWorkloadIsSearchedAtItsOwnDefault() throws Exception {
        List<String> args = List.of("--of", "servlet-io", "--quick");
        List<Search> searches = capacity().searches(vtlab.cli.Main.parse(args), PlanContext.from(vtlab.cli.Main.parse(args)));
        assertFalse(searches.isEmpty());
        for (Search s : searches) assertNotEquals("sleep", s.next(List.of()).workload());
        assertThrows(UsageError.class, () -> capacity().searches(vtlab.cli.Main.parse(List.of("--of", "servlet-io", "--workloads", "sleep")),
                PlanContext.from(vtlab.cli.Main.parse(List.of()))), "sleep given by hand is still refused by servlet-io");
    }
}
