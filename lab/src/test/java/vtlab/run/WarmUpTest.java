package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class WarmUpTest {

    /** Rates a SUT would show one run after another (a JIT warming up), recording the durations asked for. */
    static final class Series implements WarmUp.Load {
        final double[] rates;
        double[] jit;
        final List<Duration> asked = new ArrayList<>();

        Series(double... rates) {
            this.rates = rates;
        }

        /** The compiler threads' share of a core in each run (unknown when not given). */
        Series jit(double... pct) {
            this.jit = pct;
            return this;
        }

        @Override
        public WarmUp.Slice run(Duration duration, int slice) {
            asked.add(duration);
            return new WarmUp.Slice(rates[slice], jit == null ? Double.NaN : jit[slice]);
        }
    }

    @Test
    void goesOnUntilTheTrendOfTheLastFourSlicesIsFlat() throws Exception {
        // the measured cold start of the hello servlet, platform mode, then slices at its plateau
        Series s = new Series(7096, 12103, 22044, 31673, 43059, 45218, 44079, 44800, 44300);
        WarmUp.Result r = WarmUp.run(Duration.ofSeconds(10), Duration.ofSeconds(60), s);
        assertTrue(r.steady(), r.trend());
        // 31,673 -> 45,218 -> 44,079 still slopes +9.6% a slice; 43,059 ... 44,800 is flat within its 2.1% CV
        assertEquals(List.of(7096.0, 12103.0, 22044.0, 31673.0, 43059.0, 45218.0, 44079.0, 44800.0), r.rates());
        assertEquals(Duration.ofSeconds(45), r.total());
        assertTrue(r.trend().startsWith("flat within the noise: +0.9%/slice"), r.trend());
        assertEquals(Duration.ofSeconds(10), s.asked.getFirst());
        assertTrue(s.asked.subList(1, s.asked.size()).stream().allMatch(WarmUp.SLICE::equals));
    }

    @Test
    void aRateCreepingUpThreePercentASliceIsStillWarmingThoughSlicesAgreeWithinFivePercent() throws Exception {
        double[] rates = new double[11];
        for (int i = 0; i < rates.length; i++) rates[i] = 1000 * Math.pow(1.03, i);
        for (int i = 1; i < rates.length; i++) assertTrue(rates[i] / rates[i - 1] - 1 < 0.05, "the two-slice rule would have ended it");
        WarmUp.Result r = WarmUp.run(Duration.ofSeconds(10), Duration.ofSeconds(60), new Series(rates).jit(new double[11]));
        assertFalse(r.steady(), r.trend());
        assertEquals(Duration.ofSeconds(60), r.total(), "until --warmup-max");
        assertTrue(r.trend().startsWith("rising +3.0%/slice"), r.trend());
    }

    @Test
    void aFlatRateWithFourPercentNoiseEndsIt() throws Exception {
        // consecutive slices 8% apart: the two-slice rule never ended this one
        Series s = new Series(500, 1040, 960, 1040, 960, 1040, 960).jit(30, 1, 1, 1, 1, 1, 1);
        WarmUp.Result r = WarmUp.run(Duration.ofSeconds(10), Duration.ofSeconds(60), s);
        assertTrue(r.steady(), r.trend());
        assertEquals(Duration.ofSeconds(30), r.total(), "the first four slices");
        assertTrue(r.trend().startsWith("flat within the noise") && r.trend().contains("CV 4.6%"), r.trend());
    }

    @Test
    void aSteadyRateIsNotEnoughWhileTheJitIsStillCompiling() throws Exception {
        // the rate is flat from the first slice on, but the compiler threads use 6%, 5%, 1%, 3% (a burst), 1.5%, 0.5%
        Series s = new Series(12000, 12100, 12050, 12000, 12100, 12000, 12050).jit(40, 6, 5, 1, 3, 1.5, 0.5);
        WarmUp.Result r = WarmUp.run(Duration.ofSeconds(10), Duration.ofSeconds(60), s);
        assertTrue(r.steady());
        assertEquals(Duration.ofSeconds(40), r.total(), "six slices: the JIT was quiet in the fifth and the sixth");
        assertEquals(0.5, r.slices().getLast().jitPct());
        Series busy = new Series(12000, 12100, 12050, 12000, 12100, 12000).jit(40, 6, 5, 3, 3, 3);
        WarmUp.Result never = WarmUp.run(Duration.ofSeconds(10), Duration.ofSeconds(35), busy);
        assertFalse(never.steady(), "never quiet before --warmup-max");
        assertTrue(never.trend().startsWith("flat: ") && never.trend().endsWith("; the JIT busy in the last two slices"), never.trend());
    }

    @Test
    void aWarmSutIsDoneAfterFourSlices() throws Exception {
        WarmUp.Result r = WarmUp.run(Duration.ofSeconds(10), Duration.ofSeconds(60), new Series(3950, 3948, 3951, 3949, 3950));
        assertTrue(r.steady());
        assertEquals(Duration.ofSeconds(30), r.total(), "the trend needs four slices");
    }

    @Test
    void stopsAtTheMaximumAndSaysItNeverSettled() throws Exception {
        Series s = new Series(1000, 2000, 3000, 4000, 5000, 6000, 7000);
        WarmUp.Result r = WarmUp.run(Duration.ofSeconds(10), Duration.ofSeconds(25), s);
        assertFalse(r.steady());
        assertEquals(Duration.ofSeconds(25), r.total(), "never past --warmup-max");
        assertEquals(4, r.rates().size());
        assertEquals("3 of the 4 slices a trend needs", r.trend());
        // a flat rate with room for three slices only is not judged steady either
        assertFalse(WarmUp.run(Duration.ofSeconds(10), Duration.ofSeconds(25), new Series(100, 100, 100, 100)).steady());
    }

    @Test
    void noRoomForASliceMeansUnknown() throws Exception {
        WarmUp.Result r = WarmUp.run(Duration.ofSeconds(10), Duration.ofSeconds(12), new Series(100, 100));
        assertNull(r.steady());
        assertNull(r.trend());
        assertEquals(1, r.rates().size());
    }

    @Test
    void aSutThatAnswersNothingIsNotWaitedForUntilTheMaximum() throws Exception {
        // the JDK 21 synchronized row of the seeds run: 17 answers in the first 20 s, then none for 100 s more
        Series s = new Series(17, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        WarmUp.Result r = WarmUp.run(Duration.ofSeconds(20), Duration.ofSeconds(120), s);
        assertFalse(r.steady(), "it never settled");
        assertEquals(Duration.ofSeconds(30), r.total(), "two empty slices, then the hold");
        assertEquals("no answers in two slices", r.trend());
        // one empty slice is not yet enough (a full GC, a pause): a rate that comes back goes on as before, the empty
        // slice in the window reading as a climb until it leaves it
        WarmUp.Result back = WarmUp.run(Duration.ofSeconds(10), Duration.ofSeconds(60), new Series(100, 0, 100, 101, 100, 100));
        assertTrue(back.steady(), back.trend());
        assertEquals(Duration.ofSeconds(35), back.total());
    }

    /** The compiler's CPU time in nanoseconds as a SUT would show it, one reading per call. */
    static WarmUp.JitClock nanos(long... readings) {
        int[] i = {0};
        return () -> readings[Math.min(i[0]++, readings.length - 1)];
    }

    static final long MS = 1_000_000;

    @Test
    void afterABusySliceTheLoadWaitsForTheCompiler() throws Exception {
        List<Long> slept = new ArrayList<>();
        // windows of 250 ms: 100, 75, 25 ms of compiling (40%, 30%, 10% of a core), then 2.5 ms (1%): quiet after 1 s
        Duration d = WarmUp.catchUp(nanos(0, 100 * MS, 175 * MS, 200 * MS, 202_500_000L, 202_500_000L), slept::add);
        assertEquals(Duration.ofSeconds(1), d);
        assertEquals(List.of(250L, 250L, 250L, 250L), slept);
        // a compiler that never goes quiet is waited for at most CATCH_UP_MAX
        long[] busy = new long[60];
        for (int i = 0; i < busy.length; i++) busy[i] = 125 * MS * i;
        assertEquals(WarmUp.CATCH_UP_MAX, WarmUp.catchUp(nanos(busy), ms -> {}));
        // already quiet: one window; unreadable: no wait
        assertEquals(Duration.ofMillis(250), WarmUp.catchUp(nanos(500 * MS, 501 * MS), ms -> {}));
        assertEquals(Duration.ZERO, WarmUp.catchUp(nanos(-1), ms -> {}));
    }
}
