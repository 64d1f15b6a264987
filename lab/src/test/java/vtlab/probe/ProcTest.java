package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.tier.host.TierProcess;
import vtlab.tier.host.FileSession;
import vtlab.tier.host.LocalHost;

/**
 * A tier's process read where it runs: the same /proc files parsed the same way through a host's file session (here
 * this machine's, the script an ssh host runs) as directly, and a group of agents as the sum of its members.
 */
class ProcTest {
    @Test
    void aProcessReadThroughItsHostGivesWhatADirectReadGives() throws Exception {
        ProcessHandle self = ProcessHandle.current();
        try (FileSession files = new FileSession(new LocalHost())) {
            TierProcess there = TierProcess.on(files, self.pid(), () -> true);
            TierProcess here = TierProcess.local(self);
            long rssThere = Proc.statusField(there, "VmRSS"), rssHere = Proc.statusField(here, "VmRSS");
            assertTrue(rssThere > 0 && Math.abs(rssThere - rssHere) < rssHere / 2, rssThere + " vs " + rssHere);
            assertEquals(Proc.statusField(self.pid(), "Threads"), Proc.statusField(there, "Threads"), 3);
            // this JVM runs other tests meanwhile, so its ticks grow between two reads (447 against 514 once, on a new
            // machine's first build): the read through the host is bracketed by direct reads of the same tree
            long before = Proc.treeTicks(here), ticks = Proc.treeTicks(there), after = Proc.treeTicks(here);
            assertTrue(ticks > 0 && ticks >= before - 20 && ticks <= after + 20, before + " <= " + ticks + " <= " + after);
            long jitBefore = Proc.jitTicks(self.pid()), jit = Proc.jitTicks(there), jitAfter = Proc.jitTicks(self.pid());
            assertTrue(jit >= 0 && jit >= jitBefore - 20 && jit <= jitAfter + 20, "compiler threads' ticks: " + jitBefore + " <= " + jit + " <= " + jitAfter);

            // in nanoseconds (schedstat) here, from the ticks there: the same compiler threads, within 20 ticks' time
            long nanosHere = Proc.jitNanos(here), nanosThere = Proc.jitNanos(there);
            assertTrue(nanosHere >= 0 && Math.abs(nanosHere - nanosThere) <= 200_000_000L, nanosHere + " ns vs " + nanosThere + " ns");
            Process ended = new ProcessBuilder("true").start();
            ended.waitFor();
            assertEquals(-1, Proc.jitNanos(TierProcess.local(ended.toHandle())), "a process gone reads -1");

            TierProcess gone = TierProcess.on(files, Integer.MAX_VALUE, () -> false);
            assertEquals(-1, Proc.statusField(gone, "VmRSS"));
            assertEquals(-1, Proc.jitTicks(gone));
            assertEquals(0, Proc.treeTicks(gone));
            // two agents are one tier: their ticks added
            long first = Proc.treeTicks(there);
            long both = Proc.treeTicks(TierProcess.group(List.of(there, TierProcess.on(files, self.pid(), () -> true))));
            long last = Proc.treeTicks(there);
            assertTrue(both >= 2 * first - 40 && both <= 2 * last + 40, "2 x " + first + " <= " + both + " <= 2 x " + last);
        }
    }

    @Test
    void statLinesAndStatusFieldsParse() {
        String stat = "4242 (C2 CompilerThre) S 1 2 3 4 5 6 7 8 9 10 120 30 5 5 20 0 1 0 100 0 0\n"
                + "4243 (a (weird) name) R 1 2 3 4 5 6 7 8 9 10 7 3 0 0 20 0 1 0 100 0 0\n";
        Map<Long, Proc.ThreadTicks> t = Proc.threads(stat);
        assertEquals(new Proc.ThreadTicks("C2 CompilerThre", 150), t.get(4242L));
        assertEquals(new Proc.ThreadTicks("a (weird) name", 10), t.get(4243L));
        assertEquals(150, Proc.jitTicks(t));
        assertEquals(160, Proc.ticks(stat.lines().findFirst().orElseThrow()));
        assertEquals(81920, Proc.statusField("Name:\tjava\nVmRSS:\t   81920 kB\nThreads:\t42\n", "VmRSS"));
        assertEquals(42, Proc.statusField("Name:\tjava\nVmRSS:\t   81920 kB\nThreads:\t42\n", "Threads"));
        assertEquals(-1, Proc.statusField("Name:\tjava\n", "VmRSS"));
    }
}
