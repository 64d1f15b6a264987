package vtlab.plan;

/**
 * A row's SUT is not what the row intends (configuration, endpoint answer, or an experiment's own check): the row
 * fails with this message as its reason and never gives numbers. Thrown by the runner's checks and by
 * {@link RowCheck}s that experiments contribute.
 */
public class VerificationFailed extends Exception {
    public VerificationFailed(String message) {
        super(message);
    }
}
