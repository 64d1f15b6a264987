package vtlab.data.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatsTest {
    @Test
    void tQuantilesAreStudentsBeyondTenDegreesOfFreedom() {
        // published two-sided 95% values; a table that stops at 10 df and then uses 1.96 gets 11 and 30 wrong
        assertEquals(12.706, Stats.t975(1), 1e-3);
        assertEquals(2.228, Stats.t975(10), 1e-3);
        assertEquals(2.201, Stats.t975(11), 1e-3);
        assertEquals(2.042, Stats.t975(30), 1e-3);
    }

    @Test
    void meanWithItsIntervalOverReps() {
        // 10, 12, 14: mean 12, s = 2, half = t(2) * 2 / sqrt(3) = 4.303 * 1.1547 = 4.968
        Stats.Interval i = Stats.mean95(10, 12, 14, Double.NaN);
        assertEquals(3, i.n());
        assertEquals(12, i.mean(), 1e-12);
        assertEquals(12 - 4.968, i.low(), 1e-3);
        assertEquals(12 + 4.968, i.high(), 1e-3);
        assertTrue(Double.isNaN(Stats.mean95(5).low()), "one rep: no interval");
        assertEquals(0, Stats.mean95().n());
    }

    @Test
    void differBeyondTheNoiseOnlyWhenTheRepsSaySo() {
        assertTrue(Stats.differ(new double[] {1000, 1010, 990}, new double[] {900, 905, 895}));
        assertFalse(Stats.differ(new double[] {1000, 1100, 900}, new double[] {980, 1080, 880}), "2% apart, 10% noise");
        assertFalse(Stats.differ(new double[] {1000}, new double[] {500, 510}), "one rep: the noise is unknown");
        assertTrue(Stats.differ(new double[] {5, 5}, new double[] {6, 6}), "no spread at all: different means differ");
    }

    @Test
    void aChangeInPercentWithWelchsInterval() {
        // a: 500, 510 (mean 505, var 50); b: 900, 920 (mean 910, var 200): difference 405, se = sqrt(25 + 100) = 11.18,
        // Welch df = 125^2 / (25^2 + 100^2) = 1.47: half = t(1.47) * se, far wider than a Normal 1.96 * se = 21.9
        Stats.Interval c = Stats.changePct95(new double[] {500, 510}, new double[] {900, 920});
        assertEquals(80.198, c.mean(), 1e-3);
        assertTrue(c.low() < 80.198 - 100 * 21.9 / 505 && c.high() > 80.198 + 100 * 21.9 / 505, c.toString());
        assertEquals(c.mean() - c.low(), c.high() - c.mean(), 1e-9, "symmetric around the change");
        Stats.Interval one = Stats.changePct95(new double[] {500}, new double[] {600, 610});
        assertEquals(21.0, one.mean(), 1e-9);
        assertTrue(Double.isNaN(one.low()), "one rep a side: no interval");
        assertEquals(Stats.Interval.NONE, Stats.changePct95(new double[] {}, new double[] {1}));
    }

    @Test
    void aRatioOfForkMeansWithFiellersInterval() {
        // a: 98, 100, 102 (mean 100, v = 4/3); b: 196, 200, 204 (mean 200, v = 16/3); ratio 2; Welch df for b − 2a:
        // (16/3 + 4·4/3)² / ((16/3)²/2 + (16/3)²/2) = 4, t(4) = 2.776445; quadratic (x̄² − t²v_x)θ² − 2x̄ȳθ + (ȳ² − t²v_y):
        // qa = 10000 − 7.708647·4/3 = 9989.7218, qb = 20000, qc = 40000 − 7.708647·16/3 = 39958.8872,
        // θ = (qb ± √(qb² − qa·qc)) / qa = (20000 ± √821833.16) / 9989.7218 = 1.91131 to 2.09281
        Stats.Interval r = Stats.ratio95(new double[] {98, 100, 102}, new double[] {196, 200, 204});
        assertEquals(3, r.n());
        assertEquals(2.0, r.mean(), 1e-12);
        assertEquals(1.91131, r.low(), 1e-5);
        assertEquals(2.09281, r.high(), 1e-5);
        assertTrue(r.relativeHalfWidth() < 0.05, "±4.5% of the ratio");
        assertEquals("2.00× (95% CI 1.91–2.09×)", r.renderRatio());
        // two forks a side: 100, 110 against 200, 220: df 2, t 4.302653: 1.48911 to 2.68616, not symmetric around 2.1
        Stats.Interval two = Stats.ratio95(new double[] {100, 110}, new double[] {200, 220});
        assertEquals(1.48911, two.low(), 1e-5);
        assertEquals(2.68616, two.high(), 1e-5);
        assertTrue(two.high() - two.mean() > two.mean() - two.low(), "a ratio's interval leans up");
    }

    @Test
    void aRatiosIntervalAtItsEdges() {
        Stats.Interval same = Stats.ratio95(new double[] {1000, 1100, 900}, new double[] {980, 1080, 880});
        assertTrue(same.contains(1.0), "2% apart, 10% noise: the interval holds 1.0: " + same);
        Stats.Interval exact = Stats.ratio95(new double[] {100, 100}, new double[] {150, 150});
        assertEquals(1.5, exact.low(), 1e-12, "no spread: the ratio itself");
        assertEquals(1.5, exact.high(), 1e-12);
        Stats.Interval wild = Stats.ratio95(new double[] {10, 1000}, new double[] {500, 510});
        assertFalse(wild.bounded(), "a denominator indistinguishable from 0: unbounded, " + wild);
        assertEquals("1.00× (95% CI unbounded)", wild.renderRatio());
        Stats.Interval one = Stats.ratio95(new double[] {500}, new double[] {600, 610});
        assertEquals(1.21, one.mean(), 1e-12);
        assertTrue(Double.isNaN(one.low()), "one fork a side: no interval");
        assertEquals("1.21×", one.renderRatio());
        assertEquals(Stats.Interval.NONE, Stats.ratio95(new double[] {}, new double[] {1}));
        // Fieller's set may reach below 0 when the denominator is loose (a functional run on a busy machine showed
        // 0.74× (95% CI -1.77–3.31×)); a ratio of throughputs cannot, so the interval shown starts at 0
        Stats.Interval cut = new Stats.Interval(2, 0.74, -1.77, 3.31).positive();
        assertEquals(0, cut.low());
        assertEquals("0.74× (95% CI 0.00–3.31×)", cut.renderRatio());
    }
}
