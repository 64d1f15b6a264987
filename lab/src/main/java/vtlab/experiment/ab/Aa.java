package vtlab.experiment.ab;

import java.util.List;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.DataRow;
import vtlab.plan.Row;
import vtlab.stack.ThreadMode.Threads;

/**
 * ./vtlab ab --aa: one configuration against itself, to measure this machine's noise floor. Its rows are two
 * configurations that differ only by a label (the param side=A / side=A'), run interleaved A, A', A, A' ... as an A/B's
 * are, so the judge sees an A/B whose true ratio is 1: a claim of better or worse is a false claim, and the spread
 * between its forks is what two fresh JVMs of the same thing differ by here. One configuration only, or the spread is
 * of several things: more than one mode, variant, --conc or --rates value, --url or JDK is refused before anything
 * starts, as is --next-step (nothing to improve on) and a fault or a rate profile (no steady state).
 */
final class Aa {
    private Aa() {}

    static final Opt AA = Opt.flag("aa", "A/A: one configuration against itself (A, A', A, A' ..., identical runs\n"
            + "but for a label) to measure this machine's noise floor: the between-fork\nCV of throughput and p99 with its interval, kept as this machine's\n"
            + "(.vtlab/machines/HOST.json) and quoted by later verdicts; one --modes (default\nvirtual), one --variants (default as-shipped), one --conc (default 200)\n"
            + "or --rates, one --url; --forks 5 unless --forks, --budget or --reps says");
    /** The param that labels a side: the rows are otherwise identical. */
    static final String PARAM = "side";
    static final String A = "A", A2 = "A'";
    /** Forks a side unless asked: ten fresh JVMs, about ab's default --budget at its defaults here, and 9 degrees of freedom for the CV. */
    static final int FORKS = 5;
    static final String DEFAULT_MODE = Threads.VIRTUAL.word;
    static final int DEFAULT_CONC = 200;

    static boolean on(Options o) throws UsageError {
        return AA.on(o);
    }

    /** The side a row is on, null for a row of an A/B. */
    static String side(DataRow r) {
        return r.param(PARAM);
    }

    /** The configuration's two sides, A then A', identical but for the label. */
    static List<Row> sides(Row config) {
        return List.of(labelled(config, A), labelled(config, A2));
    }

    static Row labelled(Row config, String side) {
        return config.toBuilder().params(config.params().with(PARAM, side)).build();
    }

    /** The thread modes of an A/A: the one given, else virtual; refused when more than one is asked. */
    static List<String> modes(Options o) throws UsageError {
        if (!AbExperiment.MODES.given(o)) return List.of(DEFAULT_MODE);
        return one("--modes", AbExperiment.MODES.chosen(o));
    }

    /** The variants of an A/A: the one given, else as shipped; refused when more than one is asked. */
    static List<String> variants(Options o) throws UsageError {
        if (!AbExperiment.VARIANTS.given(o)) return List.of(Service.AS_SHIPPED);
        return one("--variants", AbExperiment.VARIANTS.chosen(o));
    }

    /** The connections of an A/A: the one given, else {@link #DEFAULT_CONC}; refused when more than one is asked. */
    static List<Integer> conc(Options o) throws UsageError {
        if (!AbExperiment.CONC.given(o)) return List.of(DEFAULT_CONC);
        return one("--conc", AbExperiment.CONC.ints(o));
    }

    /** What an A/A cannot be combined with, and more than one URL, rate or JDK: one line each, before anything starts. */
    static void refuse(Options o, int urls, int jdks, int rates) throws UsageError {
        if (NextStep.NEXT_STEP.on(o)) throw new UsageError("--aa measures the machine's noise, one configuration against itself: not with --next-step (nothing to improve on)");
        if (urls > 1) throw new UsageError("--aa runs one configuration against itself: give one --url, not " + urls);
        if (jdks > 1) throw new UsageError("--aa runs one configuration against itself: give one --jdk, not " + jdks);
        if (rates > 1) throw new UsageError("--aa runs one configuration against itself: give one --rates value, not " + rates);
        if (!vtlab.plan.FaultAxis.parse(o).isEmpty() || vtlab.plan.PlanContext.RATE_PROFILE.given(o)) {
            throw new UsageError("--aa measures the noise of a steady state: not with --fault or --rate-profile");
        }
    }

    private static <T> List<T> one(String option, List<T> given) throws UsageError {
        if (given.size() != 1) {
            throw new UsageError("--aa runs one configuration against itself: give one " + option + " value, not " + given.size() + " ("
                    + String.join(",", given.stream().map(String::valueOf).toList()) + ")");
        }
        return given;
    }
}
