package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.core.Opt;
import vtlab.core.UsageError;
import vtlab.experiment.ab.AbExperiment;
import vtlab.experiment.scenario.Scenario;
import vtlab.experiment.scenario.ScenarioExperiment;
import vtlab.stack.Mix;

/** ./vtlab init takes ab's options for the service and writes each into the scenario file, which reads back with them. */
class InitCommandTest {
    @TempDir
    Path dir;

    static int init(String... args) throws Exception {
        List<String> words = new java.util.ArrayList<>(List.of("init"));
        words.addAll(List.of(args));
        return Main.run(words, new PrintStream(new ByteArrayOutputStream()));
    }

    @Test
    void portIsWrittenAndReadsBack() throws Exception {
        Path f = dir.resolve("port.toml");
        assertEquals(0, init("--cmd", "java -jar x.jar", "--port", "9090", "--out", f.toString()));
        Scenario sc = Scenario.read(f, ScenarioExperiment.metrics());
        assertEquals(List.of("9090"), sc.options().get("port"));
        assertTrue(Files.readString(f).contains("\nport = 9090\n"), Files.readString(f));
        assertEquals(List.of("java -jar x.jar"), sc.options().get("cmd"));
    }

    @Test
    void everyServiceOptionOfAbIsTakenByInit() {
        java.util.Set<String> init = new InitCommand().options();
        for (Opt o : AbExperiment.serviceOptions()) assertTrue(init.contains(o.name()), "init refuses ab's --" + o.name());
        assertTrue(init.containsAll(List.of("port", "jvm-args", "stack", "out")), init.toString());
    }

    @Test
    void serviceOptionsAndUrlsBecomeTheFilesKeysAndRequests() throws Exception {
        Path f = dir.resolve("svc.toml");
        assertEquals(0, init("--cmd", "java -jar x.jar", "--port", "9091", "--env", "DB_URL=jdbc:postgresql://h:5432/db?x=1",
                "--virtual-env", "VT=on", "--platform-env", "VT=off", "--start-timeout", "90s", "--jvm-args", "-Xmx1g",
                "--dependency", "orders=127.0.0.1:9000", "--env", "ORDERS=127.0.0.1:9000",
                "--url", "/orders/42", "--url", "/health?deep=true", "--method", "POST", "--header", "Content-Type: application/json",
                "--body", "{\"a\": \"b\"}", "--expect-status", "201", "--out", f.toString()));
        Scenario sc = Scenario.read(f, ScenarioExperiment.metrics());
        assertEquals(List.of("9091"), sc.options().get("port"));
        assertEquals(List.of("DB_URL=jdbc:postgresql://h:5432/db?x=1", "ORDERS=127.0.0.1:9000"), sc.options().get("env"));
        assertEquals(List.of("VT=on"), sc.options().get("virtual-env"));
        assertEquals(List.of("VT=off"), sc.options().get("platform-env"));
        assertEquals(List.of("90s"), sc.options().get("start-timeout"));
        assertEquals(List.of("-Xmx1g"), sc.options().get("jvm-args"));
        assertEquals(List.of("orders=127.0.0.1:9000"), sc.options().get("dependency"));
        String text = Files.readString(f);
        assertFalse(text.contains("VIRTUAL = \"true\""), "the modes' switch given replaces the example's:\n" + text);
        List<Mix.Entry> requests = sc.mix().entries();
        assertEquals(List.of("/orders/42", "/health?deep=true"), requests.stream().map(Mix.Entry::path).toList());
        for (Mix.Entry e : requests) {
            assertEquals("POST", e.method());
            assertEquals(201, e.expectStatus());
            assertEquals("{\"a\": \"b\"}", e.body());
            assertEquals("Content-Type", e.headers().getFirst().name());
        }
    }

    @Test
    void badValuesAreRefusedAndNothingIsWritten() {
        Path f = dir.resolve("bad.toml");
        assertThrows(UsageError.class, () -> init("--cmd", "x", "--port", "http", "--out", f.toString()));
        assertThrows(UsageError.class, () -> init("--cmd", "x", "--env", "NOEQUALS", "--out", f.toString()));
        assertThrows(UsageError.class, () -> init("--cmd", "x", "--url", "orders", "--out", f.toString()));
        assertThrows(UsageError.class, () -> init("--cmd", "x", "--method", "POST", "--out", f.toString()));
        UsageError get = assertThrows(UsageError.class, () -> init("--cmd", "x", "--url", "/a", "--body", "b", "--out", f.toString()));
        assertTrue(get.getMessage().contains("no body"), get.getMessage());
        UsageError unknown = assertThrows(UsageError.class, () -> init("--cmd", "x", "--hold", "5s", "--out", f.toString()));
        assertTrue(unknown.getMessage().contains("--hold"), unknown.getMessage());
        assertFalse(Files.exists(f));
    }

