package vtlab.experiment.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Thresholds held against matrix.csv's rows, per load point, the reps' mean; and the JUnit report of them. */
class ThresholdTest {
    /** Rows as matrix.csv reads them back, numbered in this order. */
    static List<vtlab.data.DataRow> typed(List<Map<String, String>> rows) {
        return vtlab.data.DataRow.numbered(rows);
    }

    static final Map<String, String> METRICS = Map.of("p99_ms", "ms", "error_rate", "ratio", "throughput_rps", "req/s");

    static Map<String, String> row(String mode, int c, double rps, double p99, double err) {
        return Map.of("thread_mode", mode, "concurrency", Integer.toString(c), "target_rps", "", "status", "ok",
                "throughput_rps", Double.toString(rps), "p99_ms", Double.toString(p99), "error_rate", Double.toString(err));
    }

    static final List<Map<String, String>> ROWS = List.of(
            row("platform", 50, 1000, 80, 0), row("virtual", 50, 1300, 60, 0), row("virtual", 50, 1100, 90, 0.0005),
            row("platform", 200, 1000, 300, 0), row("virtual", 200, 1150, 120, 0));

    @Test
    void aLimitHoldsAtEveryLoadPointOnTheRepsMean() {
        Threshold.Outcome o = Threshold.parse("p99_ms[virtual] <= 100", METRICS).evaluate(typed(ROWS));
        assertFalse(o.passed());
        assertEquals("virtual c=50 75 (limit 100); virtual c=200 120 (limit 100) BREACHED", o.detail());
        assertTrue(Threshold.parse("p99_ms[virtual] <= 120", METRICS).evaluate(typed(ROWS)).passed());
    }

    @Test
    void withoutAModeEveryModeIsHeldAndAPercentIsARatio() {
        Threshold.Outcome o = Threshold.parse("error_rate < 0.1%", METRICS).evaluate(typed(ROWS));
        assertTrue(o.passed(), o.detail());
        assertEquals(4, o.measured().size());
        assertFalse(Threshold.parse("error_rate < 0.01%", METRICS).evaluate(typed(ROWS)).passed());
    }

    @Test
    void aComparisonIsAgainstTheOtherModeAtTheSameLoadPoint() {
        Threshold.Outcome o = Threshold.parse("throughput_rps[virtual] >= 1.2 * throughput_rps[platform]", METRICS).evaluate(typed(ROWS));
        assertEquals("virtual c=50 1200 (limit 1200); virtual c=200 1150 (limit 1200) BREACHED", o.detail());
        assertFalse(o.passed());
    }

    @Test
    void failedRowsDoNotCountAndNothingMeasuredFails() {
        List<Map<String, String>> failed = List.of(Map.of("thread_mode", "virtual", "concurrency", "50", "status", "failed", "p99_ms", ""));
        Threshold.Outcome o = Threshold.parse("p99_ms[virtual] <= 100", METRICS).evaluate(typed(failed));
        assertFalse(o.passed());
        assertEquals("not measured: no ok row with numbers for p99_ms[virtual]; not judged, not valid evidence: virtual c=50 failed", o.detail());
    }

    /** A flagged row's numbers are no evidence: left out of the mean, and named in the threshold's line. */
    @Test
    void aFlaggedRowIsNeverJudgedAndTheLineSaysSo() {
        Map<String, String> flagged = new java.util.HashMap<>(row("virtual", 50, 400, 20, 0));
        flagged.putAll(Map.of("status", "flagged", "flags", "littles-law-low;warmup-not-steady", "rep", "2"));
        List<Map<String, String>> rows = new java.util.ArrayList<>(ROWS);
        rows.add(flagged);
        Threshold.Outcome o = Threshold.parse("p99_ms[virtual] <= 100", METRICS).evaluate(typed(rows));
        assertEquals("virtual c=50 75 (limit 100); virtual c=200 120 (limit 100) BREACHED; not judged, not valid evidence:"
                + " virtual c=50 rep 2 flagged (littles-law-low)", o.detail(), "the flagged row's p99 of 20 would have made c=50's mean 56.7");
        Threshold.Outcome only = Threshold.parse("p99_ms[virtual] <= 100", METRICS).evaluate(typed(List.of(flagged)));
        assertFalse(only.passed(), "a flagged row alone passes nothing");
        assertTrue(only.detail().startsWith("not measured: no ok row"), only.detail());
        assertEquals(List.of(), Threshold.parse("p99_ms[platform] <= 100", METRICS).evaluate(typed(rows)).notJudged(), "another mode's row is not this threshold's");
        assertEquals(1, Threshold.parse("throughput_rps[platform] >= 0.5 * throughput_rps[virtual]", METRICS).evaluate(typed(rows)).notJudged().size(),
                "a comparison reads the other mode's rows too");
    }

