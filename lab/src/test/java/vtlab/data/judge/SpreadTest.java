package vtlab.data.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The spread between forks of one configuration: its CV with the interval the forks give it. */
class SpreadTest {
    @Test
    void theCvOfForkMeansWithAnIntervalThatNarrowsWithForks() {
        Spread s = Spread.of(new double[] {1000, 1040, 980, 1020, 990, 1010});
        assertEquals(6, s.units());
        assertEquals(0.0214, s.cv(), 1e-3, "sd 21.6 over 1,006.7");
        assertTrue(s.low() < s.cv() && s.cv() < s.high(), s.words());
        // at small CVs the chi-square interval of the sd over the mean: 5 df, 0.624 to 2.453 times the CV
        assertEquals(0.624 * s.cv(), s.low(), 2e-4);
        assertEquals(2.453 * s.cv(), s.high(), 5e-4);
        assertEquals("CV 2.1% (95% CI 1.3–5.3%, 6 forks)", s.words());
        // twice the forks, the same spread: a narrower interval
        Spread more = Spread.of(new double[] {1000, 1040, 980, 1020, 990, 1010, 1000, 1040, 980, 1020, 990, 1010});
        assertTrue(more.high() / more.low() < s.high() / s.low(), more.words());
        // two single forks of it differ by up to ±1.96·√2·CV on the log
        assertEquals(Math.expm1(1.959964 * Math.sqrt(2) * s.cv()), s.singleForkBand(), 1e-12);
    }

    @Test
    void oneForkHasNoSpread() {
        assertFalse(Spread.of(new double[] {1000}).known());
        assertEquals("one fork: no spread", Spread.of(new double[] {1000}).words());
        assertEquals(Double.NaN, Spread.of(new double[] {1000, Double.NaN}).singleForkBand());
        assertEquals(0, Spread.of(new double[] {5, 5, 5}).cv(), "no spread at all");
    }
}
