package vtlab.data.judge;

import java.util.Arrays;
import java.util.Locale;

import org.apache.commons.statistics.descriptive.Mean;

/**
 * Whether a warm-up's rate has stopped moving, judged by a trend test over its last {@link #WINDOW} slices rather than
 * by two slices agreeing: a warm-up creeping up 3% a slice agrees within 5% with every slice before it, and one that
 * is flat but scatters ±6% a slice may never agree with its neighbour. The least-squares slope over the window (in %
 * of the window's mean rate per slice) with its two-sided 95% t-interval (n − 2 degrees of freedom) decides.
 *
 * <p>The rule, in order:
 * <ol>
 * <li>fewer than {@link #WINDOW} slices, or no answers: not steady (nothing to judge);</li>
 * <li>the slope itself beyond ±{@link #FLAT_PCT}% per slice: not steady, still rising (warming) or falling;</li>
 * <li>the whole interval within ±{@link #FLAT_PCT}%: steady, shown flat (a quiet series);</li>
 * <li>the interval holds 0 and the slices' CV is at most {@link #NOISE_PCT}%: steady, flat as far as the noise tells
 * (a noisy series: more slices would narrow the interval, not warm the SUT, and the hold measures that noise anyway);</li>
 * <li>otherwise not steady: a small trend the interval still sees (drifting), or scatter beyond the noise allowed.</li>
 * </ol>
 * Why the point slope is tested first: with 4 slices the interval has 2 degrees of freedom (t = 4.30), so ±2% of
 * noise makes it about ±4% a slice wide and "holds 0" alone would let a 3%-a-slice climb through; the slope is the
 * best guess of the trend, and a best guess of more than 2% a slice (8% over the window) is a warm-up not done.
 * Why the interval within ±FLAT alone is not the rule: at that width it needs noise under about 1% a slice, which a
 * one-core SUT does not give; a flat series with 4% noise would never end before the cap.
 *
 * @param slopePct the slope in % of the window's mean rate per slice, with its 95% interval (NONE: fewer than
 *                 {@link #WINDOW} slices)
 * @param cvPct    the window's rates' coefficient of variation in % (sample standard deviation over the mean)
 * @param verdict  which step of the rule decided
 */
public record Trend(Stats.Interval slopePct, double cvPct, Verdict verdict) {
    /** Slices the trend is fitted over: the last ones, so an early climb leaves the window as it ends. */
    public static final int WINDOW = 4;
    /** The most a steady rate may move per slice, in % of its mean: 2% a slice is 8% over the window. */
    public static final double FLAT_PCT = 2.0;
    /** The most a flat rate may scatter (CV, %) and still count as steady: a one-core SUT's slices spread 2-5%. */
    public static final double NOISE_PCT = 5.0;

    /** Which step of the rule decided, and whether it means steady. */
    public enum Verdict {
        TOO_FEW(false), NO_RATE(false), RISING(false), FALLING(false), FLAT(true), NOISY_FLAT(true), DRIFTING(false), NOISY(false);

        final boolean steady;

        Verdict(boolean steady) {
            this.steady = steady;
        }
    }

    /** The trend over the last {@link #WINDOW} of the rates given (oldest first, one per slice of equal length). */
    public static Trend of(double... rates) {
        if (rates.length < WINDOW) return new Trend(new Stats.Interval(rates.length, Double.NaN, Double.NaN, Double.NaN), Double.NaN, Verdict.TOO_FEW);
        double[] y = Arrays.copyOfRange(rates, rates.length - WINDOW, rates.length);
        double mean = Mean.of(y).getAsDouble();
        if (!(mean > 0)) return new Trend(new Stats.Interval(WINDOW, Double.NaN, Double.NaN, Double.NaN), Double.NaN, Verdict.NO_RATE);
        Stats.Interval slope = slope(y, mean);
        double cv = 100 * Spread.of(y).cv();
        return new Trend(slope, cv, verdict(slope, cv));
    }

    /** Least-squares slope against the slice's index, its 95% t-interval at n − 2 degrees of freedom, all in % of mean. */
    private static Stats.Interval slope(double[] y, double mean) {
        int n = y.length;
        double xMean = (n - 1) / 2.0, sxx = 0, sxy = 0;
        for (int i = 0; i < n; i++) {
            sxx += (i - xMean) * (i - xMean);
            sxy += (i - xMean) * (y[i] - mean);
        }
        double b = sxy / sxx, ssr = 0;
        for (int i = 0; i < n; i++) ssr += Math.pow(y[i] - mean - b * (i - xMean), 2);
        double half = Stats.t975(n - 2) * Math.sqrt(ssr / (n - 2) / sxx);
        return new Stats.Interval(n, 100 * b / mean, 100 * (b - half) / mean, 100 * (b + half) / mean);
    }

    private static Verdict verdict(Stats.Interval slope, double cv) {
        if (slope.mean() > FLAT_PCT) return Verdict.RISING;
        if (slope.mean() < -FLAT_PCT) return Verdict.FALLING;
        if (slope.low() >= -FLAT_PCT && slope.high() <= FLAT_PCT) return Verdict.FLAT;
        if (!slope.contains(0)) return Verdict.DRIFTING;
        return cv <= NOISE_PCT ? Verdict.NOISY_FLAT : Verdict.NOISY;
    }

    /** Whether the rate is as warm as it gets: flat within ±FLAT, or flat as far as noise under NOISE tells. */
    public boolean steady() {
        return verdict.steady;
    }

    /** Why, in one line: "rising +3.0%/slice (95% CI +3.0% to +3.0%) over 4 slices, more than ±2%: still warming". */
    public String reason() {
        String s = slopePct.renderPct().replace("% (", "%/slice (") + " over " + slopePct.n() + " slices";
        return switch (verdict) {
            case TOO_FEW -> String.format(Locale.ROOT, "%d of the %d slices a trend needs", slopePct.n(), WINDOW);
            case NO_RATE -> "no answers in the last " + WINDOW + " slices";
            case RISING -> String.format(Locale.ROOT, "rising %s, more than ±%.0f%%: still warming", s, FLAT_PCT);
            case FALLING -> String.format(Locale.ROOT, "falling %s, more than ±%.0f%%", s, FLAT_PCT);
            case FLAT -> String.format(Locale.ROOT, "flat: %s, within ±%.0f%%", s, FLAT_PCT);
            case NOISY_FLAT -> String.format(Locale.ROOT, "flat within the noise: %s, CV %.1f%% (at most %.0f%%)", s, cvPct, NOISE_PCT);
            case DRIFTING -> String.format(Locale.ROOT, "drifting: %s, not shown within ±%.0f%%", s, FLAT_PCT);
            case NOISY -> String.format(Locale.ROOT, "too noisy: %s, CV %.1f%% (more than %.0f%%)", s, cvPct, NOISE_PCT);
        };
    }
}
