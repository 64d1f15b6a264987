package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.probe.PathsProbe;

/**
 * ./vtlab run FILE.toml end to end on the servlet stack: three weighted requests (one path's value drawn from a CSV
 * file, one from a range) sent in the closed model by vegeta, the scenario's default (-rate=0, a worker per
 * connection, one attacker fed the weights' cycle), as one mix, counted at the SUT (runtime-info's requests_by_path)
 * within 2% of the weights, each request's p50/p99/p99.9 and errors from its own histogram; a failing per-name
 * threshold exits 99 and the JUnit file names it, a passing one passes; the run folder's scenario.toml, its failing
 * threshold removed, runs the same rows with the same parameters again with wrk named beside it (the mix by its Lua
 * hook, counted at the SUT), where the per-name threshold is said not measured apart, naming wrk, and fails. The same
 * mix in the open model with a spike goes to vegeta by default (an attacker per request and rate level), and the SUT
 * counts the weights too, each request with its p99 and a per-name threshold judged.
 */
class ScenarioIT {
    @TempDir
    Path dir;

    static final String FILE = """
            name = "it-mix"

            [service]
            stack = "servlet"

            [load]
            conc = [16]
            warmup = "2s"
            warmup-max = "0s"
            hold = "3s"

            [run]
            modes = ["virtual"]
            probes = ["cpu"]

            [slo]
            thresholds = [
              "error_rate < 1%",
              "p99_ms[virtual, sleep] <= 0.001",
              "p99_ms[virtual, hello] <= 60000",
            ]

            [[requests]]
            name = "hello"
            path = "/hello"
            expect-body = "Hello World"
            weight = 5

            [[requests]]
            name = "sleep"
            path = "/sleep?ms={ms}"
            weight = 3

            [[requests]]
            name = "bytes"
            path = "/bytes?n={n}"
            weight = 2

            [values]
            ms = { from = 1, to = 3 }
            n = { csv = "data/sizes.csv", column = "n" }
            """;

    /** A run: its exit code, console, run folder, rows, and the JUnit file it was asked for (null: none). */
    record Ran(int exit, String console, Path run, List<Map<String, String>> rows, Path junit) {}

    Ran run(List<String> args) throws Exception {
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(args);
        all.addAll(List.of("--port", Integer.toString(Lab.freePort())));
        Path console = Files.createTempFile(dir, "console", ".txt");
        Process lab = Lab.cli(all).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        assertTrue(lab.waitFor(120, TimeUnit.SECONDS), "run finished: " + Files.readString(console));
        Path run = Lab.onlyRun(Path.of(all.get(all.indexOf("--out") + 1)));
        int j = all.indexOf("--junit");
        return new Ran(lab.exitValue(), Files.readString(console), run, Lab.rows(run), j < 0 ? null : Path.of(all.get(j + 1)));
    }

    /** A scenario's thresholds rest on its one row: evidence or not, as the lab judges it. */
    static Evidence.Judged onlyRowClaim(Ran r) {
        Evidence e = Evidence.of(r.rows());
        return e.judge(Evidence.Part.variant("the row", e.all()));
    }

    /**
     * The lab's refusal, when the row is still not evidence after a second run: no threshold passes or breaches on it;
     * each says it was not measured and names the row with why (console, and the JUnit file when asked for).
     */
    static void notMeasured(Ran r, String xml) {
        String why = onlyRowClaim(r).why();
        System.out.println("vtlab IT: scenario: the row is not evidence on this machine (" + why + "); asserting the thresholds' refusal");
        assertTrue(r.exit() != 0, "a threshold not measured does not pass: exit " + r.exit() + "\n" + r.console());
        assertTrue(r.console().contains(": FAILED (not measured: no ok row with numbers for ") && r.console().contains("not judged, not valid evidence: "), r.console());
        assertFalse(r.console().contains(": passed ("), "nothing passes on a row that is not evidence: " + r.console());
        if (xml != null) assertTrue(xml.contains("not valid evidence"), xml);
    }

