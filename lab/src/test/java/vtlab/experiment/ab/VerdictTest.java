package vtlab.experiment.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.data.DataRow;
import vtlab.data.judge.Claim;
import vtlab.data.judge.Judge;
import vtlab.data.judge.Margin;

/** The A/B's gain over forks and iterations: intervals between fork means, settled or not, steadiness within a fork. */
class VerdictTest {
    static Map<String, String> row(String mode, int fork, int iteration, double rps) {
        Map<String, String> r = AbExperimentTest.row(mode, "as-shipped", 200, rps, 20, "ok", "");
        r.put("fork", Integer.toString(fork));
        r.put("iteration", Integer.toString(iteration));
        return r;
    }

    static String gain(List<Map<String, String>> rows) {
        return Verdict.of(DataRow.numbered(rows), Path.of("none.txt")).stream().filter(l -> l.startsWith("/sleep?ms=50 at 200 connections"))
                .findFirst().orElseThrow();
    }

    /** Platform 1,000 / 1,010 / 990 and virtual 1,800 / 1,820 / 1,780 per fork, each fork two iterations around its mean. */
    static List<Map<String, String>> threeForks() {
        List<Map<String, String>> rows = new ArrayList<>();
        double[] p = {1000, 1010, 990}, v = {1800, 1820, 1780};
        for (int f = 1; f <= 3; f++) {
            rows.add(row("platform", f, 1, p[f - 1] - 5));
            rows.add(row("platform", f, 2, p[f - 1] + 5));
            rows.add(row("virtual", f, 1, v[f - 1] - 5));
            rows.add(row("virtual", f, 2, v[f - 1] + 5));
        }
        return rows;
    }

    @Test
    void aRatioIsBetweenForkMeansNotBetweenIterations() {
        List<DataRow> rows = DataRow.numbered(threeForks());
        assertEquals(List.of(1000.0, 1010.0, 990.0), java.util.Arrays.stream(Verdict.forkMeans(rows.stream().filter(n -> n.mode().equals("platform")).toList(),
                vtlab.data.Columns.RPS)).boxed().toList(), "one value a fork: its iterations averaged");
        // Fieller over 3 fork means a side (not 6 rows): 1.80× with the interval of {1000, 1010, 990} against {1800, 1820, 1780}
        Claim ci = Judge.ratio("x", new double[] {1000, 1010, 990}, new double[] {1800, 1820, 1780}, Margin.DEFAULT);
        String g = gain(threeForks());
        assertTrue(g.contains(String.format(java.util.Locale.ROOT, "virtual as shipped 1,800 req/s (p99 20.0 ms) = 1.80× (95%% CI %.2f–%.2f×) platform",
                ci.set().low(), ci.set().high())), g);
        assertTrue(g.contains("Virtual threads: better"), g);
        assertTrue(g.endsWith("; settled: both bounds of every ratio's 95% interval within ±10% of it, from 3 forks or more a configuration"), g);
    }

    @Test
    void forksThatDisagreeAreNotSettledAndAnUnsteadyForkIsNamed() {
        List<Map<String, String>> rows = new ArrayList<>(List.of(row("platform", 1, 1, 1000), row("platform", 2, 1, 1400),
                row("virtual", 1, 1, 1500), row("virtual", 2, 1, 1900)));
        String g = gain(rows);
        assertTrue(g.contains(". NOT SETTLED: virtual as shipped / platform 1.42× (95% "), g);
        assertTrue(g.contains("the forks disagree"), g);
        List<Map<String, String>> warming = new ArrayList<>(threeForks());
        warming.set(0, row("platform", 1, 1, 800)); // fork 1's first iteration: 800, then 1,005
        String w = gain(warming);
        assertTrue(w.contains("not steady within a fork: platform's fork 1 moved 23% over its 2 iterations (800 / 1,005), the first lowest: still warming up"), w);
    }

