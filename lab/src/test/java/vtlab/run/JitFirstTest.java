package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import vtlab.probe.Proc;
import vtlab.tier.host.TierProcess;

/**
 * The warm-up's compiler threads under the real-time policy and back: on this test's own JVM with the real chrt (as
 * root, as CI runs), and what the row says when the kernel refuses or the SUT is on another host.
 */
class JitFirstTest {
    private static final TierProcess SELF = TierProcess.local(ProcessHandle.current());

    @Test
    void theCompilerThreadsRunFirstWhileWarmingAndNormallyAfter() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "setting a real-time policy needs root (CI runs as root)");
        Set<Long> compilers = Proc.compilerThreadIds(SELF.pid());
        assertFalse(compilers.isEmpty(), "a JVM with a JIT has compiler threads");
        JitFirst first = new JitFirst(SELF, JitFirst.CHRT);
        try (first) {
            first.raise();
            for (long tid : compilers) {
                if (alive(tid)) assertEquals(2, policy(tid), "thread " + tid + " under SCHED_RR while warming");
            }
        }
        for (long tid : compilers) {
            if (alive(tid)) assertEquals(0, policy(tid), "thread " + tid + " back under SCHED_OTHER before the hold");
        }
        assertTrue(first.state().startsWith("SCHED_RR 1 for "), first.state());
    }

    @Test
    void aRefusalIsSaidOnceAndNothingMoreIsTried() throws Exception {
        List<Long> asked = new ArrayList<>();
        JitFirst first = new JitFirst(SELF, (tid, up) -> {
            asked.add(tid);
            throw new IOException("chrt -r -p 1 " + tid + " failed (1): chrt: failed to set pid " + tid + "'s policy: Operation not permitted\nmore");
        });
        first.raise();
        first.raise();
        first.close();
        assertEquals(1, asked.size(), "refused once: the other threads and later slices are not tried");
        assertTrue(first.state().startsWith("not done: chrt -r -p 1 "), first.state());
        assertTrue(first.state().endsWith("Operation not permitted"), "its first line only: " + first.state());
    }

    @Test
    void aSutOnAnotherHostIsLeftAsItIs() throws Exception {
        List<Long> asked = new ArrayList<>();
        TierProcess remote = new TierProcess() {
            public long pid() { return SELF.pid(); }
            public boolean alive() { return true; }
            public Optional<ProcessHandle> local() { return Optional.empty(); }
            public String proc(String file) { return ""; }
        };
        JitFirst first = new JitFirst(remote, (tid, up) -> asked.add(tid));
        first.raise();
        first.close();
        assertEquals(List.of(), asked);
        assertEquals("not done: the SUT runs on another host", first.state());
    }

    /** A compiler thread the JVM started after the last slice inherited the real-time policy from its creator. */
    @Test
    void aCompilerThreadStartedAfterTheLastSliceIsPutBackToo() throws Exception {
        java.util.Set<Long> now = new java.util.TreeSet<>(Set.of(11L, 12L));
        List<String> calls = new ArrayList<>();
        JitFirst first = new JitFirst(SELF, (tid, up) -> calls.add((up ? "rr " : "normal ") + tid), pid -> now);
        first.raise();
        now.add(13L);
        first.close();
        assertEquals(List.of("rr 11", "rr 12", "normal 11", "normal 12", "normal 13"), calls);
        assertEquals("SCHED_RR 1 for 2 compiler threads while warming up", first.state());
    }

    private static boolean alive(long tid) {
        return Files.exists(Path.of("/proc/self/task/" + tid));
    }

    /** Field 41 of the thread's stat: 0 SCHED_OTHER, 2 SCHED_RR. */
    private static int policy(long tid) throws IOException {
        String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(f[38]);
    }
}
