package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
        List<String> words = new ArrayList<>(List.of("init"));
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
        List<String> lines = new ArrayList<>();
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
        List<String> uneven = new ArrayList<>();
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
            List<String> args = new ArrayList<>(List.of("--stack", "servlet", "--out", g.toString()));
            args.addAll(b);
            // a UsageError: one line and exit code 2 (Main.main)
            UsageError e = assertThrows(UsageError.class, () -> init(args.toArray(String[]::new)), b.toString());
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
            assertFalse(Files.exists(g), b.toString());
            assertFalse(Files.exists(dir.resolve("bad/g-owners.csv")), b.toString());
        }
    }

    static String jwt(int i) {
        java.util.Base64.Encoder b = java.util.Base64.getUrlEncoder().withoutPadding();
        return b.encodeToString("{\"alg\":\"HS256\"}".getBytes()) + "." + b.encodeToString(("{\"sub\":\"user" + i + "\"}").getBytes()) + "."
                + b.encodeToString(("signature-of-" + i).getBytes());
    }

    /**
     * A JWT in a header-like query key, a token in a path, an e-mail in a query value: masked, said by kind with their
     * counts, in no file init wrote, sent from an environment variable the run refuses unset; a search term kept.
     */
    @Test
    void secretsAndPersonalValuesReachNoFileInitWrites() throws Exception {
        List<String> lines = new ArrayList<>();
        List<String> secrets = new ArrayList<>();
        for (int s = 0; s < 30; s++) {
            String t = "%02d".formatted(s), hex = "3f2a9c4e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a" + t, mail = "user" + s + "%40example.com";
            secrets.addAll(List.of(jwt(s), hex, "user" + s + "@example.com", mail));
            lines.add("1.2.3.4 - - [28/Nov/2026:10:00:%s +0000] \"GET /api/me?X-Auth-Token=%s HTTP/1.1\" 200 12".formatted(t, jwt(s)));
            lines.add("1.2.3.4 - - [28/Nov/2026:10:00:%s +0000] \"GET /reset/%s HTTP/1.1\" 200 12".formatted(t, hex));
            lines.add("1.2.3.4 - - [28/Nov/2026:10:00:%s +0000] \"GET /newsletter?to=%s HTTP/1.1\" 200 12".formatted(t, mail));
            lines.add("1.2.3.4 - - [28/Nov/2026:10:00:%s +0000] \"GET /search?keyword=shoes%d&author=tolkien%d&design=modern HTTP/1.1\" 200 12"
                    .formatted(t, s, s % 3));
        }
        Path log = dir.resolve("access.log");
        Files.write(log, lines);
        Path out = dir.resolve("out");
        Path f = out.resolve("s.toml");
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        assertEquals(0, Main.run(List.of("init", "--stack", "servlet", "--from-log", log.toString(), "--out", f.toString()), new PrintStream(said)));
        String text = said.toString();
        assertTrue(text.contains("masked: X_Auth_Token (query X-Auth-Token, jwt) 30, reset_id (path segment, hex token) 30, to (query to, e-mail) 30"), text);
        List<Path> written;
        try (var walk = Files.walk(out)) {
            written = walk.filter(Files::isRegularFile).toList();
        }
        assertTrue(written.size() >= 2, written.toString());
        for (Path w : written) {
            String content = Files.readString(w);
            for (String secret : secrets) assertFalse(content.contains(secret), w + " holds " + secret);
            assertFalse(content.contains("eyJ") || content.contains("example.com") || content.contains("MASKED"), w + ":\n" + content);
        }
        Scenario sc = Scenario.read(f, ScenarioExperiment.metrics());
        assertTrue(sc.mix().pathsByName().containsValue("/search?keyword={keyword}&author={author}&design=modern"), sc.mix().pathsByName().toString());
        assertTrue(((Mix.Column) sc.mix().values().get("keyword")).cells().contains("shoes7"), "a search term is kept");
        assertEquals(new Mix.Env("VTLAB_SECRET_RESET_ID", null), sc.mix().values().get("reset_id"));
        assertTrue(Files.readString(f).contains("X_Auth_Token = { env = \"VTLAB_SECRET_X_AUTH_TOKEN\" }"), Files.readString(f));
        // the run refuses it before anything starts while the variable is unset: one line naming it
        UsageError e = assertThrows(UsageError.class, () -> ScenarioRun.of(vtlab.core.Options.parse(List.of()), List.of(f.toString()),
                new PrintStream(new ByteArrayOutputStream())));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        assertTrue(e.getMessage().contains("the environment variable VTLAB_SECRET_"), e.getMessage());

        // --keep and --mask decide: the newsletter's address kept, the search's author masked
        Path g = dir.resolve("kept/s.toml");
        ByteArrayOutputStream said2 = new ByteArrayOutputStream();
        assertEquals(0, Main.run(List.of("init", "--stack", "servlet", "--from-log", log.toString(), "--keep", "to", "--mask", "author,design", "--out", g.toString()),
                new PrintStream(said2)));
        assertTrue(said2.toString().contains("author (query author, --mask) 30"), said2.toString());
        Scenario kept = Scenario.read(g, ScenarioExperiment.metrics());
        assertTrue(((Mix.Column) kept.mix().values().get("to")).cells().contains("user3%40example.com"));
        assertTrue(kept.mix().values().get("author") instanceof Mix.Env);
    }

    /** A Latin-1 line among the first 100, said; the bad input of the import's options: exit 2, one line, nothing written. */
    @Test
    void toleratedBytesAreSaidAndBadInputWritesNothing() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        for (int s = 0; s < 20; s++) {
            String ua = s == 5 ? "Se\u00f1or/1.0" : "curl/8.0";
            bytes.write(("1.2.3.4 - - [28/Nov/2026:10:00:%02d +0000] \"GET /x/%d HTTP/1.1\" 200 1 \"-\" \"%s\"\n".formatted(s, s, ua))
                    .getBytes(s == 5 ? java.nio.charset.StandardCharsets.ISO_8859_1 : java.nio.charset.StandardCharsets.UTF_8));
        }
        Path log = dir.resolve("latin1.log");
        Files.write(log, bytes.toByteArray());
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        assertEquals(0, Main.run(List.of("init", "--stack", "servlet", "--from-log", log.toString(), "--out", dir.resolve("ok.toml").toString()), new PrintStream(said)));
        assertTrue(said.toString().contains("1 lines had bytes that are not UTF-8; read with replacement"), said.toString());

        Path junk = dir.resolve("junk.log");
        Files.write(junk, new byte[] {'a', (byte) 0xe9, '\n', 'b', (byte) 0xff, '\n'});
        Path json = dir.resolve("j.log");
        Files.writeString(json, "{\"time\": \"2026-11-28T10:00:00Z\", \"method\": \"GET\", \"path\": \"/a\", \"status\": 200}\n");
        List<List<String>> bad = List.of(
                List.of("--from-log", log.toString(), "--field", "foo=bar"),
                List.of("--from-log", log.toString(), "--keep", "token", "--mask", "q,token"),
                List.of("--from-log", junk.toString()),
                List.of("--from-log", junk.toString(), "--log-format", "common"),
                List.of("--from-log", json.toString(), "--field", "path=uri"),
                List.of("--from-log", log.toString(), "--field", "time=ts", "--log-format", "combined"),
                List.of("--keep", "token"));
        List<String> expected = List.of("foo is no field of a request", "--keep and --mask both name 'token'",
                "no known access-log format (common, combined, tomcat, spring-boot, json; --log-format names one); of its first lines 2 lines had bytes that are not UTF-8",
                "2 lines had bytes that are not UTF-8", "--field path=uri: no line has that field", "--field names the fields of JSON lines",
                "--keep goes with --from-log");
        for (int i = 0; i < bad.size(); i++) {
            Path g = dir.resolve("bad/g.toml");
            List<String> args = new ArrayList<>(List.of("--stack", "servlet", "--out", g.toString()));
            args.addAll(bad.get(i));
            UsageError e = assertThrows(UsageError.class, () -> init(args.toArray(String[]::new)), bad.get(i).toString());
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
            assertTrue(e.getMessage().contains(expected.get(i)), e.getMessage());
            assertFalse(Files.exists(dir.resolve("bad")) && Files.list(dir.resolve("bad")).findAny().isPresent(), bad.get(i).toString());
        }
    }

    @Test
    void initsHelpSaysTheImportsOptions() throws Exception {
        String help = new InitCommand().help();
        for (String o : List.of("--keep", "--mask", "--field", "VTLAB_SECRET_", "nginx")) assertTrue(help.contains(o), o + " in:\n" + help);
    }
}
