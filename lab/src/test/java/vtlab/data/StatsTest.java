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
}
