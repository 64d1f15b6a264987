package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The report's Faults section from a run folder with two rows under one fault (platform recovers, virtual does not),
 * a failed row under it and a row without a fault: panels per series family present, the window shaded where it was
 * applied, and the verdict columns in the table.
 */
class FaultPanelsTest {
    static final String FAULT = "stub:latency=1900ms@10s-30s";
    static final int HOLD = 40;

    @TempDir
    Path dir;

    private static boolean during(int t) {
        return t > 10 && t <= 30;
    }

    private Map<String, Object> faultRow(RunFixture f, String mode, double from, double to) {
        Map<String, Object> r = RunFixture.open(f.row("faults", mode, 5000, null, 1, 200, 0), 200);
        r.put("fault", FAULT);
        r.put("fault_from_s", from);
        r.put("fault_to_s", to);
        f.series(r, "load_requests_rps", HOLD, t -> during(t) ? 120 : 200);
        f.series(r, "load_p99_ms", HOLD, t -> during(t) ? 2010 : 112);
        f.series(r, "load_p50_ms", HOLD, t -> during(t) ? 2001 : 104);
        f.series(r, "load_errors_status", HOLD, t -> 0);
        f.series(r, "load_in_flight", HOLD, t -> during(t) ? 400 : 22);
        f.series(r, "heap_used_mb", HOLD, t -> 80 + (during(t) ? 200 : 0));
        f.series(r, "jvm_threads_live", HOLD, t -> 30);
        return r;
    }

    private RunFixture run() throws Exception {
        RunFixture f = new RunFixture(dir.resolve("run"));
        Map<String, Object> p = faultRow(f, "platform", 10.02, 30.05);
        f.series(p, "sut_in_flight", HOLD, t -> during(t) ? 200 : 22);
        f.series(p, "load_errors_timeout", HOLD, t -> 0);
        p.putAll(Map.of("p99_before_ms", 112.4, "p99_during_ms", 2011.7, "p99_after_ms", 118.2, "recovery_s", 3, "peak_in_flight", 200,
                "peak_load_in_flight", 402, "heap_before_mb", 80.5, "peak_heap_mb", 296.2, "fault_errors_timeout", 0, "fault_errors_status", 0));
        p.putAll(Map.of("fault_errors_connect", 0, "fault_errors_io", 0, "fault_shed_pct", 0.0, "never_answered", 0,
                "fault_verdict", "platform: the pool capped the pile-up"));
        Map<String, Object> v = faultRow(f, "virtual", 10.01, 30.04);
        f.series(v, "sut_in_flight", HOLD, t -> during(t) ? 4100 : 22);
        f.series(v, "load_errors_timeout", HOLD, t -> t > 25 && t <= 30 ? 27.4 : 0);
        f.series(v, "vt_mounted", HOLD, t -> 2);
        v.putAll(Map.of("p99_before_ms", 113.0, "p99_during_ms", 2004.0, "p99_after_ms", 1510.0, "peak_in_flight", 4100,
                "peak_load_in_flight", 4012, "heap_before_mb", 81.0, "peak_heap_mb", 612.3, "fault_errors_timeout", 137, "fault_errors_status", 0,
                "fault_errors_connect", 0));
        v.putAll(Map.of("fault_errors_io", 0, "fault_shed_pct", 4.56, "never_answered", 137,
                "fault_verdict", "virtual: 4100 requests in the SUT, did not recover"));
        Map<String, Object> failed = RunFixture.open(f.row("faults", "virtual-limit", 5000, null, 1, 0, 0), 200);
        failed.put("fault", FAULT);
        failed.put("status", "failed");
        failed.put("note", "the proxy refused the toxic");
        f.row("servlet", "platform", 100, null, 1, 980, 110);
        return f.write();
    }

