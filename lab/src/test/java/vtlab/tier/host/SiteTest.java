package vtlab.tier.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.tier.tool.Jdk;

/**
 * Where a JVM runs, for its probes' jcmd and files, on this JVM itself: here, jcmd answers and the JVM writes raw/
 * directly; on a host (this machine, every command and copy recorded), the same answer comes from the JDK's own jcmd run
 * through the host, the JVM writes into the work folder, and the file is copied into raw/ and removed there.
 */
class SiteTest {
    @TempDir
    Path tmp;

    static final long SELF = ProcessHandle.current().pid();

    @Test
    void hereJcmdAnswersAndTheJvmWritesRawItself() throws Exception {
        Site here = Site.here();
        String version = here.jcmd(Jdk.current(), SELF, List.of("VM.version"));
        assertTrue(version.startsWith(SELF + ":") && version.contains(Integer.toString(Runtime.version().feature())), version);
        Path dump = tmp.resolve("001.threads.json");
        assertEquals(dump.toAbsolutePath().toString(), here.path(dump));
        here.jcmd(Jdk.current(), SELF, List.of("Thread.dump_to_file", "-format=json", here.path(dump)));
        here.fetch(dump);
        assertTrue(Files.readString(dump).contains("\"threadDump\""));
        IOException bad = assertThrows(IOException.class, () -> here.jcmd(Jdk.current(), SELF, List.of("No.such_command")));
        assertTrue(bad.getMessage().startsWith("jcmd No.such_command failed: "), bad.getMessage());
    }

    @Test
    void onAHostJcmdRunsThereAndItsFilesAreCopiedBackAndRemovedThere() throws Exception {
        RecordingHost host = new RecordingHost();
        Path work = Files.createDirectories(tmp.resolve("work")), raw = Files.createDirectories(tmp.resolve("raw"));
        Site there = Site.on(host, work.toString(), "0");
        Jdk jdk = Jdk.current();

        String version = there.jcmd(jdk, SELF, List.of("VM.version"));
        assertEquals(Site.here().jcmd(jdk, SELF, List.of("VM.version")), version, "the same answer through the host");
        List<String> pin = Site.OnHost.pin(Files.readString(Path.of("/sys/devices/system/cpu/online")).strip(), "0");
        List<String> expected = new java.util.ArrayList<>(pin);
        expected.addAll(List.of(jdk.home().resolve("bin/jcmd").toString(), Long.toString(SELF), "VM.version"));
        assertEquals(List.of(List.of("cat", "--", "/sys/devices/system/cpu/online"), expected), host.commands,
                "the host's CPUs read once, then the row's JDK's own jcmd at its path there, off the SUT's CPU 0");

        // a file the JVM writes: in the work folder there, then in raw/, and gone from there
        Path dump = raw.resolve("001.threads.json");
        String path = there.path(dump);
        assertEquals(work + "/001.threads.json", path);
        there.jcmd(jdk, SELF, List.of("Thread.dump_to_file", "-format=json", path));
        assertTrue(Files.exists(Path.of(path)) && !Files.exists(dump));
        there.fetch(dump);
        assertTrue(Files.readString(dump).contains("\"threadDump\""));
        assertFalse(Files.exists(Path.of(path)), "removed there once copied");
        assertEquals(List.of("rm", "-f", "--", path), host.commands.getLast());

        // a file the JVM reads: copied there
        Path jfc = Files.writeString(raw.resolve("001.pinning.jfc"), "<configuration/>");
        assertEquals(work + "/001.pinning.jfc", there.send(jfc));
        assertEquals("<configuration/>", Files.readString(work.resolve("001.pinning.jfc")));
        assertEquals(List.of("from " + path, "to " + work + "/001.pinning.jfc"), host.copies);
    }

    /** jcmd on the SUT's host runs on the CPUs the SUT is not pinned to, as the lab's own jcmd does here. */
    @Test
    void jcmdThereRunsOffTheSutsCpusWhenTheHostHasOthers() {
        assertEquals(List.of("taskset", "-c", "2,3,6,7"), Site.OnHost.pin("0-7", "0-1,4-5"));
        assertEquals(List.of("taskset", "-c", "1"), Site.OnHost.pin("0-1", "0"));
        assertEquals(List.of(), Site.OnHost.pin("0-3", "0-3"), "a host with the SUT's CPUs only: jcmd shares them");
        assertEquals(List.of(), Site.OnHost.pin("0", "0"));
    }

    @Test
    void aRuntimeWithoutJcmdOnTheHostIsNamedAndAFailingJcmdGivesItsWords() throws Exception {
        RecordingHost host = new RecordingHost();
        Site there = Site.on(host, tmp.toString(), "0");
        Jdk bare = new Jdk(Files.createDirectories(tmp.resolve("jre")), 25, "25", "");
        IOException missing = assertThrows(IOException.class, () -> there.jcmd(bare, SELF, List.of("VM.version")));
        assertEquals("root@recorded has no " + tmp.resolve("jre/bin/jcmd") + ": the probes run the SUT's JDK's own jcmd there (a JDK, not a bare runtime)",
                missing.getMessage());
        IOException failed = assertThrows(IOException.class, () -> there.jcmd(Jdk.current(), SELF, List.of("No.such_command")));
        assertTrue(failed.getMessage().startsWith("root@recorded: jcmd No.such_command failed (1): "), failed.getMessage());
    }
}
