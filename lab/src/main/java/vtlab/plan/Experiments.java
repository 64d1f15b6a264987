package vtlab.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.cli.UsageError;
import vtlab.experiment.ServletExperiment;

/** The experiments `vtlab run NAME` knows, by name. */
public final class Experiments {
    private static final Map<String, Experiment> ALL = new LinkedHashMap<>();

    static {
        for (Experiment e : List.<Experiment>of(new ServletExperiment(),
                new vtlab.experiment.FootprintExperiment(), new vtlab.experiment.ProbeCostExperiment(), new vtlab.experiment.ThreadCostStudy(),
                new vtlab.experiment.ThreadLocalStudy(), new vtlab.experiment.ThreadMemoryStudy(),
                new vtlab.experiment.OrderSummaryExperiment(), new vtlab.experiment.PoolBottleneckExperiment(),
                new vtlab.experiment.SpringSleepExperiment(), new vtlab.experiment.PinningExperiment(),
                new vtlab.experiment.ReactiveExperiment(), new vtlab.experiment.ServletIoExperiment(),
                new vtlab.experiment.ResponseSizeExperiment())) ALL.put(e.name(), e);
    }

    private Experiments() {}

    public static Map<String, Experiment> all() {
        return ALL;
    }

    public static Experiment byName(String name) throws UsageError {
        Experiment e = ALL.get(name);
        if (e == null) throw new UsageError("unknown experiment '" + name + "' (known: " + String.join(", ", ALL.keySet()) + ")");
        return e;
    }
}
