package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class CpuProbeTest {
    /** The machine's process time: user, nice and system of the "cpu" line; interrupts, softirqs and idle are not. */
    @Test
    void theMachinesBusyTimeIsUserNiceAndSystem() {
        String stat = """
                cpu  1000 20 300 90000 50 7 400 0 0 0
                cpu0 500 10 150 45000 25 3 200 0 0 0
                cpu1 500 10 150 45000 25 4 200 0 0 0
                intr 123
                """;
        assertEquals(1320, CpuProbe.busyJiffies(stat));
        assertEquals(-1, CpuProbe.busyJiffies("intr 1\n"));
    }

    /**
     * Others = the machine's busy time less the lab's and the tiers': 10 s in which the machine ran 250 ticks, the lab
     * 20 and the tiers 190 leave 40 ticks, 40% of a core; never below zero (the tiers' ticks are read a moment apart).
     */
    @Test
    void othersAreWhatNeitherTheTiersNorTheLabRan() {
        assertEquals(40.0, CpuProbe.others(new long[] {1000, 100, 500}, new long[] {1250, 120, 690}, 1.0));
        assertEquals(4.0, CpuProbe.others(new long[] {1000, 100, 500}, new long[] {1250, 120, 690}, 10.0));
        assertEquals(0.0, CpuProbe.others(new long[] {1000, 100, 500}, new long[] {1100, 120, 690}, 1.0));
        assertNull(CpuProbe.others(new long[] {1000, 100, 500}, null, 1.0), "no sample with every tier alive: no reading");
    }
}
