package vtlab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The recovery rule's two thresholds on both sides of their edges: a second is back when its p99 is within 10% of the
 * p99 before the fault (RECOVERED_WITHIN 1.10, the edge in), and recovery is the first such second that stays back
 * for 3 seconds (STAY_S), all inside the hold. Values written out, so a changed constant fails here.
 */
class FaultVerdictEdgesTest {
    static final int HOLD = 20, FAULT_END = 10;

    /** p99 per second of the hold: 100 ms before the fault, 2 s during it, then the given seconds from its end on. */
    static Integer recovery(double... afterTheFault) {
        List<double[]> pts = new ArrayList<>();
        for (int s = 0; s < HOLD; s++) {
            double v = s < 5 ? 100 : s < FAULT_END ? 2000 : s - FAULT_END < afterTheFault.length ? afterTheFault[s - FAULT_END] : 100;
            pts.add(new double[] {s + 1, v});
        }
        return FaultVerdict.recovery(pts, 100.0, FAULT_END, HOLD);
    }

    @Test
    void aSecondIsBackWithinTenPercentOfBefore() {
        assertEquals(0, recovery(109.9, 109.9, 109.9), "9.9% above before: back");
        assertEquals(0, recovery(110.0, 110.0, 110.0), "10%: the edge is back");
        assertEquals(1, recovery(110.1, 100, 100, 100), "10.1% above before: not yet");
        assertEquals(3, recovery(100, 100, 110.2, 100, 100, 100), "one second just over the line breaks the 3 s run");
    }

    @Test
    void backMeansThreeSecondsInARow() {
        assertEquals(0, recovery(100, 100, 100, 500), "three good seconds, then a bad one: recovered at the first");
        assertEquals(3, recovery(100, 100, 500, 100, 100, 100, 500), "two good seconds are not recovery; the next three are");
        assertEquals(4, recovery(500, 100, 100, 500, 100, 100, 100, 500));
    }

    @Test
    void theThreeSecondsMustAllBeInTheHold() {
        // 10 seconds after the fault: bad until the last three (recovered at 7), or the last two (not within the hold)
        assertEquals(7, recovery(500, 500, 500, 500, 500, 500, 500, 100, 100, 100));
        assertNull(recovery(500, 500, 500, 500, 500, 500, 500, 500, 100, 100));
    }
}
