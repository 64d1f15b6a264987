package vtlab.data.judge;

import java.util.Locale;

/**
 * Fieller's exact confidence set for a ratio of two positive means, cut to the ratios that can be (above 0). Not
 * always an interval: when the denominator's mean is not clearly away from 0 at the level asked, the set is one ray
 * ([L, ∞): "at least L"), two rays ((0, L] ∪ [H, ∞): "anything but L to H") or everything. Each shape is said as what it
 * is; a set that is everything is "undetermined", never "no difference".
 *
 * @param low  the lower bound (0 when the set reaches down to 0); for TWO_RAYS the upper end of the lower ray
 * @param high the upper bound (+∞ for a ray upward); for TWO_RAYS the lower end of the upper ray
 */
public record RatioSet(Shape shape, double low, double high) {
    public enum Shape {
        /** Fewer than two forks on a side: the noise between forks is unknown, no set. */
        NONE,
        /** [low, high], low ≥ 0. */
        INTERVAL,
        /** [low, ∞): the ratio is at least low. */
        AT_LEAST,
        /**
         * (0, low] ∪ [high, ∞): the ratio is not between low and high. Both roots are positive only when one mean is
         * below 0, which the judge refuses: for positive means a set that is not an interval is a ray or everything.
         */
        TWO_RAYS,
        /** Every ratio: the data exclude none. */
        EVERYTHING
    }

    public static final RatioSet NONE = new RatioSet(Shape.NONE, Double.NaN, Double.NaN);
    public static final RatioSet EVERYTHING = new RatioSet(Shape.EVERYTHING, 0, Double.POSITIVE_INFINITY);

    /** Whether r is in the set; false without a set. */
    public boolean contains(double r) {
        return switch (shape) {
            case NONE -> false;
            case INTERVAL -> low <= r && r <= high;
            case AT_LEAST -> r >= low;
            case TWO_RAYS -> r <= low || r >= high;
            case EVERYTHING -> r > 0;
        };
    }

    /** Every ratio of the set above 1. */
    public boolean above(double r) {
        return (shape == Shape.INTERVAL || shape == Shape.AT_LEAST) && low > r;
    }

    /** Every ratio of the set below r. */
    public boolean below(double r) {
        return shape == Shape.INTERVAL && high < r;
    }

    /** Whether the set is an interval inside [lo, hi]. */
    public boolean within(double lo, double hi) {
        return shape == Shape.INTERVAL && low >= lo && high <= hi;
    }

    public boolean bounded() {
        return shape == Shape.INTERVAL;
    }

    /** "1.72–1.88×", "at least 1.11×", "below 0.40× or above 2.10×", "any ratio", "" without a set. */
    public String words() {
        return switch (shape) {
            case NONE -> "";
            case INTERVAL -> String.format(Locale.ROOT, "%.2f–%.2f×", low, high);
            case AT_LEAST -> String.format(Locale.ROOT, "at least %.2f×", low);
            case TWO_RAYS -> String.format(Locale.ROOT, "below %.2f× or above %.2f×", low, high);
            case EVERYTHING -> "any ratio";
        };
    }

    /**
     * Fieller's set for b's mean over a's mean, from each side's mean and squared standard error: every θ for which
     * ȳ − θx̄ = 0 is not rejected, (ȳ − θx̄)² ≤ t²(v_y + θ²v_x), a quadratic qa·θ² − 2qb·θ + qc ≤ 0. qa > 0 (the
     * denominator's mean clear of 0): an interval; qa < 0: the outside of the roots (two rays, one of which may lie
     * wholly below 0 and then leaves a ray upward), or everything when there is no root; qa = 0: one ray.
     *
     * @param t the t quantile for the level asked
     */
    static RatioSet fieller(double mx, double vx, double my, double vy, double t) {
        double t2 = t * t, qa = mx * mx - t2 * vx, qb = mx * my, qc = my * my - t2 * vy;
        if (qa == 0) {
            // linear: −2qb·θ + qc ≤ 0, θ ≥ qc / 2qb for positive means
            return qb > 0 ? atLeast(qc / (2 * qb)) : EVERYTHING;
        }
        double disc = qb * qb - qa * qc;
        if (qa > 0) {
            double root = Math.sqrt(Math.max(0, disc));
            return new RatioSet(Shape.INTERVAL, Math.max(0, (qb - root) / qa), (qb + root) / qa);
        }
        if (disc <= 0) return EVERYTHING;
        double root = Math.sqrt(disc), r1 = (qb + root) / qa, r2 = (qb - root) / qa; // qa < 0: r1 < r2
        if (r2 <= 0) return EVERYTHING;
        if (r1 <= 0) return atLeast(r2);
        return new RatioSet(Shape.TWO_RAYS, r1, r2);
    }

    private static RatioSet atLeast(double low) {
        return low <= 0 ? EVERYTHING : new RatioSet(Shape.AT_LEAST, low, Double.POSITIVE_INFINITY);
    }
}
