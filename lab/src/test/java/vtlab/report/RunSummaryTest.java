package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class RunSummaryTest {
    @TempDir
    Path tmp;

    @Test
    void theSameModeOnTwoStacksIsAVariantPerStack() throws Exception {
        RunFixture f = new RunFixture(tmp.resolve("servers"));
        f.row("servers", "virtual", 1000, null, 1, 2000, 100).put("stack", "jetty");
        f.row("servers", "virtual", 1000, null, 1, 12000, 100).put("stack", "helidon");
        f.row("servers", "virtual-pool", 1000, null, 1, 3900, 100).put("stack", "jetty");
        f.write();
        RunData d = RunData.load(f.dir);
        List<String> variants = RunSummary.of(d.rows(), d.histograms(), d.environment(), null, Map.of()).entries().stream()
                .map(RunSummary.Entry::variant).toList();
        assertEquals(List.of("jetty virtual", "helidon virtual", "jetty virtual-pool"), variants, "not one 'virtual' mixing two servers");
    }

    @Test
    void everyLineHasItsMeanIntervalRepsAndMergedPercentiles() throws Exception {
        RunFixture f = new RunFixture(tmp.resolve("run"));
        f.histogram(f.row("servlet", "virtual", 1000, null, 1, 10000, 0), "v1", 99, 50, 1, 900);
        f.histogram(f.row("servlet", "virtual", 1000, null, 2, 12000, 0), "v2", 100, 60);
        f.histogram(f.row("servlet", "virtual", 1000, null, 3, 14000, 0), "v3", 100, 70);
        f.row("servlet", "platform", 1000, null, 1, 2000, 500);
        Map<String, Object> failed = f.row("servlet", "platform", 1000, null, 2, 0, 0);
        failed.put("status", "failed");
        failed.put("note", "SUT died");
        failed.remove("throughput_rps");
        f.write();
        RunData d = RunData.load(f.dir);
        RunSummary s = RunSummary.of(d.rows(), d.histograms(), d.environment(), "p99_ms>100", Map.of(1, List.of("p99 900 ms (p99 > 100 ms)")));
        s.write(f.dir);

        JsonNode j = new ObjectMapper().readTree(f.dir.resolve("summary.json").toFile());
        assertEquals(RunSummary.SCHEMA, j.path("schema").asInt());
        assertEquals("Test CPU", j.path("environment").path("cpu_model").asText(), "the run's environment");
        assertTrue(j.path("thresholds").path("breached").asBoolean());
        assertEquals(1, j.path("thresholds").path("breaches").get(0).path("row").asInt());
        JsonNode v = j.path("scenarios").get(0);
        assertEquals("virtual", v.path("variant").asText());
        assertEquals(12000, v.path("throughput_rps").path("mean").asDouble(), 1e-9);
        // 10,000 / 12,000 / 14,000: s = 2,000, half = t(2) * 2000 / sqrt(3) = 4,968
        assertEquals(12000 - 4968.3, v.path("throughput_rps").path("ci95").get(0).asDouble(), 0.5);
        assertEquals(12000 + 4968.3, v.path("throughput_rps").path("ci95").get(1).asDouble(), 0.5);
        assertEquals(3, v.path("throughput_rps").path("reps").size());
        assertTrue(v.path("p99_ms").path("merged_histogram").asBoolean());
        // the merged histogram's p99 is 70 ms (the one 900 ms request is its p99.9); the mean of the reps' p99s would say 60
        assertEquals(70, v.path("p99_ms").path("value").asDouble(), 1);
        assertEquals(List.of("p99 900 ms (p99 > 100 ms)"), List.of(v.path("thresholds_breached").get(0).asText()));
        JsonNode p = j.path("scenarios").get(1);
        assertEquals(1, p.path("reps_ok").asInt());
        assertEquals(1, p.path("reps_failed").asInt());
        assertTrue(p.path("throughput_rps").path("ci95").isNull(), "one measured rep: no interval");
        assertEquals("SUT died", j.path("failed_rows").get(0).path("note").asText());

        // read back as written; summary.txt rendered from it
        RunSummary back = RunSummary.of(RunData.load(f.dir));
        assertEquals(s.entries().getFirst().throughput().low(), back.entries().getFirst().throughput().low(), 1e-9);
        String txt = Summary.render(back);
        assertTrue(txt.contains("95%CI±"), txt);
        assertTrue(txt.contains("41.4%"), "half the CI in % of the mean: " + txt);
        assertTrue(txt.contains("BREACHED row 1"), txt);
        assertTrue(txt.contains("FAILED"), txt);
        assertFalse(Files.readString(f.dir.resolve("summary.json")).contains("NaN"), "JSON has no NaN");
    }

    /** A fork's iterations share one JVM: one sample of the noise between JVMs, however many holds it ran. */
    @org.junit.jupiter.api.Test
    void theThroughputsIntervalIsOverForkMeans() {
        RunSummary.Stat s = RunSummary.Stat.ofForks(java.util.List.of(100.0, 102.0, 200.0, 198.0), java.util.List.of("1", "1", "2", "2"));
        org.junit.jupiter.api.Assertions.assertEquals(150.0, s.mean(), 1e-9);
        org.junit.jupiter.api.Assertions.assertEquals(4, s.reps().size(), "every row's value is kept");
        org.junit.jupiter.api.Assertions.assertEquals(98.0 / 150 * 100, s.spreadPct(), 1e-9, "the spread of the fork means, not of the rows");
        // Student's t with 1 degree of freedom over the two fork means: 150 ± 12.706 × 49 (their standard error)
        org.junit.jupiter.api.Assertions.assertEquals(150 - 12.706 * 49, s.low(), 0.1);
        // rows of a run before forks: each its own
        RunSummary.Stat old = RunSummary.Stat.ofForks(java.util.List.of(100.0, 102.0), java.util.Arrays.asList("", null));
        org.junit.jupiter.api.Assertions.assertEquals(101.0, old.mean(), 1e-9);
        org.junit.jupiter.api.Assertions.assertEquals(2.0 / 101 * 100, old.spreadPct(), 1e-9);
    }
}
