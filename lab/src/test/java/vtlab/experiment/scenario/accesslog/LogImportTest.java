package vtlab.experiment.scenario.accesslog;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    String refusal(Path log, String format, double speedup) {
        UsageError e = assertThrows(UsageError.class, () -> LogImport.read(log, format, speedup, Set.of(), "x"));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }
}
