package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.Columns;
import vtlab.data.Rows;

class HistogramsTest {
    @TempDir
    Path dir;

    /** Two reps of one scenario: 1,000 requests at 10 ms; then 970 at 10 ms and a tail of 30 at 500 ms. */
    static RunFixture twoReps(Path dir) throws Exception {
        RunFixture f = new RunFixture(dir);
        f.histogram(f.row("servlet", "virtual", 100, null, 1, 1000, 0), "r1", 1000, 10);
        f.histogram(f.row("servlet", "virtual", 100, null, 2, 1000, 0), "r2", 970, 10, 30, 500);
        return f;
    }

    @Test
    void p99OfRepsIsThatOfTheirMergedHistogramNotTheMeanOfTheirP99s() throws Exception {
        twoReps(dir).write();
        List<vtlab.data.DataRow> rows = RunData.load(dir).rows();
        double p99a = rows.get(0).num(Columns.P99), p99b = rows.get(1).num(Columns.P99);
        assertEquals(10, p99a, 0.01);
        assertEquals(500, p99b, 0.5);
        Histograms h = Histograms.of(dir);
        assertNotNull(h.merged(rows));
        // 30 of 2,000 requests (1.5%) took 500 ms: so does the scenario's p99; the mean of the p99s (255 ms) is no request's
        double merged = h.ms(rows, 99, Columns.P99);
        assertEquals(500, merged, 0.5);
        assertTrue(Math.abs(merged - (p99a + p99b) / 2) > 200, merged + " vs mean " + (p99a + p99b) / 2);
        assertEquals(10, h.ms(rows, 50, Columns.P50), 0.01);
        assertTrue(h.problems().isEmpty(), h.problems().toString());
    }

    @Test
    void aRepWithoutItsHistogramFallsBackToTheMeanOfTheCells() throws Exception {
        RunFixture f = twoReps(dir);
        f.rows.get(1).remove("histogram"); // a generator that writes none (wrk, hey today)
        f.write();
        List<vtlab.data.DataRow> rows = RunData.load(dir).rows();
        Histograms h = Histograms.of(dir);
        assertNull(h.merged(rows));
        assertEquals(Rows.mean(rows, Columns.P99), h.ms(rows, 99, Columns.P99));
        assertTrue(h.problems().isEmpty(), "no histogram is not a problem: " + h.problems());
    }

    @Test
    void aNamedHistogramThatCannotBeReadIsAProblemAndFallsBack() throws Exception {
        RunFixture f = twoReps(dir);
        f.rows.get(1).put("histogram", "gone.hlog");
        f.write();
        RunData data = RunData.load(dir);
        List<vtlab.data.DataRow> rows = data.rows();
        assertEquals(Rows.mean(rows, Columns.P99), data.histograms().ms(rows, 99, Columns.P99));
        assertEquals(1, data.problems().size(), data.problems().toString());
        assertTrue(data.problems().getFirst().contains("gone.hlog"));
        data.histograms().ms(rows, 50, Columns.P50);
        assertEquals(1, data.problems().size(), "said once");
    }

    @Test
    void summaryMarksMergedPercentilesAndSaysWhichItIs() throws Exception {
        twoReps(dir).write();
        String merged = Summary.render(RunData.load(dir).rows(), Histograms.of(dir));
        assertTrue(merged.matches("(?s).*virtual .* 10\\.0\\* +500\\.\\d\\* .*"), merged);
        assertTrue(merged.contains("p50/p99 *: percentiles of the reps' merged latency histogram"), merged);

        RunFixture f = twoReps(dir.resolve("b"));
        f.rows.get(0).remove("histogram");
        f.write();
        String mean = Summary.render(RunData.load(f.dir).rows(), Histograms.of(f.dir));
        assertTrue(mean.matches("(?s).*virtual .* 10\\.0 +255\\.\\d .*"), "the mean of 10 and 500: " + mean);
        assertTrue(mean.contains("p50/p99: mean of the reps' own p50/p99."), mean);
        assertFalse(mean.contains("*"), mean);
    }
}
