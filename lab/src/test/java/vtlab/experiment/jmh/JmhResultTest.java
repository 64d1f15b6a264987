package vtlab.experiment.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** JMH's JSON as JMH 1.37 wrote it in short real runs of bench/jmh (src/test/resources/jmh). */
class JmhResultTest {
    static String resource(String name) throws IOException {
        try (InputStream in = JmhResultTest.class.getResourceAsStream("/jmh/" + name)) {
            if (in == null) throw new IOException("missing test resource /jmh/" + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void threadCostResultsCarryScoreErrorUnitAndTheirThreadMode() throws Exception {
        List<JmhResult> rs = JmhResult.parse(resource("thread-cost.json"));
        assertEquals(3, rs.size());
        Map<String, JmhResult> byMethod = rs.stream().collect(Collectors.toMap(JmhResult::method, r -> r));
        assertEquals(Set.of("computeInMainThread", "computeInPlatformThread", "computeInVirtualThread"), byMethod.keySet());
        assertEquals("main", byMethod.get("computeInMainThread").threadMode());
        assertEquals("platform", byMethod.get("computeInPlatformThread").threadMode());
        assertEquals("virtual", byMethod.get("computeInVirtualThread").threadMode());
        for (JmhResult r : rs) {
            assertTrue(r.benchmark().startsWith("vtlab.bench.ThreadCostBenchmark."), r.benchmark());
            assertEquals("ThreadCostBenchmark." + r.method(), r.shortName());
            assertEquals("avgt", r.jmhMode());
            assertEquals("us/op", r.unit());
            assertEquals(3, r.samples(), "3 measured iterations in 1 fork");
            assertEquals(3, r.measurementIterations());
            assertTrue(r.score() > 0);
            assertTrue(Double.isFinite(r.error()) && r.error() > 0, "JMH gives an error from 3 iterations on");
            assertEquals(r.score() - r.error(), r.ciLow(), 1e-6 * r.score());
            assertEquals(r.score() + r.error(), r.ciHigh(), 1e-6 * r.score());
            assertTrue(r.params().isEmpty());
            assertNull(r.workers());
            assertTrue(r.jdkVersion().matches("\\d+.*"), r.jdkVersion());
        }
    }

    @Test
    void twoIterationsGiveNoErrorAndJmhsNanStringsBecomeNan() throws Exception {
        List<JmhResult> rs = JmhResult.parse(resource("thread-cost-2iterations.json"));
        assertEquals(3, rs.size());
        for (JmhResult r : rs) {
            assertEquals(2, r.samples());
            assertTrue(Double.isNaN(r.error()), "JMH writes \"NaN\" below 3 iterations");
            assertTrue(Double.isNaN(r.ciLow()) && Double.isNaN(r.ciHigh()));
            assertTrue(r.score() > 0);
        }
    }

    @Test
    void threadLocalResultsTakeModeAndWorkersFromTheirParams() throws Exception {
        List<JmhResult> rs = JmhResult.parse(resource("threadlocal.json"));
        assertEquals(3 * 2 * 2, rs.size(), "3 alternatives x workers 8,64 x platform,virtual");
        assertEquals(Set.of("threadLocal", "newObject", "synchronizedStack"), rs.stream().map(JmhResult::method).collect(Collectors.toSet()));
        assertEquals(Set.of(8, 64), rs.stream().map(JmhResult::workers).collect(Collectors.toSet()));
        for (JmhResult r : rs) {
            assertEquals(r.params().get("mode"), r.threadMode());
            assertEquals(Integer.valueOf(r.params().get("workers")), r.workers());
            assertEquals("us/op", r.unit());
        }
    }

    @Test
    void refusesWhatIsNotAJmhResult() {
        assertThrows(IOException.class, () -> JmhResult.parse("{\"benchmark\":\"x\"}"));
        assertThrows(IOException.class, () -> JmhResult.parse("[{\"mode\":\"avgt\"}]"));
    }
}
