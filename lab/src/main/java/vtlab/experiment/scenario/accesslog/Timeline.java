package vtlab.experiment.scenario.accesslog;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * A log's time, in memory that does not grow with the time it spans: its arrivals counted in at most {@link #BINS}
 * bins over a window around its median time, and its peak in flight found by a sweep over each request's start and end.
 * <p>
 * Read twice. The first read samples the times ({@link #sample}: a uniform sample of at most {@link #SAMPLE}) and
 * {@link #settle} sets the window from them: the median, and around it twice the span of the middle 98% of the lines,
 * at least {@link #MIN_REACH}; a line further off (a clock set a year wrong) is far off, counted and left out of the
 * rate and the hold rather than stretching them. The second read {@link #add}s each line: its bin, and its interval
 * [start, start + duration] to the sweep. Logs are written about in time order but not exactly (a request is often
 * logged when it ends), so starts wait in a buffer until {@link #LAG} behind the latest seen; a line later than that is
 * out of order, counted, and left out of the sweep (it still counts in the rate, which does not depend on order). A log whose times are whole seconds
 * (NCSA's %t, nginx's time_iso8601) would start a second's requests at once and overstate the peak: there each start
 * is taken at random within its second, as arrivals spread over it.
 */
final class Timeline {
    static final int SAMPLE = 10_000;
    static final int BINS = 100_000;
    static final Duration MIN_REACH = Duration.ofMinutes(1);
    /** How far behind the latest start a line may be and still take its place in the sweep. */
    static final long LAG = 30_000;

    private final long[] sample = new long[SAMPLE];
    private long sampled;
    private final Random random = new Random(42);

    private long median, lo, hi;
    private boolean wholeSeconds;
    private long binMillis;
    private long[] bins;
    private long farOff, outOfOrder, kept;

    // the sweep: starts waiting their turn, then the ends of the requests in flight
    private final PriorityQueue<double[]> waiting = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
    private final PriorityQueue<Double> ends = new PriorityQueue<>();
    private double latest = Double.NEGATIVE_INFINITY, swept = Double.NEGATIVE_INFINITY;
    private int peak;
    private boolean durations;

    /** First read: a line's time (epoch ms) into the sample. */
    void sample(long millis) {
        sampled++;
        if (sampled <= SAMPLE) sample[(int) sampled - 1] = millis;
        else {
            long j = (long) (random.nextDouble() * sampled);
            if (j < SAMPLE) sample[(int) j] = millis;
        }
    }

    /** Between the reads: the window from the sample (at least one time sampled). */
    void settle() {
        long[] s = Arrays.copyOf(sample, (int) Math.min(sampled, SAMPLE));
        Arrays.sort(s);
        wholeSeconds = Arrays.stream(s).allMatch(t -> t % 1000 == 0);
        median = s[s.length / 2];
        long spread = s[(int) (s.length * 0.99)] - s[(int) (s.length * 0.01)];
        long reach = Math.max(MIN_REACH.toMillis(), 2 * spread);
        lo = Math.floorDiv(median - reach, 1000) * 1000; // bins of whole seconds of the log's clock
        hi = median + reach;
        binMillis = Math.max(1000, ceilDiv(hi - lo + 1, BINS * 1000L) * 1000);
        bins = new long[(int) ceilDiv(hi - lo + 1, binMillis)];
    }

    /** Second read: a line's start (epoch ms) and duration (ms, or negative for none). */
    void add(long millis, double durationMs) {
        if (millis < lo || millis > hi) {
            farOff++;
            return;
        }
        kept++;
        bins[(int) ((millis - lo) / binMillis)]++;
        double start = wholeSeconds && durationMs >= 0 ? millis + random.nextDouble() * 1000 : millis;
        if (start < latest - LAG || start < swept) {
            outOfOrder++;
            return;
        }
        latest = Math.max(latest, start);
        if (durationMs < 0) return;
        durations = true;
        waiting.add(new double[] {start, start + durationMs});
        while (!waiting.isEmpty() && waiting.peek()[0] < latest - LAG) sweep(waiting.poll());
    }

    /** One request into the sweep, in order of starts: the ends up to its start leave, it enters, the peak is the most in flight. */
    private void sweep(double[] r) {
        swept = r[0];
        while (!ends.isEmpty() && ends.peek() <= r[0]) ends.poll();
        ends.add(r[1]);
        peak = Math.max(peak, ends.size());
    }

    /** After the second read: the starts still waiting swept. */
    void finish() {
        while (!waiting.isEmpty()) sweep(waiting.poll());
    }

    /** Whether the log's times are whole seconds (each start then taken at random within its second for the sweep). */
    boolean wholeSeconds() {
        return wholeSeconds;
    }

    /** Lines kept in the rate (not far off). */
    long kept() {
        return kept;
    }

    long farOff() {
        return farOff;
    }

    long outOfOrder() {
        return outOfOrder;
    }

    boolean durations() {
        return durations;
    }

    /** The most requests in flight at once, by the sweep. */
    int peak() {
        return peak;
    }

    long median() {
        return median;
    }

    /** How far from the median a line may be before it is far off, in ms. */
    long reach() {
        return hi - median;
    }

    /** The width of a bin, in ms (1,000 up to a window of {@link #BINS} seconds). */
    long binMillis() {
        return binMillis;
    }

    /** The epoch ms of the first bin that holds a line; the counts from it to the last that does. */
    long firstMillis() {
        return lo + first() * binMillis;
    }

    long[] counts() {
        int f = first(), l = bins.length - 1;
        while (l > f && bins[l] == 0) l--;
        return Arrays.copyOfRange(bins, f, l + 1);
    }

    private int first() {
        int f = 0;
        while (f < bins.length - 1 && bins[f] == 0) f++;
        return f;
    }

    /** A far-off line, said: how many, how far, around which time. */
    String farOffNote() {
        return farOff + " lines more than " + Duration.ofMillis(reach()).toString().substring(2).toLowerCase(java.util.Locale.ROOT)
                + " from the log's median time (" + Instant.ofEpochMilli(median) + "): left out of the rate profile and the hold";
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
