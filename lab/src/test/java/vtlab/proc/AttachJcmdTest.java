package vtlab.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Diagnostic commands over the attach API, against a real JVM started for the test. */
class AttachJcmdTest {
    static Process jvm;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        Path src = Files.writeString(dir.resolve("Idle.java"),
                "class Idle { public static void main(String[] a) throws Exception { System.out.println(\"up\"); Thread.sleep(120_000); } }");
        jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m", src.toString())
                .redirectErrorStream(true).start();
        // attach only once main runs: the attach listener answers from then on
        assertEquals("up", new java.io.BufferedReader(new java.io.InputStreamReader(jvm.getInputStream())).readLine());
    }

    @AfterAll
    static void stop() throws Exception {
        jvm.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    @Test
    void theLabsJvmMaySendTheOperation() {
        assertTrue(AttachJcmd.reaches(jvm.pid()), "the test JVM runs with the export the lab's launcher gives (lab/pom.xml argLine)");
        assertFalse(AttachJcmd.reaches(ProcessHandle.current().pid()), "itself: the jcmd tool's way");
    }

    @Test
    void aCommandsOutputIsWhatJcmdPrints() throws Exception {
        String out = AttachJcmd.run(jvm.pid(), List.of("VM.system_properties"), Duration.ofSeconds(30));
        assertTrue(out.contains("java.home="), out);
        // words joined by spaces, as jcmd joins its arguments
        String flag = AttachJcmd.run(jvm.pid(), List.of("VM.flags", "-all"), Duration.ofSeconds(30));
        assertTrue(flag.contains("MaxHeapSize"), flag.lines().limit(3).toList().toString());
    }

    @Test
    void aFailedCommandIsAnIOExceptionWithTheJvmsMessageAndAComplaintIsItsOutputAsJcmdPrintsIt() throws Exception {
        IOException unknown = assertThrows(IOException.class, () -> AttachJcmd.run(jvm.pid(), List.of("No.such_command"), Duration.ofSeconds(30)));
        assertTrue(unknown.getMessage().startsWith("jcmd No.such_command failed: ") && unknown.getMessage().contains("Unknown diagnostic command"),
                unknown.getMessage());
        IOException bad = assertThrows(IOException.class, () -> AttachJcmd.run(jvm.pid(), List.of("VM.flags", "-nosuchoption"), Duration.ofSeconds(30)));
        assertTrue(bad.getMessage().contains("nosuchoption"), bad.getMessage());
        // jcmd exits 0 here and prints the JVM's words: so does the lab
        assertTrue(AttachJcmd.run(jvm.pid(), List.of("JFR.dump", "name=no-such-recording"), Duration.ofSeconds(30)).contains("No recordings to dump"));
    }

    @Test
    void noSuchProcessIsAnIOException() {
        assertThrows(IOException.class, () -> AttachJcmd.run(Integer.MAX_VALUE - 7, List.of("VM.version"), Duration.ofSeconds(5)));
    }
}
