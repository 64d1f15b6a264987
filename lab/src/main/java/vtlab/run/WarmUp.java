package vtlab.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import vtlab.data.judge.Trend;

/**
 * Warm-up until the SUT's throughput settles, not for a fixed time only. On a one-CPU SUT the JIT competes with the
 * request threads for that CPU (with 200 runnable pool threads it gets a small share): the hello servlet took ~50 s
 * to reach its steady rate here, so a fixed 10 s warm-up measured the compiler, not the server. After the minimum
 * (--warmup) the load goes on in 5 s slices until the rate is steady by a trend test over the last 4 slices
 * ({@link Trend}: no slope beyond ±2% a slice, flat within the noise) and the JIT used at most 2% of a core in the last
 * two, or --warmup-max, or two slices in which nothing was answered. A trend, not two slices agreeing within 5%: a
 * Spring service on one core crept up 2-4% a slice and passed that rule early, or scattered ±6% and never passed it.
 * The JIT condition came from the cpu-threads probe: rows whose rate had "settled" still spent 4-8% of the SUT's
 * core compiling during the measured hold, one JVM differently from the next.
 */
final class WarmUp {
    static final Duration SLICE = Duration.ofSeconds(5);
    /** The JIT's compiler threads may use at most this share of one core (in %) in the slice that ends the warm-up. */
    static final double JIT_QUIET_PCT = 2.0;

    /** One stretch of warm-up load: its rate in req/s, and the JIT's CPU meanwhile in % of a core (NaN: unknown). */
    record Slice(double rps, double jitPct) {}

    /** Runs the row's load for a while and says what it saw. */
    interface Load {
        Slice run(Duration duration, int slice) throws Exception;
    }

    /**
     * @param steady true when the trend over the last slices was steady with the JIT quiet, false when --warmup-max
     *               came first (or two slices got no answer), null when there was no room to check (--warmup-max not
     *               above --warmup plus one slice)
     * @param slices the minimum warm-up, then each slice
     * @param trend  why the warm-up ended, in words: the last trend's {@link Trend#reason()} (null: no room to check)
     */
    record Result(Duration total, Boolean steady, List<Slice> slices, String trend) {
        List<Double> rates() {
            return slices.stream().map(Slice::rps).toList();
        }
    }

    /** Longest pause after a slice for the compiler to finish what the slice queued. */
    static final Duration CATCH_UP_MAX = Duration.ofSeconds(10);
    /**
     * How often the compiler's CPU is read during that pause: its CPU time is read in nanoseconds (schedstat), so a
     * quarter second tells 2% of a core (5 ms) from idle; with no load running, that quiet means its queue is empty.
     * (Read in 100 Hz ticks, a window took a whole second: 1-2 s of every row's time went to waiting for it.)
     */
    static final Duration CATCH_UP_WINDOW = Duration.ofMillis(250);

    /** The compiler threads' CPU time so far in nanoseconds (Proc.jitNanos), negative when unreadable. */
    interface JitClock {
        long nanos();
    }

    private WarmUp() {}

    /**
     * After a warm-up slice, no load until the compiler threads use at most {@link #JIT_QUIET_PCT} of a core over one
     * window, or {@link #CATCH_UP_MAX}. On one SUT core, a saturating load starves the JIT: measured here, a Spring
     * SUT with 200 busy platform threads gave its compiler 3-4% of the core for 120 s of back-to-back slices and never
     * reached its compiled rate (1,411 req/s, CPU-bound; 1,910 req/s once compiled). A multi-core server compiles on
     * other cores; this pause gives the compiler that room, and the hold still measures whatever it did not finish.
     * Returns the pause.
     */
    static Duration catchUp(JitClock jit, Sleeper sleeper) throws InterruptedException {
        long waited = 0, window = CATCH_UP_WINDOW.toMillis();
        long before = jit.nanos();
        while (before >= 0 && waited < CATCH_UP_MAX.toMillis()) {
            sleeper.sleep(window);
            waited += window;
            long now = jit.nanos();
            if (now < 0 || (now - before) / 1e6 / window * 100.0 <= JIT_QUIET_PCT) break;
            before = now;
        }
        return Duration.ofMillis(waited);
    }

    /** Thread.sleep, or a test's clock. */
    interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    static Result run(Duration min, Duration max, Load load) throws Exception {
        List<Slice> slices = new ArrayList<>();
        slices.add(load.run(min, 0));
        Duration total = min;
        if (total.plus(SLICE).compareTo(max) > 0) return new Result(total, null, slices, null);
        Trend trend = Trend.of();
        while (total.plus(SLICE).compareTo(max) <= 0) {
            slices.add(load.run(SLICE, slices.size()));
            total = total.plus(SLICE);
            trend = Trend.of(sliceRates(slices));
            // compilation comes in bursts: one quiet slice after a busy one is not yet the end of it
            if (trend.steady() && jitQuiet(slices, 2)) return new Result(total, true, slices, trend.reason());
            // nothing answered in two slices (a SUT stuck, e.g. JDK 21 pinning every carrier): more load cannot warm
            // it, and the row is judged by its hold; it stays "not steady"
            if (slices.get(slices.size() - 2).rps() == 0 && slices.getLast().rps() == 0) return new Result(total, false, slices, "no answers in two slices");
        }
        return new Result(total, false, slices, trend.steady() ? trend.reason() + "; the JIT busy in the last two slices" : trend.reason());
    }

    /** The 5 s slices' rates: the minimum warm-up is longer and the coldest, so not in the trend's window. */
    private static double[] sliceRates(List<Slice> slices) {
        return slices.subList(1, slices.size()).stream().mapToDouble(Slice::rps).toArray();
    }

    private static boolean jitQuiet(List<Slice> slices, int last) {
        return slices.subList(slices.size() - last, slices.size()).stream().allMatch(WarmUp::jitQuiet);
    }

    /** Quiet when the compiler threads stayed under the limit; a JIT that could not be read does not hold the row. */
    static boolean jitQuiet(Slice s) {
        return Double.isNaN(s.jitPct()) || s.jitPct() <= JIT_QUIET_PCT;
    }
}
