package vtlab.run;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import vtlab.probe.Proc;
import vtlab.proc.Commands;
import vtlab.tier.host.TierProcess;

/**
 * During the warm-up only, the JIT's compiler threads run before the request threads on the SUT's CPUs (the real-time
 * round-robin policy at its lowest priority, {@code chrt -r 1}); before the load stops for the hold they are back under
 * the normal policy. Why: a server with more cores compiles on idle ones, but on the SUT's one core the kernel shares
 * the CPU per runnable thread, so 200 busy request threads left the compiler 3-15% of it. Measured on
 * spring-petclinic-rest (docs/results.md, "A warm-up that lets the JIT work"): from 1,060 req/s after 100 s of load
 * and still climbing, to a steady 2,300-2,500 req/s after 30 s. What the hold measures is the same JIT's work, done
 * sooner; the threads' policy during the hold is the one the JVM gave them.
 *
 * <p>Compiler threads come and go (the JVM starts more under a backlog), so {@link #raise()} is called before every
 * slice and raises the new ones. The kernel caps real-time threads at 95% of a CPU (sched_rt_runtime_us), so request
 * threads are never stopped outright. Where it cannot be done (not root, no chrt, the SUT on another host) the row says
 * why in {@code warmup_jit_first} and the warm-up runs as before.
 */
final class JitFirst implements AutoCloseable {
    /** How one thread's policy is set: chrt here, a test's recorder there. */
    interface Scheduler {
        /** Real-time round-robin at priority 1 (true) or the normal policy (false); throws when refused. */
        void set(long tid, boolean first) throws IOException, InterruptedException;
    }

    static final Scheduler CHRT = (tid, first) -> Commands.run(first
            ? List.of("chrt", "-r", "-p", "1", Long.toString(tid))
            : List.of("chrt", "-o", "-p", "0", Long.toString(tid)), Duration.ofSeconds(5));

    /** The compiler threads of a local process now, by thread id: /proc here, a test's list there. */
    interface Threads {
        Set<Long> of(long pid);
    }

    private final TierProcess jvm;
    private final Scheduler scheduler;
    private final Threads threads;
    private final Set<Long> raised = new LinkedHashSet<>();
    private String refused;
    private int total;

    JitFirst(TierProcess jvm, Scheduler scheduler) {
        this(jvm, scheduler, Proc::compilerThreadIds);
    }

    JitFirst(TierProcess jvm, Scheduler scheduler, Threads threads) {
        this.jvm = jvm;
        this.scheduler = scheduler;
        this.threads = threads;
        if (jvm.local().isEmpty()) refused = "not done: the SUT runs on another host";
    }

    /** Raises the compiler threads not yet raised; after a refusal, nothing more is tried. */
    void raise() throws InterruptedException {
        if (refused != null) return;
        for (long tid : threads.of(jvm.pid())) {
            if (raised.contains(tid)) continue;
            try {
                scheduler.set(tid, true);
                raised.add(tid);
                total++;
            } catch (IOException e) {
                if (!jvm.alive() || !threads.of(jvm.pid()).contains(tid)) continue; // it ended meanwhile
                refused = "not done: " + firstLine(e.getMessage());
                return;
            }
        }
    }

    /**
     * Every compiler thread back under the normal policy: the raised ones, and any the JVM started since the last
     * slice (a thread inherits its creator's policy, and compiler threads are started by compiler threads).
     */
    @Override
    public void close() throws InterruptedException {
        if (raised.isEmpty()) return;
        if (jvm.alive()) raised.addAll(threads.of(jvm.pid()));
        for (long tid : raised) {
            try {
                scheduler.set(tid, false);
            } catch (IOException e) {
                // the thread ended: nothing to give back
            }
        }
        raised.clear();
    }

    /** For the row: what was done or why not. */
    String state() {
        if (total == 0) return refused != null ? refused : "not done: no compiler thread seen";
        return "SCHED_RR 1 for " + total + " compiler thread" + (total == 1 ? "" : "s") + " while warming up" + (refused != null ? " (then " + refused + ")" : "");
    }

    private static String firstLine(String s) {
        if (s == null) return "refused";
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }
}
