package vtlab.experiment.scenario.accesslog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.core.UsageError;
import vtlab.stack.Mix;

/** An access log read into templates with their shares and values, its rate and its peak in flight; bad logs refused. */
class LogImportTest {
    @TempDir
    Path dir;

    static String ncsa(int second, String method, String target, int status) {
        return String.format("10.0.0.%d - alice [28/Nov/2026:10:%02d:%02d +0000] \"%s %s HTTP/1.1\" %d 123", second % 7, second / 60, second % 60,
                method, target, status);
    }

    Path log(List<String> lines) throws Exception {
        Path f = dir.resolve("access.log");
        Files.write(f, lines);
        return f;
    }

    @Test
    void templatesSharesValuesAndRateFromACommonLog() throws Exception {
        List<String> lines = new ArrayList<>();
        // 60 s, 10 requests a second: owners 5, items 3, home 2 (and a POST, a masked token, a bad line)
        for (int s = 0; s < 60; s++) {
            for (int i = 0; i < 5; i++) lines.add(ncsa(s, "GET", "/owners/" + (s * 5 + i), 200));
            for (int i = 0; i < 3; i++) lines.add(ncsa(s, "GET", "/items/550e8400-e29b-41d4-a716-44665544000" + i + "?sort=" + (i % 2 == 0 ? "asc" : "desc")
                    + "&api_key=s3cr3t" + s, 200));
            lines.add(ncsa(s, "GET", "/", 200));
            lines.add(ncsa(s, "HEAD", "/", 200));
        }
        lines.add(ncsa(0, "POST", "/owners", 201));
        lines.add("not a log line");
        LogImport.Result r = LogImport.read(log(lines), null, 1, Set.of(), "x");
        Mix m = r.requests();
        assertEquals(List.of("owners", "items", "home", "head-home"), m.entries().stream().map(Mix.Entry::name).toList());
        assertEquals(List.of(5000, 3000, 1000, 1000), m.entries().stream().map(Mix.Entry::weight).toList());
        assertEquals("/owners/{owners_id}", m.entries().getFirst().path());
        assertEquals("/items/{items_id}?sort={sort}&api_key={api_key}", m.entries().get(1).path());
        assertEquals(new Mix.Env("VTLAB_SECRET_API_KEY", null), m.values().get("api_key"), "a secret is sent from the environment");
        assertEquals("HEAD", m.entries().get(3).method());
        assertEquals(300, ((Mix.Column) m.values().get("owners_id")).cells().size());
        assertEquals("0", ((Mix.Column) m.values().get("owners_id")).cells().getFirst());
        assertEquals(List.of("items_id", "sort"), r.csv().get("x-items.csv").getFirst());
        assertTrue(r.csv().values().stream().flatMap(List::stream).flatMap(List::stream).noneMatch(c -> c.contains("s3cr3t")), "a secret is never written");
        assertEquals("10.3@0s,10@3s", r.rateProfile(), "the POST arrived in the first 3 s: 31 of its 30 replayed scaled by 600/601");
        assertEquals(60, r.holdSeconds());
        assertEquals(0, r.conc(), "common logs no durations");
        String notes = String.join("\n", r.notes());
        assertTrue(notes.contains("1 lines that did not parse, the first 'not a log line'"), notes);
        assertTrue(notes.contains("POST 1 requests"), notes);
        assertTrue(notes.contains("masked: api_key (query api_key, secret key) 180"), notes);
    }

