package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.core.UsageError;

class ReportPageTest {
    static final String EVIL = "</script><img src=x onerror=alert(1)>";

    @TempDir
    Path dir;

    /** Hostile text in every place data reaches the page: a note, a param (so chart titles), the command, a file. */
    private Path hostileRun() throws Exception {
        RunFixture f = RunFixture.heroSweep(dir.resolve("run"));
        for (Map<String, Object> r : f.rows) r.put("params", r.get("params") + ";tag=" + EVIL);
        f.rows.getFirst().put("note", "probe errors: " + EVIL);
        f.env.put("command", "./vtlab run --jvm-args \"-Dx=" + EVIL + "\"");
        f.write().studies(RunFixture.JMH);
        f.file("jmh.csv", "benchmark,thread_mode,workers,score,error,unit\nx.Y." + "\"" + EVIL.replace("\"", "\"\"") + "\",virtual,1,2,0.1,ops/s\n");
        f.file("pinning-stacks.txt", "java.lang.Object.wait " + EVIL + "\n");
        return f.dir;
    }

    @Test
    void dataNeverBecomesMarkup() throws Exception {
        String html = new ReportPage(RunData.load(hostileRun())).render();
        assertFalse(html.contains("<img src=x"), "an <img> from data would run its onerror");
        // the only script end tags are the page's own three
        assertEquals(3, count(html, "</script>"));
        assertTrue(html.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"));
        // the chart data still holds the exact text
        JsonNode charts = chartData(html).get("charts");
        List<String> titles = new ArrayList<>();
        charts.forEach(c -> titles.add(c.get("title").asText()));
        assertTrue(titles.stream().anyMatch(t -> t.contains(EVIL)), titles.toString());
    }

    @Test
    void eachProfiledRowHasAStackedBarOfItsRequestTimeWithLinksToItsProfile() throws Exception {
        RunFixture f = RunFixture.heroSweep(dir.resolve("run"));
        for (Map<String, Object> r : f.rows) {
            if (!r.get("concurrency").equals(100) || !r.get("rep").equals(1)) continue;
            boolean platform = r.get("thread_mode").equals("platform");
            r.put("time_cpu_pct", platform ? 20.0 : 64.0);
            r.put("time_runqueue_pct", platform ? 58.0 : 1.0);
            r.put("time_gc_pct", platform ? 21.0 : 5.0);
            r.put("time_other_pct", platform ? 1.0 : 30.0);
            r.put("time_top_cause", platform ? "runqueue" : "cpu");
            r.put("time_top_evidence", platform ? "200 request threads on 1 CPU" : "most of it in the service's own code");
            r.put("profile_jfr", "00" + (platform ? 1 : 2) + "-x.profile.jfr");
            r.put("profile_flame", "00" + (platform ? 1 : 2) + "-x.flame.html");
        }
        f.write();
        String html = new ReportPage(RunData.load(f.dir)).render();
        assertTrue(html.contains("<section id=\"request-time\"><h2>Where request time goes</h2>"), html);
        assertTrue(html.indexOf("id=\"request-time\"") < html.indexOf("id=\"exp-servlet\"") || !html.contains("id=\"exp-servlet\""));
        assertEquals(2, count(html, "<div class=\"tbar-row\""));
        assertTrue(html.contains("<i class=\"seg-runqueue\" style=\"width:58.00%;"), html);
        assertTrue(html.contains("58% of request time waiting to run (200 request threads on 1 CPU), then 21% stopped by GC"), html);
        assertTrue(html.contains("<a href=\"raw/001-x.profile.txt\">breakdown</a>"), html);
        assertTrue(html.contains("<a class=\"flame\" href=\"raw/002-x.flame.html\">flame graph</a>"), html);
    }

    @Test
    void everyChartOnThePageHasItsDataAndEveryVerdictLinksToRowsThatExist() throws Exception {
        RunFixture.heroSweep(dir.resolve("run")).write();
        String html = new ReportPage(RunData.load(dir.resolve("run"))).render();
        JsonNode charts = chartData(html).get("charts");
        Matcher m = Pattern.compile("<canvas id=\"c-[^\"]+\" data-chart=\"([^\"]+)\"").matcher(html);
        int canvases = 0;
        while (m.find()) {
            canvases++;
            assertTrue(charts.has(m.group(1)), "no data for canvas " + m.group(1));
        }
        assertEquals(charts.size(), canvases);
        assertTrue(canvases >= 1 + 1 + 16 * 2, "hero, memory and two series per row with series: " + canvases);
        Matcher ev = Pattern.compile("<span class=\"ev\">(.*?)</span>").matcher(html);
        while (ev.find()) {
            Matcher a = Pattern.compile("href=\"#([^\"]+)\"").matcher(ev.group(1));
            while (a.find()) assertTrue(html.contains("id=\"" + a.group(1) + "\""), "dangling evidence link #" + a.group(1));
        }
        assertTrue(html.contains("id=\"row-17\" class=\"st-failed\""));
        assertTrue(html.contains("SUT died during warm-up: java.lang.OutOfMemoryError"));
        assertTrue(html.contains("Chart.js v4"), "the chart library is inlined");
        assertFalse(html.contains("src=\"http"), "no remote scripts");
        assertFalse(html.contains("sourceMappingURL"));
    }

    @Test
    void reportWritesHtmlAndFiguresAndRefusesAFolderThatIsNoRun() throws Exception {
        RunFixture.heroSweep(dir.resolve("run")).write();
        Report.Written w = Report.write(dir.resolve("run"));
        assertTrue(Files.size(w.html()) > 100_000);
        List<String> names = w.figures().stream().map(p -> p.getFileName().toString()).toList();
        assertTrue(names.contains("hero-servlet-1.svg") && names.contains("hero-servlet-1.png"), names.toString());
        assertTrue(names.stream().anyMatch(n -> n.startsWith("memory-servlet")), names.toString());
        Files.createDirectories(dir.resolve("empty"));
        assertThrows(UsageError.class, () -> Report.write(dir.resolve("empty")));
    }

    @Test
    void openRowsWithHistogramsGetASpectrumAndALatencyVsRateChartOnThePageAndAsFigures() throws Exception {
        RunFixture f = new RunFixture(dir.resolve("run"));
        for (double rate : new double[] {500, 1000}) {
            f.histogram(RunFixture.open(f.row("servlet", "platform", 10000, null, 1, rate, 0), rate), "p" + (int) rate, 990, 50, 10, 80);
            f.histogram(RunFixture.open(f.row("servlet", "virtual", 10000, null, 1, rate, 0), rate), "v" + (int) rate, 990, 50, 10, 60);
        }
        f.write();
        Report.Written w = Report.write(f.dir);
        String html = Files.readString(w.html());
        assertTrue(html.contains("Latency vs offered rate (open model)"), "rate chart heading");
        assertTrue(html.contains("Latency by percentile"), "spectrum heading");
        JsonNode charts = chartData(html).get("charts");
        List<String> ids = new ArrayList<>();
        charts.fieldNames().forEachRemaining(ids::add);
        assertEquals(2, ids.stream().filter(i -> i.startsWith("spectrum-servlet")).count(), "one spectrum per rate (scenario): " + ids);
        assertTrue(ids.contains("rate-servlet-1"), ids.toString());
        assertTrue(charts.get("rate-servlet-1").get("logY").asBoolean());
        assertEquals("99.9%", charts.get("spectrum-servlet-1").get("xTicks").get(6).get("label").asText());
        List<String> names = w.figures().stream().map(p -> p.getFileName().toString()).toList();
        assertTrue(names.containsAll(List.of("rate-servlet-1.svg", "spectrum-servlet-1.svg", "spectrum-servlet-2.png")), names.toString());
    }

    @Test
    void aRunWithoutAnyOptionalFileStillRenders() throws Exception {
        Files.createDirectories(dir.resolve("bare"));
        Files.writeString(dir.resolve("bare/environment.json"), "{\"status\":\"running\"}");
        String html = new ReportPage(RunData.load(dir.resolve("bare"))).render();
        assertTrue(html.contains("the run is incomplete (running)"));
        assertTrue(html.contains("No load rows in this run."));
    }

    private static JsonNode chartData(String html) throws Exception {
        String open = "<script id=\"vtlab-data\" type=\"application/json\">";
        int start = html.indexOf(open) + open.length();
        return new ObjectMapper().readTree(html.substring(start, html.indexOf("</script>", start)));
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) n++;
        return n;
    }
}
