package vtlab.experiment.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.data.DataRow;
import vtlab.data.MachineRecord;
import vtlab.data.judge.Spread;
import vtlab.plan.Row;

/** ab --aa: one configuration against itself, interleaved, its refusals, and the verdict's words on an A/A's rows. */
class AaTest {
    static final String SPRING_JAR = AbExperimentTest.SPRING_JAR;

    @Test
    void anAaIsOneConfigurationTwiceInterleavedIdenticalButForItsLabel() throws Exception {
        List<Row> rows = AbExperimentTest.plan("--app", SPRING_JAR, "--url", "/sleep?ms=50", "--aa");
        // five forks a side unless asked: A, A', A, A' ...
        assertEquals(2 * Aa.FORKS, rows.size());
        List<String> order = rows.stream().map(r -> r.params().get(Aa.PARAM) + " " + r.fork()).toList();
        assertEquals(List.of("A 1", "A' 1", "A 2", "A' 2", "A 3", "A' 3", "A 4", "A' 4", "A 5", "A' 5"), order, "interleaved");
        // the defaults: virtual as shipped at 200 connections
        assertTrue(rows.stream().allMatch(r -> r.threadMode().equals("virtual") && r.params().get(Service.TUNING).equals(Service.AS_SHIPPED)
                && r.concurrency() == 200));
        // the rows are identical runs but for the label
        Row a = rows.get(0), a2 = rows.get(1);
        assertEquals(unlabelled(a), unlabelled(a2));
        assertFalse(a.scenario().equals(a2.scenario()), "two configurations to the judge: " + a.scenario());
        // one mode asked: that one; one --conc; --forks as asked
        List<Row> platform = AbExperimentTest.plan("--app", SPRING_JAR, "--url", "/x", "--aa", "--modes", "platform", "--conc", "1000", "--forks", "2");
        assertEquals(List.of("platform A 1 1000", "platform A' 1 1000", "platform A 2 1000", "platform A' 2 1000"),
                platform.stream().map(r -> r.threadMode() + " " + r.params().get(Aa.PARAM) + " " + r.fork() + " " + r.concurrency()).toList());
        assertEquals(Service.TUNED, AbExperimentTest.plan("--app", SPRING_JAR, "--url", "/x", "--aa", "--variants", "tuned", "--forks", "1").getFirst()
                .params().get(Service.TUNING), "one variant asked: that one");
    }

    /** The row with its side's label taken away. */
    static Row unlabelled(Row r) {
        Map<String, String> p = new LinkedHashMap<>(r.params().asMap());
        p.remove(Aa.PARAM);
        return r.toBuilder().params(new vtlab.stack.Params(p)).build();
    }

    @Test
    void anAaOfMoreThanOneConfigurationIsRefusedBeforeAnythingStarts() throws Exception {
        Map<String, List<String>> cases = new LinkedHashMap<>();
        cases.put("give one --modes value, not 2", List.of("--modes", "platform,virtual"));
        cases.put("give one --conc value, not 2 (200,1000)", List.of("--conc", "200,1000"));
        cases.put("give one --url, not 2", List.of("--url", "/y"));
        cases.put("give one --variants value, not 2", List.of("--variants", "as-shipped,tuned"));
        cases.put("not with --next-step", List.of("--next-step"));
        cases.put("not with --fault or --rate-profile", List.of("--fault", "stub:latency=2s@10s-30s"));
        cases.forEach((expected, more) -> {
            List<String> args = new ArrayList<>(List.of("ab", "--app", SPRING_JAR, "--url", "/x", "--aa"));
            args.addAll(more);
            String msg = AbExperimentTest.refusal(args.toArray(String[]::new));
            assertTrue(msg.contains(expected) && msg.startsWith("--aa "), expected + " <- " + msg);
        });
    }

    static Map<String, String> side(String side, int fork, double rps, double p99) {
        Map<String, String> r = AbExperimentTest.row("virtual", "as-shipped", 200, rps, p99, "ok", "");
        r.put("params", "tuning=as-shipped;side=" + side);
        r.put("fork", Integer.toString(fork));
        r.put("iteration", "1");
        r.put("http_reqs", "40000");
        r.put("duration_s", "20");
        return r;
    }

    static List<Map<String, String>> aa(double[] a, double[] a2) {
        List<Map<String, String>> rows = new ArrayList<>();
        for (int f = 0; f < a.length; f++) {
            rows.add(side("A", f + 1, a[f], 60 + f));
            rows.add(side("A'", f + 1, a2[f], 61 + f));
        }
        return rows;
    }

    static String line(List<String> v, String prefix) {
        return v.stream().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(() -> new AssertionError(prefix + " in " + v));
    }