    @Test
    void writesAreReplayedWhenNamedAndTheSpeedupCompressesTheRate() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < 20; s++) {
            lines.add(ncsa(s, "GET", "/a", 200));
            lines.add(ncsa(s, "POST", "/orders", 201));
        }
        LogImport.Result r = LogImport.read(log(lines), "tomcat", 4, Set.of("post"), "x");
        assertEquals(List.of("POST", "GET"), r.requests().entries().stream().map(Mix.Entry::method).sorted().toList().reversed());
        assertEquals(2, r.requests().entries().stream().filter(e -> e.method().equals("POST")).findFirst().orElseThrow().expectStatus());
        assertEquals("8@0s", r.rateProfile());
        assertEquals(5, r.holdSeconds());
    }

    @Test
    void jsonLinesGiveDurationsAndThePeakInFlight() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < 10; s++) {
            // 20 requests a second of 100 ms (2 in flight), 400 ms in second 5 (8 in flight)
            for (int i = 0; i < 20; i++) {
                lines.add("{\"time\": \"2026-11-28T10:00:%02d.%03dZ\", \"method\": \"GET\", \"path\": \"/p/%d\", \"status\": 200, \"duration_ms\": %d}"
                        .formatted(s, i * 50, i, s == 5 ? 400 : 100));
            }
        }
        LogImport.Result r = LogImport.read(log(lines), null, 1, Set.of(), "x");
        assertEquals(8, r.conc());
        assertEquals("20@0s", r.rateProfile());
        assertEquals("/p/{p_id}", r.requests().entries().getFirst().path());
    }

    @Test
    void theLongTailIsFoldedIntoTheLargestAndSaid() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 3000; i++) lines.add(ncsa(i % 60, "GET", "/big", 200));
        for (int i = 0; i < 40 * 5; i++) lines.add(ncsa(1, "GET", "/rare" + (char) ('a' + i % 40 % 26) + (i % 40 / 26), 200));
        LogImport.Result r = LogImport.read(log(lines), "common", 1, Set.of(), "x");
        assertEquals(30, r.requests().entries().size());
        assertTrue(String.join("\n", r.notes()).contains("the long tail: 11 templates"), String.join("\n", r.notes()));
        assertEquals(10_000, r.requests().totalWeight(), 40);
        assertTrue(r.requests().entries().getFirst().weight() > 3000.0 / 3200 * 10_000, "the tail's share in the largest");
    }

    @Test
    void badLogsAreRefusedInOneLine() throws Exception {
        Path empty = dir.resolve("empty.log");
        Files.writeString(empty, "");
        assertTrue(refusal(empty, null, 1).contains("the log is empty"));
        Path blank = dir.resolve("blank.log");
        Files.writeString(blank, "\n\n");
        assertTrue(refusal(blank, null, 1).contains("the log is empty"));
        Path unknown = dir.resolve("x.log");
        Files.writeString(unknown, "hello\nworld\n");
        assertTrue(refusal(unknown, null, 1).contains("no known access-log format"));
        assertTrue(refusal(unknown, "common", 1).contains("no line reads as common (2 lines, the first: 'hello')"));
        assertTrue(refusal(unknown, "apache2", 1).contains("--log-format takes common, combined"));
        assertTrue(refusal(log(List.of(ncsa(1, "GET", "/", 200))), null, 0).contains("--speedup takes a number above 0"));
        assertTrue(refusal(dir.resolve("none.log"), null, 1).contains("no such file"));
    }

    @Test
    void combinedIsToldFromCommon() throws Exception {
        String line = ncsa(1, "GET", "/a?b=c", 200) + " \"http://x/\" \"curl/8.0 \\\"q\\\"\"";
        assertNotNull(LogFormat.COMBINED.parse(line));
        assertNull(LogFormat.COMMON.parse(line));
        assertNull(LogFormat.COMBINED.parse(ncsa(1, "GET", "/", 200)));
        assertEquals("/a?b=c", LogFormat.COMBINED.parse(line).target());
        assertEquals("/x", LogFormat.COMMON.parse(ncsa(1, "GET", "http://h:8080/x", 200)).target());
    }

    /** A secret anywhere in the target, a path segment, a bare query string, a key, is a placeholder whose values are never kept. */
    @Test
    void secretsAnywhereInTheTargetAreNeverKept() throws Exception {
        List<String> lines = new ArrayList<>(), secrets = new ArrayList<>();
        for (int s = 0; s < 20; s++) {
            String key = "sk_live_abcdefghijklmnop" + s, hex = "0123456789abcdef0123456789abcdef" + s, mail = "bob" + s + "%40example.com";
            String jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyNDIifQ.sig" + s + "xxxxxxxx";
            secrets.addAll(List.of(key, hex, "bob" + s, jwt));
            lines.add(ncsa(s, "GET", "/keys/" + key, 200));
            lines.add(ncsa(s, "GET", "/confirm?" + hex, 200));
            lines.add(ncsa(s, "GET", "/users/" + mail + "/orders", 200));
            lines.add(ncsa(s, "GET", "/cb?" + jwt + "=", 200));
        }
        LogImport.Result r = LogImport.read(log(lines), null, 1, Set.of(), "x");
        List<String> paths = r.requests().entries().stream().map(Mix.Entry::path).sorted().toList();
        assertEquals(List.of("/cb?{query}", "/confirm?{query2}", "/keys/{keys_id}", "/users/{users_id}/orders"), paths);
        String all = String.join("\n", paths) + r.csv() + r.notes() + r.requests().values();
        for (String secret : secrets) assertFalse(all.contains(secret), secret + " in " + all);
        assertTrue(r.requests().values().values().stream().allMatch(v -> v instanceof Mix.Env), r.requests().values().toString());
    }

    /** One Latin-1 user agent among the first 100 lines: detection and reading share one tolerant decoder, and say so. */
    @Test
    void aLineOfLatin1IsReadWithReplacementAndSaid() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        for (int s = 0; s < 30; s++) {
            String ua = s == 3 ? "Caf\u00e9 Browser" : "curl/8.0";
            String line = ncsa(s, "GET", "/a/" + s, 200) + " \"-\" \"" + ua + "\"\n";
            bytes.write(line.getBytes(s == 3 ? java.nio.charset.StandardCharsets.ISO_8859_1 : java.nio.charset.StandardCharsets.UTF_8));
        }
        Path f = dir.resolve("latin1.log");
        Files.write(f, bytes.toByteArray());
        assertEquals(LogFormat.COMBINED, LogImport.detect(f));
        LogImport.Result r = LogImport.read(f, null, 1, Set.of(), "x");
        assertEquals(30, ((Mix.Column) r.requests().values().get("a_id")).cells().size());
        assertTrue(r.notes().contains("1 lines had bytes that are not UTF-8; read with replacement"), String.join("\n", r.notes()));
    }

    /** nginx's JSON log_format: msec in seconds (a rate 1,000 times too high when read as ms), request_time in seconds. */
    @Test
    void nginxJsonWithEpochSecondsGivesTheRightRate() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < 60; s++) {
            for (int i = 0; i < 10; i++) {
                lines.add("{\"msec\": %d.%03d, \"request_method\": \"GET\", \"request_uri\": \"/p/%d?x=1\", \"status\": \"200\", \"request_time\": 0.300, \"http_user_agent\": \"curl\"}"
                        .formatted(1733551200L + s, i * 100, i));
            }
        }
        LogImport.Result r = LogImport.read(log(lines), null, 1, Set.of(), "x");
        assertEquals("10@0s", r.rateProfile());
        assertEquals(60, r.holdSeconds());
        assertEquals(3, r.conc(), "300 ms every 100 ms: 3 in flight");
        String notes = String.join("\n", r.notes());
        assertTrue(notes.contains("time=msec (epoch seconds, by its name)"), notes);
        assertTrue(notes.contains("duration=request_time (seconds, by its name)"), notes);
    }

    /** Envoy's and Logback's access JSON, and a field map given; a numeric time's unit from its magnitude. */
    @Test
    void envoyLogbackAndAFieldMapRead() throws Exception {
        List<String> envoy = new ArrayList<>(), logback = new ArrayList<>(), own = new ArrayList<>();
        for (int s = 0; s < 20; s++) {
            for (int i = 0; i < 5; i++) {
                envoy.add("{\"start_time\":\"2026-11-28T10:00:%02d.%03dZ\",\"method\":\"GET\",\"path\":\"/e/%d\",\"response_code\":200,\"duration\":400,\"protocol\":\"HTTP/1.1\"}"
                        .formatted(s, i * 200, i));
                logback.add("{\"@timestamp\":\"2026-11-28T11:00:%02d.%03d+01:00\",\"@version\":\"1\",\"method\":\"GET\",\"requested_uri\":\"/l/%d\",\"status_code\":200,\"elapsed_time\":200}"
                        .formatted(s, i * 200, i));
                own.add("{\"ts\": %d, \"req\": {\"uri\": \"/o/%d\"}, \"verb\": \"GET\", \"rc\": 200, \"took\": 0.6}".formatted((1764324000L + s) * 1_000_000 + i * 200_000, i));
            }
        }
        LogImport.Result e = LogImport.read(log(envoy), null, 1, Set.of(), "x");
        assertEquals("5@0s", e.rateProfile());
        assertEquals(2, e.conc(), "400 ms every 200 ms");
        LogImport.Result l = LogImport.read(log(logback), null, 1, Set.of(), "x");
        assertEquals("5@0s", l.rateProfile());
        assertEquals(1, l.conc());
        LogImport.Result o = LogImport.read(log(own), null, 1, Set.of(), "x", new LogImport.Choices(List.of(), List.of(),
                List.of("time=ts,path=req.uri", "status=rc", "duration=took:s")));
        assertEquals("5@0s", o.rateProfile());
        assertEquals(20, o.holdSeconds());
        assertEquals(3, o.conc(), "600 ms every 200 ms");
        assertTrue(String.join("\n", o.notes()).contains("time=ts (epoch microseconds, by its magnitude)"), String.join("\n", o.notes()));
        assertEquals(JsonShapes.Unit.S, JsonShapes.Unit.bySuffix("took_s"));
        assertEquals(JsonShapes.Unit.S, JsonShapes.Unit.bySuffix("durationSeconds"));
        assertEquals(JsonShapes.Unit.MS, JsonShapes.Unit.bySuffix("duration_milliseconds"));
        assertEquals(JsonShapes.Unit.MS, JsonShapes.Unit.bySuffix("elapsedMillis"));
        assertEquals(JsonShapes.Unit.US, JsonShapes.Unit.bySuffix("latency_us"));
        assertEquals(JsonShapes.Unit.NS, JsonShapes.Unit.bySuffix("durationNanos"));
        assertNull(JsonShapes.Unit.bySuffix("took"));
        assertNull(JsonShapes.Unit.bySuffix("status"));
    }

    /** A line a year off the log's median time is left out of the rate and the hold, and said. */
    @Test
    void aTimestampAYearOffIsLeftOutOfTheHold() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < 60; s++) for (int i = 0; i < 5; i++) lines.add(ncsa(s, "GET", "/a", 200));
        lines.add(30, "10.0.0.1 - - [28/Nov/2025:10:00:00 +0000] \"GET /a HTTP/1.1\" 200 5");
        LogImport.Result r = LogImport.read(log(lines), null, 1, Set.of(), "x");
        assertEquals(60, r.holdSeconds());
        assertEquals("5@0s", r.rateProfile());
        String notes = String.join("\n", r.notes());
        assertTrue(notes.contains("1 lines more than 1m58s from the log's median time (2026-11-28T10:00:29Z): left out"), notes);
    }

    /** The peak in flight is a sweep over starts and ends: one long request is one in flight, not its seconds. */
    @Test
    void oneLongRequestIsOneInFlight() throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("{\"time\": \"2026-11-28T10:00:00Z\", \"method\": \"GET\", \"path\": \"/slow\", \"status\": 200, \"duration_ms\": 10000}");
        for (int s = 1; s < 12; s++) lines.add("{\"time\": \"2026-11-28T10:00:%02dZ\", \"method\": \"GET\", \"path\": \"/fast\", \"status\": 200, \"duration_ms\": 5}".formatted(s));
        assertEquals(2, LogImport.read(log(lines), null, 1, Set.of(), "x").conc(), "the slow one beside one fast one at a time (the old sum said 10)");
    }

    /** A line logged minutes after its time is out of order: counted in the rate, left out of the sweep, said. */
    @Test
    void aLineOutOfOrderIsCountedAndSaid() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < 300; s++) {
            lines.add("{\"time\": \"2026-11-28T10:%02d:%02d.000Z\", \"method\": \"GET\", \"path\": \"/a\", \"status\": 200, \"duration_ms\": 100}".formatted(s / 60, s % 60));
        }
        lines.add("{\"time\": \"2026-11-28T10:01:00.500Z\", \"method\": \"GET\", \"path\": \"/a\", \"status\": 200, \"duration_ms\": 100}");
        LogImport.Result r = LogImport.read(log(lines), null, 1, Set.of(), "x");
        assertEquals(300, r.holdSeconds());
        assertEquals(1, r.conc());
        assertTrue(r.notes().contains("1 lines more than 30 s out of order: in the rate, left out of the peak in flight"), String.join("\n", r.notes()));
    }

    /** Times in whole seconds: a second's requests do not all start at its first instant (10 of 300 ms a second are about 3 in flight, not 10). */
    @Test
    void wholeSecondTimesAreSpreadOverTheirSecond() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < 60; s++) {
            for (int i = 0; i < 10; i++) {
                lines.add("{\"time_iso8601\": \"2024-12-07T06:00:%02d+00:00\", \"request_method\": \"GET\", \"request_uri\": \"/p\", \"status\": 200, \"request_time\": \"0.300\"}"
                        .formatted(s));
            }
        }
        LogImport.Result r = LogImport.read(log(lines), null, 1, Set.of(), "x");
        assertTrue(r.conc() >= 3 && r.conc() < 10, r.conc() + " in flight");
        assertTrue(String.join("\n", r.notes()).contains("a start taken at random within its logged second"), String.join("\n", r.notes()));
    }

    /** A log over a month keeps its bins to a fixed number, its rate still right. */
    @Test
    void aMonthLongLogKeepsItsBinsBounded() {
        Timeline t = new Timeline();
        long start = 1_764_000_000_000L, month = 30L * 24 * 3600 * 1000;
        for (long m = 0; m < month; m += 60_000) t.sample(start + m);
        t.settle();
        for (long m = 0; m < month; m += 60_000) t.add(start + m, -1);
        assertTrue(t.counts().length <= Timeline.BINS, t.counts().length + " bins");
        assertTrue(t.binMillis() > 1000);
        assertEquals(month / 60_000, java.util.Arrays.stream(t.counts()).sum());
        assertEquals(0, t.farOff());
    }

    String refusal(Path log, String format, double speedup) {
        UsageError e = assertThrows(UsageError.class, () -> LogImport.read(log, format, speedup, Set.of(), "x"));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }
}
