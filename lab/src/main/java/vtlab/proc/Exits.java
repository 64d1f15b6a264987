package vtlab.proc;

import java.time.Duration;

/**
 * Waiting for a process to end without the JVM's common pool. {@code ProcessHandle.onExit()} and {@code Process.onExit()}
 * complete through {@code handleAsync} on that pool, whose one worker on a 2-CPU machine any blocking task can hold: an
 * end-to-end test's watcher loop held it while the lab waited for oha's build, which had ended 10 minutes before the
 * 20-minute wait gave up. Polling asks the kernel, and nothing else.
 */
public final class Exits {
    /** How often a wait looks: short beside a stop's grace (seconds), long beside a process start. */
    static final Duration POLL = Duration.ofMillis(20);

    private Exits() {}

    /** True once the process has ended (a reused pid counts as ended), false when max passed first. */
    public static boolean await(ProcessHandle p, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (p.isAlive()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) return false;
            Thread.sleep(Math.min(POLL.toMillis(), Math.max(1, left / 1_000_000)));
        }
        return true;
    }
}
