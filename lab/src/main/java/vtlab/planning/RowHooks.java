package vtlab.planning;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import vtlab.plan.RunOptions;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.experiment.registry.Experiments;
import vtlab.plan.Drain;
import vtlab.plan.Experiment;
import vtlab.plan.PlannedRow;
import vtlab.plan.Row;
import vtlab.plan.RowCheck;
import vtlab.probe.ContainerProbe;
import vtlab.probe.ListenQueueProbe;
import vtlab.probe.Probe;
import vtlab.probe.Probes;
import vtlab.probe.ServedProbe;
import vtlab.run.Runner;

/**
 * How a row of this run gets its hooks resolved, so the runner needs no experiment: the plan's fixed rows are planned
 * with it, and the runner plans a search's rows with it as it goes (it is the runner's {@link Runner.Planner}).
 *
 * @param probes       the run's probe set (--probes, the experiments' defaults, none with --no-probes)
 * @param freshSut     --fresh-sut: a JVM per row
 * @param pinThreshold --pin-threshold as jfr-pinning's option ("20ms"), null without
 */
public record RowHooks(List<String> probes, boolean freshSut, String pinThreshold) implements Runner.Planner {
    public RowHooks {
        probes = List.copyOf(probes);
    }

    /** The hooks the options ask for over the run's probe set. */
    static RowHooks of(Options o, List<String> probes) throws UsageError {
        String pin = RunOptions.PIN_THRESHOLD.given(o) ? RunOptions.PIN_THRESHOLD.duration(o, Duration.ZERO, true).toMillis() + "ms" : null;
        return new RowHooks(probes, RunOptions.FRESH_SUT.on(o), pin);
    }

    /**
     * A row with its hooks resolved: its probes (its own set or the run's, plus what its experiment needs;
     * --pin-threshold as jfr-pinning's option), a fresh JVM or not, the experiment's extra verification, and every
     * registered probe's drains (the pool's idle wait runs whether or not hikari is probed).
     */
    @Override
    public PlannedRow planned(Row r) throws UsageError {
        Experiment e;
        try {
            e = Experiments.byName(r.experiment());
        } catch (UsageError x) {
            e = null; // rows are planned by a known experiment: this is a row made by hand (tests)
        }
        List<String> rowProbes = r.probes(probes);
        if (e != null) rowProbes = e.probes(rowProbes);
        // what ran the requests (a virtual row's on platform threads flag it) and the handshakes a full accept queue
        // dropped (connections that began late): beside any probe set, none with --no-probes
        if (!rowProbes.isEmpty()) rowProbes = ListenQueueProbe.with(ServedProbe.with(rowProbes));
        if (!r.limits().none()) rowProbes = ContainerProbe.with(rowProbes); // what the limits did, what the JVM saw
        if (pinThreshold != null) rowProbes = Probes.withOption(rowProbes, "jfr-pinning", "threshold", pinThreshold);
        Probes.validate(rowProbes);
        List<Drain> drains = new ArrayList<>();
        for (Supplier<Probe> p : Probes.all().values()) drains.addAll(p.get().drains(r));
        return new PlannedRow(r, rowProbes, freshSut || (e != null && e.freshSutPerRow()), e == null ? RowCheck.NONE : e::verify, drains);
    }

    /** Each row planned, in order. */
    List<PlannedRow> plannedAll(List<Row> rows) throws UsageError {
        List<PlannedRow> out = new ArrayList<>();
        for (Row r : rows) out.add(planned(r));
        return List.copyOf(out);
    }
}
