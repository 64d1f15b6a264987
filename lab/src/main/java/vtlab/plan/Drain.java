package vtlab.plan;

import java.net.URI;
import java.time.Duration;

/**
 * A wait before the measured hold until the SUT is idle in one respect the runner's own drain cannot see (e.g. a
 * connection pool's queue), so the previous load's leftovers do not eat into the hold.
 */
public interface Drain {
    /** What goes idle, for the progress line ("the pool"). */
    String what();

    /** Waits until idle; false if {@code max} passed first (the row is measured anyway). */
    boolean await(URI sutBase, Duration max) throws InterruptedException;

    static Drain of(String what, Waiter waiter) {
        return new Drain() {
            @Override
            public String what() {
                return what;
            }

            @Override
            public boolean await(URI sutBase, Duration max) throws InterruptedException {
                return waiter.await(sutBase, max);
            }
        };
    }

    interface Waiter {
        boolean await(URI sutBase, Duration max) throws InterruptedException;
    }
}
