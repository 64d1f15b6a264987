package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import vtlab.data.DataRow;
import org.junit.jupiter.api.io.TempDir;

class FlameDiffsTest {
    @TempDir
    Path dir;

    static DataRow row(String mode, String rep, String flame) {
        return row(mode, rep, flame, "20");
    }

    static DataRow row(String mode, String rep, String flame, String concurrency) {
        Map<String, String> r = new HashMap<>(Map.of("experiment", "ab", "workload", "/hello", "concurrency", concurrency, "jdk", "25",
                "thread_mode", mode, "rep", rep, "params", ""));
        if (flame != null) r.put("profile_flame", flame);
        return DataRow.of(r);
    }

    @Test
    void eachNonPlatformRowIsComparedWithThePlatformRowOfItsRep() {
        DataRow p1 = row("platform", "1", "p1.html"), p2 = row("platform", "2", "p2.html"),
                v1 = row("virtual", "1", "v1.html"), v2 = row("virtual", "2", "v2.html"), v3 = row("virtual", "3", "v3.html");
        Map<DataRow, DataRow> pairs = FlameDiffs.pairs(List.of(p1, v1, p2, v2, v3));
        assertEquals(3, pairs.size());
        assertEquals(p1, pairs.get(v1));
        assertEquals(p2, pairs.get(v2));
        assertEquals(p1, pairs.get(v3), "a rep without a platform row of its own is set against the scenario's first");
    }

    @Test
    void rowsWithoutAFlameGraphOrAPlatformRowToCompareWithHaveNone() {
        DataRow p = row("platform", "1", null), v = row("virtual", "1", "v.html");
        DataRow other = row("virtual", "1", "o.html", "40"); // another scenario, with no platform row at all
        assertTrue(FlameDiffs.pairs(List.of(p, v, other)).isEmpty());
    }

    /** The converter's differential graph: the compared profile's frames, each with its change against the baseline. */
    @Test
    void theDifferentialGraphColoursWhatGrewAndWhatShrank() throws Exception {
        Path out = diff("Thread.run;Handler.serve;Template.render 50\nThread.run;Handler.serve;Pool.getConnection 50\n",
                "Thread.run;Handler.serve;Template.render 90\nThread.run;Handler.serve;Pool.getConnection 10\nThread.run;Handler.serve;Carrier.park 5\n");
        String html = Files.readString(out);
        assertTrue(html.contains("<h1>row 2 against row 1</h1>"), "titled");
        Map<String, Long> d = diffs(out);
        assertTrue(d.get("Template.render") > 0, "grew: " + d);
        assertTrue(d.get("Pool.getConnection") < 0, "shrank: " + d);
        assertNull(d.get("Carrier.park"), "new in the compared row (yellow): " + d);
        assertTrue(d.containsKey("Carrier.park"), "drawn: " + d);
    }

    /** The same shape at twice (or half) the samples: no frame differs, whichever row has more. */
    @Test
    void theSameShapeAtAnotherNumberOfSamplesDiffersInNothing() throws Exception {
        String small = "Thread.run;Handler.serve;Template.render 30\nThread.run;Handler.serve;Pool.getConnection 20\nThread.run;Handler.serve 10\n";
        String twice = "Thread.run;Handler.serve;Template.render 60\nThread.run;Handler.serve;Pool.getConnection 40\nThread.run;Handler.serve 20\n";
        for (String[] pair : List.of(new String[] {small, twice}, new String[] {twice, small})) {
            Map<String, Long> d = diffs(diff(pair[0], pair[1]));
            assertEquals(Set.of("all", "Thread.run", "Handler.serve", "Template.render", "Pool.getConnection"), d.keySet());
            d.forEach((frame, change) -> assertEquals(0L, change, frame + " in " + d));
        }
    }

