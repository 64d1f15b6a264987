package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContextSwitchProbeTest {
    @TempDir
    Path tmp;

    /** The tail of a real /proc/PID/task/TID/status (Linux 6.x). */
    static String status(String name, long vol, long invol) {
        return """
                Name:\t%s
                Umask:\t0022
                State:\tS (sleeping)
                Tgid:\t4242
                Pid:\t4250
                Threads:\t41
                VmRSS:\t  181232 kB
                Cpus_allowed_list:\t0
                Mems_allowed_list:\t0
                voluntary_ctxt_switches:\t%d
                nonvoluntary_ctxt_switches:\t%d
                """.formatted(name, vol, invol);
    }

    void task(Path dir, long tid, long vol, long invol) throws Exception {
        Path t = Files.createDirectories(dir.resolve(Long.toString(tid)));
        Files.writeString(t.resolve("status"), status("ForkJoinPool-1", vol, invol));
    }

    @Test
    void parsesBothCountersOfAStatusText() {
        ContextSwitchProbe.Switches s = ContextSwitchProbe.parse(status("http-nio-18080", 12345, 678));
        assertEquals(12345, s.voluntary());
        assertEquals(678, s.involuntary());
        assertNull(ContextSwitchProbe.parse("Name:\tx\nState:\tR (running)\n"), "a text without the counters is no reading");
    }

    @Test
    void sumsEveryThreadsSwitchesBetweenStartAndEndByThreadId() throws Exception {
        Path start = Files.createDirectories(tmp.resolve("start")), end = Files.createDirectories(tmp.resolve("end"));
        task(start, 100, 1000, 10);
        task(start, 101, 50, 5);
        task(start, 102, 7, 7); // ends during the hold
        task(end, 100, 1600, 310);
        task(end, 101, 50, 5); // idle all along
        task(end, 103, 20, 2); // born during the hold: counted whole
        Files.createDirectories(end.resolve("104")); // a thread that ended between the listing and the read
        Map<Long, ContextSwitchProbe.Switches> a = ContextSwitchProbe.read(start), b = ContextSwitchProbe.read(end);
        assertEquals(3, a.size());
        assertEquals(3, b.size(), "the thread without a status file is skipped");
        ContextSwitchProbe.Switches d = ContextSwitchProbe.delta(a, b);
        assertEquals(600 + 0 + 20, d.voluntary());
        assertEquals(300 + 0 + 2, d.involuntary());
        assertTrue(ContextSwitchProbe.read(tmp.resolve("gone")).isEmpty(), "a process gone gives no reading");
    }

    @Test
    void aThreadIdReusedByANewThreadCountsTheNewThreadWhole() {
        var start = Map.of(200L, new ContextSwitchProbe.Switches(900, 90));
        var end = Map.of(200L, new ContextSwitchProbe.Switches(30, 4));
        ContextSwitchProbe.Switches d = ContextSwitchProbe.delta(start, end);
        assertEquals(30, d.voluntary());
        assertEquals(4, d.involuntary());
    }

    @Test
    void readsThisJvmsOwnThreadsFromProc() {
        Map<Long, ContextSwitchProbe.Switches> self = ContextSwitchProbe.read(ContextSwitchProbe.taskDir(ProcessHandle.current().pid()));
        assertTrue(self.size() > 1, "a JVM has more than one thread: " + self.size());
        assertTrue(self.values().stream().mapToLong(ContextSwitchProbe.Switches::voluntary).sum() > 0);
    }

    @Test
    void declaresTheColumnsItFills() {
        assertEquals(java.util.List.of("ctxsw_invol", "ctxsw_vol", "ctxsw_threads_exited"),
                new ContextSwitchProbe().columns().stream().map(vtlab.data.Column::name).toList());
        assertEquals(ContextSwitchProbe.class, Probes.all().get("ctxsw").get().getClass());
    }
}
