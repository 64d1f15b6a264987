package vtlab.run;

/** After the hold: its numbers into the row, then what the probes make of it (shows no step: timed as its own). */
final class ProbesPhase implements Phase {
    @Override
    public String name() {
        return "probes";
    }

    @Override
    public void run(RowContext c) throws Exception {
        c.steps.enter(name());
        c.out.putAll(c.measured.values());
        c.probes.afterLoad(c.out);
        c.out.putAll(c.probes.measurements().columns());
    }
}
