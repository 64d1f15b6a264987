package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The gc probe's parser on real unified-logging output (gc=info,safepoint=info with utctime,uptime decorators). */
class GcProbeTest {
    private static List<String> sample(String name) throws Exception {
        return Files.readAllLines(Path.of(GcProbeTest.class.getResource("/gc/" + name).toURI()));
    }

    @Test
    void serialPausesYoungAndFullAreCountedWithTheLongestSafepoint() throws Exception {
        var p = GcProbe.parse(sample("serial.gc.log"), Instant.parse("2026-11-23T17:41:21.000Z"));
        assertEquals(6, p.count());
        assertEquals(22.861 + 1.772 + 1.961 + 2.162 + 9.896 + 1.572, p.totalMs(), 1e-9);
        assertEquals(22.861, p.maxMs(), 1e-9);
        assertEquals(22.961345, p.stwMaxMs(), 1e-9);
        assertEquals("SerialCollectForAllocation", p.stwCause());
        // points on the hold's clock, from the wall-clock decorator
        assertEquals(0.863, p.points().getFirst()[0], 1e-9);
        assertEquals(22.861, p.points().getFirst()[1], 1e-9);
    }

    @Test
    void g1RemarkAndCleanupArePausesButConcurrentCyclesAreNot() throws Exception {
        var p = GcProbe.parse(sample("g1.gc.log"), Instant.parse("2026-11-23T17:41:52.000Z"));
        assertEquals(7, p.count(), "5 young + remark + cleanup; the concurrent mark cycle runs beside the application");
        assertEquals(7.772 + 39.714 + 22.201 + 15.305 + 10.846 + 1.362 + 0.013, p.totalMs(), 1e-9);
        assertEquals(39.714, p.maxMs(), 1e-9);
        assertEquals(39.811921, p.stwMaxMs(), 1e-9);
        assertEquals("G1CollectForAllocation", p.stwCause());
        assertEquals(java.util.List.of(4.0, 15.0, 24.0, 30.0, 38.0, 24.0, 43.0), p.heapAfter().stream().map(h -> h[1]).toList(), "MB after each pause");
        assertEquals(0.316, p.heapAfter().getFirst()[0], 1e-9, "at the pause's second of the hold");
    }

    @Test
    void theHeapAfterGcSlopeIsALeastSquaresLineInMbPerMinute() {
        var rising = java.util.List.of(new double[] {0, 100}, new double[] {60, 110}, new double[] {120, 120}, new double[] {180, 130});
        assertEquals(10.0, GcProbe.slopePerMinute(rising), 1e-9);
        var flat = java.util.List.of(new double[] {0, 100}, new double[] {30, 140}, new double[] {60, 100}, new double[] {90, 140});
        assertEquals(1200.0 / 4500 * 60, GcProbe.slopePerMinute(flat), 1e-6, "a saw-tooth: the fit (Sxy 1,200 / Sxx 4,500 per s = 16 MB/min), not the teeth");
        assertEquals(null, GcProbe.slopePerMinute(rising.subList(0, 2)), "two points are not a trend");
    }

    @Test
    void aHoldWithoutPausesReadsZero() {
        var p = GcProbe.parse(List.of(), Instant.now());
        assertEquals(0, p.count());
        assertEquals(0, p.maxMs());
        assertEquals(null, p.stwCause());
    }
}