    @Test
    void aWeightedMixFromACsvRunsWithThresholdsAndRepeatsFromItsRunFolder() throws Exception {
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data/sizes.csv"), "n,label\n10,ten\n100,hundred\n1000,thousand\n");
        Path file = dir.resolve("mix.toml");
        Path logs = dir.resolve("logs");
        // the servlet stack writes its access log (Tomcat's AccessLogValve, common): imported below
        Files.writeString(file, FILE.replace("stack = \"servlet\"\n", "stack = \"servlet\"\nenv = { ACCESS_LOG = \"" + logs + "\" }\n"));
        // the thresholds judge ok rows only: when the row is not evidence the lab runs once more, and if it is still
        // not, each threshold must say it was not measured (the row named with why) rather than pass or breach
        Ran first = Evidence.rerunOnce("weighted mix", n -> run(List.of(file.toString(), "--out", dir.resolve("out1-" + n).toString(),
                "--junit", dir.resolve("junit-" + n + ".xml").toString())), ScenarioIT::onlyRowClaim);
        Path junit = first.junit();
        Path run = first.run();
        List<Map<String, String>> rows = Lab.rows(run);
        assertEquals(1, rows.size(), first.console());
        Map<String, String> row = rows.getFirst();
        assertFalse(vtlab.data.DataRow.of(row).failed(), Lab.describe(row));
        // the mix as the SUT received it in the hold, per path, and per request name in the row: within 2% of the weights
        Map<String, Long> byPath = PathsProbe.parse(Lab.cell(row, "sut_requests_by_path"));
        assertEquals(java.util.Set.of("/hello", "/sleep", "/bytes"), byPath.keySet(), "paths at the SUT: " + byPath);
        Map<String, Long> byName = PathsProbe.parse(Lab.cell(row, "sut_requests_by_name"));
        long total = byName.values().stream().mapToLong(Long::longValue).sum();
        assertEquals(byPath.values().stream().mapToLong(Long::longValue).sum(), total, byName + " " + byPath);
        assertTrue(total > 500, "requests at the SUT: " + byName);
        Map<String, Double> weights = Map.of("hello", 0.5, "sleep", 0.3, "bytes", 0.2);
        assertEquals(weights.keySet(), byName.keySet(), "requests at the SUT: " + byName);
        for (var w : weights.entrySet()) {
            double share = byName.get(w.getKey()) / (double) total;
            assertTrue(Math.abs(share - w.getValue()) <= 0.02, w.getKey() + ": " + share + " of " + total + " requests, weight " + w.getValue());
        }
        String xml = Files.readString(junit);
        // closed model, vegeta: each request apart in the row, from its own histogram, in the open model's columns
        assertEquals("vegeta", row.get("generator"));
        assertEquals("closed", row.get("load_model"));
        perRequest(run, row);
        Map<String, String> vegetaCounts = vtlab.load.LoadResult.byRequest(Lab.cell(row, "http_reqs_by_request"));
        long answered = Lab.whole(row, "http_reqs");
        for (var w : weights.entrySet()) { // the sends hold the weights as vegeta counted them too (its one shared cycle)
            double share = Long.parseLong(vegetaCounts.get(w.getKey())) / (double) answered;
            assertTrue(Math.abs(share - w.getValue()) <= 0.02, w.getKey() + ": " + share + " of " + answered + " answers, weight " + w.getValue());
            // vegeta's answers of a name are the service's own count of that name's path, within the 16 in flight at the
            // hold's edges (measured: equal): a split that mixed the names up would be off by thousands
            assertTrue(Math.abs(Long.parseLong(vegetaCounts.get(w.getKey())) - byName.get(w.getKey())) <= 16,
                    w.getKey() + ": vegeta " + vegetaCounts + ", the SUT " + byName);
        }
        if (onlyRowClaim(first).call() == Evidence.Call.CLAIM) {
            assertEquals(99, first.exit(), first.console());
            // the failing per-name threshold, named in the JUnit file with what was measured; the passing ones test cases without failure
            assertTrue(xml.contains("tests=\"3\" failures=\"1\""), xml);
            assertTrue(xml.contains("<failure type=\"threshold\" message=\"p99_ms[virtual, sleep] &lt;= 0.001: virtual sleep c=16 "), xml);
            assertTrue(xml.contains("name=\"error_rate &lt; 1%\">\n      <system-out>"), xml);
            assertTrue(first.console().contains("vtlab: threshold p99_ms[virtual, hello] <= 60000: passed (virtual hello c=16 "), first.console());
            assertTrue(first.console().contains("vtlab: threshold p99_ms[virtual, sleep] <= 0.001: FAILED (virtual sleep c=16 "), first.console());
        } else {
            notMeasured(first, xml);
        }
        assertTrue(first.console().contains("hello 50.0% (weight 50.0%)") || first.console().contains("the mix at the SUT"), first.console());

        // the log the service wrote, imported: the three templates at the mix's weights within 1 percentage point
        Path log;
        try (var files = Files.list(logs)) {
            log = files.filter(f -> f.getFileName().toString().startsWith("access_log")).findFirst().orElseThrow();
        }
        Path imported = dir.resolve("imported/from-log.toml");
        assertEquals(0, vtlab.cli.Main.run(List.of("init", "--stack", "servlet", "--from-log", log.toString(), "--out", imported.toString()),
                new java.io.PrintStream(new java.io.ByteArrayOutputStream())));
        var fromLog = vtlab.experiment.scenario.Scenario.read(imported, vtlab.experiment.scenario.ScenarioExperiment.metrics());
        Map<String, Integer> importedWeights = new java.util.HashMap<>();
        fromLog.mix().entries().forEach(e -> importedWeights.put(e.name(), e.weight()));
        for (var w : Map.of("hello", 5000, "sleep", 3000, "bytes", 2000).entrySet()) {
            assertTrue(Math.abs(importedWeights.getOrDefault(w.getKey(), 0) - w.getValue()) <= 100, w.getKey() + ": " + importedWeights);
        }
        assertEquals("/sleep?ms={ms}", fromLog.mix().pathsByName().get("sleep"));

        // the run folder's file repeats the run: the same rows with the same parameters, its failing threshold removed and
        // wrk named beside it: wrk sends the mix (the SUT counts it), but measures the whole load only, so the per-name
        // threshold is said not measured apart, naming wrk, and fails (exit 99): never passed, never dropped silently
        Path saved = run.resolve("scenario.toml");
        assertTrue(Files.isRegularFile(run.resolve("data/sizes.csv")), "the CSV beside the saved file");
        String savedText = Files.readString(saved);
        assertTrue(savedText.contains("\"p99_ms[virtual, sleep] <= 0.001\""), savedText);
        Files.writeString(saved, savedText.replace("\"p99_ms[virtual, sleep] <= 0.001\", ", "").replace("  \"p99_ms[virtual, sleep] <= 0.001\",\n", ""));
        Ran again = Evidence.rerunOnce("weighted mix, repeated with wrk", n -> run(List.of(saved.toString(), "--generator", "wrk",
                "--out", dir.resolve("out2-" + n).toString())), ScenarioIT::onlyRowClaim);
        Map<String, String> wrkRow = Lab.rows(again.run()).getFirst();
        assertEquals("wrk", wrkRow.get("generator"));
        assertEquals("", wrkRow.getOrDefault("p99_ms_by_request", ""), "wrk measures the whole load only");
        Map<String, Long> wrkByName = PathsProbe.parse(Lab.cell(wrkRow, "sut_requests_by_name"));
        long wrkTotal = wrkByName.values().stream().mapToLong(Long::longValue).sum();
        for (var w : weights.entrySet()) {
            double share = wrkByName.get(w.getKey()) / (double) wrkTotal;
            assertTrue(Math.abs(share - w.getValue()) <= 0.02, "wrk: " + w.getKey() + ": " + share + " of " + wrkTotal + " requests, weight " + w.getValue());
        }
        assertFalse(again.console().contains("p99_ms[virtual, sleep]"), "the removed threshold is gone: " + again.console());
        assertFalse(again.console().contains("threshold p99_ms[virtual, hello] <= 60000: passed"), again.console());
        if (onlyRowClaim(again).call() == Evidence.Call.CLAIM) {
            assertEquals(99, again.exit(), again.console());
            assertTrue(again.console().contains("vtlab: threshold p99_ms[virtual, hello] <= 60000: FAILED (not measured: ")
                    && again.console().contains("virtual hello c=16 rep 1 not measured apart (generator wrk measures the whole load only"), again.console());
            assertTrue(again.console().contains("vtlab: threshold error_rate < 1%: passed"), again.console());
        } else {
            notMeasured(again, null);
        }
        List<Map<String, String>> rows2 = Lab.rows(again.run());
        assertEquals(rows.stream().map(r -> r.get("scenario")).toList(), rows2.stream().map(r -> r.get("scenario")).toList());
        for (String col : List.of("experiment", "stack", "thread_mode", "workload", "concurrency", "params", "jdk", "warmup_s", "hold_s")) {
            if (row.containsKey(col)) assertEquals(row.get(col), rows2.getFirst().get(col), col);
        }
    }

