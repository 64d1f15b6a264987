package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import jdk.jfr.Recording;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.pin.PinControl;

/** The pinning reader on a real JFR recording of real pins: an IT so the positive control is its packaged multi-release jar. */
class JfrPinningProbeIT {
    @TempDir
    Path tmp;

    static void pinOnce(int sleepMs) throws InterruptedException {
        Thread.ofVirtual().start(() -> PinControl.runPinned(() -> {
            try {
                Thread.sleep(sleepMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })).join();
    }

    static void sleepOnVirtualThread() throws InterruptedException {
        Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).join();
    }

    @Test
    void countsPinsInTheWindowWithReasonAndTheApplicationsFrames() throws Exception {
        Path jfr = tmp.resolve("pins.jfr");
        Instant between;
        try (Recording r = new Recording()) {
            r.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            r.start();
            pinOnce(15); // before the window: must not count
            Thread.sleep(50);
            between = Instant.now();
            for (int i = 0; i < 3; i++) pinOnce(15);
            sleepOnVirtualThread(); // unmounts cleanly: no pin
            r.stop();
            r.dump(jfr);
        }
        JfrPinningProbe.Pins all = JfrPinningProbe.read(jfr, null, null);
        assertEquals(4, all.count(), all.render("all", 5));
        JfrPinningProbe.Pins window = JfrPinningProbe.read(jfr, between, Instant.now());
        assertEquals(3, window.count(), window.render("window", 5));
        assertTrue(window.maxMs() >= 15, "each pin lasted the sleep: " + window.maxMs());
        assertTrue(window.totalMs() >= 45);
        // the stack is trimmed to the blocking frame and the application's (vtlab.*) frames
        String stack = window.stacks().getFirst().getKey();
        assertTrue(stack.contains("vtlab.pin.PinControl"), stack);
        assertTrue(stack.contains("vtlab.probe.JfrPinningProbeIT"), stack);
        assertTrue(stack.lines().noneMatch(l -> l.startsWith("java.util.concurrent")), stack);
        assertEquals(3, window.stacks().getFirst().getValue());
        assertTrue(window.topFrame().startsWith("vtlab.") && window.topFrame().endsWith(" (3)"), "where the pins came from: " + window.topFrame());
        if (Runtime.version().feature() >= 24) {
            // JDK 24+ says why it pinned
            assertTrue(window.reasons().keySet().stream().noneMatch(k -> k.startsWith("(JDK gives")), window.reasons().toString());
        }
    }

    @Test
    void blockingInsideSynchronizedDoesNotPinOnJdk24AndLater() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.version().feature() >= 24, "JEP 491 is in JDK 24+");
        Path jfr = tmp.resolve("sync.jfr");
        Object lock = new Object();
        try (Recording r = new Recording()) {
            r.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            r.start();
            Thread.ofVirtual().start(() -> {
                synchronized (lock) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }).join();
            pinOnce(15); // the control in the same recording: capture works
            r.stop();
            r.dump(jfr);
        }
        JfrPinningProbe.Pins pins = JfrPinningProbe.read(jfr, null, null);
        assertEquals(1, pins.count(), "only the control pins: " + pins.render("sync", 5));
        assertTrue(pins.stacks().getFirst().getKey().contains("vtlab.pin.PinControl"));
    }

    @Test
    void settingsCarryTheThreshold() {
        String jfc = JfrPinningProbe.settings(Duration.ofMillis(20));
        assertTrue(jfc.contains("<setting name=\"threshold\">20 ms</setting>"));
        assertTrue(jfc.contains("jdk.VirtualThreadPinned"));
    }
}
