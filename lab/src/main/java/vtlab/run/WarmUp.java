package vtlab.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Warm-up until the SUT's throughput settles, not for a fixed time only. On a one-CPU SUT the JIT competes with the
 * request threads for that CPU (with 200 runnable pool threads it gets a small share): the hello servlet took ~50 s
 * to reach its steady rate here, so a fixed 10 s warm-up measured the compiler, not the server. After the minimum
 * (--warmup) the load goes on in 5 s slices until one slice's rate is within 5% of the one before, or --warmup-max.
 */
final class WarmUp {
    static final Duration SLICE = Duration.ofSeconds(5);
    static final double TOLERANCE = 0.05;

    /** Runs the row's load for a while and returns its rate in req/s. */
    interface Load {
        double run(Duration duration, int slice) throws Exception;
    }

    /**
     * @param steady true when two consecutive rates agreed, false when --warmup-max came first, null when there was
     *               no room to check (--warmup-max not above --warmup)
     * @param rates  req/s of the minimum warm-up, then of each slice
     */
    record Result(Duration total, Boolean steady, List<Double> rates) {}

    private WarmUp() {}

    static Result run(Duration min, Duration max, Load load) throws Exception {
        List<Double> rates = new ArrayList<>();
        double previous = load.run(min, 0);
        rates.add(previous);
        Duration total = min;
        if (total.plus(SLICE).compareTo(max) > 0) return new Result(total, null, rates);
        while (total.plus(SLICE).compareTo(max) <= 0) {
            double current = load.run(SLICE, rates.size());
            rates.add(current);
            total = total.plus(SLICE);
            if (settled(previous, current)) return new Result(total, true, rates);
            previous = current;
        }
        return new Result(total, false, rates);
    }

    static boolean settled(double previous, double current) {
        return previous > 0 && Math.abs(current - previous) / previous <= TOLERANCE;
    }
}