    @Test
    void theVerdictOfAnAaSaysAClaimOfADifferenceIsFalseAndGivesTheNoiseFloor() {
        // forks that agree: A' within the margin of A
        List<String> same = Verdict.of(DataRow.numbered(aa(new double[] {1000, 1010, 995, 1005}, new double[] {1002, 1008, 998, 1001})), Path.of("/none"));
        String claim = line(same, "/sleep?ms=50 at 200 connections");
        assertTrue(claim.contains("virtual as shipped (A') 1,002 req/s (p99 62.5 ms) = 1.00× (95% CI"), claim);
        assertTrue(claim.contains("A/A (one configuration against itself): equivalent within ±5%: right, as an A/A should be"), claim);
        String floor = line(same, "noise floor, /sleep?ms=50 at 200 connections, virtual as shipped: between-fork CV 0.5% (95% CI ");
        assertTrue(floor.contains(", 8 forks) of throughput, CV ") && floor.contains(" of p99; two single forks of one configuration differ by up to ±1.4%"), floor);
        assertTrue(floor.endsWith("kept as this machine's floor when the run ends (.vtlab/machines/), which later verdicts quote"), floor);
        // a drift the sides did not share: A' clearly below A, which an A/A can only be by noise or drift
        List<String> apart = Verdict.of(DataRow.numbered(aa(new double[] {1000, 1010, 1005}, new double[] {900, 905, 910})), Path.of("/none"));
        String wrong = line(apart, "/sleep?ms=50 at 200 connections");
        assertTrue(wrong.contains("A/A (one configuration against itself): worse — a FALSE CLAIM: both sides are the same configuration"), wrong);
        // one fork a side: no claim, and no constant for the spread it did not measure
        String one = line(Verdict.of(DataRow.numbered(aa(new double[] {1000}, new double[] {1100})), Path.of("/none")), "/sleep?ms=50 at 200 connections");
        assertTrue(one.contains("A/A (one configuration against itself): one fork a side, no interval: no claim (a direction only)"), one);
        assertTrue(one.contains("not measured on this machine: run ./vtlab ab --aa"), one);
    }

    /** A finished A/A keeps its floor as the machine's, says where, and a later run's kept.json carries it. */
    @Test
    void aFinishedAaKeepsItsFloorAsTheMachinesAndLaterRunsCarryIt(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        String before = System.getProperty("vtlab.machine.records");
        System.setProperty("vtlab.machine.records", dir.resolve("machines").toString());
        try {
            java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
            new AbExperiment().afterRun(dir.resolve("20261207T010000Z"), DataRow.numbered(aa(new double[] {1000, 1040, 980}, new double[] {1020, 990, 1010})),
                    new java.io.PrintStream(console, true, java.nio.charset.StandardCharsets.UTF_8));
            assertTrue(console.toString(java.nio.charset.StandardCharsets.UTF_8).startsWith("vtlab: this machine's noise floor, CV 2.1% (95% CI 1.3–5.3%, 6 forks)"
                    + " of throughput, measured by ./vtlab ab --aa on "), console.toString());
            MachineRecord.NoiseFloor kept = MachineRecord.noiseFloor();
            assertEquals(6, kept.rps().units());
            assertEquals("20261207T010000Z", kept.run());
            Map<String, Object> later = new AbExperiment().kept(vtlab.cli.Main.parse(List.of("ab", "--app", SPRING_JAR, "--url", "/x")));
            assertEquals(kept.asMap(), later.get(NoiseFloorLine.KEY), "a later run keeps the floor it found");
            // an A/B keeps nothing
            java.io.ByteArrayOutputStream none = new java.io.ByteArrayOutputStream();
            new AbExperiment().afterRun(dir, DataRow.numbered(List.of(AbExperimentTest.row("platform", "as-shipped", 200, 1000, 60, "ok", ""))), new java.io.PrintStream(none));
            assertEquals(0, none.size());
        } finally {
            if (before == null) System.clearProperty("vtlab.machine.records");
            else System.setProperty("vtlab.machine.records", before);
        }
    }

    @Test
    void anAaKeepsItsFloorAndAFailedForkKeepsNone() {
        MachineRecord.NoiseFloor f = NoiseFloorLine.measured("20261207T000000Z", DataRow.numbered(aa(new double[] {1000, 1040, 980}, new double[] {1020, 990, 1010})));
        assertEquals(6, f.rps().units(), "every fork of both sides");
        assertEquals("/sleep?ms=50 at 200 connections, virtual as shipped, 20 s holds", f.scenario());
        List<Map<String, String>> failed = aa(new double[] {1000, 1040}, new double[] {1020, 990});
        failed.get(3).put("status", "failed");
        assertNull(NoiseFloorLine.measured("x", DataRow.numbered(failed)), "the survivors' spread is not the machine's");
        assertNull(NoiseFloorLine.measured("x", DataRow.numbered(List.of(AbExperimentTest.row("platform", "as-shipped", 200, 1000, 60, "ok", "")))), "no A/A");
        // a comparison without an interval quotes the floor this machine measured
        String clause = NoiseFloorLine.clause(new MachineRecord.NoiseFloor("2026-12-07T01:00:00Z", "r", "/x at 200 connections, virtual as shipped", Spread.of(
                new double[] {1000, 1040, 980, 1020, 990, 1010}), Spread.NONE));
        assertTrue(clause.startsWith("this machine's noise floor: CV 2.1% (95% CI 1.3–5.3%, 6 forks) of throughput, measured by ./vtlab ab --aa on 2026-12-07"
                + " (/x at 200 connections, virtual as shipped): two single forks differ by up to ±"), clause);
    }
}
