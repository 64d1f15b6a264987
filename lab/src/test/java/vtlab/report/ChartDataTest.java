package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartDataTest {
    @TempDir
    Path dir;

    private static ChartSpec.Line line(ChartSpec c, String name) {
        return c.lines().stream().filter(l -> l.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError("no line " + name + " in " + c.lines()));
    }

    private static ChartSpec.Point at(ChartSpec.Line l, double x) {
        return l.points().stream().filter(p -> p.x() == x).findFirst().orElseThrow(() -> new AssertionError("no point at " + x + " in " + l.name()));
    }

    @Test
    void heroAveragesOkRepsPerVariantAndKeepsFlaggedRowsApart() throws Exception {
        RunFixture.heroSweep(dir).write();
        RunData data = RunData.load(dir);
        List<ChartSpec> hero = new ChartData(data).hero("servlet");
        assertEquals(1, hero.size(), "one panel: one workload, one JDK");
        ChartSpec c = hero.getFirst();
        assertEquals("line", c.kind());
        assertTrue(c.logX(), "100..2,500 connections span more than a decade");
        assertEquals(List.of(100.0, 500.0, 1000.0, 2500.0), line(c, "platform-200 req/s").points().stream().map(ChartSpec.Point::x).toList());
        // platform at 1,000: reps 1961 and 1962 -> mean 1961.5, evidence both rows
        ChartSpec.Point p = at(line(c, "platform-200 req/s"), 1000);
        assertEquals(1961.5, p.y(), 1e-9);
        assertEquals(2, p.rows().size());
        // virtual at 2,500: rep 2 is flagged (99,999 req/s) and must not move the line
        ChartSpec.Point v = at(line(c, "virtual req/s"), 2500);
        assertEquals(20001, v.y(), 1e-9);
        assertEquals(1, v.rows().size());
        ChartSpec.Line flagged = line(c, "flagged rows (not evidence) req/s");
        assertEquals("muted", flagged.style());
        assertEquals(99999, flagged.points().getFirst().y(), 1e-9);
        // the failed platform rep 3 is nowhere
        assertTrue(c.lines().stream().flatMap(l -> l.points().stream()).noneMatch(q -> q.rows().contains("row-17")));
        assertEquals("y2", line(c, "virtual p99 ms").axis());
        assertEquals("dashed", line(c, "virtual p99 ms").style());
    }

    @Test
    void aMachineThatFlagsEveryRowStillGetsItsMemoryChartMuted() throws Exception {
        RunFixture f = new RunFixture(dir);
        f.row("servlet", "platform", 50, null, 1, 950, 50);
        f.row("servlet", "virtual", 50, null, 1, 900, 50);
        f.rows.forEach(r -> {
            r.put("status", "flagged");
            r.put("flags", "busy-machine");
        });
        f.write();
        List<ChartSpec> memory = new ChartData(RunData.load(dir)).memory("servlet");
        assertEquals(1, memory.size(), "the memory chart, though no row is evidence");
        ChartSpec.Line flagged = line(memory.getFirst(), "flagged rows (not evidence) RSS MB");
        assertEquals("muted", flagged.style());
        assertEquals(List.of(260.0, 180.0), flagged.points().stream().map(ChartSpec.Point::y).toList());
        assertEquals(List.of(0.0, 0.0), flagged.points().stream().map(ChartSpec.Point::x).toList(), "at the category of their concurrency");
        assertTrue(line(memory.getFirst(), "virtual RSS MB").points().isEmpty(), "no bar of evidence");
    }

    @Test
    void poolSweepMakesABottleneckChartAndNoHero() throws Exception {
        RunFixture f = new RunFixture(dir);
        for (int pool : new int[] {50, 100, 200, 400}) {
            f.row("pool-bottleneck", "virtual", 2000, pool, 1, pool * 9.5, 200);
            f.row("pool-bottleneck", "platform", 2000, pool, 1, Math.min(pool, 200) * 9.5, 900);
        }
        f.write();
        ChartData cd = new ChartData(RunData.load(dir));
        assertTrue(cd.hero("pool-bottleneck").isEmpty());
        List<ChartSpec> b = cd.bottleneck("pool-bottleneck");
        assertEquals(1, b.size());
        ChartSpec c = b.getFirst();
        assertEquals("HikariCP pool size (connections)", c.xLabel());
        assertEquals(3800, at(line(c, "virtual req/s"), 400).y(), 1e-9);
        assertEquals(1900, at(line(c, "platform-200 req/s"), 400).y(), 1e-9);
        assertTrue(c.title().contains("2,000 connections"), c.title());
    }

    @Test
    void fewSweepPointsBecomeBarsWithCategoryIndexes() throws Exception {
        RunFixture f = new RunFixture(dir);
        f.row("servlet", "platform", 50, null, 1, 480, 120);
        f.row("servlet", "virtual", 50, null, 1, 495, 110);
        f.write();
        ChartSpec c = new ChartData(RunData.load(dir)).hero("servlet").getFirst();
        assertEquals("bar", c.kind());
        assertEquals(List.of("50"), c.categories());
        assertEquals(0, line(c, "virtual req/s").points().getFirst().x());
        assertEquals("points", line(c, "virtual p99 ms").style());
    }

    /**
     * The A/B's bars are means: every fork's mean is drawn beside its bar (one point per fork, its iterations averaged,
     * ok rows only), in the figure as a hollow dot per fork.
     */
    @Test
    void anAbsBarsHaveEveryForksMeanBesideThem() throws Exception {
        RunFixture f = new RunFixture(dir);
        double[][] forks = {{480, 470}, {495, 560}, {510, 505}};
        for (int k = 0; k < forks.length; k++) {
            for (int it = 0; it < 2; it++) {
                f.row("servlet", "platform", 400, null, 1, forks[k][0] + it * 10, 120).put("fork", k + 1);
                f.row("servlet", "virtual", 400, null, 1, forks[k][1] + it * 10, 110).put("fork", k + 1);
            }
        }
        f.row("servlet", "virtual", 400, null, 1, 9999, 110).put("fork", 4);
        f.rows.getLast().put("status", "flagged");
        f.rows.getLast().put("flags", "busy-machine");
        f.write();
        ChartSpec c = new ChartData(RunData.load(dir)).hero("servlet").getFirst();
        assertEquals("bar", c.kind());
        ChartSpec.Line p = line(c, "platform-200 forks req/s"), v = line(c, "virtual forks req/s");
        assertEquals("forks", v.style());
        assertEquals(List.of(485.0, 500.0, 515.0), p.points().stream().map(ChartSpec.Point::y).toList(), "each fork's iterations averaged");
        assertEquals(List.of(475.0, 565.0, 510.0), v.points().stream().map(ChartSpec.Point::y).toList(), "the flagged fork is not drawn as evidence");
        assertEquals(List.of(0.0), v.points().stream().map(ChartSpec.Point::x).distinct().toList(), "at its bar's category");
        assertEquals(2, v.points().getFirst().rows().size(), "a fork's dot links its rows");
        String svg = StaticChart.svg(c);
        long dots = java.util.regex.Pattern.compile("<circle [^>]*r=\"3\\.5\" fill=\"[^\"]+\" stroke=\"#ffffff\"").matcher(svg).results().count();
        assertEquals(6 + 2, dots, "a dot per fork, 3 a side, and one a side in the legend: " + svg);
    }

    @Test
    void jmhScoresKeepTheirErrorsAndUnits() throws Exception {
        new RunFixture(dir).write().studies(RunFixture.JMH).file("jmh.csv", """
                benchmark,thread_mode,workers,score,error,unit
                vtlab.jmh.Sleep.run,platform,1000,12.5,0.5,ops/s
                vtlab.jmh.Sleep.run,virtual,1000,980.0,12.0,ops/s
                vtlab.jmh.Start.start,virtual,1,0.8,0.1,us/op
                """);
        List<ChartSpec> charts = new ChartData(RunData.load(dir)).scores(RunFixture.JMH);
        assertEquals(2, charts.size(), "one chart per unit");
        ChartSpec ops = charts.getFirst();
        assertEquals(List.of("Sleep.run ×1000"), ops.categories());
        ChartSpec.Point v = line(ops, "virtual").points().getFirst();
        assertEquals(980.0, v.y());
        assertEquals(12.0, v.err());
        assertEquals(List.of("jmh-2"), v.rows());
    }

    @Test
    void overTimeChartsComeFromTheRowsOwnSeries() throws Exception {
        RunFixture.heroSweep(dir).write();
        RunData data = RunData.load(dir);
        List<ChartSpec> small = new ChartData(data).overTime(3);
        assertEquals(List.of("app_cpu_pct", "threads"), small.stream().map(ChartSpec::title).toList());
        assertEquals(5, small.getFirst().lines().getFirst().points().size());
        assertEquals("% (100 = one core)", small.getFirst().yLabel());
        assertTrue(new ChartData(data).overTime(17).isEmpty(), "the failed row has no series");
        assertFalse(ChartData.isErrorSeries("app_cpu_pct"));
        assertTrue(ChartData.isErrorSeries("errors_timeout"));
    }

    @Test
    void variantsKeepTheirColourAcrossCharts() throws Exception {
        RunFixture.heroSweep(dir).write();
        ChartData cd = new ChartData(RunData.load(dir));
        String before = cd.color("platform-200");
        cd.hero("servlet");
        cd.memory("servlet");
        assertEquals(before, cd.color("platform-200"));
        assertEquals("#1f77b4", cd.color("virtual"));
        assertFalse(cd.color("platform-2000").equals(before));
        vtlab.data.DataRow r = vtlab.data.DataRow.of(Map.of("thread_mode", "platform", "params", "sleepMs=1;maxThreads=2000", "stack", "servlet"));
        assertEquals("platform-2000", vtlab.data.Grouping.variant(r, false));
        assertEquals("servlet platform-2000", vtlab.data.Grouping.variant(r, true));
    }

    @Test
    void spectrumPerScenarioOverlaysTheVariantsMergedHistogramsOnAPercentileAxis() throws Exception {
        RunFixture f = new RunFixture(dir);
        for (int rep = 1; rep <= 2; rep++) {
            f.histogram(f.row("servlet", "platform", 100, null, rep, 1000, 0), "p" + rep, 990, 100, 10, 400);
            f.histogram(f.row("servlet", "virtual", 100, null, rep, 1000, 0), "v" + rep, 1000 - rep * 10, 100, rep * 10, 900);
        }
        f.row("servlet", "virtual", 500, null, 1, 5000, 120); // another scenario, no histogram (wrk): no spectrum
        f.write();
        List<ChartSpec> all = new ChartData(RunData.load(dir)).spectrum("servlet");
        assertEquals(1, all.size(), "one chart per scenario with histograms");
        ChartSpec c = all.getFirst();
        assertTrue(c.logX() && c.logY());
        assertTrue(c.title().contains("sleep c=100"), c.title());
        assertEquals(List.of("50%", "75%", "90%", "95%", "99%", "99.5%", "99.9%", "99.95%", "99.99%"),
                c.xTicks().stream().map(ChartSpec.Tick::label).toList());
        ChartSpec.Line v = line(c, "virtual"), p = line(c, "platform-200");
        assertEquals(List.of(2.0, 4.0, 10.0, 20.0, 100.0, 200.0, 1000.0, 2000.0, 10000.0), v.points().stream().map(ChartSpec.Point::x).toList());
        // virtual's reps: 10 and 20 of 1,000 at 900 ms, 1.5% together: its p99 (x = 100) is in the tail
        assertEquals(900, at(v, 100).y(), 1);
        assertEquals(100, at(v, 2).y(), 0.1);
        assertEquals(List.of("row-2", "row-4"), at(v, 100).rows());
        // platform: 1% at 400 ms, so p99 is still 100 ms and p99.5 400 ms
        assertEquals(100, at(p, 100).y(), 0.1);
        assertEquals(400, at(p, 200).y(), 0.5);
    }

    @Test
    void latencyVsOfferedRateHasOneLinePerModeAlongTheSortedRates() throws Exception {
        RunFixture f = new RunFixture(dir);
        for (double rate : new double[] {1000, 250, 500}) { // not in order: the x axis sorts them
            f.histogram(RunFixture.open(f.row("servlet", "platform", 10000, null, 1, rate, 0), rate), "p" + (int) rate, 980, 50, 20, rate / 5);
            RunFixture.open(f.row("servlet", "virtual", 10000, null, 1, rate, 50 + rate / 100), rate); // no histogram: its cells
        }
        Map<String, Object> over = f.histogram(RunFixture.open(f.row("servlet", "platform", 10000, null, 1, 4000, 0), 4000), "p4000", 500, 50, 500, 3000);
        over.put("flags", "overloaded"); // still evidence: the queue is the finding
        Map<String, Object> notHeld = RunFixture.open(f.row("servlet", "virtual", 10000, null, 1, 4000, 700), 4000);
        notHeld.put("status", "flagged");
        notHeld.put("flags", "rate-not-held");
        f.row("servlet", "virtual", 100, null, 1, 900, 110); // a closed row: not on this chart
        f.write();
        List<ChartSpec> all = new ChartData(RunData.load(dir)).latencyVsRate("servlet");
        assertEquals(1, all.size());
        ChartSpec c = all.getFirst();
        assertTrue(c.logY());
        assertTrue(c.logX(), "250 -> 4,000 spans a decade");
        ChartSpec.Line p99 = line(c, "platform-200 p99 ms"), v99 = line(c, "virtual p99 ms");
        assertEquals(List.of(250.0, 500.0, 1000.0, 4000.0), p99.points().stream().map(ChartSpec.Point::x).toList());
        assertEquals(List.of(50.0, 100.0, 200.0, 3000.0), p99.points().stream().map(q -> Math.round(q.y() / 10) * 10.0).toList(),
                "p99 of each rate's histogram: 2% at rate/5 ms, then half at 3 s");
        assertEquals(List.of(250.0, 500.0, 1000.0), v99.points().stream().map(ChartSpec.Point::x).toList(), "the flagged rate is no point of the line");
        assertEquals(List.of(52.5, 55.0, 60.0), v99.points().stream().map(ChartSpec.Point::y).toList());
        assertEquals(50, at(line(c, "platform-200 p50 ms"), 1000).y(), 0.1);
        ChartSpec.Line overloaded = c.lines().stream().filter(l -> l.name().startsWith("overloaded")).findFirst().orElseThrow();
        assertEquals(List.of(4000.0), overloaded.points().stream().map(ChartSpec.Point::x).toList());
        ChartSpec.Line muted = c.lines().stream().filter(l -> l.style().equals("muted")).findFirst().orElseThrow();
        assertTrue(muted.name().contains("rate-not-held"), muted.name());
        assertEquals(700, at(muted, 4000).y());
    }

    @Test
    void oneOfferedRateMakesNoLatencyVsRateChart() throws Exception {
        RunFixture f = new RunFixture(dir);
        RunFixture.open(f.row("servlet", "platform", 10000, null, 1, 2000, 60), 2000);
        RunFixture.open(f.row("servlet", "virtual", 10000, null, 1, 2000, 120), 2000);
        f.write();
        assertTrue(new ChartData(RunData.load(dir)).latencyVsRate("servlet").isEmpty());
    }
}
