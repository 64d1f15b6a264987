package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

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

    /** The hypervisor's steal is the "cpu" line's 8th value: no process's ticks, so read apart; absent on old kernels. */
    @Test
    void stealIsTheCpuLinesEighthValue() {
        assertEquals(250, CpuProbe.stealJiffies("cpu  1000 20 300 90000 50 7 400 250 0 0\ncpu0 500 10 150 45000 25 3 200 125 0 0\n"));
        assertEquals(-1, CpuProbe.stealJiffies("cpu  1000 20 300 90000 50 7 400\n"));
    }

    /**
     * A build run as ./vtlab test runs oha's (nice 19, idle priority) is lower-priority work, whole: its user and system
     * time, and its finished children's through the shell that reaped them, not only the nice jiffies of /proc/stat.
     */
    @Test
    void aBuildAtNice19IsLowerPriorityWorkWithItsSystemTimeAndItsReapedChildren() throws Exception {
        long self = ProcessHandle.current().pid();
        LowerPriorityTicks lower = new LowerPriorityTicks(); // as the probes read them, across readings
        long[] before = lower.read(Proc.lowerPriorityProcesses(Proc.nice(self), java.util.Set.of(self)));
        // a shell that runs 20 short children, each burning CPU mostly in system time (dd of /dev/zero), reaps them and
        // lives on, as cargo does (once it has exited, its own parent, the test, has its ticks); a fixed amount of work,
        // however long a busy machine makes it take
        Path done = java.nio.file.Files.createTempFile("vtlab-lower", ".done");
        java.nio.file.Files.delete(done);
        Process p = new ProcessBuilder("nice", "-n", "19", "chrt", "-i", "0", "sh", "-c",
                "for i in $(seq 20); do dd if=/dev/zero of=/dev/null bs=64k count=20000 2>/dev/null; done; touch " + done + "; exec sleep 60").start();
        for (int i = 0; i < 600 && !java.nio.file.Files.exists(done); i++) Thread.sleep(100);
        long[] after = lower.read(Proc.lowerPriorityProcesses(Proc.nice(self), java.util.Set.of(self)));
        p.destroy();
        java.nio.file.Files.deleteIfExists(done);
        // 20 copies of 1.3 GB: about 0.8 s of system time here
        assertTrue(after[1] - before[1] >= 20, "dd's copies are system time: " + (after[0] - before[0]) + " user, " + (after[1] - before[1]) + " system ticks");
        long[] none = new LowerPriorityTicks().read(Proc.lowerPriorityProcesses(99, java.util.Set.of()));
        assertArrayEquals(new long[] {0, 0}, none, "nothing runs at a lower priority than the lowest");
    }

    /**
     * Others = the machine's busy time less the lab's and the tiers': 10 s in which the machine ran 250 ticks, the lab
     * 20 and the tiers 190 leave 40 ticks, 40% of a core; never below zero (the tiers' ticks are read a moment apart).
     */
    @Test
    void othersAreWhatNeitherTheTiersNorTheLabNorLowerPriorityWorkRan() {
        assertEquals(40.0, CpuProbe.others(new long[] {1000, 100, 500, 7}, new long[] {1250, 120, 690, 7}, 1.0));
        assertEquals(4.0, CpuProbe.others(new long[] {1000, 100, 500, 7}, new long[] {1250, 120, 690, 7}, 10.0));
        assertEquals(0.0, CpuProbe.others(new long[] {1000, 100, 500, 7}, new long[] {1100, 120, 690, 7}, 1.0));
        assertNull(CpuProbe.others(new long[] {1000, 100, 500, 7}, null, 1.0), "no sample with every tier alive: no reading");
        // a build at nice 19 ran 30 of the 40 ticks: 10% of a core is others'
        assertEquals(10.0, CpuProbe.others(new long[] {1000, 100, 500, 7}, new long[] {1250, 120, 690, 37}, 1.0));
    }
}
