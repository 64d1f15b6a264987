package vtlab.experiment.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The fidelity's arithmetic against cases computed by hand, then a replay compared with a log of known shape. */
class FidelityTest {
    @Test
    void theKsDistanceIsTheLargestGapBetweenTheCumulativeShares() {
        // {1,2,3,4} against {3,4,5,6}: after 2, 50% against 0%: 0.5
        assertEquals(0.5, Fidelity.ks(new double[] {1, 2, 3, 4}, new double[] {3, 4, 5, 6}), 1e-12);
        assertEquals(0, Fidelity.ks(new double[] {4, 1, 2}, new double[] {1, 2, 4}), 1e-12, "order does not matter");
        assertEquals(1, Fidelity.ks(new double[] {1, 2}, new double[] {3, 4}), 1e-12, "apart: 1");
        // ties counted whole on both sides: {0,0,0,1} against {0,1,1,1}: after 0, 75% against 25%
        assertEquals(0.5, Fidelity.ks(new double[] {0, 0, 0, 1}, new double[] {0, 1, 1, 1}), 1e-12);
        // different sizes: {1} against {1,2}: after 1, 100% against 50%
        assertEquals(0.5, Fidelity.ks(new double[] {1}, new double[] {1, 2}), 1e-12);
        assertTrue(Double.isNaN(Fidelity.ks(new double[0], new double[] {1})));
    }

    @Test
    void valuesAsCountsAreOrderedAsNumbersWhenTheyAllAreElseAsText() {
        // 10 x "2", 10 x "10" against 20 x "10": numerically "2" < "10", so after 2: 50% against 0%
        assertEquals(0.5, Fidelity.ks(Map.of("2", 10L, "10", 10L), Map.of("10", 20L)), 1e-12);
        // the same counts on both sides: 0, whatever the order
        assertEquals(0, Fidelity.ks(Map.of("a", 3L, "b", 1L), Map.of("a", 6L, "b", 2L)), 1e-12);
        // text: "a" 1 of 4 against 3 of 4: 0.5
        assertEquals(0.5, Fidelity.ks(Map.of("a", 1L, "b", 3L), Map.of("a", 3L, "b", 1L)), 1e-12);
    }

    /** The distance chance alone exceeds one time in 20: 1.358 sqrt((n + m) / nm), e.g. 0.1358 for 200 and 200. */
    @Test
    void chanceIsTheKsTestsCriticalValue() {
        assertEquals(0.1358, Fidelity.chance(200, 200), 1e-12);
        assertTrue(Fidelity.ksWords(0.1, 200, 200).contains("within chance, which exceeds 0.136 one time in 20"), Fidelity.ksWords(0.1, 200, 200));
        assertTrue(Fidelity.ksWords(0.2, 200, 200).contains("beyond chance"), Fidelity.ksWords(0.2, 200, 200));
    }

    @Test
    void theCorrelationIsPearsons() {
        assertEquals(1, Fidelity.correlation(new double[] {1, 2, 3}, new double[] {10, 20, 30}), 1e-12);
        assertEquals(-1, Fidelity.correlation(new double[] {1, 2, 3}, new double[] {3, 2, 1}), 1e-12);
        // x = 1,2,3,4 and y = 1,3,2,4: cov 4/4... sxy = 4, sxx = 5, syy = 5: 0.8
        assertEquals(0.8, Fidelity.correlation(new double[] {1, 2, 3, 4}, new double[] {1, 3, 2, 4}), 1e-12);
        assertTrue(Double.isNaN(Fidelity.correlation(new double[] {5, 5, 5}, new double[] {1, 2, 3})), "a flat profile: undefined");
        assertEquals(3, Fidelity.maxGap(new double[] {1, 5, 2}, new double[] {1, 2, 2}), 1e-12);
    }

    @Test
    void aPercentagePointIsTheDifferenceOfTwoShares() {
        // 520 of 1000 sent against 500 of 1000 logged: 2 points
        assertEquals(2, Fidelity.pp(520, 1000, 5000, 10000), 1e-9);
        assertEquals(-1.5, Fidelity.pp(285, 1000, 3000, 10000), 1e-9);
    }

    /** A log of 4 s: 2, 4, 2, 4 arrivals a second, hello 75% and item 25% with ids 1 and 2 half and half. */
    static Baseline log() {
        Map<String, Double> shares = new LinkedHashMap<>();
        shares.put("hello", 0.75);
        shares.put("item", 0.25);
        return new Baseline(shares, 1, new double[] {2, 4, 2, 4}, 1, 1,
                new double[] {100, 100, 200, 200}, Map.of("id", Map.of("1", 5L, "2", 5L)));
    }

