package vtlab.plan;

import java.util.List;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;

/**
 * A named set of experiments run as one (`./vtlab run seeds`), each with settings of its own given as defaults: the
 * run plans every part as if it were named with those, so options typed on the command line still win. Its findings
 * read the whole run folder (every part's rows), e.g. the seeds' claims against this machine's numbers.
 */
public interface Suite extends Experiment {
    /** One experiment of the suite and the option defaults it runs with (e.g. "conc" -> "500,2500,10000"). */
    record Part(String experiment, Map<String, String> settings) {}

    List<Part> parts();

    @Override
    default List<Opt> options() {
        return List.of();
    }

    /** Never called: the run plans the parts (RunCommand), each by its own experiment. */
    @Override
    default List<Row> plan(Options options, PlanContext ctx) throws UsageError {
        throw new UsageError(name() + " is a suite of experiments: its parts are planned one by one");
    }

    /** How the suite's own data file shows in the report (its findings write it), or null. */
    default vtlab.data.StudySection section() {
        return null;
    }
}
