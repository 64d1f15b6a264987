package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

class LowerPriorityTicksTest {
    /**
     * A lower-priority build whose top process ends in a hold, reaped by a shell that is not lower priority (oha's
     * cargo under ./vtlab test): its ticks stay counted as last read, not taken out of the sum (others' CPU once read
     * 10,326% of a core there); a compiler reaped by the cargo moves into the cargo's ticks, counted once.
     */
    @Test
    void aBuildThatEndsInAHoldKeepsItsTicks() {
        LowerPriorityTicks b = new LowerPriorityTicks();
        long shell = 1, cargo = 100, rustc = 101;
        assertArrayEquals(new long[] {50_300, 2_020}, b.read(Map.of(cargo, new long[] {50_000, 2_000, shell}, rustc, new long[] {300, 20, cargo})));
        // the compiler ends and is reaped by cargo: its ticks are in cargo's now
        assertArrayEquals(new long[] {50_320, 2_030}, b.read(Map.of(cargo, new long[] {50_320, 2_030, shell})),
                "the compiler's last ticks and cargo's own, its earlier ticks not again");
        // cargo ends, reaped by the shell: its ticks leave /proc, not the sum
        assertArrayEquals(new long[] {50_320, 2_030}, b.read(Map.of()), "an ended build is counted as last read, never as minus its lifetime");
        assertArrayEquals(new long[] {50_324, 2_031}, b.read(Map.of(200L, new long[] {4, 1, shell})), "a new lower-priority process: its ticks");
    }
}
