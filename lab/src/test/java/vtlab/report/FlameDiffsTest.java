package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlameDiffsTest {
    @TempDir
    Path dir;

    static Map<String, String> row(String mode, String rep, String flame) {
        Map<String, String> r = new HashMap<>(Map.of("experiment", "ab", "workload", "/hello", "concurrency", "20", "jdk", "25",
                "thread_mode", mode, "rep", rep, "params", ""));
        if (flame != null) r.put("profile_flame", flame);
        return r;
    }

    @Test
    void eachNonPlatformRowIsComparedWithThePlatformRowOfItsRep() {
        Map<String, String> p1 = row("platform", "1", "p1.html"), p2 = row("platform", "2", "p2.html"),
                v1 = row("virtual", "1", "v1.html"), v2 = row("virtual", "2", "v2.html"), v3 = row("virtual", "3", "v3.html");
        Map<Map<String, String>, Map<String, String>> pairs = FlameDiffs.pairs(List.of(p1, v1, p2, v2, v3));
        assertEquals(3, pairs.size());
        assertEquals(p1, pairs.get(v1));
        assertEquals(p2, pairs.get(v2));
        assertEquals(p1, pairs.get(v3), "a rep without a platform row of its own is set against the scenario's first");
    }

    @Test
    void rowsWithoutAFlameGraphOrAPlatformRowToCompareWithHaveNone() {
        Map<String, String> p = row("platform", "1", null), v = row("virtual", "1", "v.html");
        Map<String, String> other = row("virtual", "1", "o.html");
        other.put("concurrency", "40"); // another scenario, with no platform row at all
        assertTrue(FlameDiffs.pairs(List.of(p, v, other)).isEmpty());
    }

    /** The converter's differential graph: the compared profile's frames, each with its change against the baseline. */
    @Test
    void theDifferentialGraphColoursWhatGrewAndWhatShrank() throws Exception {
        Path platform = dir.resolve("platform.collapsed"), virtual = dir.resolve("virtual.collapsed"), out = dir.resolve("diff.html");
        Files.writeString(platform, "Thread.run;Handler.serve;Template.render 50\nThread.run;Handler.serve;Pool.getConnection 50\n");
        Files.writeString(virtual, "Thread.run;Handler.serve;Template.render 90\nThread.run;Handler.serve;Pool.getConnection 10\n");
        FlameDiffs.write(platform, virtual, out, "row 2 against row 1");
        String html = Files.readString(out);
        assertTrue(html.contains("<h1>row 2 against row 1</h1>"), "titled");
        assertTrue(html.contains("'Template.render'") || html.contains("Template.render"), "the compared profile's frames");
        List<Integer> diffs = html.lines().filter(l -> l.startsWith("d=")).map(l -> Integer.parseInt(l.substring(2))).toList();
        assertTrue(diffs.stream().anyMatch(d -> d > 0) && diffs.stream().anyMatch(d -> d < 0),
                "a frame that grew and one that shrank, each with its change: " + diffs);
    }
}
