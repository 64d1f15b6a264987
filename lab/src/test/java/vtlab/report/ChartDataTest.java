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
        Map<String, String> r = Map.of("thread_mode", "platform", "params", "sleepMs=1;maxThreads=2000", "stack", "servlet");
        assertEquals("platform-2000", vtlab.data.Grouping.variant(r, false));
        assertEquals("servlet platform-2000", vtlab.data.Grouping.variant(r, true));
    }
}
