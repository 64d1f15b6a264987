package vtlab.run;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.check.RowValidity;
import vtlab.data.RowValues;
import vtlab.load.Generator;
import vtlab.load.LoadResult;
import vtlab.plan.Row;
import vtlab.proc.CoreMap;

/**
 * The row's series, its fault's columns and hold window, then the validity checks over what was measured
 * ({@link RowValidity} judges it). Shows no step: its time counts to the phase before.
 */
final class ValidityPhase implements Phase {
    private final Generator generator;
    private final CoreMap cores;
    private final ExplainPhase explain;

    ValidityPhase(Generator generator, CoreMap cores, ExplainPhase explain) {
        this.generator = generator;
        this.cores = cores;
        this.explain = explain;
    }

    @Override
    public String name() {
        return "validity";
    }

    @Override
    public void run(RowContext c) throws Exception {
        c.series = RowRunner.series(c.probes.measurements().series(), c.measured);
        c.faults.into(c.out);
        HoldWindow window = HoldWindow.of(c.faults, c.row);
        if (window != null) window.into(c.out, c.row, c.series, c.measured);
        List<String> probeErrors = new ArrayList<>(c.probes.errors());
        probeErrors.addAll(c.explainers.errors());
        // a probe's recording left running would sample into the next row's hold: this row's numbers were taken
        // before it, the next row's are taken in a fresh JVM
        c.sutClean = c.probes.sutClean() && c.explainers.sutClean();
        if (!c.sutClean) probeErrors.add("the SUT was not kept for the next row: a probe could not stop what it started in it");
        validity(c.out, c.row, c.measured, c.runtime, probeErrors, window == null ? null : window.faultFromS());
        // explained: an ok row whose explaining probes measured without an error
        explain.judged(c);
    }

    /**
     * The validity checks over what was measured, into the row ({@link RowValidity} judges it).
     *
     * @param faultFromS for a row with a fault, the hold's second it began: an open row's rate and errors are judged on
     *                   the seconds before it (was the rig healthy?); what the fault did is its verdict, not a flaw
     */
    void validity(RowValues out, Row row, LoadResult r, JsonNode runtime, List<String> probeErrors, Integer faultFromS) {
        out.put(RowColumns.ACHIEVED_RPS, r.rps());
        RowValidity.Measured measured = new RowValidity.Measured(r.rps(), r.meanMs(), r.errorRate(), r.durationS(), RowRunner.dropped(r),
                r.series().seconds().stream().map(s -> new RowValidity.Second(s.requests(), s.errors())).toList(), r.agents());
        Integer maxConn = runtime.hasNonNull("max_connections") ? runtime.get("max_connections").asInt() : null;
        Object steady = out.get(RowColumns.WARMUP_STEADY);
        RowValidity.judge(out, row, measured, new RowValidity.Context(cores.count(CoreMap.LOAD), cores.count(CoreMap.APP), cores.shared(),
                generator.inFlightLimit(row.rate(), row.concurrency()), maxConn, steady instanceof Boolean b ? b : null, faultFromS, probeErrors));
    }
}
