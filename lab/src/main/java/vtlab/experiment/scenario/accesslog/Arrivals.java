package vtlab.experiment.scenario.accesslog;

import java.util.PriorityQueue;
import java.util.Random;
import java.util.TreeMap;

/**
 * The arrival times of a log's replayed requests, in bounded memory, for the replay's baseline: the arrivals per
 * second of the log's time, the log's clock resolution (whole seconds when every time is, as NCSA's %t), and a uniform
 * sample of the gaps between consecutive arrivals. A log is written as requests end, so its lines are a little out of
 * order: the gaps are taken in time order through a window of the last {@link #WINDOW} arrivals.
 */
public final class Arrivals {
    /** Gaps kept at most (a uniform sample: reservoir sampling). */
    static final int SAMPLE = 5_000;
    /** Arrivals held back to be put in time order before their gap is taken. */
    static final int WINDOW = 1_000;

    private final TreeMap<Long, long[]> perSecond = new TreeMap<>();
    private final PriorityQueue<Long> window = new PriorityQueue<>();
    private final double[] gaps = new double[SAMPLE];
    private final Random random = new Random(42);
    private long gapsSeen, count;
    private long previous = Long.MIN_VALUE;
    private boolean wholeSeconds = true;

    /** One arrival (epoch ms). */
    public void add(long epochMillis) {
        count++;
        perSecond.computeIfAbsent(Math.floorDiv(epochMillis, 1000), k -> new long[1])[0]++;
        if (epochMillis % 1000 != 0) wholeSeconds = false;
        window.add(epochMillis);
        if (window.size() > WINDOW) gap(window.poll());
    }

    private void gap(long t) {
        if (previous != Long.MIN_VALUE) {
            double g = t - previous;
            if (gapsSeen < SAMPLE) gaps[(int) gapsSeen] = g;
            else {
                long j = (long) (random.nextDouble() * (gapsSeen + 1));
                if (j < SAMPLE) gaps[(int) j] = g;
            }
            gapsSeen++;
        }
        previous = t;
    }

    /** The arrivals counted. */
    public long count() {
        return count;
    }

    /** The log's clock: 1000 ms when every arrival was stamped in whole seconds, else 1 ms. */
    public double resolutionMs() {
        return wholeSeconds ? 1000 : 1;
    }

    /** The arrivals of each second of the log's time, from its first to its last (empty seconds 0). */
    public long[] perSecond() {
        if (perSecond.isEmpty()) return new long[0];
        long first = perSecond.firstKey();
        long[] out = new long[(int) (perSecond.lastKey() - first + 1)];
        perSecond.forEach((s, c) -> out[(int) (s - first)] = c[0]);
        return out;
    }

    /** The sample of gaps between consecutive arrivals, in ms (every arrival's gap once the window is drained). */
    public double[] gapsMs() {
        while (!window.isEmpty()) gap(window.poll());
        return java.util.Arrays.copyOf(gaps, (int) Math.min(gapsSeen, SAMPLE));
    }
}
