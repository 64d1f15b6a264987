package vtlab.data.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The judge's error rates held to their bounds on the seeded simulation ({@link ErrorRates}; the full table, at 20,000
 * trials a cell, is in docs/results.md): a false claim on A/A at most 5% at every fork count, the set covering the true
 * ratio at least 94% of the time for normal fork means; the heavy-tailed, slow-first-fork and interleaved-drift models
 * held to the same false-claim bound (their coverage is said in the table, not held: blocked drift is why ab interleaves).
 */
class ErrorRatesTest {
    static final int TRIALS = 3000;

    @Test
    void normalForksFalseClaimAtMostFivePercentAndCoverageAtLeast94() {
        for (int n = 2; n <= 6; n++) {
            ErrorRates.Line l = ErrorRates.fixed(ErrorRates.Model.NORMAL, n, TRIALS, ErrorRates.SEED);
            assertTrue(l.falseClaim() <= 0.05, n + " forks a side: " + l);
            assertTrue(l.coverage() >= 0.94, n + " forks a side: " + l);
        }
        // the power grows with the forks: 6 a side find a 20% gain nearly always
        assertTrue(ErrorRates.fixed(ErrorRates.Model.NORMAL, 6, TRIALS, ErrorRates.SEED).power20() >= 0.95);
    }

    @Test
    void otherNoiseModelsKeepTheFalseClaimBound() {
        for (ErrorRates.Model m : new ErrorRates.Model[] {ErrorRates.Model.HEAVY, ErrorRates.Model.SLOW_FIRST, ErrorRates.Model.DRIFT}) {
            for (int n = 2; n <= 6; n++) {
                ErrorRates.Line l = ErrorRates.fixed(m, n, TRIALS / 2, ErrorRates.SEED);
                assertTrue(l.falseClaim() <= 0.05, m + " at " + n + " forks a side: " + l);
            }
        }
    }

    /** Adding forks until settled is a sequential test: split over its 5 looks the 5% holds; 95% at every look, stopping at a claim, does not. */
    @Test
    void theFork_searchsLooksKeepTheBoundANaiveSearchWouldNot() {
        ErrorRates.Line auto = ErrorRates.sequential(ErrorRates.Model.NORMAL, true, TRIALS, ErrorRates.SEED);
        ErrorRates.Line naive = ErrorRates.sequential(ErrorRates.Model.NORMAL, false, TRIALS, ErrorRates.SEED);
        assertTrue(auto.falseClaim() <= 0.05 && auto.coverage() >= 0.94, auto.toString());
        assertTrue(naive.falseClaim() > 0.05, "the inflation the cap prevents: " + naive);
    }

    @Test
    void theSameSeedGivesTheSameTable() {
        assertEquals(ErrorRates.fixed(ErrorRates.Model.HEAVY, 3, 200, 7), ErrorRates.fixed(ErrorRates.Model.HEAVY, 3, 200, 7));
    }
}
