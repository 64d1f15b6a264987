package vtlab.pin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import org.junit.jupiter.api.Test;

class PinControlIT {
    @Test
    void runsTheActionOnceAndPinsTheVirtualThread() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        Path jfr = Files.createTempFile("pin", ".jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            r.start();
            Thread vt = Thread.ofVirtual().start(() -> PinControl.runPinned(() -> {
                runs.incrementAndGet();
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            vt.join();
            r.stop();
            r.dump(jfr);
        }
        assertEquals(1, runs.get());
        long pins = RecordingFile.readAllEvents(jfr).stream().filter(e -> e.getEventType().getName().equals("jdk.VirtualThreadPinned")).count();
        assertTrue(pins >= 1, "the control must pin on JDK " + Runtime.version().feature() + " (" + PinControl.mechanism() + ")");
        RecordedEvent e = RecordingFile.readAllEvents(jfr).stream()
                .filter(x -> x.getEventType().getName().equals("jdk.VirtualThreadPinned")).findFirst().orElseThrow();
        assertTrue(e.getStackTrace().getFrames().stream().anyMatch(f -> f.getMethod().getType().getName().equals("vtlab.pin.PinControl")));
        if (Runtime.version().feature() >= 22) assertTrue(PinControl.mechanism().contains("native"));
    }
}
