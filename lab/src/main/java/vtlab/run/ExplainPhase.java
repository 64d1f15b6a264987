package vtlab.run;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import vtlab.check.Validity;
import vtlab.data.RowValues;
import vtlab.load.LoadResult;
import vtlab.plan.Row;
import vtlab.probe.ProbeContext;

/**
 * The hold that explains the row ({@link ExplainingHold}), for a row with an explaining probe: after the measured one,
 * drained, the same load with only the explaining probes; their columns from its own throughput and latency, and what
 * it cost beside the row's. Once per configuration: see {@link #explainsAgain}.
 */
final class ExplainPhase implements Phase {
    private final RowLoad load;
    /** The forked configurations (scenarios) an ok row's explaining hold explained. */
    private final Set<String> explained = new HashSet<>();

    ExplainPhase(RowLoad load) {
        this.load = load;
    }

    @Override
    public String name() {
        return "profiled-hold";
    }

    @Override
    public boolean applies(RowContext c) {
        return !c.explainers.none();
    }

    @Override
    public void run(RowContext c) throws Exception {
        c.explaining = explainsAgain(c.row);
        if (c.explaining) explain(c);
        else c.steps.step("no profiled hold: an earlier fork of this configuration explained it");
    }

    /**
     * Whether the row gets a profiled hold: every row but a fork of a configuration that an earlier fork's ok row has
     * explained. Forks are one configuration run again in fresh JVMs for the interval between them; where a request's
     * time goes is the configuration's, and read from one ok row (the verdict and the next step name it), so each
     * further fork costs its start, warm-up and hold, not a profiled hold too (up to 20 s: within a --budget, more forks).
     * The profile's JVM options stay on every fork, so that the forks are one configuration. A flagged first fork's
     * breakdown does not count: the next fork is profiled, until one is ok.
     */
    boolean explainsAgain(Row row) {
        return row.fork() == 0 || !explained.contains(row.scenario());
    }

    /** After the row is judged: a fork's ok row whose explaining probes measured without an error explained its configuration. */
    void judged(RowContext c) {
        if (c.explaining && c.row.fork() > 0 && "ok".equals(c.out.get(Validity.STATUS)) && c.explainers.errors().isEmpty()) explained.add(c.row.scenario());
    }

    private void explain(RowContext c) throws Exception {
        Row row = c.row;
        DrainPhase.awaitIdle(c.planned, c.sut, c.steps); // the measured hold's last requests would otherwise fall into this one
        Duration d = ExplainingHold.length(row);
        c.steps.step("profiling " + d.toSeconds() + "s: a hold of its own, after the measured one (its numbers explain the row, they are not the row's)");
        // their beforeLoad here, after the measured hold and before this one's load: a recording started then is ready
        c.explainers.beforeLoad(new ProbeContext(row, RowLoad.tiers(c.sut, null, c.runTiers), Map.of(), c.sut.base(), c.raw, c.stem + ".profiled"));
        LoadResult profiled = load.measure(row, c.sut, c.url, c.workload, c.raw, c.stem + ".profiled", c.runTiers, c.explainers, what -> {}, FaultSchedule.NONE, d);
        RowValues held = new RowValues();
        held.putAll(profiled.values()); // the breakdown's request time is the profiled hold's own (its throughput × mean latency)
        c.explainers.afterLoad(held);
        c.out.putAll(c.explainers.measurements().columns());
        ExplainingHold.into(c.out, c.measured, profiled);
    }
}