    @Test
    void aFaultGetsPanelsPerSeriesFamilyPresentWithTheModesOverlaidAndItsWindowShaded() throws Exception {
        String html = new ReportPage(RunData.load(run().dir)).render();
        assertTrue(html.contains("<a href=\"#faults\">faults</a>"), "nav link");
        String section = section(html);
        assertTrue(section.contains("<h3 id=\"fault-stub-latency-1900ms-10s-30s\">" + FAULT + "</h3>"), section);
        JsonNode charts = chartData(html).get("charts");
        List<String> ids = new ArrayList<>();
        charts.fieldNames().forEachRemaining(ids::add);
        List<String> panels = ids.stream().filter(i -> i.startsWith("fault-")).toList();
        // no row has hikari_active or hikari_pending: no HikariCP panel
        assertEquals(List.of("fault-answers-1", "fault-latency-1", "fault-in-flight-1", "fault-memory-1", "fault-threads-1"), panels);
        for (String id : panels) {
            assertTrue(section.contains("data-chart=\"" + id + "\""), "panel " + id + " in the Faults section");
            JsonNode bands = charts.get(id).get("bands");
            assertEquals(1, bands.size(), id);
            assertEquals(10.01, bands.get(0).get("from").asDouble(), 1e-9, "the earliest start as applied");
            assertEquals(30.05, bands.get(0).get("to").asDouble(), 1e-9, "the latest end as applied");
            assertEquals("stub:latency=1900ms", bands.get(0).get("label").asText());
        }
        JsonNode latency = charts.get("fault-latency-1");
        assertTrue(latency.get("logY").asBoolean());
        assertEquals("#ff7f0e", line(latency, "platform p99 ms").get("color").asText());
        assertEquals("#1f77b4", line(latency, "virtual p99 ms").get("color").asText());
        assertEquals("dashed", line(latency, "virtual p50 ms").get("style").asText());
        assertEquals(2010, line(latency, "virtual p99 ms").get("points").get(10).get("y").asDouble(), 1e-9, "second 11 is in the fault");
        assertEquals(HOLD, line(latency, "platform p99 ms").get("points").size());
        // errors: only where they occurred; status errors nowhere, the failed row nowhere in the panels
        List<String> answers = names(charts.get("fault-answers-1"));
        assertEquals(List.of("platform answers/s", "virtual answers/s", "virtual timeouts/s"), answers);
        assertEquals("y2", line(charts.get("fault-answers-1"), "virtual timeouts/s").get("axis").asText());
        assertEquals(List.of("platform in the SUT (each second's peak)", "virtual in the SUT (each second's peak)", "platform under way at the generator", "virtual under way at the generator"),
                names(charts.get("fault-in-flight-1")));
        assertEquals(List.of("platform heap used MB", "virtual heap used MB"), names(charts.get("fault-memory-1")), "no RSS series: no RSS line");
        assertTrue(names(charts.get("fault-threads-1")).contains("virtual VTs mounted"));
        assertEquals("virtual threads", charts.get("fault-threads-1").get("y2Label").asText());
        assertTrue(ids.stream().noneMatch(i -> names(charts.get(i)).stream().anyMatch(n -> n.startsWith("virtual-limit"))));
        // the per-row charts shade the row's own window; a row without a fault has none
        JsonNode rowOne = charts.get(smallChartOf(html, 1));
        assertEquals(10.02, rowOne.get("bands").get(0).get("from").asDouble(), 1e-9);
        assertEquals(30.05, rowOne.get("bands").get(0).get("to").asDouble(), 1e-9);
        assertEquals(0, charts.get(smallChartOf(html, 4)).get("bands").size());
    }

    @Test
    void theTableGivesEachRowsVerdictColumnsAndSentence() throws Exception {
        String section = section(new ReportPage(RunData.load(run().dir)).render());
        assertEquals(List.of("platform", "1", "10.0–30.1 s", "112", "2,012", "118", "3 s", "200", "402", "81", "296", "0", "0", "0", "0", "0.0%", "0"),
                cells(section, 1));
        assertEquals(List.of("virtual", "2", "10.0–30.0 s", "113", "2,004", "1,510", "did not recover within the hold", "4,100", "4,012", "81", "612",
                "137", "0", "0", "0", "4.6%", "137"), cells(section, 2));
        assertEquals(List.of("virtual-limit", "3", "failed: the proxy refused the toxic"), cells(section, 3));
        assertTrue(section.contains("platform: the pool capped the pile-up"));
        assertTrue(section.contains("virtual: 4100 requests in the SUT, did not recover"));
        assertFalse(section.contains("#row-4"), "the row without a fault is not in the Faults section");
    }

