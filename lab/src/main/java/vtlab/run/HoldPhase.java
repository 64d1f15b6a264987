package vtlab.run;

/** The measured hold: the row's load (and its fault, if any) with the probes that do not explain sampling it. */
final class HoldPhase implements Phase {
    private final RowLoad load;

    HoldPhase(RowLoad load) {
        this.load = load;
    }

    @Override
    public String name() {
        return "hold";
    }

    @Override
    public void run(RowContext c) throws Exception {
        c.faults = FaultSchedule.of(c.row, c.runTiers);
        c.measured = load.measure(c.row, c.sut, c.url, c.workload, c.raw, c.stem, c.runTiers, c.probes, c.steps, c.faults, c.row.hold());
    }
}
