package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.plan.VerificationFailed;
import vtlab.probe.ThreadDump;
import vtlab.tier.tool.Jdk;

/** The thread-mode proof of a service without runtime-info, on a real JSON thread dump of this JVM. */
class ThreadModeCheckTest {
    @TempDir
    Path dir;

    /** Stands for a request handler of the service: its frame is in the service's package (this one). */
    static void serveRequest(CountDownLatch started, CountDownLatch done) {
        started.countDown();
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void countsRequestsInFlightByKindOfThreadInARealDump() throws Exception {
        CountDownLatch started = new CountDownLatch(5), done = new CountDownLatch(1);
        for (int i = 0; i < 3; i++) Thread.ofVirtual().start(() -> serveRequest(started, done));
        for (int i = 0; i < 2; i++) Thread.ofPlatform().start(() -> serveRequest(started, done));
        started.await();
        try {
            Path dump = ThreadDump.take(Jdk.current(), ProcessHandle.current().pid(), dir.resolve("d.json"));
            ThreadModeCheck.Seen seen = ThreadModeCheck.count(Files.readString(dump), List.of(ThreadModeCheckTest.class.getName() + ".serveRequest"));
            assertEquals(new ThreadModeCheck.Seen(3, 2), seen);
            // no frame of the service's package: no request seen (server frames alone would not match this JVM)
            assertEquals(new ThreadModeCheck.Seen(0, 0), ThreadModeCheck.count(Files.readString(dump), List.of("com.nosuch.")));
        } finally {
            done.countDown();
        }
    }

    @Test
    void aVirtualRowWithRequestsOnPlatformThreadsOnlyFails() {
        VerificationFailed e = assertThrows(VerificationFailed.class, () -> ThreadModeCheck.verdict("virtual", new ThreadModeCheck.Seen(0, 12), 1));
        assertTrue(e.getMessage().startsWith("virtual threads not in effect: 0 request(s) on virtual threads, 12 on platform threads"), e.getMessage());
        assertThrows(VerificationFailed.class, () -> ThreadModeCheck.verdict("platform", new ThreadModeCheck.Seen(3, 0), 1));
        VerificationFailed none = assertThrows(VerificationFailed.class, () -> ThreadModeCheck.verdict("virtual", new ThreadModeCheck.Seen(0, 0), 3));
        assertTrue(none.getMessage().startsWith("no request in flight seen"), none.getMessage());
    }

    @Test
    void eachModeSeenAsItShouldPasses() throws Exception {
        ThreadModeCheck.verdict("virtual", new ThreadModeCheck.Seen(40, 0), 1);
        ThreadModeCheck.verdict("platform", new ThreadModeCheck.Seen(0, 40), 1);
    }
}