    /** A wide interval holding 1.0 is absence of evidence: undetermined, with what would settle it, never "no difference". */
    @Test
    void aWideIntervalHoldingOneIsUndeterminedNotNoDifference() {
        List<Map<String, String>> rows = List.of(row("platform", 1, 1, 1000), row("platform", 2, 1, 1100), row("platform", 3, 1, 900),
                row("virtual", 1, 1, 1080), row("virtual", 2, 1, 980), row("virtual", 3, 1, 1180));
        String g = gain(rows);
        assertTrue(g.contains("Virtual threads: undetermined: the interval holds 1.0 and reaches past ±5%; about "), g);
        assertTrue(g.contains("more forks a side at this spread would settle it"), g);
        assertFalse(g.contains("no difference") || g.contains("gain"), g);
    }

    /** The worked case: Fieller's set is a ray, [1.11, ∞), which excludes 1: at least 1.11× better, never "no difference". */
    @Test
    void aRayThatExcludesOneIsAClaim() {
        List<Map<String, String>> rows = List.of(row("platform", 1, 1, 1000), row("platform", 2, 1, 1250),
                row("virtual", 1, 1, 3000), row("virtual", 2, 1, 3010));
        String g = gain(rows);
        assertTrue(g.contains("= 2.67× (95% set: at least 1.11×) platform"), g);
        assertTrue(g.contains("Virtual threads: better: at least 1.11×"), g);
        assertFalse(g.contains("no difference") || g.contains("undetermined"), g);
        // the claim typed beside the sentence (findings.json): the ray's lower bound, its open upper end as null
        vtlab.data.Finding f = Verdict.findings(DataRow.numbered(rows), Path.of("none.txt"), null, Map.of()).stream()
                .filter(x -> x.text().startsWith("/sleep?ms=50 at 200 connections")).findFirst().orElseThrow();
        Map<String, Object> claim = f.claims().getFirst();
        assertEquals("virtual as shipped / platform req/s", claim.get("what"));
        assertEquals("at_least", claim.get("set"));
        assertEquals(1.107, (Double) claim.get("low"), 0.001);
        assertEquals(null, claim.get("high"));
        assertEquals("better", claim.get("answer"));
        assertEquals(2, claim.get("forks_a"));
    }

    /** A narrow interval inside the ±5% band: equivalent, a claim of its own. */
    @Test
    void aNarrowIntervalInsideTheMarginIsEquivalent() {
        List<Map<String, String>> rows = List.of(row("platform", 1, 1, 1000), row("platform", 2, 1, 1004), row("platform", 3, 1, 996),
                row("virtual", 1, 1, 1001), row("virtual", 2, 1, 1005), row("virtual", 3, 1, 997));
        String g = gain(rows);
        assertTrue(g.contains("Virtual threads: equivalent within ±5%"), g);
    }

    /** A configuration with a failed fork gets no ratio: its survivors alone would claim what it did not do. */
    @Test
    void aFailedForkLeavesItsConfigurationWithoutARatio() {
        List<Map<String, String>> rows = new ArrayList<>(threeForks());
        Map<String, String> dead = row("virtual", 4, 1, Double.NaN);
        dead.put("status", "failed");
        dead.put("note", "the SUT died");
        rows.add(dead);
        String g = gain(rows);
        assertTrue(g.contains("Virtual threads: undetermined: 1 of 4 forks of virtual as shipped failed (row 13: the SUT died)"), g);
        assertFalse(g.contains(": better") || g.contains("settled: "), g);
    }

    /** Settled is both bounds within ±10% of the ratio, not half the width: 8% below and 12% above is not settled. */
    @Test
    void settledMeansBothBoundsNotHalfTheWidth() {
        Claim asymmetric = new Claim("x", 1.0, new vtlab.data.judge.RatioSet(vtlab.data.judge.RatioSet.Shape.INTERVAL, 0.92, 1.12), 0.95, 3, 3,
                vtlab.data.judge.Answer.UNDETERMINED, Margin.DEFAULT, 0, null);
        assertFalse(asymmetric.settled(0.10), "half the width is 10%, the upper bound 12% away");
        Claim even = new Claim("x", 1.0, new vtlab.data.judge.RatioSet(vtlab.data.judge.RatioSet.Shape.INTERVAL, 0.91, 1.09), 0.95, 3, 3,
                vtlab.data.judge.Answer.UNDETERMINED, Margin.DEFAULT, 0, null);
        assertTrue(even.settled(0.10));
    }
}
