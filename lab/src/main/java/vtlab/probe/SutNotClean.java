package vtlab.probe;

import java.io.IOException;

/**
 * A probe could not undo what it started in the SUT, which still runs (a JFR recording whose JFR.stop failed): what
 * it measured was taken before, but that JVM must serve no later row, whose measured hold it would run into unflagged.
 * A typed signal, so the runner never reads it from an error's text.
 */
public final class SutNotClean extends IOException {
    public SutNotClean(String message, Throwable cause) {
        super(message, cause);
    }
}
