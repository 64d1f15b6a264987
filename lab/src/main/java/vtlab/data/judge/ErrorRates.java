package vtlab.data.judge;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The judge's error rates, measured: a seeded simulation draws fork means from noise models like the ones this lab's
 * forks show, judges each draw as ab does ({@link Judge#ratio}), and counts how often it is wrong. A/A (both
 * configurations alike): how often it claims better or worse where there is no difference; how often its set holds the
 * true ratio; how often it finds a 10% and a 20% gain. Run it with {@code java -cp lab/target/classes:...
 * vtlab.data.judge.ErrorRates [trials] [seed]} (docs/results.md keeps its table); ErrorRatesTest holds its bounds.
 */
public final class ErrorRates {
    private ErrorRates() {}

    /** The seed of the table in docs/results.md. */
    public static final long SEED = 62;
    /** A fork mean's coefficient of variation: this lab's forks spread 3–8% (docs/results.md), 5% the middle. */
    static final double CV = 0.05;
    /** ab's settled: both bounds within ±10% of the estimate. */
    static final double SETTLED = 0.10;

    /** How fork means are drawn: each model a known way the lab's forks misbehave. */
    public enum Model {
        NORMAL("normal, CV 5%"),
        HEAVY("Student t, 3 df (heavy tails), CV 5%"),
        SLOW_FIRST("normal, CV 5%; the run's first fork (platform's) 10% slow"),
        DRIFT("normal, CV 5%; the machine drifts −10% over the run, P/V interleaved"),
        DRIFT_BLOCKED("normal, CV 5%; the same drift, all P forks then all V forks"),
        UNEQUAL("normal, P's CV 0.5%, V's 6% (the sleep A/B: 200 platform threads steady, virtual's forks spread)");

        public final String words;

        Model(String words) {
            this.words = words;
        }
    }

    /** One line of the table: a model at a number of forks a side. */
    public record Line(Model model, String forks, double falseClaim, double coverage, double equivalent, double power10, double power20, double meanForks) {}

    /**
     * P's and V's fork means for one run of n forks a side (for a sequential run, its most), V's true throughput ratio
     * times P's; the run's order is P1 V1 P2 V2 ... (interleaved, as ab runs them) unless the model runs them in blocks.
     */
    static double[][] draw(Model m, int n, double ratio, SplittableRandom rnd) {
        double[] p = new double[n], v = new double[n];
        for (int i = 0; i < n; i++) {
            p[i] = 1000 * (1 + (m == Model.UNEQUAL ? CV / 10 : CV) * noise(m, rnd)) * drift(m, m == Model.DRIFT_BLOCKED ? i : 2 * i, n);
            v[i] = 1000 * ratio * (1 + (m == Model.UNEQUAL ? CV * 1.2 : CV) * noise(m, rnd)) * drift(m, m == Model.DRIFT_BLOCKED ? n + i : 2 * i + 1, n);
        }
        if (m == Model.SLOW_FIRST) p[0] *= 0.90;
        return new double[][] {p, v};
    }

    /** A unit-variance draw: normal, or Student's t at 3 degrees of freedom scaled to variance 1. */
    static double noise(Model m, SplittableRandom rnd) {
        double z = gaussian(rnd);
        if (m != Model.HEAVY) return z;
        double chi2 = 0;
        for (int k = 0; k < 3; k++) {
            double g = gaussian(rnd);
            chi2 += g * g;
        }
        return z / Math.sqrt(chi2 / 3) / Math.sqrt(3); // t3's variance is 3
    }

    static double gaussian(SplittableRandom rnd) {
        // Box-Muller: SplittableRandom has no nextGaussian of its own in every JDK the lab builds on
        double u = 1 - rnd.nextDouble(), w = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * w);
    }

    /** The machine's factor at position k of the run's 2n forks: −10% from the first fork to the last. */
    static double drift(Model m, int k, int n) {
        if (m != Model.DRIFT && m != Model.DRIFT_BLOCKED) return 1;
        return 1 - 0.10 * k / (2.0 * n - 1);
    }

    /** What a row of the table counts over its trials' claims: one tally for the fixed and the sequential rows. */
    static final class Tally {
        int wrong, covered, judged, equivalent, found10, found20;

        void add(Claim c, double ratio) {
            judged++;
            if (c.set().contains(ratio)) covered++;
            if (ratio == 1.0 && c.answer().difference()) wrong++;
            if (ratio == 1.0 && c.answer() == Answer.EQUIVALENT) equivalent++;
            if (ratio == 1.1 && c.answer() == Answer.BETTER) found10++;
            if (ratio == 1.2 && c.answer() == Answer.BETTER) found20++;
        }

        Line line(Model m, String forks, int trials, double meanForks) {
            return new Line(m, forks, (double) wrong / trials, (double) covered / judged, (double) equivalent / trials,
                    (double) found10 / trials, (double) found20 / trials, meanForks);
        }
    }

    /** A fixed number of forks a side, judged once at 95% (ab --forks N). */
    public static Line fixed(Model m, int n, int trials, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + m.ordinal() * 101L + n);
        Tally tally = new Tally();
        for (int t = 0; t < trials; t++) {
            for (double ratio : new double[] {1.0, 1.1, 1.2}) {
                double[][] d = draw(m, n, ratio, rnd);
                Claim c = Judge.ratio("sim", d[0], d[1], Margin.DEFAULT);
                tally.add(c, ratio);
            }
        }
        return tally.line(m, Integer.toString(n), trials, n);
    }

    /** How a sequential run decides to stop adding forks, and at what level it judges each look. */
    public enum Stopping {
        /** What ab --forks auto does: each look at 97.5% ({@link Judge#SEQUENTIAL_LEVEL}), stop when settled (both bounds within ±10%). */
        AUTO("auto 2–6, 97.5% a look, stop when settled", Judge.SEQUENTIAL_LEVEL, false),
        /** The same rule at 95% a look: a narrow-by-chance spread stops it, and the t divides by that spread. */
        WIDTH_95("2–6, 95% a look, stop when settled", Stats.LEVEL, false),
        /** Each of the 5 looks at 99% (the 5% split Bonferroni's way), stop when settled: safe, and slow to settle. */
        SPLIT("2–6, 99% a look, stop when settled", 1 - Judge.ALPHA / 5, false),
        /** 95% at every look, stopping at the first better or worse: what a sequential test must not do, for contrast. */
        NAIVE("naive 2–6, 95% a look, stop at a claim", Stats.LEVEL, true);

        public final String words;
        final double level;
        final boolean stopAtClaim;

        Stopping(String words, double level, boolean stopAtClaim) {
            this.words = words;
            this.level = level;
            this.stopAtClaim = stopAtClaim;
        }
    }

    /**
     * ab --forks auto and its alternatives: two forks a side, then one more a side at a time up to 6, looking after each.
     * Stopping when the interval is narrow enough looks at the forks' spread, not at which side of 1 the estimate lies:
     * for normal fork means the spread and the mean are independent, so a rule on the width alone leaves the 95% of
     * each look almost untouched; the table measures how little that is, model by model.
     */
    public static Line sequential(Model m, Stopping stopping, int trials, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + m.ordinal() * 101L + 7 + 2L * stopping.ordinal());
        int most = 6;
        Tally tally = new Tally();
        long forks = 0;
        for (int t = 0; t < trials; t++) {
            for (double ratio : new double[] {1.0, 1.1, 1.2}) {
                double[][] d = draw(m, most, ratio, rnd);
                Claim c = null;
                int n;
                for (n = 2; n <= most; n++) {
                    c = Judge.ratio("sim", Arrays.copyOf(d[0], n), Arrays.copyOf(d[1], n), Margin.DEFAULT, stopping.level);
                    if (stopping.stopAtClaim ? c.answer().difference() : c.settled(SETTLED)) break;
                }
                n = Math.min(n, most);
                forks += n;
                tally.add(c, ratio);
            }
        }
        return tally.line(m, stopping.words, trials, (double) forks / tally.judged);
    }

    /** Every model at 2 to 6 forks a side, then the sequential runs. */
    public static List<Line> table(int trials, long seed) {
        List<Line> out = new ArrayList<>();
        for (Model m : Model.values()) {
            for (int n = 2; n <= 6; n++) out.add(fixed(m, n, trials, seed));
            for (Stopping s : Stopping.values()) out.add(sequential(m, s, trials, seed));
        }
        return out;
    }

    /** The table as docs/results.md keeps it (Markdown). */
    public static String markdown(List<Line> lines, int trials, long seed) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "Seed %d, %,d trials a cell (each an A/A, a +10%% and a +20%% run); margin ±5%%,"
                + " settled ±10%%; fork means 1,000 req/s × (1 + 5%% × noise).%n%n", seed, trials));
        sb.append("| model | forks a side | false claim (A/A) | coverage | equivalent (A/A) | power +10% | power +20% | mean forks |\n");
        sb.append("|---|---|---|---|---|---|---|---|\n");
        for (Line l : lines) {
            sb.append(String.format(Locale.ROOT, "| %s | %s | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f |%n", l.model().words, l.forks(),
                    100 * l.falseClaim(), 100 * l.coverage(), 100 * l.equivalent(), 100 * l.power10(), 100 * l.power20(), l.meanForks()));
        }
        return sb.toString();
    }

    /** Prints the table: args [trials (default 20,000)] [seed (default {@link #SEED})]. */
    public static void main(String[] args) {
        int trials = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : SEED;
        System.out.print(markdown(table(trials, seed), trials, seed));
    }
}
