package vtlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The as-shipped variant's finding: the flag's gain and the tuning's, told apart. */
class ThreadModesTest {
    static Map<String, String> row(String mode, String params, double rps, String status) {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("experiment", "servlet");
        r.put("stack", "servlet");
        r.put("thread_mode", mode);
        r.put("workload", "sleep");
        r.put("concurrency", "1000");
        r.put("jdk", "25");
        r.put("params", params);
        r.put("throughput_rps", Double.toString(rps));
        r.put("status", status);
        return r;
    }

    @Test
    void statesWhatTheFlagGivesAndWhatTuningAdds() {
        List<Map<String, String>> rows = List.of(row("platform", "sleepMs=50;maxThreads=200", 3900, "ok"),
                row("virtual", "sleepMs=50", 18000, "ok"), row("virtual", "sleepMs=50;tuning=as-shipped", 10600, "ok"),
                row("virtual", "sleepMs=50;tuning=as-shipped", 1, "flagged"));
        List<String> f = vtlab.data.Finding.texts(ThreadModes.asShippedGains(vtlab.data.DataRow.numbered(rows)));
        assertEquals(1, f.size(), f.toString());
        assertEquals("sleep c=1000 jdk25 sleepMs=50: the virtual-thread flag alone (virtual-as-shipped: processorCache 200, the JVM's"
                + " carrier count) gives 2.7× platform-200 (10,600 vs 3,900 req/s); the lab's tuning (virtual) adds 1.7× on that"
                + " (18,000 req/s, 4.6× platform-200)", f.getFirst());
        assertTrue(ThreadModes.asShippedGains(vtlab.data.DataRow.numbered(rows.subList(0, 2))).isEmpty(), "no as-shipped rows, nothing to say");
    }
}
