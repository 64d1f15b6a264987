package vtlab.run;

/**
 * The row's SUT kept for the next row ({@link SutReuse}), then not stopped. A fork's JVM is kept for its next
 * iteration even under --fresh-sut (the fork is already a JVM of its own), never one a probe left unclean (its next
 * row or iteration then starts afresh, or fails saying why). Shows no step.
 */
final class KeepPhase implements Phase {
    private final SutReuse suts;

    KeepPhase(SutReuse suts) {
        this.suts = suts;
    }

    @Override
    public String name() {
        return "keep";
    }

    @Override
    public void run(RowContext c) {
        if (suts.release(c.sut, c.config, c.planned.freshSut() && c.row.fork() == 0 || !c.sutClean)) c.sut = null;
    }
}
