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

/**
 * The servlet stack's access log of a 5:3:2 mix, imported and replayed, end to end: the scenario that wrote the log
 * runs in the open model under a rate profile; ./vtlab init --from-log --pace logged writes its scenario (generator
 * vegeta) and the log's baseline beside it; the replay prints its fidelity to the log (the mix, the rate per second,
 * the gaps between arrivals, the values), its mix within 1 percentage point, and a fidelity threshold sets the exit
 * code (0 when it holds, 99 when it cannot). The same imported mix run closed with no threshold prints each request's
 * p50/p99, and adding a threshold of one request leaves the whole load's threshold judged on the same generator.
 */
class ScenarioReplayIT {
    @TempDir
    Path dir;

    static final String SOURCE = """
            name = "made"

            [service]
            stack = "servlet"
            env = { ACCESS_LOG = "LOGS" }

            [load]
            rate-profile = "120@0s,300@2s,160@4s"
            max-in-flight = 400
            warmup = "1s"
            warmup-max = "0s"
            hold = "6s"

            [run]
            modes = ["virtual"]
            probes = ["cpu"]

            [[requests]]
            name = "hello"
            path = "/hello"
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
            ms = { from = 1, to = 5 }
            n = { from = 100, to = 120 }
            """;

    record Ran(int exit, String console, Path run, List<Map<String, String>> rows) {}

    Ran run(List<String> args) throws Exception {
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(args);
        all.addAll(List.of("--port", Integer.toString(Lab.freePort())));
        Path console = Files.createTempFile(dir, "console", ".txt");
        Process lab = Lab.cli(all).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        assertTrue(lab.waitFor(180, TimeUnit.SECONDS), "run finished: " + Files.readString(console));
        Path run = Lab.onlyRun(Path.of(all.get(all.indexOf("--out") + 1)));
        return new Ran(lab.exitValue(), Files.readString(console), run, Lab.rows(run));
    }

    /** The imported file with these thresholds in its [slo] (init writes them commented out). */
    static void withThresholds(Path file, Path to, String... thresholds) throws Exception {
        StringBuilder t = new StringBuilder("thresholds = [\n");
        for (String x : thresholds) t.append("  \"").append(x).append("\",\n");
        String text = Files.readString(file).replaceFirst("(?s)thresholds = \\[\n.*?\n]\n", java.util.regex.Matcher.quoteReplacement(t + "]\n"));
        Files.writeString(to, text);
    }

