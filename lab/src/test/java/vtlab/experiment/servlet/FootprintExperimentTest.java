package vtlab.experiment.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;

class FootprintExperimentTest {
    @Test
    void plansTheServletRowsWithTheArticlesLoadAndLeavesServletsDefaultsAlone() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "servlet", "footprint", "--quick"));
        PlanContext ctx = PlanContext.from(o);
        List<Row> fp = new FootprintExperiment().plan(o, ctx);
        assertEquals(2, fp.size());
        assertEquals(Set.of("platform", "virtual"), fp.stream().map(Row::threadMode).collect(Collectors.toSet()));
        for (Row r : fp) {
            assertEquals("footprint", r.experiment());
            assertEquals("servlet", r.stack());
            assertEquals("hello", r.workload());
            assertEquals(400, r.concurrency());
        }
        // the same options still give servlet its own defaults (both workloads, 400 and 1000, quick = 1 rep)
        List<Row> servlet = new ServletExperiment().plan(o, ctx);
        assertEquals(2 * 2 * 2, servlet.size());
        assertTrue(vtlab.planning.LabOptions.unknown(o, List.of(new FootprintExperiment())).isEmpty());
        assertTrue(new FootprintExperiment().freshSutPerRow(), "idle readings need a JVM that served nothing yet");
    }

    @Test
    void userAxesWinOverFootprintsDefaults() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "footprint", "--conc", "1000", "--modes", "platform", "--max-threads", "150"));
        List<Row> fp = new FootprintExperiment().plan(o, PlanContext.from(o));
        assertEquals(1, fp.size());
        assertEquals(1000, fp.getFirst().concurrency());
        assertEquals("150", fp.getFirst().params().get("maxThreads"));
        assertTrue(vtlab.planning.LabOptions.unknown(o, List.of(new FootprintExperiment())).isEmpty(), "servlet's options are footprint's");
    }

    static Map<String, String> row(String mode, String status, int idle, int after, long resIdle, long res) {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("thread_mode", mode);
        r.put("status", status);
        r.put("concurrency", "400");
        r.put("jvm_threads_idle", Integer.toString(idle));
        r.put("jvm_threads_max", Integer.toString(after));
        r.put("nmt_thread_reserved_kb_idle", Long.toString(resIdle));
        r.put("nmt_thread_reserved_kb", Long.toString(res));
        r.put("nmt_thread_committed_kb_idle", "2000");
        r.put("nmt_thread_committed_kb", "20000");
        return r;
    }

    @Test
    void findingsGiveIdleAndAfterWithTheDeltasAndCheckTheThresholds() {
        Map<String, String> flagged = row("platform", "flagged", 41, 231, 43_000, 243_000);
        flagged.put("note", "flagged: littles-law");
        List<String> f = new FootprintExperiment().findings(List.of(flagged,
                row("virtual", "ok", 31, 39, 32_600, 41_000), row("virtual", "failed", 31, 400, 32_600, 400_000)));
        String p = f.stream().filter(s -> s.startsWith("platform:")).findFirst().orElseThrow();
        assertTrue(p.contains("41 threads idle -> 231 after load") && p.contains("+195.3 MiB") && p.contains(">= 200 threads"), p);
        assertTrue(p.contains("[row flagged: littles-law"), "a flagged row's SUT readings are used, and named: " + p);
        String v = f.stream().filter(s -> s.startsWith("virtual:")).findFirst().orElseThrow();
        assertTrue(v.contains("31 threads idle -> 39 after load") && v.contains("<= 60 threads"), "the failed row is not used: " + v);
        assertTrue(f.stream().anyMatch(s -> s.startsWith("1 failed row(s) not used")));

        String few = new FootprintExperiment().findings(List.of(row("platform", "ok", 41, 120, 43_000, 125_000))).getFirst();
        assertTrue(few.contains("FEWER than 200"), few);
    }
}