    @Test
    void aReplayIsComparedWithItsLog() {
        List<Fidelity.Send> sends = new ArrayList<>();
        long t0 = 1_000_000_000_000L;
        // 4 seconds: 2, 4, 2, 4 sends; every 4th an item, ids alternating 1, 1, 2, ... ; gaps 100 ms within each second
        int[] perSecond = {2, 4, 2, 4};
        int n = 0;
        for (int s = 0; s < 4; s++) {
            for (int i = 0; i < perSecond[s]; i++, n++) {
                long t = t0 + s * 1_000_000_000L + i * 100_000_000L;
                boolean item = n % 4 == 3;
                sends.add(new Fidelity.Send(t, item ? "item" : "hello", item ? "http://127.0.0.1:18080/items/" + (n % 8 == 3 ? 1 : 2) + "#r1" : "http://127.0.0.1:18080/hello#r0"));
            }
        }
        Fidelity f = Fidelity.of(log(), sends, Map.of("hello", "/hello", "item", "/items/{id}"), 4, null);
        assertEquals(12, f.sent());
        assertEquals(75, f.mix().get("hello")[1], 1e-9);
        assertEquals(0, f.mixPp(), 1e-9, "9 hello and 3 items: 75/25 as logged");
        assertEquals(4, f.seconds());
        assertEquals(0, f.rateGapRps(), 1e-9);
        assertEquals(1, f.rateCorr(), 1e-9);
        assertEquals(1 / 6.0, f.valuesKs().get("id"), 1e-12, "ids sent 1, 2, 1 (2/3 ones) against half and half");
        // gaps at the log's 1 ms: 100 ms eight times, 700 once, 900 twice (a second's last send to the next's first),
        // against 100, 100, 200, 200: at 200 ms 8/11 of the sends' against all the log's, 3/11 apart
        assertEquals(3 / 11.0, f.gapsKs(), 1e-12, f.line());
        assertTrue(f.line().startsWith("fidelity to the log (12 sends): the mix hello 75.0% (log 75.0%), item 25.0% (log 25.0%), at most 0.00 pp apart;"), f.line());
        assertEquals("0.0000", f.cells().get("fidelity_mix_pp"));
    }

    @Test
    void aLogInWholeSecondsComparesTheSendsAsItWouldHaveStampedThem() {
        // the log: one arrival a second (gaps 1000 ms, its clock whole seconds); the replay sent one a second too, at
        // .5 past: read in whole seconds, the gaps are 1000 ms as well
        Baseline log = new Baseline(Map.of("hello", 1.0), 1, new double[] {1, 1, 1, 1}, 1, 1000, new double[] {1000, 1000, 1000}, Map.of());
        List<Fidelity.Send> sends = new ArrayList<>();
        for (int s = 0; s < 4; s++) sends.add(new Fidelity.Send(1_000_000_000_000L + s * 1_000_000_000L + 500_000_000L, "hello", "/hello"));
        Fidelity f = Fidelity.of(log, sends, Map.of("hello", "/hello"), 4, null);
        // counted from the schedule's start, half a second before the first send: the same one a second
        assertEquals(0, Fidelity.of(log, sends, Map.of("hello", "/hello"), 4, 1_000_000_000_000L).rateGapRps(), 1e-12);
        assertEquals(0, f.gapsKs(), 1e-12, f.line());
        assertTrue(Double.isNaN(f.rateCorr()), "both flat: undefined");
        assertTrue(f.line().contains("(at 1 s, the log's clock) KS 0.000: the same shape (the cumulative shares differ by at most 0 points; 3 sent, 3 logged: within chance"), f.line());
        // the log at twice its pace: its 4 s in 2, two a second
        Baseline faster = new Baseline(Map.of("hello", 1.0), 1, new double[] {1, 1, 1, 1}, 2, 1000, new double[] {1000, 1000, 1000}, Map.of());
        assertEquals(2, faster.arrivalsBetween(0, 2), 1e-12);
        assertEquals(1.5, faster.arrivalsBetween(0.5, 2), 1e-12, "half a step counted in proportion");
    }

    @Test
    void theBaselineReadsBackAsWritten() throws Exception {
        java.nio.file.Path f = java.nio.file.Files.createTempFile("baseline", ".json");
        try {
            log().write(f);
            Baseline b = Baseline.read(f);
            assertEquals(log().shares(), b.shares());
            assertEquals(List.of(2.0, 4.0, 2.0, 4.0), java.util.Arrays.stream(b.perSecond()).boxed().toList());
            assertEquals(log().values(), b.values());
            assertEquals(1, b.resolutionMs());
        } finally {
            java.nio.file.Files.deleteIfExists(f);
        }
    }

    @Test
    void theArrivalsOfALogAreCountedPerSecondWithTheirGapsInTimeOrder() {
        var a = new vtlab.experiment.scenario.accesslog.Arrivals();
        // written as requests end: a little out of order
        for (long t : new long[] {1000, 3000, 2000, 2000, 4000}) a.add(t * 1);
        assertEquals(1000, a.resolutionMs(), "every time in whole seconds");
        assertEquals(List.of(1L, 2L, 1L, 1L), java.util.Arrays.stream(a.perSecond()).boxed().toList());
        double[] gaps = a.gapsMs();
        java.util.Arrays.sort(gaps);
        assertEquals(List.of(0.0, 1000.0, 1000.0, 1000.0), java.util.Arrays.stream(gaps).boxed().toList(), "gaps in time order, never negative");
        a.add(4500);
        assertEquals(1, a.resolutionMs());
    }
}