    /** --from-log: the log's traffic written as a scenario and its CSV files, read back as run reads it; bad input: exit 2, nothing written. */
    @Test
    void anAccessLogBecomesAScenarioAndBadLogsWriteNothing() throws Exception {
        Path log = dir.resolve("access.log");
        List<String> lines = new java.util.ArrayList<>();
        for (int s = 0; s < 30; s++) {
            for (int i = 0; i < 5; i++) lines.add("1.2.3.4 - - [28/Nov/2026:10:00:%02d +0000] \"GET /owners/%d HTTP/1.1\" 200 12".formatted(s, s * 5 + i));
            lines.add("1.2.3.4 - - [28/Nov/2026:10:00:%02d +0000] \"GET /hello HTTP/1.1\" 200 12".formatted(s));
        }
        Files.write(log, lines);
        Path f = dir.resolve("out/s.toml");
        assertEquals(0, init("--stack", "servlet", "--from-log", log.toString(), "--speedup", "2", "--out", f.toString()));
        Scenario sc = Scenario.read(f, ScenarioExperiment.metrics());
        assertEquals("owners:8333+hello:1667", sc.mix().spec());
        assertEquals(List.of("12@0s"), sc.options().get("rate-profile"));
        assertEquals(List.of("15s"), sc.options().get("hold"));
        assertEquals(150, ((Mix.Column) sc.mix().values().get("owners_id")).cells().size());
        assertTrue(Files.exists(dir.resolve("out/s-owners.csv")));
        // the generator named (each request measured apart, in either model), and the log's baseline beside the file
        assertEquals(List.of("vegeta"), sc.options().get("generator"));
        assertEquals("s-baseline.json", sc.baseline());
        var baseline = vtlab.experiment.scenario.Baseline.read(sc.baselinePath());
        assertEquals(java.util.Map.of("owners", 0.8333, "hello", 0.1667), baseline.shares());
        assertEquals(30, baseline.perSecond().length, "a step per second of the log");
        assertTrue(java.util.Arrays.stream(baseline.perSecond()).allMatch(n -> n == 6), "six a second");
        assertEquals(1000, baseline.resolutionMs(), "NCSA's %t: whole seconds");
        assertEquals(2, baseline.speedup());
        assertEquals(179, baseline.gapsMs().length, "a gap between each two of 180 arrivals");
        assertEquals(150, baseline.values().get("owners_id").values().stream().mapToLong(Long::longValue).sum());
        String before = Files.readString(f);
        assertThrows(UsageError.class, () -> init("--stack", "servlet", "--from-log", log.toString(), "--out", f.toString()));
        assertEquals(before, Files.readString(f), "an existing file is never overwritten");

        // --pace logged: each second of the log at its own rate (compressed twice: a step each half second)
        Path paced = dir.resolve("paced/p.toml");
        List<String> uneven = new java.util.ArrayList<>();
        for (int sec = 0; sec < 4; sec++) for (int i = 0; i <= sec % 2 * 2; i++) uneven.add("1.2.3.4 - - [28/Nov/2026:10:00:%02d +0000] \"GET /hello HTTP/1.1\" 200 12".formatted(sec));
        Path unevenLog = dir.resolve("uneven.log");
        Files.write(unevenLog, uneven);
        assertEquals(0, init("--stack", "servlet", "--from-log", unevenLog.toString(), "--speedup", "2", "--pace", "logged", "--out", paced.toString()));
        assertEquals(List.of("2@0s,6@0.5s,2@1s,6@1.5s"), Scenario.read(paced, ScenarioExperiment.metrics()).options().get("rate-profile"));
        assertThrows(UsageError.class, () -> init("--stack", "servlet", "--pace", "logged", "--out", dir.resolve("x.toml").toString()));

        Path empty = dir.resolve("empty.log");
        Files.writeString(empty, "");
        Path junk = dir.resolve("junk.log");
        Files.writeString(junk, "a\nb\n");
        List<List<String>> bad = List.of(List.of("--from-log", empty.toString()), List.of("--from-log", junk.toString()),
                List.of("--from-log", junk.toString(), "--log-format", "combined"), List.of("--from-log", log.toString(), "--speedup", "0"),
                List.of("--from-log", log.toString(), "--log-format", "nginx"));
        for (List<String> b : bad) {
            Path g = dir.resolve("bad/g.toml");
            List<String> args = new java.util.ArrayList<>(List.of("--stack", "servlet", "--out", g.toString()));
            args.addAll(b);
            // a UsageError: one line and exit code 2 (Main.main)
            UsageError e = assertThrows(UsageError.class, () -> init(args.toArray(String[]::new)), b.toString());
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
            assertFalse(Files.exists(g), b.toString());
            assertFalse(Files.exists(dir.resolve("bad/g-owners.csv")), b.toString());
        }
    }
}
