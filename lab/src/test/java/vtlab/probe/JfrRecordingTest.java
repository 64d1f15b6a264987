package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.tier.host.TierProcess;
import vtlab.tier.tool.Jdk;

/** A recording started, dumped twice and stopped with jcmd in a real JVM (this test's own, as a SUT is attached to). */
class JfrRecordingTest {
    @TempDir
    Path dir;

    static final String SLEEPS = """
            <?xml version="1.0" encoding="UTF-8"?>
            <configuration version="2.0" label="vtlab test">
              <event name="jdk.ThreadSleep">
                <setting name="enabled">true</setting>
                <setting name="threshold">0 ms</setting>
              </event>
            </configuration>
            """;

    @Test
    void startsDumpsWhileRecordingAndStopsInARealJvm() throws Exception {
        TierProcess self = TierProcess.local(ProcessHandle.current());
        Jdk jdk = Jdk.current();
        Path jfc = dir.resolve("t.jfc");
        JfrRecording r = JfrRecording.start(self, jdk, "vtlab-test", jfc, SLEEPS);
        try {
            assertEquals(SLEEPS, Files.readString(jfc), "the settings it started with are kept beside the recording");
            assertTrue(recordings().contains("vtlab-test"), "the JVM records under the name");
            Thread.sleep(3);
            long first = sleeps(r.dump(dir.resolve("first.jfr")));
            assertTrue(first >= 1, "the sleep is in the first dump: " + first);
            Thread.sleep(3);
            Thread.sleep(3);
            assertTrue(sleeps(r.dump(dir.resolve("second.jfr"))) >= first + 2, "a dump does not stop it: each holds everything so far");
        } catch (Exception | AssertionError e) {
            r.stop();
            throw e;
        }
        Path last = r.finish(dir.resolve("last.jfr"));
        assertTrue(sleeps(last) >= 3, "finish dumps first");
        assertFalse(recordings().contains("vtlab-test"), "finish stopped it");
    }

    /** A dump that fails (a jcmd timeout, say) still stops the recording: no sampling runs on into the next hold. */
    @Test
    void aFailedDumpStillStopsTheRecording() throws Exception {
        JfrRecording r = JfrRecording.start(dumpFails(), Jdk.current(), "vtlab-test-failed-dump", dir.resolve("f.jfc"), SLEEPS);
        try {
            assertTrue(recordings().contains("vtlab-test-failed-dump"));
            assertThrows(java.io.IOException.class, () -> r.finish(dir.resolve("last.jfr")));
            assertFalse(recordings().contains("vtlab-test-failed-dump"), "the recording still runs after its dump failed");
        } finally {
            r.stop();
        }
    }

    /**
     * A JFR.stop that fails in a JVM that still runs leaves the recording sampling: a {@link SutNotClean}, so the
     * runner keeps that SUT from the next row. In a JVM that exited nothing records: a plain error.
     */
    @Test
    void aStopThatFailsInARunningJvmSaysTheSutIsNotClean() throws Exception {
        JfrRecording r = JfrRecording.start(failing("JFR.stop", true), Jdk.current(), "vtlab-test-failed-stop", dir.resolve("s.jfc"), SLEEPS);
        try {
            java.io.IOException e = assertThrows(java.io.IOException.class, () -> r.finish(dir.resolve("s.jfr")));
            assertTrue(e instanceof SutNotClean, e.toString());
            assertTrue(e.getMessage().contains("vtlab-test-failed-stop") && e.getMessage().contains("no answer from"), e.getMessage());
            assertTrue(recordings().contains("vtlab-test-failed-stop"), "it does record on");
        } finally {
            Jcmd.run(Jdk.current(), ProcessHandle.current().pid(), "JFR.stop", "name=vtlab-test-failed-stop");
        }
        JfrRecording gone = JfrRecording.start(failing("JFR.stop", false), Jdk.current(), "vtlab-test-exited", dir.resolve("x.jfc"), SLEEPS);
        try {
            java.io.IOException e = assertThrows(java.io.IOException.class, gone::stop);
            assertFalse(e instanceof SutNotClean, "an exited JVM records nothing: " + e);
        } finally {
            Jcmd.run(Jdk.current(), ProcessHandle.current().pid(), "JFR.stop", "name=vtlab-test-exited");
        }
    }

    /** This JVM, whose JFR.dump fails as a jcmd that timed out does; every other jcmd runs. */
    static TierProcess dumpFails() {
        return failing("JFR.dump", true);
    }

    /** This JVM, whose {@code failed} jcmd fails as one that timed out does, every other one runs; alive as given. */
    static TierProcess failing(String failed, boolean alive) {
        vtlab.tier.host.Site here = vtlab.tier.host.Site.here();
        vtlab.tier.host.Site site = new vtlab.tier.host.Site() {
            @Override
            public String jcmd(Jdk jdk, long pid, List<String> command) throws java.io.IOException, InterruptedException {
                if (command.getFirst().equals(failed)) throw new java.io.IOException("jcmd " + failed + ": no answer from " + pid + " within 60 s");
                return here.jcmd(jdk, pid, command);
            }

            @Override
            public String path(Path file) {
                return here.path(file);
            }

            @Override
            public String send(Path file) throws java.io.IOException, InterruptedException {
                return here.send(file);
            }

            @Override
            public void fetch(Path file) throws java.io.IOException, InterruptedException {
                here.fetch(file);
            }
        };
        TierProcess self = TierProcess.local(ProcessHandle.current());
        return new TierProcess() {
            @Override
            public long pid() {
                return self.pid();
            }

            @Override
            public boolean alive() {
                return alive;
            }

            @Override
            public java.util.Optional<ProcessHandle> local() {
                return self.local();
            }

            @Override
            public String proc(String file) throws java.io.IOException {
                return self.proc(file);
            }

            @Override
            public vtlab.tier.host.Site site() {
                return site;
            }
        };
    }

    static String recordings() throws Exception {
        return Jcmd.run(Jdk.current(), ProcessHandle.current().pid(), "JFR.check");
    }

    /** The sleeps of this test's thread in a recording. */
    static long sleeps(Path jfr) throws Exception {
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        String me = Thread.currentThread().getName();
        return events.stream().filter(e -> e.getEventType().getName().equals("jdk.ThreadSleep"))
                .filter(e -> e.getThread() != null && me.equals(e.getThread().getJavaName())).count();
    }
}
