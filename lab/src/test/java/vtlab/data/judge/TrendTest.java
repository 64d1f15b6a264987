package vtlab.data.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TrendTest {

    @Test
    void aRisingRateIsStillWarmingThoughEachSliceAgreesWithTheLast() {
        // +3% a slice: every slice within 5% of the one before
        Trend t = Trend.of(1000, 1030, 1061, 1093);
        assertFalse(t.steady(), t.reason());
        assertEquals(Trend.Verdict.RISING, t.verdict());
        assertEquals(2.96, t.slopePct().mean(), 0.01);
        assertTrue(t.slopePct().low() > 2.8 && t.slopePct().high() < 3.1, t.reason());
        assertTrue(t.reason().startsWith("rising +3.0%/slice (95% CI +2.8% to +3.1%) over 4 slices"), t.reason());
        // noise on the climb: its interval holds 0 and its CV is under 5%, as a flat noisy rate's would; the slope
        // (+2.7% a slice) still says rising
        Trend noisy = Trend.of(1000, 1045, 1045, 1093);
        assertTrue(noisy.slopePct().contains(0) && noisy.cvPct() < Trend.NOISE_PCT, noisy.reason());
        assertEquals(Trend.Verdict.RISING, noisy.verdict(), noisy.reason());
    }

    @Test
    void aFlatNoisyRateWithinNoiseIsSteady() {
        // ±4% around 1,000: the interval is ±10% wide and holds 0, the CV 4.6%
        Trend t = Trend.of(1040, 960, 1040, 960);
        assertTrue(t.steady(), t.reason());
        assertEquals(Trend.Verdict.NOISY_FLAT, t.verdict());
        assertEquals(4.62, t.cvPct(), 0.01);
        assertTrue(t.slopePct().contains(0));
        assertTrue(t.reason().startsWith("flat within the noise: -1.6%/slice"), t.reason());
        assertTrue(Trend.of(1000, 1045, 960, 1010).steady());
    }

    @Test
    void aFlatQuietRateIsSteady() {
        Trend t = Trend.of(1000, 1005, 998, 1002);
        assertTrue(t.steady(), t.reason());
        assertEquals(Trend.Verdict.FLAT, t.verdict());
        assertTrue(t.slopePct().low() > -1 && t.slopePct().high() < 1, t.reason());
        assertEquals(0.3, t.cvPct(), 0.01);
    }

    @Test
    void aFallingRateIsNotSteady() {
        Trend t = Trend.of(1000, 970, 941, 913);
        assertFalse(t.steady(), t.reason());
        assertEquals(Trend.Verdict.FALLING, t.verdict());
        assertEquals(-3.03, t.slopePct().mean(), 0.01);
    }

    @Test
    void fewerThanFourSlicesAreNotJudged() {
        Trend t = Trend.of(1000, 1000, 1000);
        assertFalse(t.steady());
        assertEquals(Trend.Verdict.TOO_FEW, t.verdict());
        assertEquals("3 of the 4 slices a trend needs", t.reason());
        assertEquals(Trend.Verdict.TOO_FEW, Trend.of().verdict());
    }

    @Test
    void onlyTheLastFourSlicesCount() {
        // the cold start leaves the window: the last four are flat
        assertTrue(Trend.of(200, 500, 900, 1000, 1005, 998, 1002).steady());
        assertFalse(Trend.of(1000, 1005, 998, 1002, 1100).steady(), "a jump in the last slice is in the window");
    }

    @Test
    void aTrendTheIntervalStillSeesOrScatterBeyondTheNoiseIsNotSteady() {
        // +1.75% a slice, under FLAT, but the interval (+1.0% to +2.6%) excludes 0 and reaches past 2%
        Trend drift = Trend.of(1000, 1018, 1030, 1056);
        assertEquals(Trend.Verdict.DRIFTING, drift.verdict(), drift.reason());
        assertFalse(drift.steady());
        // no trend, but a CV of 11.5%
        Trend wild = Trend.of(1100, 900, 900, 1100);
        assertEquals(Trend.Verdict.NOISY, wild.verdict(), wild.reason());
        assertFalse(wild.steady());
        assertTrue(wild.reason().contains("CV 11.5% (more than 5%)"), wild.reason());
    }

    @Test
    void noAnswersAreNotSteady() {
        Trend t = Trend.of(0, 0, 0, 0);
        assertFalse(t.steady());
        assertEquals(Trend.Verdict.NO_RATE, t.verdict());
    }
}
