package vtlab.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM's compiler threads found by their names and moved onto other CPUs, and back, the rest of the JVM untouched. */
class CompilerThreadsTest {
    @TempDir
    Path dir;

    @Test
    void theCompilerThreadsOfAChildJvmMoveAndTheOthersStay() throws Exception {
        assertTrue(CompilerThreads.named("C2 CompilerThre") && CompilerThreads.named("C1 CompilerThre"));
        assertFalse(CompilerThreads.named("http-nio-18080-exec-1"));
        Path source = Files.writeString(dir.resolve("Idle.java"), "class Idle { public static void main(String[] a) throws Exception { Thread.sleep(60_000); } }");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), source.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            List<Long> compilers = List.of();
            for (int i = 0; i < 100 && compilers.isEmpty(); i++) {
                Thread.sleep(50);
                compilers = CompilerThreads.of(child.toHandle());
            }
            assertFalse(compilers.isEmpty(), "a JVM has compiler threads");
            String all = allowed(child.pid(), child.pid()), first = all.split("[,-]")[0]; // what the child was started with
            assertEquals(compilers.size(), CompilerThreads.move(child.toHandle(), first));
            for (long tid : compilers) assertEquals(first, allowed(child.pid(), tid));
            assertEquals(all, allowed(child.pid(), child.pid()), "the JVM's main thread stays where it was");
            assertTrue(CompilerThreads.move(child.toHandle(), all) >= compilers.size());
            for (long tid : CompilerThreads.of(child.toHandle())) assertEquals(all, allowed(child.pid(), tid));
        } finally {
            child.destroyForcibly().waitFor();
        }
    }

    private static String allowed(long pid, long tid) throws Exception {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow().split(":")[1].strip();
    }
}
