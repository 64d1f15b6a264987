package vtlab.data.judge;

import org.apache.commons.statistics.descriptive.Mean;
import org.apache.commons.statistics.descriptive.Variance;

/**
 * The lab's one judge of a comparison: two configurations' values per unit (a fork, a fresh JVM: iterations of one
 * JVM are averaged into its one value before they come here, see {@link Units}) become a {@link Claim}: the ratio of
 * their means with Fieller's exact set (an interval, a ray, two rays or everything, {@link RatioSet}) and one of three
 * answers: better or worse (the whole set on one side of 1), equivalent within the margin (the whole interval inside
 * it), or undetermined, with the forks a side that would likely settle it.
 *
 * <p>Every claim is at 95%. A run that looks at its ratio several times and stops when it is settled (ab --forks auto:
 * at most 5 looks) judges each look at {@link #SEQUENTIAL_LEVEL}: its rule looks at the interval's width, never at the
 * side of 1 the estimate lies on, but stopping when the forks happen to agree still shrinks the spread the t divides
 * by, so a 95% look would claim a difference on 6% of A/A runs where one side's forks are steady ({@link ErrorRates});
 * 97.5% brings it back under 5% for every noise model of the lab's forks, measured in the table of docs/results.md (Bonferroni's 99% a look is safer
 * still and needs a fork a side more than a coffee break's budget buys).
 */
public final class Judge {
    private Judge() {}

    /** The chance of a false claim a run may spend, over all its looks. */
    public static final double ALPHA = 1 - Stats.LEVEL;
    /** Forks a side past which {@link Claim#moreForks} says only "more than this". */
    static final int MAX_FORKS_ESTIMATED = 50;
    static final int TOO_MANY = -2;

    /** The level of each look of a run that adds forks until settled: the run's 5% halved (see above). */
    public static final double SEQUENTIAL_LEVEL = 1 - ALPHA / 2;

    /** A claim at 95% (one look). */
    public static Claim ratio(String what, double[] base, double[] other, Margin margin) {
        return ratio(what, base, other, margin, Stats.LEVEL);
    }

    /**
     * other's mean over base's, better above 1 (for a metric where lower is better pass them swapped: base's p99 over
     * other's is other's gain), judged at level (95%, or a sequential run's {@link #SEQUENTIAL_LEVEL}).
     *
     * @param base  base's value per fork (NaN and infinities left out)
     * @param other other's value per fork
     */
    public static Claim ratio(String what, double[] base, double[] other, Margin margin, double level) {
        if (!(level > 0.5 && level < 1)) throw new IllegalArgumentException("a level between 50% and 100%, not " + level);
        double[] x = Stats.finite(base), y = Stats.finite(other);
        if (x.length == 0 || y.length == 0) return refused(what, x.length + y.length == 0 ? "no value on either side" : "no value on one side", margin);
        double mx = Mean.of(x).getAsDouble(), my = Mean.of(y).getAsDouble(), est = my / mx;
        if (!(mx > 0) || !(my > 0)) return new Claim(what, est, RatioSet.NONE, level, x.length, y.length, Answer.UNDETERMINED, margin, -1,
                "a mean that is not above 0");
        if (x.length < 2 || y.length < 2) return new Claim(what, est, RatioSet.NONE, level, x.length, y.length, Answer.UNDETERMINED, margin, -1, null);
        double vx = Variance.of(x).getAsDouble() / x.length, vy = Variance.of(y).getAsDouble() / y.length;
        RatioSet set;
        if (vx == 0 && vy == 0) {
            set = new RatioSet(RatioSet.Shape.INTERVAL, est, est);
        } else {
            // Welch-Satterthwaite degrees of freedom of ȳ − θ̂x̄ (unequal variances), rounded down: see Stats.welchDf
            double tvx = est * est * vx;
            set = RatioSet.fieller(mx, vx, my, vy, Stats.t(Stats.welchDf(tvx, x.length, vy, y.length), level));
        }
        Answer answer = answer(set, margin);
        int more = answer == Answer.UNDETERMINED ? moreForks(x, y, mx, my, est, margin, level) : 0;
        return new Claim(what, est, set, level, x.length, y.length, answer, margin, more, null);
    }

    /** A comparison that is not judged, with why ("1 of 3 forks failed: ..."): undetermined, no set. */
    public static Claim refused(String what, String why, Margin margin) {
        return new Claim(what, Double.NaN, RatioSet.NONE, Stats.LEVEL, 0, 0, Answer.UNDETERMINED, margin, -1, why);
    }

    /** The answer from the whole set: better/worse when it lies on one side of 1, equivalent when inside the margin's band. */
    static Answer answer(RatioSet set, Margin margin) {
        if (set.above(1)) return Answer.BETTER;
        if (set.below(1)) return Answer.WORSE;
        if (set.within(margin.lower(), margin.upper())) return Answer.EQUIVALENT;
        return Answer.UNDETERMINED;
    }

    /**
     * Forks a side to add so that, at the spread seen, the interval would likely exclude 1 or fit in the margin's band,
     * whichever needs fewer: on the logarithm of the ratio, whose standard error over n forks a side is
     * √((cv_x² + cv_y²)/n), the interval's half-width t·se must come under |ln r| (to exclude 1) or ln(1+M) − |ln r|
     * (to fit the band). An estimate, said as "about": the spread itself is known from a few forks only.
     */
    static int moreForks(double[] x, double[] y, double mx, double my, double est, Margin margin, double level) {
        double cv2 = Variance.of(x).getAsDouble() / (mx * mx) + Variance.of(y).getAsDouble() / (my * my);
        int now = Math.max(x.length, y.length);
        if (cv2 == 0) return 1;
        double d = Math.abs(Math.log(est)), room = Math.log(margin.upper()) - d;
        for (int n = now + 1; n <= MAX_FORKS_ESTIMATED; n++) {
            // n − 1 degrees of freedom, Welch's least when one side's noise dominates: a few forks know their spread poorly
            double half = Stats.t(n - 1, level) * Math.sqrt(cv2 / n);
            if (half < d || half < room) return n - now;
        }
        return TOO_MANY;
    }
}
