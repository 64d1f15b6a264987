package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class ProgressTest {
    private final AtomicLong now = new AtomicLong();

    private Progress progress(int rows, long plannedSeconds) {
        return new Progress(new PrintStream(new ByteArrayOutputStream()), false, rows, plannedSeconds, now::get);
    }

    private void advance(long seconds) {
        now.addAndGet(seconds * 1_000_000_000L);
    }

    @Test
    void theEtaCountsDownWithinALongRow() {
        Progress p = progress(2, 1800 + 10); // a 30-minute soak row, then a 10 s one; 8 s of overhead a row to start
        assertEquals("30m26s", p.eta());
        p.rowStarted(1800);
        advance(600);
        assertEquals("20m26s", p.eta(), "ten minutes into the soak, ten minutes less to go");
        advance(1200);
        assertEquals("26s", p.eta());
    }

    @Test
    void aRowThatOverrunsItsPlanDoesNotTakeTheRowsAfterItOff() {
        Progress p = progress(2, 20);
        p.rowStarted(10);
        advance(600); // far beyond its 10 s + 8 s
        assertEquals("18s", p.eta(), "the next row's 10 s and its 8 s overhead stay");
    }

    @Test
    void aFinishedRowLeavesTheEtaToTheRowsLeftAndTheLearnedOverhead() {
        Progress p = progress(2, 20);
        p.rowStarted(10);
        advance(14); // 10 s planned, 4 s of overhead
        p.rowDone(10, "ok");
        assertEquals("14s", p.eta(), "10 s planned + 4 s learned overhead");
        p.rowStarted(10);
        advance(5);
        assertEquals("9s", p.eta());
    }

    @Test
    void aBudgetedRunsEtaIsTheBudgetLeftOnceThePlanWouldOutlastIt() {
        Progress p = progress(13, 13 * 60); // 13 rows of a minute each planned, 10 minutes of budget
        p.budget(600);
        assertEquals("10m00s", p.eta(), "the plan's 14m44s capped at the budget");
        p.rowStarted(60);
        advance(240);
        assertEquals("6m00s", p.eta(), "four minutes in, six left of the budget");
        advance(360);
        assertEquals("0s", p.eta(), "the budget spent: the search starts no row after the one under way");
        Progress small = progress(2, 20);
        small.budget(600);
        assertEquals("36s", small.eta(), "a plan inside its budget keeps its own estimate");
    }
}
