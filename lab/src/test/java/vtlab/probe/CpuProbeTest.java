package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CpuProbeTest {
    /**
     * The machine's process time: user and system of the "cpu" line; interrupts, softirqs and idle are not. Nice (a
     * lower priority's) is background, unless the lab itself runs niced: then its tiers' time is in it and it is busy.
     */
    @Test
    void theMachinesBusyTimeIsUserAndSystemAndNiceIsBackground() {
        String stat = """
                cpu  1000 20 300 90000 50 7 400 0 0 0
                cpu0 500 10 150 45000 25 3 200 0 0 0
                cpu1 500 10 150 45000 25 4 200 0 0 0
                intr 123
                """;
        assertArrayEquals(new long[] {1300, 20}, CpuProbe.busyJiffies(stat, false));
        assertArrayEquals(new long[] {1320, 0}, CpuProbe.busyJiffies(stat, true));
        assertNull(CpuProbe.busyJiffies("intr 1\n", false));
    }

    /**
     * The premise of background time, on this kernel: a loop run as ./vtlab test runs oha's build (nice 19, idle
     * priority) is counted in the nice jiffies, not in user's.
     */
    @Test
    void aLoopAtNice19AndIdlePriorityIsCountedAsNice() throws Exception {
        long[] before = CpuProbe.busyJiffies(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/stat")), false);
        Process p = new ProcessBuilder("nice", "-n", "19", "chrt", "-i", "0", "timeout", "1.5", "sh", "-c", "while :; do :; done").start();
        assertEquals(124, p.waitFor(), "timeout ends the loop"); // 124: timeout's own exit code
        long[] after = CpuProbe.busyJiffies(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/stat")), false);
        // 1.5 s of a loop: up to 150 ticks; at least a fifth of it even with both cores busy beside it (it gets what is idle)
        assertTrue(after[1] - before[1] >= 30, (after[1] - before[1]) + " nice ticks");
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
