package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyHistogramTest {
    @TempDir
    Path dir;

    /** An .hlog of (count, latency ms) pairs, as a generator writes it. */
    private Path hlog(String name, double... countAndMs) throws IOException {
        Histogram h = LatencyHistogram.empty();
        for (int i = 0; i + 1 < countAndMs.length; i += 2)
            for (int k = 0; k < countAndMs[i]; k++) LatencyHistogram.recordSeconds(h, countAndMs[i + 1] / 1000);
        Path f = dir.resolve("raw").resolve(name + ".hlog");
        LatencyHistogram.write(h, f);
        return f;
    }

    @Test
    void repsAreCombinedByAddingHistogramsNotByAveragingTheirPercentiles() throws Exception {
        // values below 2,048 us are recorded exactly, so the percentiles are exact
        Path a = hlog("a", 1000, 1.0);          // p99 1 ms
        Path b = hlog("b", 970, 1.0, 30, 2.0);  // 3% at 2 ms: p99 2 ms
        double p99a = LatencyHistogram.ms(LatencyHistogram.read(a), 99), p99b = LatencyHistogram.ms(LatencyHistogram.read(b), 99);
        assertEquals(1.0, p99a);
        assertEquals(2.0, p99b);
        Histogram merged = LatencyHistogram.merge(List.of(a, b));
        assertEquals(2000, merged.getTotalCount());
        // 30 of 2,000 requests (1.5%) took 2 ms: the p99 of all requests is 2 ms; the mean of the p99s (1.5) is no request's
        assertEquals(2.0, LatencyHistogram.ms(merged, 99));
        assertNotEquals((p99a + p99b) / 2, LatencyHistogram.ms(merged, 99));
        assertEquals(1.0, LatencyHistogram.ms(merged, 50));
        assertEquals(2.0, LatencyHistogram.spectrum(merged).get(99.99));
        assertTrue(Files.exists(LatencyHistogram.hgrm(a)), "the percentile table beside the .hlog");
    }

    @Test
    void aMissingHistogramIsAnIoErrorNotAnEmptyOne() {
        assertThrows(IOException.class, () -> LatencyHistogram.merge(List.of(dir.resolve("raw/none.hlog"))));
    }
}
