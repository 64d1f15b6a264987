package vtlab.proc;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every process the lab starts is registered here, so that a normal end, Ctrl-C, SIGTERM or a crash of a row
 * stops all of them (and their descendants): no JVM, generator or database is left behind.
 */
public final class Children {
    private static final Set<ProcessHandle> LIVE = ConcurrentHashMap.newKeySet();
    private static final List<Runnable> ON_SHUTDOWN = new ArrayList<>();
    private static volatile boolean shuttingDown;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Children::shutdown, "vtlab-cleanup"));
    }

    private Children() {}

    public static Process track(Process p) {
        LIVE.add(p.toHandle());
        p.onExit().thenRun(() -> LIVE.remove(p.toHandle()));
        return p;
    }

    /** Work to do when the JVM is asked to stop (before the processes are killed), e.g. mark a run incomplete. */
    public static synchronized void onShutdown(Runnable r) {
        ON_SHUTDOWN.add(r);
    }

    public static synchronized void removeOnShutdown(Runnable r) {
        ON_SHUTDOWN.remove(r);
    }

    public static boolean shuttingDown() {
        return shuttingDown;
    }

    /** SIGTERM to the process and its descendants, then SIGKILL after the grace period. */
    public static void stop(ProcessHandle p, long graceMillis) {
        List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
        tree.addFirst(p);
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.currentTimeMillis() + graceMillis;
        for (ProcessHandle h : tree) {
            try {
                if (!Exits.await(h, java.time.Duration.ofMillis(Math.max(1, deadline - System.currentTimeMillis())))) h.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                h.destroyForcibly();
            }
        }
        for (ProcessHandle h : tree) {
            if (h.isAlive()) h.destroyForcibly();
        }
        LIVE.remove(p);
    }

    static void shutdown() {
        shuttingDown = true;
        List<Runnable> hooks;
        synchronized (Children.class) {
            hooks = List.copyOf(ON_SHUTDOWN);
        }
        for (Runnable r : hooks) {
            try {
                r.run();
            } catch (RuntimeException e) {
                System.err.println("vtlab: cleanup step failed: " + e);
            }
        }
        for (ProcessHandle p : List.copyOf(LIVE)) stop(p, 5_000);
    }
}
