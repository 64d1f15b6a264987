package vtlab.experiment.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;

class ProbeCostExperimentTest {
    static List<Row> plan(String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of("run", "probe-cost"));
        a.addAll(List.of(args));
        Options o = vtlab.cli.Main.parse(a);
        List<Row> rows = new ProbeCostExperiment().plan(o, PlanContext.from(o));
        assertTrue(vtlab.planning.LabOptions.unknown(o, List.of(new ProbeCostExperiment())).isEmpty());
        return rows;
    }

    @Test
    void pairsEveryServletRowWithAndWithoutTheProbesAlternatingWhichGoesFirst() throws Exception {
        List<Row> rows = plan("--modes", "virtual");
        assertEquals(6, rows.size(), "3 reps x (with, without)");
        List<String> order = rows.stream().map(r -> r.rep() + ":" + r.params().get(Row.PROBES_PARAM)).toList();
        String all = "cpu+rss+threads+cpu-threads+jfr-pinning";
        assertEquals(List.of("1:" + all, "1:cpu", "2:cpu", "2:" + all, "3:" + all, "3:cpu"), order);
        for (Row r : rows) {
            assertEquals("probe-cost", r.experiment());
            assertEquals("sleep", r.workload());
            assertEquals(1000, r.concurrency());
        }
        assertEquals(List.of("cpu"), rows.get(1).probes(List.of("cpu", "rss")), "the row's own set replaces the run's");
        assertEquals(List.of("cpu", "rss", "threads", "cpu-threads", "jfr-pinning"), rows.get(0).probes(List.of("cpu")));
        assertTrue(new ProbeCostExperiment().freshSutPerRow(), "NMT is a JVM flag: each side needs its own JVM");
    }

    /** Its own defaults (3 reps) are declarations: --quick shortens them to one pair as it does every timing. */
    @Test
    void quickIsOnePairAtTheQuickTiming() throws Exception {
        List<Row> rows = plan("--modes", "virtual", "--quick");
        assertEquals(List.of(1, 1), rows.stream().map(Row::rep).toList());
        assertTrue(rows.stream().allMatch(r -> r.hold().toSeconds() == 5 && r.warmup().toSeconds() == 3), rows.toString());
        assertEquals(3, plan("--modes", "virtual", "--quick", "--reps", "3").size() / 2, "--reps given wins over --quick");
    }

    @Test
    void theSetUnderTestComesFromProbesAndMustBeMeasurable() throws Exception {
        List<Row> rows = plan("--probes", "cpu,nmt", "--reps", "1", "--modes", "platform");
        assertEquals(List.of("cpu+nmt", "cpu"), rows.stream().map(r -> r.params().get(Row.PROBES_PARAM)).toList());
        assertThrows(UsageError.class, () -> plan("--probes", "nmt"), "without cpu there is no CPU per request");
        assertThrows(UsageError.class, () -> plan("--probes", "cpu"), "cpu alone is the baseline");
        assertThrows(UsageError.class, () -> plan("--probes", "cpu,bogus"));
    }

    static Map<String, String> row(String mode, int rep, String probes, double rps, double cpuPct, double boundRatio) {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("experiment", "probe-cost");
        r.put("thread_mode", mode);
        r.put("workload", "sleep");
        r.put("concurrency", "1000");
        r.put("jdk", "25");
        r.put("rep", Integer.toString(rep));
        r.put("status", "ok");
        r.put("params", "sleepMs=50;probes=" + probes);
        r.put("throughput_rps", Double.toString(rps));
        r.put("app_cpu_pct", Double.toString(cpuPct));
        r.put("bound_ratio", Double.toString(boundRatio));
        return r;
    }

    static Map<String, String> withThreads(Map<String, String> r, String byThread) {
        r.put("app_cpu_by_thread", byThread);
        return r;
    }

    @Test
    void pairedDifferenceWithItsIntervalDecidesTheVerdict() {
        String all = "cpu+rss+threads+nmt+jfr-pinning";
        List<Map<String, String>> rows = List.of(
                // virtual, CPU-bound: 1%, 2%, 3% lower with the probes -> mean 2%, t(2) * 1/sqrt(3) = 2.48 -> -0.5..4.5
                row("virtual", 1, all, 9900, 100, 0.5), row("virtual", 1, "cpu", 10000, 100, 0.5),
                row("virtual", 2, "cpu", 10000, 100, 0.5), row("virtual", 2, all, 9800, 100, 0.5),
                row("virtual", 3, all, 9700, 100, 0.5), row("virtual", 3, "cpu", 10000, 100, 0.5),
                // platform, at its bound: same throughput, CPU per request 1% higher every time -> below 3%
                withThreads(row("platform", 1, all, 4000, 20.2, 0.99), "requests 15.0;jfr 0.2"), row("platform", 1, "cpu", 4000, 20, 0.99),
                withThreads(row("platform", 2, all, 4000, 20.2, 0.99), "requests 15.0;gc-vm 1.0"), row("platform", 2, "cpu", 4000, 20, 0.99));
        List<String> f = new ProbeCostExperiment().findings(rows);
        assertEquals(2, f.size(), f.toString());
        String v = f.get(0), p = f.get(1);
        assertTrue(v.startsWith("virtual sleep c=1000 jdk25: 3 pair(s)"), v);
        assertTrue(v.contains("9,800 req/s with vs 10,000 without"), v);
        assertTrue(v.contains("throughput cost +2.0% (95% CI -0.5% to +4.5%)"), v);
        assertTrue(v.contains("not resolved to 3% on throughput"), v);
        assertTrue(p.contains("SUT CPU per request +1.0% (95% CI +1.0% to +1.0%) (50.5 vs 50.0 us)"), p);
        assertTrue(p.contains("cost below 3% on CPU per request (throughput held by its bound); JFR's own threads in the SUT: 0.10% of a core"), p);
        assertTrue(!v.contains("JFR's own"), "rows without the cpu-threads column say nothing of it: " + v);
    }

    @Test
    void twelvePairsUseStudentsTNotTheNormal() {
        // costs alternating 1% and 3%: mean 2, s = 1.0445, se = 0.3015; t(11) = 2.201 -> 1.34..2.66 (1.96 would give 1.41..2.59)
        List<Map<String, String>> rows = new ArrayList<>();
        for (int rep = 1; rep <= 12; rep++) {
            rows.add(row("virtual", rep, "cpu+rss", rep % 2 == 1 ? 9900 : 9700, 100, 0.5));
            rows.add(row("virtual", rep, "cpu", 10000, 100, 0.5));
        }
        String f = new ProbeCostExperiment().findings(rows).getFirst();
        assertTrue(f.contains("throughput cost +2.0% (95% CI +1.3% to +2.7%)"), f);
    }

    @Test
    void aCostAboveTheLimitIsSaidAndUnpairedOrFailedRowsAreNotEvidence() {
        String all = "cpu+nmt";
        List<Map<String, String>> rows = new ArrayList<>(List.of(
                row("virtual", 1, all, 9000, 100, 0.5), row("virtual", 1, "cpu", 10000, 100, 0.5),
                row("virtual", 2, all, 9100, 100, 0.5), row("virtual", 2, "cpu", 10000, 100, 0.5),
                row("virtual", 3, all, 9000, 100, 0.5)));
        Map<String, String> failed = row("virtual", 3, "cpu", 0, 0, 0);
        failed.put("status", "failed");
        rows.add(failed);
        List<String> f = new ProbeCostExperiment().findings(rows);
        assertTrue(f.get(0).contains("2 pair(s)"), f.get(0));
        assertTrue(f.get(0).contains("cost ABOVE 3% on throughput"), f.get(0));
        assertTrue(f.get(1).startsWith("1 row(s) not used as evidence: failed 1"), f.get(1));

        List<String> lone = new ProbeCostExperiment().findings(List.of(row("platform", 1, all, 4000, 20, 0.99)));
        assertTrue(lone.getFirst().contains("nothing to compare"), lone.toString());
    }
}