    @Test
    void theFaultPanelsAreFiguresWithTheBandWhereTheWindowIs() throws Exception {
        RunFixture f = run();
        Report.Written w = Report.write(f.dir);
        List<String> names = w.figures().stream().map(p -> p.getFileName().toString()).toList();
        assertTrue(names.containsAll(List.of("fault-latency-1.svg", "fault-answers-1.png")), names.toString());
        String svg = Files.readString(f.dir.resolve("charts/fault-latency-1.svg"));
        Matcher band = Pattern.compile("<rect x=\"([0-9.]+)\" y=\"[0-9.]+\" width=\"([0-9.]+)\" height=\"[0-9.]+\" fill=\"" + StaticChart.BAND_FILL + "\"/>")
                .matcher(svg);
        assertTrue(band.find(), "a band in the figure");
        double x0 = Double.parseDouble(band.group(1)), x1 = x0 + Double.parseDouble(band.group(2));
        assertFalse(band.find(), "one band");
        // the points of seconds 1..40 as drawn: the band starts just after second 10 and ends just after second 30
        TreeSet<Double> xs = new TreeSet<>();
        Matcher c = Pattern.compile("<circle cx=\"([0-9.]+)\"").matcher(svg);
        while (c.find()) xs.add(Double.parseDouble(c.group(1)));
        List<Double> sec = List.copyOf(xs);
        assertEquals(HOLD, sec.size());
        assertTrue(x0 > sec.get(9) && x0 < sec.get(10), x0 + " between seconds 10 and 11: " + sec);
        assertTrue(x1 > sec.get(29) && x1 < sec.get(30), x1 + " between seconds 30 and 31: " + sec);
        assertTrue(svg.contains(">stub:latency=1900ms</text>"), "the band's label");
        assertTrue(Files.readString(f.dir.resolve("charts/fault-answers-1.svg")).contains("stroke-dasharray=\"7 5\""), "timeouts dashed");
    }

    @Test
    void aRunWithoutFaultRowsHasNoFaultsSection() throws Exception {
        RunFixture.heroSweep(dir.resolve("run")).write();
        String html = new ReportPage(RunData.load(dir.resolve("run"))).render();
        assertFalse(html.contains("id=\"faults\""));
        assertFalse(html.contains("#faults"));
        chartData(html).get("charts").forEach(c -> assertEquals(0, c.get("bands").size()));
    }

    private static String section(String html) {
        int start = html.indexOf("<section id=\"faults\">");
        assertTrue(start >= 0, "a Faults section");
        return html.substring(start, html.indexOf("</section>", start));
    }

    /** The text of the cells of the table line of row k. */
    private static List<String> cells(String section, int k) {
        Matcher tr = Pattern.compile("<tr class=\"st-[a-z]+\"><td>[^<]*</td><td><a href=\"#row-" + k + "\">.*?</tr>").matcher(section);
        assertTrue(tr.find(), "a line for row " + k);
        List<String> out = new ArrayList<>();
        Matcher td = Pattern.compile("<td[^>]*>(.*?)</td>").matcher(tr.group());
        while (td.find()) out.add(td.group(1).replaceAll("<[^>]+>", ""));
        return out;
    }

    private static String smallChartOf(String html, int k) {
        int at = html.indexOf("id=\"time-" + k + "\"");
        assertTrue(at >= 0, "row " + k + " over time");
        Matcher m = Pattern.compile("data-chart=\"([^\"]+)\"").matcher(html);
        assertTrue(m.find(at));
        return m.group(1);
    }

    private static JsonNode line(JsonNode chart, String name) {
        for (JsonNode l : chart.get("lines")) if (l.get("name").asText().equals(name)) return l;
        throw new AssertionError("no line " + name + " in " + names(chart));
    }

    private static List<String> names(JsonNode chart) {
        List<String> out = new ArrayList<>();
        chart.get("lines").forEach(l -> out.add(l.get("name").asText()));
        return out;
    }

    private static JsonNode chartData(String html) throws Exception {
        String open = "<script id=\"vtlab-data\" type=\"application/json\">";
        int start = html.indexOf(open) + open.length();
        return new ObjectMapper().readTree(html.substring(start, html.indexOf("</script>", start)));
    }
}
