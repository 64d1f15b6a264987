package vtlab.data.judge;

import java.util.Arrays;
import java.util.Locale;

import org.apache.commons.statistics.descriptive.Mean;
import org.apache.commons.statistics.descriptive.Variance;
import org.apache.commons.statistics.distribution.TDistribution;
import org.apache.commons.statistics.inference.DataDispersion;
import org.apache.commons.statistics.inference.TTest;

/**
 * Confidence intervals over repetitions and whether two sets of repetitions differ beyond their noise, from Apache
 * Commons Statistics (Student's t quantiles, Welch's test) rather than hand-made tables: a table that stops at 10
 * degrees of freedom and falls back to 1.96 makes every interval from 12 reps on too narrow.
 */
public final class Stats {
    private Stats() {}

    /** Two-sided 95%: the level of every interval and test in the lab. */
    public static final double LEVEL = 0.95;

    /** A mean with its two-sided 95% t-interval; low/high NaN with fewer than two values. */
    public record Interval(int n, double mean, double low, double high) {
        public static final Interval NONE = new Interval(0, Double.NaN, Double.NaN, Double.NaN);

        /** Whether the interval is bounded on both sides (two values a side at least, a denominator clear of 0). */
        public boolean bounded() {
            return Double.isFinite(low) && Double.isFinite(high);
        }

        /** Half the interval's width over the mean: 0.10 for a ratio of 2.0 with 1.8–2.2; +∞ when not bounded. */
        public double relativeHalfWidth() {
            return bounded() && mean != 0 ? (high - low) / 2 / Math.abs(mean) : Double.POSITIVE_INFINITY;
        }

        /** Whether the interval holds v (the ratio 1.0: no difference); false without an interval. */
        public boolean contains(double v) {
            return !Double.isNaN(low) && low <= v && v <= high;
        }

        /**
         * The interval cut to the ratios that can be: a ratio of two positive quantities (throughputs, latencies) is
         * not below 0, though Fieller's set may reach there when the denominator is loose.
         */
        public Interval positive() {
            return low < 0 ? new Interval(n, mean, 0, high) : this;
        }

        /** "1.80× (95% CI 1.72–1.88×)", "1.80× (95% CI unbounded)", a ratio alone when n is 1, "n/a" when 0. */
        public String renderRatio() {
            if (n == 0) return "n/a";
            if (Double.isNaN(low)) return String.format(Locale.ROOT, "%.2f×", mean);
            if (!bounded()) return String.format(Locale.ROOT, "%.2f× (95%% CI unbounded)", mean);
            return String.format(Locale.ROOT, "%.2f× (95%% CI %.2f–%.2f×)", mean, low, high);
        }

        /** "+2.0% (95% CI -0.5% to +4.5%)", a mean in % without an interval when n is 1, "n/a" when 0. */
        public String renderPct() {
            if (n == 0) return "n/a";
            if (n == 1) return String.format(Locale.ROOT, "%+.1f%%", mean);
            return String.format(Locale.ROOT, "%+.1f%% (95%% CI %+.1f%% to %+.1f%%)", mean, low, high);
        }
    }

    /** Student's t quantile for a two-sided 95% interval (the 97.5th percentile) at df degrees of freedom. */
    public static double t975(int df) {
        if (df < 1) throw new IllegalArgumentException("degrees of freedom must be positive, not " + df);
        return TDistribution.of(df).inverseCumulativeProbability(1 - (1 - LEVEL) / 2);
    }

    /** The two-sided quantile for a level (0.95: the 97.5th percentile) of Student's t at df degrees of freedom, df real (Welch's). */
    static double t(double df, double level) {
        return TDistribution.of(df).inverseCumulativeProbability(1 - (1 - level) / 2);
    }

    /** The values that are numbers. */
    static double[] finite(double[] xs) {
        return Arrays.stream(xs).filter(d -> !Double.isNaN(d) && !Double.isInfinite(d)).toArray();
    }

    /** Mean of the values (NaN skipped) with its 95% t-interval. */
    public static Interval mean95(double... xs) {
        double[] d = finite(xs);
        if (d.length == 0) return Interval.NONE;
        double mean = Mean.of(d).getAsDouble();
        if (d.length == 1) return new Interval(1, mean, Double.NaN, Double.NaN);
        double half = t975(d.length - 1) * Math.sqrt(Variance.of(d).getAsDouble() / d.length);
        return new Interval(d.length, mean, mean - half, mean + half);
    }

    /**
     * Welch-Satterthwaite's degrees of freedom for a difference of two means whose squared standard errors are va (from
     * na values) and vb (from nb), rounded down. Unrounded, they run liberal at the lab's 2–6 forks a side when one side
     * is steady and the other spread: a spread side that happens to come out narrow also raises the df, so the t shrinks
     * exactly when the difference looks largest (5.1–6.5% false claims on A/A where 5% is meant, docs/results.md).
     * Rounding down keeps them at 5% and costs about a point of power; the smaller side's n − 1 (Hsu's) costs nine.
     */
    static double welchDf(double va, int na, double vb, int nb) {
        double df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
        return Math.floor(df + 1e-9); // equal spreads give n₁ + n₂ − 2 exactly, not its float a hair below
    }

