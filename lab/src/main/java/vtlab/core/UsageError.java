package vtlab.core;

/** Bad input or a missing prerequisite found before anything starts: one line, exit code 2. */
public class UsageError extends Exception {
    public UsageError(String message) {
        super(message);
    }
}
