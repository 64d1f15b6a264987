package vtlab.data;

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
}
