package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import vtlab.data.judge.Trend;

/**
 * The warm-up's thresholds on both sides of their edges: the trend's slope at most 2% of the mean a slice
 * (Trend.FLAT_PCT, the edge in), a flat rate's CV at most 5% (Trend.NOISE_PCT, the edge in) and the JIT's compiler
 * threads at most 2% of a core (JIT_QUIET_PCT, the edge in), in the slices and in the pause after a busy one. Values
 * written out, so a changed constant fails here.
 */
class WarmUpEdgesTest {
    @Test
    void aRateIsSteadyAtTwoPercentASliceEitherWay() {
        // straight lines around 1,000: the interval is the slope itself
        assertTrue(Trend.of(970, 990, 1010, 1030).steady(), "+2.0%: the edge is steady");
        assertFalse(Trend.of(969.85, 989.95, 1010.05, 1030.15).steady(), "+2.01%");
        assertTrue(Trend.of(1030, 1010, 990, 970).steady(), "-2.0%");
        assertFalse(Trend.of(1030.15, 1010.05, 989.95, 969.85).steady(), "-2.01%");
    }

    @Test
    void aFlatRateIsSteadyWithinFivePercentNoise() {
        // no slope, a CV of 4.99% and of 5.01%
        assertTrue(Trend.of(1043.2, 956.8, 956.8, 1043.2).steady());
        assertFalse(Trend.of(1043.4, 956.6, 956.6, 1043.4).steady());
    }

    @Test
    void theJitIsQuietAtTwoPercentOfACoreOrLess() {
        assertTrue(WarmUp.jitQuiet(new WarmUp.Slice(1000, 1.99)));
        assertTrue(WarmUp.jitQuiet(new WarmUp.Slice(1000, 2.0)), "2%: the edge is quiet");
        assertFalse(WarmUp.jitQuiet(new WarmUp.Slice(1000, 2.01)));
        assertTrue(WarmUp.jitQuiet(new WarmUp.Slice(1000, Double.NaN)), "unread: does not hold the row");
    }

    /** Both edges at once in a warm-up: after the 10 s minimum, four 5 s slices settle it, or it goes on. */
    @Test
    void aWarmUpEndsOnlyWhenBothHoldOnTheirEdge() throws Exception {
        Duration min = Duration.ofSeconds(10), max = Duration.ofSeconds(30);
        WarmUp.Result edge = WarmUp.run(min, max, (d, i) -> new WarmUp.Slice(i == 0 ? 500 : 950 + 20 * i, 2.0));
        assertEquals(Boolean.TRUE, edge.steady(), edge.trend());
        assertEquals(Duration.ofSeconds(30), edge.total(), "settled by the fourth slice");
        WarmUp.Result rate = WarmUp.run(min, max, (d, i) -> new WarmUp.Slice(i == 0 ? 500 : 949.85 + 20.1 * i, 2.0));
        assertEquals(Boolean.FALSE, rate.steady(), "2.01% more each slice never settles");
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
