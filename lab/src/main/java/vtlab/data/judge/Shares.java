package vtlab.data.judge;

/**
 * A share with its 95% interval, by its real unit. A share of a profiler's execution samples is a proportion of
 * samples taken apart in time (Wilson's interval over them). A share read from thread dumps is not: the threads of
 * one dump are seen at one instant, in one state of the service (a pool exhausted holds every request thread waiting
 * at once), so they are one observation of that state, not as many independent trials as there are threads. Its
 * interval takes the dumps as the unit: Wilson's over an effective n of the number of dumps (the design effect of
 * threads that move together within a dump), which is as wide as a handful of instants warrants.
 */
public final class Shares {
    private Shares() {}

    private static final double Z = 1.959964;

    /** The 95% Wilson score interval of a proportion p observed over n independent units: {low, high}. */
    public static double[] wilson(double p, double n) {
        if (!(n > 0)) return new double[] {0, 1};
        double z2 = Z * Z;
        double centre = (p + z2 / (2 * n)) / (1 + z2 / n), half = Z * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
        return new double[] {Math.max(0, centre - half), Math.min(1, centre + half)};
    }

    /**
     * A share of threads seen in dumps: hits of observations threads, over dumps dumps; the interval's unit is the dump
     * (never more units than threads seen).
     */
    public static double[] ofDumps(int hits, int observations, int dumps) {
        if (observations <= 0) return new double[] {0, 1};
        return wilson((double) hits / observations, Math.min(observations, Math.max(1, dumps)));
    }
}