    /**
     * Each request of the mix apart in a row (either model): its answers adding up to the row's, its histogram in raw/
     * holding as many, its p99 that histogram's (so a histogram missing or another request's would show), and sleep
     * (1-3 ms) slower than its floor; the declared columns name the three in the file's order.
     */
    static void perRequest(Path run, Map<String, String> row) throws Exception {
        Map<String, String> answered = vtlab.load.LoadResult.byRequest(Lab.cell(row, "http_reqs_by_request"));
        assertEquals(List.of("hello", "sleep", "bytes"), List.copyOf(answered.keySet()), row.get("http_reqs_by_request"));
        assertEquals(Lab.whole(row, "http_reqs"), answered.values().stream().mapToLong(Long::parseLong).sum(), "the requests' own add up to the row's");
        Map<String, String> p99 = vtlab.load.LoadResult.byRequest(Lab.cell(row, "p99_ms_by_request"));
        Map<String, String> errors = vtlab.load.LoadResult.byRequest(Lab.cell(row, "errors_by_request"));
        for (String col : List.of("p50_ms_by_request", "p999_ms_by_request", "attempted_by_request")) {
            assertEquals(answered.keySet(), vtlab.load.LoadResult.byRequest(Lab.cell(row, col)).keySet(), col);
        }
        assertEquals(answered.keySet(), errors.keySet());
        for (var e : vtlab.load.LoadResult.byRequest(Lab.cell(row, "histogram_by_request")).entrySet()) {
            var h = vtlab.data.LatencyHistogram.read(run.resolve("raw").resolve(e.getValue()));
            assertEquals(Long.parseLong(answered.get(e.getKey())), h.getTotalCount(), e.getKey());
            assertEquals(vtlab.data.LatencyHistogram.ms(h, 99), Double.parseDouble(p99.get(e.getKey())), 0.001, e.getKey() + " p99 from its own histogram");
        }
        assertTrue(Double.parseDouble(p99.get("sleep")) >= 1.0, "sleep sleeps 1-3 ms: " + row.get("p99_ms_by_request"));
    }

