package vtlab.tier.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One shell answers every read with the file's exact text (through this machine's sh: the script an ssh host runs). */
class FileSessionTest {
    @TempDir
    Path tmp;

    @Test
    void everyReadIsTheFilesExactTextThroughOneSession() throws Exception {
        try (FileSession files = new FileSession(new LocalHost())) {
            for (String text : List.of("a\nb\n", "a\nb", "", "\n\n", "one line " + FileSession.END + "\n")) {
                Path f = Files.writeString(tmp.resolve("f" + text.length() + text.hashCode() + ".txt"), text);
                assertEquals(text, files.read(f.toString()), "'" + text + "'");
            }
            long pid = ProcessHandle.current().pid();
            assertTrue(files.read("/proc/" + pid + "/status").contains("Pid:\t" + pid));
            assertThrows(NoSuchFileException.class, () -> files.read(tmp.resolve("none").toString()));
            assertTrue(files.read("/proc/" + pid + "/stat").startsWith(pid + " ("), "and it reads on after a missing file");
        }
    }

    /** A glob path: every thread's stat of this JVM, one line each. */
    @Test
    void aGlobReadsEveryMatchOneAfterAnother() throws Exception {
        long pid = ProcessHandle.current().pid();
        try (FileSession files = new FileSession(new LocalHost())) {
            List<String> stats = files.read("/proc/" + pid + "/task/*/stat").lines().filter(l -> !l.isBlank()).toList();
            long threads;
            try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
                threads = tasks.count();
            }
            assertTrue(Math.abs(stats.size() - threads) <= 3, stats.size() + " stat lines, " + threads + " threads");
            assertTrue(stats.stream().allMatch(l -> l.matches("\\d+ \\(.*\\) .*")), stats.toString());
        }
    }

    /**
     * A host that stops answering (its ssh neither fails nor answers): the read gives up after its time and ends the
     * session, the next reads fail at once for the back-off, then the session is opened again and reads on.
     */
    @Test
    void aSilentHostCostsOneBoundedReadThenFailsAtOnceUntilTheBackOffEnds() throws Exception {
        CutHost h = new CutHost();
        Path f = Files.writeString(tmp.resolve("x"), "x\n");
        try (FileSession files = new FileSession(h, java.time.Duration.ofMillis(300), java.time.Duration.ofMillis(1500))) {
            assertEquals("x\n", files.read(f.toString()));
            files.close(); // the next read opens a session while the host is silent
            h.state = CutHost.State.SILENT;
            long t0 = System.nanoTime();
            java.io.IOException late = assertThrows(java.io.IOException.class, () -> files.read(f.toString()));
            assertEquals("root@cut: no answer in 300 ms", late.getMessage());
            assertTrue(System.nanoTime() - t0 < 3_000_000_000L, "bounded by its time, not the host");
            long t1 = System.nanoTime();
            java.io.IOException soon = assertThrows(java.io.IOException.class, () -> files.read(f.toString()));
            assertTrue(soon.getMessage().startsWith("root@cut: not read (no answer in 300 ms "), soon.getMessage());
            assertTrue(System.nanoTime() - t1 < 200_000_000L, "at once during the back-off");
            assertTrue(ProcessHandle.current().children().noneMatch(p -> p.info().command().orElse("").endsWith("/sleep")),
                    "the silent session was ended");
            h.state = CutHost.State.UP;
            Thread.sleep(1600);
            assertEquals("x\n", files.read(f.toString()), "the host answers again: read again");
        }
    }

    @Test
    void onlyPlainAbsolutePathsAreSentAndAClosedSessionOpensAgain() throws Exception {
        FileSession files = new FileSession(new LocalHost());
        assertThrows(IllegalArgumentException.class, () -> files.read("/tmp/a b"));
        assertThrows(IllegalArgumentException.class, () -> files.read("/tmp/$(id)"));
        assertThrows(IllegalArgumentException.class, () -> files.read("relative"));
        Path f = Files.writeString(tmp.resolve("x"), "x\n");
        assertEquals("x\n", files.read(f.toString()));
        files.close();
        assertEquals("x\n", files.read(f.toString()));
        files.close();
    }
}
