package vtlab.run;

/** The row's SUT stopped, unless kept for the next row: after the other phases, also when one of them failed. */
final class StopPhase implements Phase {
    @Override
    public String name() {
        return "stop";
    }

    @Override
    public boolean applies(RowContext c) {
        return c.sut != null;
    }

    @Override
    public void run(RowContext c) {
        c.steps.step("stopping SUT");
        c.sut.close();
    }
}
