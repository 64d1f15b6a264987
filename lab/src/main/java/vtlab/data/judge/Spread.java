package vtlab.data.judge;

import java.util.Locale;

import org.apache.commons.statistics.descriptive.Mean;
import org.apache.commons.statistics.descriptive.Variance;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;

/**
 * The spread between units (forks, fresh JVMs) of one configuration: their coefficient of variation (the standard
 * deviation of the fork means over their mean) with its 95% interval. An A/A run's forks are all one configuration, so
 * this is the machine's own noise floor: what two fresh JVMs of the same thing differ by. The interval is Vangel's
 * modified McKay interval for a CV (exact enough for Normal means at the CVs forks show; at small CVs it is the
 * chi-square interval of the standard deviation over the mean): with few forks it is wide, and says so.
 *
 * @param units forks the spread stands on
 * @param cv    the sample standard deviation (n − 1) over the mean; NaN with fewer than two units
 * @param low   the interval's lower bound; NaN with fewer than two units
 * @param high  its upper bound; +∞ when the forks cannot bound it, NaN with fewer than two units
 */
public record Spread(int units, double cv, double low, double high) {
    public static final Spread NONE = new Spread(0, Double.NaN, Double.NaN, Double.NaN);

    /** The spread of the unit means given (NaN and infinities left out), at 95%. */
    public static Spread of(double[] unitMeans) {
        double[] x = Stats.finite(unitMeans);
        if (x.length < 2) return new Spread(x.length, Double.NaN, Double.NaN, Double.NaN);
        double mean = Mean.of(x).getAsDouble();
        if (!(mean > 0)) return new Spread(x.length, Double.NaN, Double.NaN, Double.NaN);
        double k = Math.sqrt(Variance.of(x).getAsDouble()) / mean;
        int df = x.length - 1;
        ChiSquaredDistribution chi2 = ChiSquaredDistribution.of(df);
        double alpha = 1 - Stats.LEVEL;
        double uHigh = chi2.inverseCumulativeProbability(1 - alpha / 2), uLow = chi2.inverseCumulativeProbability(alpha / 2);
        return new Spread(x.length, k, mcKay(k, uHigh, df), mcKay(k, uLow, df));
    }

    /** One bound of Vangel's modified McKay interval: K / √(((u + 2)/(ν + 1) − 1)K² + u/ν), +∞ where the root is not above 0. */
    private static double mcKay(double k, double u, int df) {
        if (k == 0) return 0;
        double d = ((u + 2) / (df + 1) - 1) * k * k + u / df;
        return d > 0 ? k / Math.sqrt(d) : Double.POSITIVE_INFINITY;
    }

    /** Whether there is a spread: two units at least. */
    public boolean known() {
        return !Double.isNaN(cv);
    }

    /** "CV 4.1% (95% CI 2.8–7.9%, 10 forks)", "CV 4.1% (95% CI 2.8% to unbounded, 2 forks)", "one fork: no spread". */
    public String words() {
        if (!known()) return units == 1 ? "one fork: no spread" : "no fork: no spread";
        String hi = Double.isFinite(high) ? String.format(Locale.ROOT, "%.1f%%", 100 * high) : "unbounded";
        return String.format(Locale.ROOT, "CV %.1f%% (95%% CI %.1f–%s, %d forks)", 100 * cv, 100 * low, hi, units);
    }

    /**
     * How far apart two single forks of one configuration may come from this noise alone, as a fraction: the 95% band
     * of the ratio of two fork means, ±1.96·√2·CV on its logarithm (NaN when the spread is not known). A one-fork
     * comparison inside it is indistinguishable from the machine's noise.
     */
    public double singleForkBand() {
        return known() ? Math.expm1(1.959964 * Math.sqrt(2) * cv) : Double.NaN;
    }
}
