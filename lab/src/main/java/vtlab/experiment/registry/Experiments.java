package vtlab.experiment.registry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.core.UsageError;
import vtlab.plan.Experiment;
import vtlab.experiment.servlet.ServletExperiment;

/**
 * The experiments `vtlab run NAME` knows, by name: the one place that names every family, above them (a family never
 * imports it; capacity, which searches another experiment's scenarios, is handed the registry).
 */
public final class Experiments {
    private static final Map<String, Experiment> ALL = new LinkedHashMap<>();

    static {
        for (Experiment e : List.<Experiment>of(new ServletExperiment(),
                new vtlab.experiment.servlet.FootprintExperiment(), new vtlab.experiment.servlet.ProbeCostExperiment(), new vtlab.experiment.jmh.ThreadCostStudy(),
                new vtlab.experiment.jmh.ThreadLocalStudy(), new vtlab.experiment.jmh.ThreadMemoryStudy(),
                new vtlab.experiment.spring.OrderSummaryExperiment(), new vtlab.experiment.spring.PoolBottleneckExperiment(),
                new vtlab.experiment.spring.SpringSleepExperiment(), new vtlab.experiment.spring.PinningExperiment(),
                new vtlab.experiment.reactive.ReactiveExperiment(), new vtlab.experiment.servlet.ServletIoExperiment(),
                new vtlab.experiment.servlet.ResponseSizeExperiment(), new vtlab.experiment.capacity.CapacityExperiment(Experiments::all),
                new vtlab.experiment.spring.FaultsExperiment(), new vtlab.experiment.spring.LibrariesExperiment(),
                new vtlab.experiment.spring.ContainersExperiment(), new vtlab.experiment.servers.ServersExperiment(),
                new vtlab.experiment.seeds.SeedsSuite(), new vtlab.experiment.ab.AbExperiment(),
                new vtlab.experiment.scenario.ScenarioExperiment())) ALL.put(e.name(), e);
    }

    private Experiments() {}

    public static Map<String, Experiment> all() {
        return ALL;
    }

    public static Experiment byName(String name) throws UsageError {
        return Experiment.named(ALL, name);
    }
}
