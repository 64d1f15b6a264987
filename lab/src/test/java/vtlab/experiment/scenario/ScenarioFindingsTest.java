package vtlab.experiment.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario run's findings per row: each request's own p50/p99 for a mix measured apart (no threshold needed), none
 * for a generator that measures the whole load only (said once before the run), and a replay's fidelity to its log, or
 * why there is none.
 */
class ScenarioFindingsTest {
    @TempDir
    Path run;

    static Map<String, String> row(String generator, String p50, String p99) {
        Map<String, String> r = new java.util.HashMap<>(Map.of("experiment", "scenario", "thread_mode", "virtual", "concurrency", "8", "target_rps", "",
                "rep", "1", "status", "ok", "generator", generator, "raw", "r1." + generator + ".txt", "throughput_rps", "100", "p99_ms", "3"));
        r.put("p50_ms_by_request", p50);
        r.put("p99_ms_by_request", p99);
        return r;
    }

    @Test
    void eachRequestsLatencyByDefaultAndTheFidelityOrWhyNot() throws Exception {
        Path baseline = run.resolve("s-baseline.json");
        FidelityTest.log().write(baseline);
        keep(Map.of("requests", List.of(Map.of("name", "hello", "path", "/hello", "weight", 3), Map.of("name", "item", "path", "/items/{id}", "weight", 1)),
                "baseline", baseline.toString()));
        Files.createDirectories(run.resolve("raw"));
        List<vtlab.data.DataRow> rows = vtlab.data.DataRow.numbered(List.of(
                row("vegeta", "hello=0.400;item=2.000", "hello=1.100;item=9.000"), row("wrk", "", "")));
        List<String> said = new ScenarioExperiment().findings(run, rows).stream().map(vtlab.data.Finding::text).toList();
        assertTrue(said.contains("virtual c=8 rep 1: per request (vegeta): hello p50 0.400 p99 1.100 ms, item p50 2.000 p99 9.000 ms"), said.toString());
        assertEquals(1, said.stream().filter(t -> t.contains("per request")).count(), "none for wrk's row: " + said);
        assertTrue(said.contains("virtual c=8 rep 1: fidelity to the log not measured: generator wrk keeps no record of each request it sends"
                + " (vegeta does: generator = \"vegeta\")"), said.toString());
        assertTrue(said.stream().anyMatch(t -> t.startsWith("virtual c=8 rep 1: fidelity to the log not measured: vegeta's results in raw/ hold no request of r1")),
                said.toString());
    }

    /** The scenario's entry of kept.json as written is what its findings and its replay read back. */
    @Test
    void theScenariosEntryIsReadBackAsWritten() throws Exception {
        assertEquals(null, ScenarioKept.read(run), "no kept.json");
        assertEquals(List.of(), ScenarioExperiment.requests(run));
        ScenarioKept kept = new ScenarioKept("/s/a.toml", "a", List.of(new ScenarioKept.Request("hello", "/hello", 3, "GET"),
                new ScenarioKept.Request("item", "/items/{id}", 1, "POST")), List.of("p99 < 50ms"), "/s/a-baseline.json");
        keep(kept.asMap());
        assertEquals(kept, ScenarioKept.read(run));
        assertEquals(List.of(new ScenarioExperiment.Named("hello", "/hello", 3), new ScenarioExperiment.Named("item", "/items/{id}", 1)),
                ScenarioExperiment.requests(run));
        assertEquals(Map.of("hello", "/hello", "item", "/items/{id}"), kept.templates());
        ScenarioKept none = new ScenarioKept("/s/b.toml", "b", List.of(), List.of(), null);
        assertEquals(List.of("file", "name", "requests", "thresholds"), List.copyOf(none.asMap().keySet()), "no baseline key without one");
        keep(none.asMap());
        assertEquals(none, ScenarioKept.read(run));
        assertEquals(null, Replayed.of(run), "no baseline: no replay to compare");
    }

    /** A run folder written before kept.json kept the entry in its environment.json: its findings still read it. */
    @Test
    void aFolderBeforeKeptJsonIsReadFromItsEnvironment() throws Exception {
        ScenarioKept kept = new ScenarioKept("/s/a.toml", "a", List.of(new ScenarioKept.Request("hello", "/hello", 3, "GET")), List.of(), null);
        new com.fasterxml.jackson.databind.ObjectMapper().writeValue(run.resolve("environment.json").toFile(),
                Map.of("status", "complete", "scenario", kept.asMap()));
        assertEquals(kept, ScenarioKept.read(run));
        assertEquals(List.of(new ScenarioExperiment.Named("hello", "/hello", 3)), ScenarioExperiment.requests(run));
    }

    /** The scenario's entry in the run folder's kept.json, as the runner writes it. */
    private void keep(Map<String, Object> entry) throws java.io.IOException {
        vtlab.data.RunKept.planned(Map.of(ScenarioExperiment.NAME, entry), List.of()).write(new vtlab.data.RunDir(run));
    }
}