    /**
     * The mix in the open model with a spike (150 req/s, 300 from 2 s): no generator named, so vegeta sends it, each
     * request its own attacker per rate level (3 requests x 2 levels); the SUT counts the weights within 2%, and the
     * row's rate is the profile's mean.
     */
    @Test
    void anOpenMixWithASpikeGoesToVegetaAtItsWeights() throws Exception {
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data/sizes.csv"), "n,label\n10,ten\n100,hundred\n1000,thousand\n");
        Path file = dir.resolve("open.toml");
        Files.writeString(file, FILE.replace("conc = [16]", "rate-profile = \"150@0s,300@2s\"\nmax-in-flight = 400").replace("hold = \"3s\"", "hold = \"4s\"")
                .replace("  \"p99_ms[virtual, sleep] <= 0.001\",\n", "  \"error_rate[virtual, bytes] < 1%\",\n"));
        Ran ran = Evidence.rerunOnce("open mix", n -> run(List.of(file.toString(), "--out", dir.resolve("out-" + n).toString())), ScenarioIT::onlyRowClaim);
        boolean judged = onlyRowClaim(ran).call() == Evidence.Call.CLAIM;
        if (judged) assertEquals(0, ran.exit(), ran.console());
        else notMeasured(ran, null);
        Path run = ran.run();
        Map<String, String> row = Lab.rows(run).getFirst();
        assertFalse(vtlab.data.DataRow.of(row).failed(), Lab.describe(row));
        assertEquals("vegeta", row.get("generator"));
        assertEquals("open", row.get("load_model"));
        assertEquals((2 * 150 + 2 * 300) / 4.0, Lab.num(row, "target_rps"), 0.01, "the profile's mean");
        String stem = row.get("raw").replace(".vegeta.txt", "");
        try (var files = Files.list(run.resolve("raw"))) {
            assertEquals(6, files.filter(f -> f.getFileName().toString().matches(java.util.regex.Pattern.quote(stem) + "\\.vegeta\\.\\d+\\.bin")).count(),
                    "an attacker per request and rate level");
        }
        Map<String, Long> byName = PathsProbe.parse(Lab.cell(row, "sut_requests_by_name"));
        long total = byName.values().stream().mapToLong(Long::longValue).sum();
        assertTrue(total > 700, "requests at the SUT: " + byName);
        for (var w : Map.of("hello", 0.5, "sleep", 0.3, "bytes", 0.2).entrySet()) {
            double share = byName.get(w.getKey()) / (double) total;
            assertTrue(Math.abs(share - w.getValue()) <= 0.02, w.getKey() + ": " + share + " of " + total + " requests, weight " + w.getValue());
        }
        // vegeta's own records: every request sent was one of the mix's, by its attacker's name
        Map<String, Long> sent = new java.util.TreeMap<>();
        for (var r : Lab.vegetaResults(run.resolve("raw"), stem)) sent.merge(r.path("attack").asText(), 1L, Long::sum);
        assertEquals(java.util.Set.of("hello", "sleep", "bytes"), sent.keySet(), sent.toString());
        // each request apart in the row, from its own histogram; per-name thresholds held against them
        perRequest(run, row);
        if (judged) {
            assertTrue(ran.console().contains("vtlab: threshold p99_ms[virtual, hello] <= 60000: passed (virtual hello rate="), ran.console());
            assertTrue(ran.console().contains("vtlab: threshold error_rate[virtual, bytes] < 1%: passed"), ran.console());
        }
    }
}
