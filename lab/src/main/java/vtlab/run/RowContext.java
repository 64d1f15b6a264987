package vtlab.run;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.data.RowValues;
import vtlab.load.LoadResult;
import vtlab.plan.PlannedRow;
import vtlab.plan.Row;
import vtlab.stack.Stack;
import vtlab.tier.RunTier;
import vtlab.tier.SutHandle;

/** One row under way: what its {@link Phase}s are given, and what each hands on to the ones after it. */
final class RowContext {
    final PlannedRow planned;
    final Row row;
    final Path raw;
    /** The row's files in raw/ begin with it. */
    final String stem;
    final Map<String, RunTier> runTiers;
    /** The progress line's steps, timed by phase. */
    final PhaseClock steps;
    /** The row's columns for matrix.csv. */
    final RowValues out;

    // start: the probes (an explaining one gets a hold of its own), the stack, and the SUT configuration's key
    ProbeSession probes, explainers;
    Stack stack;
    Stack.Workload workload;
    String config;
    /** The row's SUT; null once kept for the next row (then not stopped). */
    SutHandle sut;
    // verify
    URI url;
    JsonNode runtime;
    // hold
    FaultSchedule faults;
    LoadResult measured;
    // profiled-hold: whether it ran (an earlier fork may have explained the configuration)
    boolean explaining;
    // validity
    Map<String, List<double[]>> series;
    /** False once a probe could not stop what it started in the SUT: then it is not kept. */
    boolean sutClean;

    RowContext(PlannedRow planned, Path raw, String stem, Map<String, RunTier> runTiers, PhaseClock steps, RowValues out) {
        this.planned = planned;
        this.row = planned.row();
        this.raw = raw;
        this.stem = stem;
        this.runTiers = runTiers;
        this.steps = steps;
        this.out = out;
    }
}
