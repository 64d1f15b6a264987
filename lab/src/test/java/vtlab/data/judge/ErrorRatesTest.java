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

    /**
     * Adding forks until settled is a sequential test: at 97.5% a look the rule keeps the 5% on every model of the lab's
     * forks that runs them interleaved; 95% a look with the same rule does not where one side is steady (normal forks
     * stay under 5% there once Welch's df are rounded down), and stopping at the first claim does not anywhere.
     */
    @Test
    void theFork_searchsLooksKeepTheBoundANaiveSearchWouldNot() {
        for (ErrorRates.Model m : new ErrorRates.Model[] {ErrorRates.Model.NORMAL, ErrorRates.Model.HEAVY, ErrorRates.Model.SLOW_FIRST, ErrorRates.Model.DRIFT,
                ErrorRates.Model.UNEQUAL}) {
            ErrorRates.Line auto = ErrorRates.sequential(m, ErrorRates.Stopping.AUTO, TRIALS, ErrorRates.SEED);
            assertTrue(auto.falseClaim() <= 0.05 && auto.coverage() >= 0.94, auto.toString());
        }
        ErrorRates.Line width95 = ErrorRates.sequential(ErrorRates.Model.UNEQUAL, ErrorRates.Stopping.WIDTH_95, TRIALS, ErrorRates.SEED);
        ErrorRates.Line naive = ErrorRates.sequential(ErrorRates.Model.NORMAL, ErrorRates.Stopping.NAIVE, TRIALS, ErrorRates.SEED);
        assertTrue(width95.falseClaim() > 0.05, "a narrow-by-chance spread stopping a 95% look: " + width95);
        assertTrue(naive.falseClaim() > 0.05, "the inflation stopping at a claim brings: " + naive);
    }

    /**
     * One side's forks steady, the other spread (the sleep A/B: platform's 200 threads at their bound). Welch's degrees
     * of freedom as estimated ran liberal here (5.5–6.5% before they were rounded down, docs/results.md); rounded down,
     * each fixed design is a one-sample t on the spread side, exact at its 5%: held to 5% plus twice the simulation's
     * own standard error (the table at 20,000 trials shows 4.7–5.1%); the auto rule is held to 5% flat with the others.
     */
    @Test
    void oneSteadySideKeepsTheBound() {
        double simulationError = 2 * Math.sqrt(0.05 * 0.95 / TRIALS);
        for (int n = 2; n <= 6; n++) {
            ErrorRates.Line l = ErrorRates.fixed(ErrorRates.Model.UNEQUAL, n, TRIALS, ErrorRates.SEED);
            assertTrue(l.falseClaim() <= 0.05 + simulationError, n + " forks a side: " + l);
        }
    }

    /** Welch's df rounded down: equal spreads keep n₁ + n₂ − 2; one side's spread nearly all of it, that side's n − 1. */
    @Test
    void welchDegreesOfFreedomAreRoundedDown() {
        assertEquals(4.0, Stats.welchDf(1.0, 3, 1.0, 3));
        assertEquals(1.0, Stats.welchDf(1.0, 2, 0.01, 3), "1.02 from the data: the spread side's 2 forks decide");
        assertEquals(2.0, Stats.welchDf(1.0, 3, 0.15, 3), "2.59 from the data: rounded down, not to the nearest");
    }

    @Test
    void theSameSeedGivesTheSameTable() {
        assertEquals(ErrorRates.fixed(ErrorRates.Model.HEAVY, 3, 200, 7), ErrorRates.fixed(ErrorRates.Model.HEAVY, 3, 200, 7));
    }
}
