package vtlab.load.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.LatencyHistogram;

/** Several agents as one row: the split adds up to the row's load and the merge is the union of their requests. */
class LoadAgentsTest {
    @TempDir
    Path tmp;

    /**
     * A fast agent and a slow one (a host farther away, or one that fell behind), each written to an .hlog as an agent
     * leaves it: the merged histogram counts both, and its percentiles are those of every request recorded in one
     * histogram, not the mean of the agents' percentiles.
     */
    @Test
    void mergedPercentilesAreThoseOfTheUnionOfTheAgentsRequests() throws IOException {
        Random rnd = new Random(24);
        Histogram fast = LatencyHistogram.empty(), slow = LatencyHistogram.empty(), union = LatencyHistogram.empty();
        for (int i = 0; i < 20_000; i++) {
            double s = 0.002 * Math.exp(rnd.nextGaussian() * 0.3); // ~2 ms
            LatencyHistogram.recordSeconds(fast, s);
            LatencyHistogram.recordSeconds(union, s);
        }
        for (int i = 0; i < 5_000; i++) {
            double s = 0.040 * Math.exp(rnd.nextGaussian() * 0.5); // ~40 ms
            LatencyHistogram.recordSeconds(slow, s);
            LatencyHistogram.recordSeconds(union, s);
        }
        Path a = tmp.resolve("h2.k6.hlog"), b = tmp.resolve("h3.k6.hlog");
        LatencyHistogram.write(fast, a);
        LatencyHistogram.write(slow, b);
        Map<String, Path> hlogs = new LinkedHashMap<>();
        hlogs.put("root@10.77.0.12", a);
        hlogs.put("root@10.77.0.13", b);

        LoadAgents.Merged m = LoadAgents.merge(hlogs);
        assertEquals(25_000, m.total());
        assertEquals(Map.of("root@10.77.0.12", 20_000L, "root@10.77.0.13", 5_000L), m.countByAgent());
        for (double p : LatencyHistogram.SPECTRUM) assertEquals(union.getValueAtPercentile(p), m.histogram().getValueAtPercentile(p), "p" + p);
        // what averaging would have said: the mean of the two p99s, far from the p99 of the requests sent
        double averaged = (LatencyHistogram.ms(fast, 99) + LatencyHistogram.ms(slow, 99)) / 2;
        assertNotEquals(Math.round(averaged), Math.round(LatencyHistogram.ms(m.histogram(), 99)));
        assertTrue(LatencyHistogram.ms(m.histogram(), 50) < 3, "p50 of the union is the fast agent's bulk");
    }

    @Test
    void anAgentWithoutItsHistogramFailsTheMergeWithItsName() throws IOException {
        Path a = tmp.resolve("a.hlog");
        LatencyHistogram.write(LatencyHistogram.empty(), a);
        Map<String, Path> hlogs = new LinkedHashMap<>();
        hlogs.put("root@10.77.0.12", a);
        hlogs.put("root@10.77.0.13", tmp.resolve("never-copied-back.hlog"));
        IOException e = assertThrows(IOException.class, () -> LoadAgents.merge(hlogs));
        assertTrue(e.getMessage().startsWith("load agent root@10.77.0.13: no histogram at "), e.getMessage());
    }

    @Test
    void connectionsSplitAddUpToTheRows() {
        assertEquals(List.of(200, 200), LoadAgents.connections(400, 2));
        assertEquals(List.of(334, 333, 333), LoadAgents.connections(1000, 3));
        assertEquals(1000, LoadAgents.connections(1000, 7).stream().mapToInt(Integer::intValue).sum());
        assertThrows(IllegalArgumentException.class, () -> LoadAgents.connections(1, 2));
    }

    /** The form k6 takes (and k6-operator gives its runners): one segment each, the same full sequence for all. */
    @Test
    void k6AgentsRunTheirSegmentOfOneSequence() {
        assertEquals(List.of("--execution-segment=0:1/3", "--execution-segment-sequence=0,1/3,2/3,1"), LoadAgents.k6Segment(1, 3));
        assertEquals(List.of("--execution-segment=2/3:1", "--execution-segment-sequence=0,1/3,2/3,1"), LoadAgents.k6Segment(3, 3));
        assertEquals(List.of("--execution-segment=0:1", "--execution-segment-sequence=0,1"), LoadAgents.k6Segment(1, 1));
        assertThrows(IllegalArgumentException.class, () -> LoadAgents.k6Segment(3, 2));
    }
}
