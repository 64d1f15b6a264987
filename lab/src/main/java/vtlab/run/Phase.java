package vtlab.run;

/**
 * One phase of a row ({@link RowRunner} runs them in order): a small step with what it needs handed on in the
 * {@link RowContext}. A phase that throws fails the row; the phases after it do not run, the SUT is stopped.
 */
interface Phase {
    /**
     * The phase's name: for a timed phase the one {@link PhaseClock} files its time under in row_phases_s (its steps
     * on the progress line name it, or it enters it itself); a phase that shows no step adds its time to the one before.
     */
    String name();

    /** Whether the row goes through this phase at all (e.g. the profiled hold only with an explaining probe). */
    default boolean applies(RowContext c) {
        return true;
    }

    void run(RowContext c) throws Exception;
}
