package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.data.RowValues;

class PhaseClockTest {
    @Test
    void progressStepsMapToThePhasesOfARow() {
        assertEquals("start", PhaseClock.phase("starting SUT"));
        assertEquals("warm-up", PhaseClock.phase("warming up 5s"));
        assertEquals("warm-up", PhaseClock.phase("warming up: +5s until the rate settles"));
        assertEquals("jit-catch-up", PhaseClock.phase("warming up: letting the JIT catch up"));
        assertEquals("mode-proof", PhaseClock.phase("warming up 5s: thread dumps and JFR samples prove the thread mode"));
        assertEquals("hold", PhaseClock.phase("measuring 10s, fault down@2s"));
        assertEquals("profiled-hold", PhaseClock.phase("profiling 10s: a hold of its own, after the measured one"));
        assertEquals("drain", PhaseClock.phase("the HikariCP pool did not go idle in 60 s; measuring anyway"));
    }

    @Test
    void eachPhaseGetsTheTimeUntilTheNextAndRepeatsAddUp() {
        long[] now = {0};
        List<String> shown = new ArrayList<>();
        PhaseClock c = new PhaseClock(shown::add, () -> now[0]);
        c.step("starting SUT");
        now[0] += 4_000_000_000L;
        c.step("warming up 3s");
        now[0] += 3_000_000_000L;
        c.step("warming up: letting the JIT catch up");
        now[0] += 1_500_000_000L;
        c.step("warming up: +5s until the rate settles");
        now[0] += 5_000_000_000L;
        c.step("measuring 5s");
        now[0] += 5_000_000_000L;
        c.enter("probes");
        now[0] += 500_000_000L;
        RowValues out = new RowValues();
        c.into(out);
        assertEquals(List.of("starting SUT", "warming up 3s", "warming up: letting the JIT catch up", "warming up: +5s until the rate settles", "measuring 5s"), shown);
        assertEquals(19.0, out.number(PhaseClock.ROW_S), 1e-9);
        assertEquals("warm-up 8.0;hold 5.0;start 4.0;jit-catch-up 1.5;probes 0.5", out.get(PhaseClock.PHASES));
        assertEquals(13.5, out.number(PhaseClock.READY_S), 1e-9, "start, warm-up and its catch-up: what the fork cost before its hold");
    }

    /** A later iteration in a kept JVM has no start of its own: no fork cost to show. */
    @Test
    void aReusedJvmHasNoStartAndWarmUpTime() {
        long[] now = {0};
        PhaseClock c = new PhaseClock(s -> {}, () -> now[0]);
        c.step("measuring 5s");
        now[0] += 5_000_000_000L;
        RowValues out = new RowValues();
        c.into(out);
        assertEquals(null, out.get(PhaseClock.READY_S));
    }
}