    /**
     * Shares, not counts: at twice the baseline's samples, a frame whose count grew (50 to 60) but whose share fell (50%
     * to 30%) is blue; with baseline and compared swapped, the colours swap.
     */
    @Test
    void unequalTotalsCompareByShareAndSwappingTheRowsSwapsTheColours() throws Exception {
        String platform = "Thread.run;Handler.serve;Template.render 50\nThread.run;Handler.serve;Pool.getConnection 50\n";
        String virtual = "Thread.run;Handler.serve;Template.render 140\nThread.run;Handler.serve;Pool.getConnection 60\n";
        Map<String, Long> d = diffs(diff(platform, virtual));
        assertEquals(40L, d.get("Template.render"), "70% of 200 samples against 50%: +40 of the compared row's samples: " + d);
        assertEquals(-40L, d.get("Pool.getConnection"), "30% against 50%, though 60 samples against 50: " + d);
        Map<String, Long> swapped = diffs(diff(virtual, platform));
        assertTrue(swapped.get("Template.render") < 0 && swapped.get("Pool.getConnection") > 0, "the colours swap: " + swapped);
        assertEquals(-20L, swapped.get("Template.render"), "50% of 100 against 70%: " + swapped);
    }

    /** What the profile probe writes: async-profiler's HTML flame graphs, here made from collapsed stacks by the converter itself. */
    @Test
    void flameGraphsInHtmlCompareByShareToo() throws Exception {
        Path a = dir.resolve("a.collapsed"), b = dir.resolve("b.collapsed"), aHtml = dir.resolve("a.html"), bHtml = dir.resolve("b.html");
        Files.writeString(a, "Thread.run;Handler.serve;Template.render 50\nThread.run;Handler.serve;Pool.getConnection 50\n");
        Files.writeString(b, "Thread.run;Handler.serve;Template.render 300\nThread.run;Handler.serve;Pool.getConnection 100\n");
        one.convert.FlameGraph.convert(a.toString(), aHtml.toString(), new one.convert.Arguments());
        one.convert.FlameGraph.convert(b.toString(), bHtml.toString(), new one.convert.Arguments());
        Path out = dir.resolve("html-diff.html");
        FlameDiffs.write(aHtml, bHtml, out, "html");
        Map<String, Long> d = diffs(out);
        assertEquals(100L, d.get("Template.render"), "75% of 400 against 50%: " + d);
        assertEquals(-100L, d.get("Pool.getConnection"), d.toString());
    }

    private Path diff(String baseline, String compared) throws Exception {
        Path b = Files.createTempFile(dir, "baseline", ".collapsed"), c = Files.createTempFile(dir, "compared", ".collapsed");
        Path out = Files.createTempFile(dir, "diff", ".html");
        Files.writeString(b, baseline);
        Files.writeString(c, compared);
        FlameDiffs.write(b, c, out, "row 2 against row 1");
        return out;
    }

    /**
     * Each frame of a differential graph by name, with its change as the page draws it (the d= before it: red above 0,
     * blue below, grey 0; null: new, yellow). The page's own packing: the constant pool's strings share prefixes, and
     * f/u/n lines place frames.
     */
    static Map<String, Long> diffs(Path html) throws Exception {
        List<String> lines = Files.readAllLines(html);
        int at = lines.indexOf("const cpool = [");
        assertTrue(at >= 0, "a flame graph page");
        List<String> pool = new ArrayList<>();
        int i = at + 1;
        for (; !lines.get(i).equals("];"); i++) {
            String packed = lines.get(i).substring(1, lines.get(i).lastIndexOf('\''));
            pool.add(pool.isEmpty() ? packed : pool.getLast().substring(0, packed.charAt(0) - ' ') + packed.substring(1));
        }
        Map<String, Long> out = new LinkedHashMap<>();
        Long d = 0L;
        for (; i < lines.size() && !lines.get(i).startsWith("search("); i++) {
            String l = lines.get(i);
            if (l.startsWith("d=")) d = l.equals("d=U") ? null : Long.parseLong(l.substring(2));
            else if (l.matches("[fun]\\(.*\\)")) out.put(pool.get(Integer.parseInt(l.substring(2, l.length() - 1).split(",")[0]) >>> 3), d);
        }
        return out;
    }
}