    /**
     * b's mean against a's in percent of a's mean, with the 95% interval of the difference (Welch: unequal variances,
     * Welch-Satterthwaite degrees of freedom, rounded down) in the same percent; low/high NaN when either side has fewer than two
     * values. The interval is the difference's over a's mean taken as exact: a's own noise is in the difference's.
     */
    static Interval changePct95(double[] a, double[] b) {
        double[] x = finite(a), y = finite(b);
        if (x.length == 0 || y.length == 0) return Interval.NONE;
        double ma = Mean.of(x).getAsDouble(), mb = Mean.of(y).getAsDouble();
        double pct = 100 * (mb - ma) / ma;
        if (x.length < 2 || y.length < 2) return new Interval(1, pct, Double.NaN, Double.NaN);
        double va = Variance.of(x).getAsDouble() / x.length, vb = Variance.of(y).getAsDouble() / y.length;
        double se = Math.sqrt(va + vb);
        if (se == 0) return new Interval(Math.min(x.length, y.length), pct, pct, pct);
        double df = welchDf(va, x.length, vb, y.length);
        double half = TDistribution.of(df).inverseCumulativeProbability(1 - (1 - LEVEL) / 2) * se;
        return new Interval(Math.min(x.length, y.length), pct, 100 * (mb - ma - half) / ma, 100 * (mb - ma + half) / ma);
    }

    /**
     * The interval part of Fieller's set only, unbounded for a ray: what the lab judged by before {@link Judge}, which
     * reads the whole set ({@link RatioSet}); kept for its tests. b's mean over a's (a ratio of fork means: virtual's throughput over platform's) with its 95% interval, between
     * independent samples: Fieller's interval, not a bootstrap. With the 2 to 6 forks a run can afford, a bootstrap
     * resamples at most a few hundred distinct means and its percentile interval comes out too narrow (with 2 values a
     * side it is the range of 4 ratios), while Fieller's is exact for Normal means, which fork means (each over a hold
     * of thousands of requests) are close to; it is also not symmetric around the ratio, as a ratio's interval should
     * not be. The interval is every θ for which ȳ − θx̄ = 0 is not rejected at 5%: (ȳ − θx̄)² ≤ t²(v_y + θ²v_x), v the
     * squared standard errors, t at Welch-Satterthwaite's degrees of freedom for ȳ − θ̂x̄ (unequal variances, rounded down). When a's
     * mean is not itself distinguishable from 0 (x̄² ≤ t²v_x) the set is unbounded: low −∞, high +∞. low/high NaN when
     * either side has fewer than two values; n is the smaller side's count.
     */
    static Interval ratio95(double[] a, double[] b) {
        double[] x = finite(a), y = finite(b);
        if (x.length == 0 || y.length == 0) return Interval.NONE;
        double mx = Mean.of(x).getAsDouble(), my = Mean.of(y).getAsDouble(), ratio = my / mx;
        int n = Math.min(x.length, y.length);
        if (x.length < 2 || y.length < 2) return new Interval(n, ratio, Double.NaN, Double.NaN);
        double vx = Variance.of(x).getAsDouble() / x.length, vy = Variance.of(y).getAsDouble() / y.length;
        if (vx == 0 && vy == 0) return new Interval(n, ratio, ratio, ratio);
        double tvx = ratio * ratio * vx;
        double df = welchDf(tvx, x.length, vy, y.length);
        double t = TDistribution.of(df).inverseCumulativeProbability(1 - (1 - LEVEL) / 2), t2 = t * t;
        double qa = mx * mx - t2 * vx, qb = mx * my, qc = my * my - t2 * vy, disc = qb * qb - qa * qc;
        if (qa <= 0 || disc < 0) return new Interval(n, ratio, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
        double root = Math.sqrt(disc);
        return new Interval(n, ratio, (qb - root) / qa, (qb + root) / qa);
    }

    /**
     * Whether b's mean differs from a's beyond the noise of their repetitions: Welch's two-sided t-test (unequal
     * variances) at 5%. False when either side has fewer than two values (its noise is unknown); two sets without any
     * spread differ when their means do.
     */
    static boolean differ(double[] a, double[] b) {
        double[] x = finite(a), y = finite(b);
        if (x.length < 2 || y.length < 2) return false;
        if (Variance.of(x).getAsDouble() == 0 && Variance.of(y).getAsDouble() == 0) return Mean.of(x).getAsDouble() != Mean.of(y).getAsDouble();
        return TTest.withDefaults().with(DataDispersion.HETEROSCEDASTIC).test(x, y).getPValue() < 1 - LEVEL;
    }
}