    @Test
    void aPercentIsOfARatioOnly() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Threshold.parse("p99_ms < 5%", METRICS));
        assertEquals("'p99_ms < 5%': a % is written on a ratio (error_rate), and p99_ms is in ms: write p99_ms < 5 without %", e.getMessage());
        assertEquals(0.05, Threshold.parse("error_rate <= 5%", METRICS).value(), 1e-12);
    }

    @Test
    void aBadThresholdSaysWhatItTakes() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Threshold.parse("p99 < 1", METRICS)).getMessage().startsWith("no metric 'p99'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Threshold.parse("throughput_rps >= 1.2 * throughput_rps", METRICS))
                .getMessage().contains("names the mode of each side"));
    }

    @Test
    void theJunitReportHasATestCasePerThresholdAndTheMeasuredValueInTheFailure() {
        List<Threshold.Outcome> outcomes = List.of(Threshold.parse("p99_ms[virtual] <= 100", METRICS).evaluate(typed(ROWS)),
                Threshold.parse("error_rate < 0.1%", METRICS).evaluate(typed(ROWS)));
        String xml = ScenarioReport.junit("shop", outcomes);
        assertTrue(xml.contains("<testsuite name=\"vtlab scenario shop\" tests=\"2\" failures=\"1\""), xml);
        assertTrue(xml.contains("<testcase classname=\"vtlab.scenario.shop\" name=\"p99_ms[virtual] &lt;= 100\">\n      <failure type=\"threshold\" "
                + "message=\"p99_ms[virtual] &lt;= 100: virtual c=50 75 (limit 100); virtual c=200 120 (limit 100) BREACHED\">"), xml);
        assertTrue(xml.contains("<testcase classname=\"vtlab.scenario.shop\" name=\"error_rate &lt; 0.1%\">\n      <system-out>"), xml);
        String md = ScenarioReport.markdown("shop", 99, outcomes, typed(ROWS), List.of());
        assertTrue(md.startsWith("## vtlab scenario shop: thresholds breached (exit code 99)"), md);
        assertTrue(md.contains("| `p99_ms[virtual] <= 100` | **failed** | virtual c=50 75 (limit 100); virtual c=200 120 (limit 100) BREACHED |"), md);
    }

    @Test
    void theMixIsCountedPerRequestFromTheSutsPaths() {
        List<ScenarioExperiment.Named> q = List.of(new ScenarioExperiment.Named("owner", "/owners/{id}", 5),
                new ScenarioExperiment.Named("find", "/owners?last={n}", 3), new ScenarioExperiment.Named("home", "/", 2));
        Map<String, Long> counts = ScenarioExperiment.countsByRequest(q, Map.of("/owners/1", 30L, "/owners/2", 20L, "/owners", 30L, "/", 20L));
        assertEquals(Map.of("owner", 50L, "find", 30L, "home", 20L), counts);
        assertEquals("the mix at the SUT (100 requests): owner 50.0% (weight 50.0%), find 30.0% (weight 30.0%), home 20.0% (weight 20.0%)",
                ScenarioExperiment.shares(q, "/owners/1=30;/owners/2=20;/owners=30;/=20"));
    }

    /** A rep's row of a mix measured per request (vegeta): its request's p99, errors, attempts and histogram file. */
    static Map<String, String> mixRow(String mode, String p99, String errors, String attempted, String hlogs) {
        return Map.of("thread_mode", mode, "concurrency", "10", "target_rps", "200.0", "status", "ok", "p99_ms_by_request", p99,
                "errors_by_request", errors, "attempted_by_request", attempted, "histogram_by_request", hlogs);
    }

    /**
     * p99 of one request over two reps is that of their histograms merged: rep 1 answered checkout 98 times in 10 ms and
     * twice in 500 ms, rep 2 100 times in 10 ms; merged, 2 of 200 are slow, so p99 is 10 ms (the mean of the reps'
     * p99s, 255 ms, would breach); the error rate is the reps' errors over their attempts.
     */
    @Test
    void aRequestNamesPercentileIsItsRepsHistogramsMergedExactly(@org.junit.jupiter.api.io.TempDir java.nio.file.Path raw) throws Exception {
        org.HdrHistogram.Histogram a = vtlab.data.LatencyHistogram.empty(), b = vtlab.data.LatencyHistogram.empty();
        for (int i = 0; i < 98; i++) vtlab.data.LatencyHistogram.recordSeconds(a, 0.010);
        for (int i = 0; i < 2; i++) vtlab.data.LatencyHistogram.recordSeconds(a, 0.500);
        for (int i = 0; i < 100; i++) vtlab.data.LatencyHistogram.recordSeconds(b, 0.010);
        vtlab.data.LatencyHistogram.write(a, raw.resolve("r1.vegeta.checkout.hlog"));
        vtlab.data.LatencyHistogram.write(b, raw.resolve("r2.vegeta.checkout.hlog"));
        List<Map<String, String>> rows = List.of(
                mixRow("virtual", "home=5.000;checkout=500.000", "home=0;checkout=3", "home=300;checkout=100", "home=r1.vegeta.home.hlog;checkout=r1.vegeta.checkout.hlog"),
                mixRow("virtual", "home=5.000;checkout=10.000", "home=0;checkout=1", "home=300;checkout=100", "home=r2.vegeta.home.hlog;checkout=r2.vegeta.checkout.hlog"));
        Threshold p99 = Threshold.parse("p99_ms[virtual, checkout] <= 150", METRICS);
        Threshold.Outcome merged = p99.evaluate(typed(rows), raw);
        assertTrue(merged.passed(), merged.detail());
        assertEquals(10.0, merged.measured().getFirst().value(), 0.05, merged.detail());
        assertEquals("virtual checkout rate=200.0", merged.measured().getFirst().where());
        Threshold.Outcome meanOnly = p99.evaluate(typed(rows));
        assertFalse(meanOnly.passed(), "without the histograms, the reps' p99s averaged: " + meanOnly.detail());
        assertEquals(255.0, meanOnly.measured().getFirst().value(), 1e-9);
        Threshold.Outcome err = Threshold.parse("error_rate[virtual, checkout] < 1%", METRICS).evaluate(typed(rows), raw);
        assertEquals(4 / 200.0, err.measured().getFirst().value(), 1e-12);
        assertFalse(err.passed());
        // a request no row measured apart (wrk, k6): not measured, so it fails and says why
        Threshold.Outcome none = Threshold.parse("p99_ms[virtual, home] <= 150", METRICS).evaluate(typed(ROWS), raw);
        assertFalse(none.passed());
        assertTrue(none.detail().startsWith("not measured: no ok row with numbers for p99_ms[virtual, home] (a request name's numbers come from a generator"), none.detail());
        // a rep whose histogram is missing cannot be merged exactly: not measured
        assertFalse(Threshold.parse("p99_ms[virtual, home] <= 150", METRICS).evaluate(typed(rows), raw).passed());
    }

    /**
     * A closed-model point measured by wrk (the whole load only) beside one measured by vegeta: wrk's row is named not
     * judged with its generator, never dropped silently, and vegeta's point is judged; with wrk's rows alone the
     * threshold is not measured and fails.
     */
    @Test
    void aRowWithoutTheRequestsOwnNumbersIsNamedNotJudgedWithItsGenerator(@org.junit.jupiter.api.io.TempDir java.nio.file.Path raw) throws Exception {
        org.HdrHistogram.Histogram fast = vtlab.data.LatencyHistogram.empty();
        for (int i = 0; i < 100; i++) vtlab.data.LatencyHistogram.recordSeconds(fast, 0.010);
        vtlab.data.LatencyHistogram.write(fast, raw.resolve("r1.vegeta.checkout.hlog"));
        Map<String, String> vegeta = new java.util.HashMap<>(mixRow("virtual", "checkout=10.000", "checkout=0", "checkout=100", "checkout=r1.vegeta.checkout.hlog"));
        vegeta.remove("target_rps");
        vegeta.put("concurrency", "16");
        vegeta.put("generator", "vegeta");
        Map<String, String> wrk = Map.of("thread_mode", "virtual", "concurrency", "50", "rep", "1", "status", "ok", "p99_ms", "12.0", "generator", "wrk");
        Threshold t = Threshold.parse("p99_ms[virtual, checkout] <= 150", METRICS);
        Threshold.Outcome o = t.evaluate(typed(List.of(vegeta, wrk)), raw);
        assertEquals(1, o.measured().size(), o.detail());
        assertEquals("virtual checkout c=16", o.measured().getFirst().where());
        assertEquals(List.of("virtual checkout c=50 rep 1 not measured apart (generator wrk measures the whole load only; vegeta measures each request,"
                + " in both models)"), o.notJudged(), o.detail());
        Threshold.Outcome only = t.evaluate(typed(List.of(wrk)), raw);
        assertFalse(only.passed());
        assertTrue(only.detail().startsWith("not measured: ") && only.detail().contains("not measured apart (generator wrk"), only.detail());
        Threshold.Outcome errors = Threshold.parse("error_rate[virtual, checkout] < 1%", METRICS).evaluate(typed(List.of(vegeta, wrk)), raw);
        assertEquals(1, errors.notJudged().size(), errors.detail());
    }

    /**
     * A load point whose request histogram a rep lacks cannot be merged exactly: it is not judged, and the threshold's
     * line names it and why, as it names a flagged row, rather than passing on the other load points alone.
     */
    @Test
    void aLoadPointWithoutItsRequestHistogramIsNamedNotJudged(@org.junit.jupiter.api.io.TempDir java.nio.file.Path raw) throws Exception {
        org.HdrHistogram.Histogram fast = vtlab.data.LatencyHistogram.empty();
        for (int i = 0; i < 100; i++) vtlab.data.LatencyHistogram.recordSeconds(fast, 0.010);
        vtlab.data.LatencyHistogram.write(fast, raw.resolve("r1.vegeta.checkout.hlog"));
        vtlab.data.LatencyHistogram.write(fast, raw.resolve("r2.vegeta.checkout.hlog"));
        Map<String, String> at400 = new java.util.HashMap<>(mixRow("virtual", "checkout=900.000", "checkout=0", "checkout=100", "checkout=r3.vegeta.checkout.hlog"));
        at400.put("target_rps", "400.0");
        at400.put("rep", "1");
        List<Map<String, String>> rows = List.of(
                mixRow("virtual", "checkout=10.000", "checkout=0", "checkout=100", "checkout=r1.vegeta.checkout.hlog"),
                mixRow("virtual", "checkout=10.000", "checkout=0", "checkout=100", "checkout=r2.vegeta.checkout.hlog"), at400);
        Threshold.Outcome o = Threshold.parse("p99_ms[virtual, checkout] <= 150", METRICS).evaluate(typed(rows), raw);
        assertEquals(1, o.measured().size(), o.detail());
        assertEquals(List.of("virtual checkout rate=400.0 without its histogram (rep 1: r3.vegeta.checkout.hlog missing), so its reps"
                + " cannot be merged"), o.notJudged(), o.detail());
        assertTrue(o.detail().startsWith("virtual checkout rate=200.0 10.007 (limit 150); not judged"), o.detail());
    }

    static Map<String, String> withGenerator(Map<String, String> row, String generator) {
        Map<String, String> out = new java.util.HashMap<>(row);
        out.put("generator", generator);
        return out;
    }

    /** Each threshold's result names the generator its numbers are of; rows of two generators are never compared. */
    @Test
    void aResultNamesItsGeneratorAndAComparisonAcrossGeneratorsIsRefused() {
        List<Map<String, String>> vegeta = ROWS.stream().map(r -> withGenerator(r, "vegeta")).toList();
        Threshold.Outcome o = Threshold.parse("p99_ms[virtual] <= 120", METRICS).evaluate(typed(vegeta));
        assertEquals("virtual c=50 75 (limit 120); virtual c=200 120 (limit 120); judged on vegeta", o.detail());
        assertEquals(List.of("vegeta"), o.generators());
        // platform measured by wrk, virtual by vegeta: the ratio is refused, named, and the threshold fails unmeasured
        List<Map<String, String>> mixed = ROWS.stream().map(r -> withGenerator(r, r.get("thread_mode").equals("platform") ? "wrk" : "vegeta")).toList();
        Threshold.Outcome across = Threshold.parse("throughput_rps[virtual] >= 1.2 * throughput_rps[platform]", METRICS).evaluate(typed(mixed));
        assertFalse(across.passed());
        assertEquals(2, across.notJudged().size(), across.detail());
        assertTrue(across.detail().contains("virtual c=50 refused: its rows were measured by different generators (wrk, vegeta)"), across.detail());
        // each mode held on its own rows: one generator each, named
        Threshold.Outcome each = Threshold.parse("p99_ms <= 1000", METRICS).evaluate(typed(mixed));
        assertTrue(each.passed(), each.detail());
        assertTrue(each.detail().endsWith("judged on wrk, vegeta"), each.detail());
    }

    /** A replay's fidelity is of what the load sent: a row flagged for the service's sake is judged on it too, a failed one not. */
    @Test
    void aFidelityThresholdJudgesFlaggedRowsButNotFailedOnes() {
        Map<String, String> flagged = new java.util.HashMap<>(withGenerator(row("virtual", 20, 1000, 80, 0), "vegeta"));
        flagged.put("status", "flagged");
        flagged.put("flags", "busy-machine");
        flagged.put("fidelity_mix_pp", "0.4");
        Map<String, String> failed = new java.util.HashMap<>(withGenerator(row("virtual", 40, 0, 0, 0), "vegeta"));
        failed.put("status", "failed");
        Map<String, String> metrics = new java.util.HashMap<>(METRICS);
        metrics.put("fidelity_mix_pp", "pp");
        Threshold.Outcome o = Threshold.parse("fidelity_mix_pp < 1", metrics).evaluate(typed(List.of(flagged, failed)));
        assertTrue(o.passed(), o.detail());
        assertEquals("virtual c=20 0.4 (limit 1); judged on vegeta; not judged, not valid evidence: virtual c=40 failed", o.detail());
        assertFalse(Threshold.parse("p99_ms < 1000", metrics).evaluate(typed(List.of(flagged))).passed(), "the service's numbers: not on a flagged row");
    }
}
