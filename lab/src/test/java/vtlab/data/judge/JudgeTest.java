package vtlab.data.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.core.UsageError;

/** The judge's answers from Fieller's exact set: a ray is a claim, everything is undetermined, a narrow interval in the band is equivalent. */
class JudgeTest {
    /**
     * The worked case: platform forks 1,000 and 1,250 req/s, virtual 3,000 and 3,010: the denominator's mean is
     * not clear of 0 at one degree of freedom, so Fieller's set is two rays, one of them below 0: [1.107, ∞), which
     * excludes 1. It was "(-∞, +∞)" and "no difference" before.
     */
    @Test
    void aRayThatExcludesOneIsAtLeastThatMuchBetter() {
        Claim c = Judge.ratio("virtual / platform req/s", new double[] {1000, 1250}, new double[] {3000, 3010}, Margin.DEFAULT);
        assertEquals(RatioSet.Shape.AT_LEAST, c.set().shape());
        assertEquals(1.107, c.set().low(), 0.001);
        assertEquals(Answer.BETTER, c.answer());
        assertEquals("better: at least 1.11×", c.answerWords());
        assertEquals("2.67× (95% set: at least 1.11×)", c.ratioWords());
        assertFalse(c.answerWords().contains("no difference"));
    }

    @Test
    void aWideIntervalHoldingOneIsUndeterminedWithWhatWouldSettleIt() {
        Claim c = Judge.ratio("x", new double[] {1000, 1100, 900}, new double[] {1080, 980, 1180}, Margin.DEFAULT);
        assertEquals(RatioSet.Shape.INTERVAL, c.set().shape());
        assertTrue(c.set().contains(1.0));
        assertEquals(Answer.UNDETERMINED, c.answer());
        assertTrue(c.moreForks() > 0, c.toString());
        assertTrue(c.answerWords().startsWith("undetermined: the interval holds 1.0 and reaches past ±5%; about "), c.answerWords());
    }

    @Test
    void aNarrowIntervalInsideTheMarginIsEquivalent() {
        Claim c = Judge.ratio("x", new double[] {1000, 1004, 996}, new double[] {1001, 1005, 997}, Margin.DEFAULT);
        assertEquals(Answer.EQUIVALENT, c.answer(), c.toString());
        assertEquals("equivalent within ±5%", c.answerWords());
        // the same forks against a 0.5% margin: the interval reaches past it
        assertEquals(Answer.UNDETERMINED, Judge.ratio("x", new double[] {1000, 1004, 996}, new double[] {1001, 1005, 997}, new Margin(0.005)).answer());
    }

    @Test
    void aSetOfEveryRatioIsUndeterminedNeverNoDifference() {
        Claim c = Judge.ratio("x", new double[] {10, 1000}, new double[] {500, 900}, Margin.DEFAULT);
        assertEquals(RatioSet.Shape.EVERYTHING, c.set().shape(), c.toString());
        assertEquals(Answer.UNDETERMINED, c.answer());
        assertTrue(c.answerWords().contains("exclude no ratio"), c.answerWords());
    }

    @Test
    void fiellersShapes() {
        // the denominator clear of 0: an interval around the ratio, not symmetric
        RatioSet i = RatioSet.fieller(100, 1, 200, 4, 2);
        assertEquals(RatioSet.Shape.INTERVAL, i.shape());
        assertTrue(i.low() < 2 && i.high() > 2 && (i.high() - 2) > (2 - i.low()), i.toString());
        // two positive roots need a mean below 0 (throughputs and latencies never give one, the judge refuses it):
        // two rays, 1.0 outside but no side known
        RatioSet two = RatioSet.fieller(1, 1, -1, 1, 1.2);
        assertEquals(RatioSet.Shape.TWO_RAYS, two.shape(), two.toString());
        assertFalse(two.above(1) || two.below(1));
        // no root: everything
        assertEquals(RatioSet.Shape.EVERYTHING, RatioSet.fieller(1, 1, 1, 1, 3).shape());
    }

    @Test
    void oneForkASideIsADirectionNotAClaim() {
        Claim c = Judge.ratio("x", new double[] {1000}, new double[] {2000}, Margin.DEFAULT);
        assertEquals(RatioSet.Shape.NONE, c.set().shape());
        assertEquals(Answer.UNDETERMINED, c.answer());
        assertEquals("2.00× (one fork a side: no interval)", c.ratioWords());
    }

    @Test
    void aSequentialLookIsJudgedWider() {
        assertEquals(0.975, Judge.SEQUENTIAL_LEVEL, 1e-12);
        Claim one = Judge.ratio("x", new double[] {1000, 1010, 990}, new double[] {1100, 1120, 1080}, Margin.DEFAULT);
        Claim look = Judge.ratio("x", new double[] {1000, 1010, 990}, new double[] {1100, 1120, 1080}, Margin.DEFAULT, Judge.SEQUENTIAL_LEVEL);
        assertTrue(look.set().low() < one.set().low() && look.set().high() > one.set().high(), one + " " + look);
        assertEquals("97.5%", look.levelWords());
        assertEquals("95%", one.levelWords());
    }

    @Test
    void aMarginIsAPercentAboveZeroAndAtMostFifty() throws UsageError {
        assertEquals(0.05, Margin.parse("--margin", "5%").fraction(), 1e-12);
        assertEquals(0.025, Margin.parse("--margin", "2.5").fraction(), 1e-12);
        assertEquals("±5%", Margin.DEFAULT.words());
        assertEquals(1 / 1.05, Margin.DEFAULT.lower(), 1e-12);
        for (String bad : List.of("0", "0%", "150%", "abc", "-5%", "", "NaN", "Infinity")) {
            UsageError e = assertThrows(UsageError.class, () -> Margin.parse("--margin", bad), bad);
            assertTrue(e.getMessage().startsWith("--margin " + bad + ": "), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line");
        }
    }

    @Test
    void aDumpIsTheUnitOfADumpShare() {
        // 30 of 50 threads waiting, in 2 dumps: two instants, not fifty trials
        double[] byDump = Shares.ofDumps(30, 50, 2), byThread = Shares.wilson(0.6, 50);
        assertTrue(byDump[1] - byDump[0] > 2 * (byThread[1] - byThread[0]), java.util.Arrays.toString(byDump) + " " + java.util.Arrays.toString(byThread));
        assertEquals(byThread[0], Shares.ofDumps(30, 50, 50)[0], 1e-12, "a dump a thread: as many units as threads");
    }

    @Test
    void iterationsOfOneForkAreOneUnit() {
        double[] m = Units.means(List.of(999.0, 1000.0, 1001.0, 1099.0, 1100.0, 1101.0), List.of("1", "1", "1", "2", "2", "2"));
        assertEquals(2, m.length);
        assertEquals(1000, m[0], 1e-9);
        assertEquals(3, Units.means(List.of(1.0, 2.0, 3.0), java.util.Arrays.asList(null, "", null)).length, "no fork: each value its own unit");
    }
}
