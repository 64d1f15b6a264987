package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * The warm-up's two thresholds on both sides of their edges: a slice's rate within 5% of the one before (TOLERANCE,
 * the edge in) and the JIT's compiler threads at most 2% of a core (JIT_QUIET_PCT, the edge in), in the slices and in
 * the pause after a busy one. Values written out, so a changed constant fails here.
 */
class WarmUpEdgesTest {
    @Test
    void aRateIsSettledWithinFivePercentOfTheOneBeforeEitherWay() {
        assertFalse(WarmUp.settled(1000, 949), "-5.1%");
        assertTrue(WarmUp.settled(1000, 950), "-5%: the edge is settled");
        assertTrue(WarmUp.settled(1000, 951));
        assertTrue(WarmUp.settled(1000, 1049));
        assertTrue(WarmUp.settled(1000, 1050), "+5%");
        assertFalse(WarmUp.settled(1000, 1051), "+5.1%");
    }

    @Test
    void theJitIsQuietAtTwoPercentOfACoreOrLess() {
        assertTrue(WarmUp.jitQuiet(new WarmUp.Slice(1000, 1.99)));
        assertTrue(WarmUp.jitQuiet(new WarmUp.Slice(1000, 2.0)), "2%: the edge is quiet");
        assertFalse(WarmUp.jitQuiet(new WarmUp.Slice(1000, 2.01)));
        assertTrue(WarmUp.jitQuiet(new WarmUp.Slice(1000, Double.NaN)), "unread: does not hold the row");
    }

    /** Both edges at once in a warm-up: after the 10 s minimum, one 5 s slice settles it, or it goes on. */
    @Test
    void aWarmUpEndsOnlyWhenBothHoldOnTheirEdge() throws Exception {
        Duration min = Duration.ofSeconds(10), max = Duration.ofSeconds(30);
        WarmUp.Result edge = WarmUp.run(min, max, (d, i) -> new WarmUp.Slice(i == 0 ? 1000 : 1050, 2.0));
        assertEquals(Boolean.TRUE, edge.steady());
        assertEquals(Duration.ofSeconds(15), edge.total(), "settled by the first slice");
        WarmUp.Result rate = WarmUp.run(min, max, (d, i) -> new WarmUp.Slice(1000 * Math.pow(1.051, i), 2.0));
        assertEquals(Boolean.FALSE, rate.steady(), "5.1% more each slice never settles");
        WarmUp.Result jit = WarmUp.run(min, max, (d, i) -> new WarmUp.Slice(1000, 2.01));
        assertEquals(Boolean.FALSE, jit.steady(), "a JIT at 2.01% never lets it end");
    }

    /**
     * After a busy slice the load waits while the compiler used more than 2% of a core over a 250 ms window, read in
     * nanoseconds: 5 ms is the edge, 5.000001 ms busy.
     */
    @Test
    void thePauseEndsAtTwoPercentOfACore() throws Exception {
        long[] two = {0, 5_000_000}, over = {0, 5_000_001, 10_000_002, 12_000_000};
        int[] i = {0};
        assertEquals(Duration.ofMillis(250), WarmUp.catchUp(() -> two[Math.min(i[0]++, two.length - 1)], ms -> {}), "5 ms in 250 ms: quiet");
        int[] j = {0};
        assertEquals(Duration.ofMillis(750), WarmUp.catchUp(() -> over[Math.min(j[0]++, over.length - 1)], ms -> {}),
                "just over 2% is busy; 2% is quiet");
    }
}
