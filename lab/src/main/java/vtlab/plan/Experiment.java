package vtlab.plan;

import java.util.List;

import vtlab.cli.Options;
import vtlab.cli.UsageError;

/**
 * An experiment turns options into rows (its axes crossed), as a k6 executor turns options into a load model.
 * One experiment per file in vtlab.experiment; registered in {@link Experiments}.
 */
public interface Experiment {
    String name();

    /** One line for `vtlab list`. */
    String summary();

    /** Axes and their defaults, one line each, for `vtlab list` and `--help`. */
    List<String> axes();

    /** The rows to run; invalid options are refused here, before anything starts. */
    List<Row> plan(Options options, PlanContext ctx) throws UsageError;
}