    @Test
    void aReplayOfTheServletsLogPrintsItsFidelityAndAFidelityThresholdSetsTheExitCode() throws Exception {
        Path logs = dir.resolve("logs");
        Path source = dir.resolve("made.toml");
        Files.writeString(source, SOURCE.replace("LOGS", logs.toString()));
        Ran made = run(List.of(source.toString(), "--out", dir.resolve("made").toString()));
        assertFalse(vtlab.data.DataRow.of(made.rows().getFirst()).failed(), made.console());
        Path log;
        try (var files = Files.list(logs)) {
            log = files.filter(f -> f.getFileName().toString().startsWith("access_log")).findFirst().orElseThrow();
        }

        // the log imported: its mix, values, rate a second at a time, the generator named and the baseline beside
        Path imported = dir.resolve("imported/replay.toml");
        assertEquals(0, vtlab.cli.Main.run(List.of("init", "--stack", "servlet", "--from-log", log.toString(), "--pace", "logged", "--out", imported.toString()),
                new java.io.PrintStream(new java.io.ByteArrayOutputStream())));
        String text = Files.readString(imported);
        assertTrue(text.contains("generator = \"vegeta\"") && text.contains("baseline = \"replay-baseline.json\""), text);
        assertTrue(Files.isRegularFile(dir.resolve("imported/replay-baseline.json")));

        // replayed at its logged pace, open model: the fidelity printed; the mix within 1 point holds, exit 0
        Path passing = dir.resolve("imported/pass.toml");
        withThresholds(imported, passing, "fidelity_mix_pp < 1");
        Ran replay = run(List.of(passing.toString(), "--modes", "virtual", "--out", dir.resolve("replay").toString()));
        Map<String, String> row = replay.rows().getFirst();
        assertFalse(vtlab.data.DataRow.of(row).failed(), replay.console());
        assertEquals("vegeta", row.get("generator"));
        assertEquals("open", row.get("load_model"));
        assertTrue(replay.console().contains(": fidelity to the log ("), replay.console());
        assertTrue(replay.console().contains("the gaps between arrivals (at 1 s, the log's clock) KS "), "the servlet's log stamps whole seconds: " + replay.console());
        assertTrue(replay.console().contains("vtlab: threshold fidelity_mix_pp < 1: passed (virtual rate="), replay.console());
        assertTrue(replay.console().contains("judged on vegeta"), replay.console());
        assertEquals(0, replay.exit(), replay.console());
        // the numbers themselves, from summary.json and summary.txt: the mix within 1 point, what was sent read from vegeta's results
        var fidelity = new com.fasterxml.jackson.databind.ObjectMapper().readTree(replay.run().resolve("summary.json").toFile()).path("scenario_fidelity").get(0);
        System.out.println("vtlab IT: replay of the servlet's log: " + fidelity.path("line").asText());
        assertTrue(fidelity.path("fidelity_mix_pp").asDouble(99) < 1, fidelity.toString());
        assertTrue(fidelity.path("fidelity_gaps_ks").isNumber() && fidelity.path("fidelity_values_ks").isNumber(), fidelity.toString());
        assertTrue(Files.readString(replay.run().resolve("summary.txt")).contains("fidelity to the log"), "in summary.txt");
        assertTrue(Files.readString(replay.run().resolve("report.html")).contains("fidelity to the log"), "in the report");
        long sent = Lab.vegetaResults(replay.run().resolve("raw"), row.get("raw").replace(".vegeta.txt", "")).size();
        assertTrue(fidelity.path("line").asText().startsWith("fidelity to the log (" + sent + " sends)"), fidelity + " against " + sent + " results");

        // a fidelity threshold that cannot hold: exit 99, named with what was measured
        Path failing = dir.resolve("imported/fail.toml");
        withThresholds(imported, failing, "fidelity_mix_pp < 0");
        Ran breached = run(List.of(failing.toString(), "--modes", "virtual", "--out", dir.resolve("breached").toString()));
        assertFalse(vtlab.data.DataRow.of(breached.rows().getFirst()).failed(), breached.console());
        assertEquals(99, breached.exit(), breached.console());
        assertTrue(breached.console().contains("vtlab: threshold fidelity_mix_pp < 0: FAILED (virtual rate="), breached.console());

        // the same mix closed, no threshold: each request's p50/p99 from vegeta, named up front in the file
        Path closed = dir.resolve("imported/closed.toml");
        withThresholds(imported, closed, "error_rate < 5%");
        Ran whole = run(List.of(closed.toString(), "--modes", "virtual", "--conc", "8", "--warmup", "1s", "--warmup-max", "0s", "--hold", "3s", "--out", dir.resolve("closed").toString()));
        Map<String, String> closedRow = whole.rows().getFirst();
        assertEquals("vegeta", closedRow.get("generator"));
        assertEquals("closed", closedRow.get("load_model"));
        assertTrue(whole.console().matches("(?s).*: per request \\(vegeta\\): hello p50 [0-9.]+ p99 [0-9.]+ ms, sleep p50 [0-9.]+ p99 [0-9.]+ ms, bytes p50 .*"),
                whole.console());
        // a threshold of one request added: the whole load's threshold judged on the same generator as before
        Path perName = dir.resolve("imported/closed-per-name.toml");
        withThresholds(imported, perName, "error_rate < 5%", "p99_ms[virtual, hello] <= 60000");
        Ran named = run(List.of(perName.toString(), "--modes", "virtual", "--conc", "8", "--warmup", "1s", "--warmup-max", "0s", "--hold", "3s", "--out", dir.resolve("named").toString()));
        assertEquals(closedRow.get("generator"), named.rows().getFirst().get("generator"));
        for (Ran r : List.of(whole, named)) {
            if (!vtlab.data.DataRow.of(r.rows().getFirst()).ok()) continue; // a flagged row is not judged: said so, checked elsewhere
            assertTrue(r.console().matches("(?s).*vtlab: threshold error_rate < 5%: passed \\(virtual c=8 [^\n]*; judged on vegeta\\).*"), r.console());
        }
    }
}
