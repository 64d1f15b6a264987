package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.it.Evidence.Call;
import vtlab.it.Evidence.Part;

/**
 * The end-to-end controls' judge of a run's rows: which claim the lab may make from them, and when a control runs the
 * lab again. The case CI met on a brand-new machine: the A/B's first row flagged littles-law after a short warm-up.
 */
class EvidenceTest {
    static Map<String, String> row(String status, String flags, String lever) {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("thread_mode", "virtual");
        r.put("status", status);
        r.put("flags", flags);
        r.put("params", lever == null ? "tuning=as-shipped" : "tuning=as-shipped;lever=" + lever);
        r.put("note", status.equals("failed") ? "the SUT did not start" : "");
        return r;
    }

    static final Map<String, String> OK = row("ok", "", null), OK_POOL = row("ok", "", "pool:20");

    @Test
    void everyRowOkIsTheClaimInFull() {
        Evidence e = Evidence.of(List.of(OK, OK, OK_POOL, OK_POOL));
        Evidence.Judged j = e.judge(Part.base("ab", e.withParam("lever", null)), Part.variant("pool:20", e.withParam("lever", "pool:20")));
        assertEquals(Call.CLAIM, j.call(), j.toString());
        assertFalse(j.rerun());
        assertEquals("", j.why());
        assertEquals(List.of(1, 2), e.withParam("lever", null));
        assertEquals(List.of(3, 4), e.withParam("lever", "pool:20"));
    }

    @Test
    void aFlaggedBaseRowLeavesTheNarrowerClaimFromTheOtherAndNoRerun() {
        // CI's case: row 1 flagged littles-law (and warmup-not-steady, which voids nothing), row 2 ok
        Evidence e = Evidence.of(List.of(row("flagged", "warmup-not-steady;littles-law", null), OK, OK_POOL, OK_POOL));
        Evidence.Judged j = e.judge(Part.base("ab", List.of(1, 2)), Part.variant("pool:20", List.of(3, 4)));
        assertEquals(Call.NARROWER, j.call(), j.toString());
        assertFalse(j.rerun(), "the lab judges from row 2 alone: a claim to assert, not a run to repeat");
        assertEquals(List.of(2), j.okRows(e, "ab"));
        assertEquals("row 2", Evidence.rowsOf(j.okRows(e, "ab")));
        assertEquals("row 1 flagged (littles-law)", j.why(), "the voiding flag, not the caveat");
    }

    @Test
    void aFlaggedVariantRowIsARefusalAndARerun() {
        Evidence e = Evidence.of(List.of(OK, OK, OK_POOL, row("flagged", "busy-machine", "pool:20")));
        Evidence.Judged j = e.judge(Part.base("ab", List.of(1, 2)), Part.variant("pool:20", List.of(3, 4)));
        assertEquals(Call.REFUSED, j.call(), "the lab claims nothing from a variant with a flagged rep: " + j);
        assertTrue(j.rerun());
        assertEquals("row 4 flagged (busy-machine)", j.why());
    }

    @Test
    void aBaseWithNoOkRowIsARefusalAndARerun() {
        Evidence e = Evidence.of(List.of(row("flagged", "littles-law", null), row("failed", "", null), OK_POOL, OK_POOL));
        Evidence.Judged j = e.judge(Part.base("ab", List.of(1, 2)), Part.variant("pool:20", List.of(3, 4)));
        assertEquals(Call.REFUSED, j.call(), j.toString());
        assertTrue(j.rerun());
        assertEquals("row 1 flagged (littles-law); row 2 failed (the SUT did not start)", j.why());
    }

    @Test
    void aPartWithoutRowsIsNothingToClaim() {
        Evidence e = Evidence.of(List.of(OK, OK));
        Evidence.Judged j = e.judge(Part.base("ab", List.of(1, 2)), Part.variant("pool:20", e.withParam("lever", "pool:20")));
        assertEquals(Call.REFUSED, j.call());
        assertEquals("pool:20: no rows", j.why());
    }

    @Test
    void theControlRunsTheLabAgainOnlyWhenItsClaimWasRefusedAndSaysWhy() throws Exception {
        List<Integer> attempts = new ArrayList<>();
        List<List<Map<String, String>>> runs = List.of(List.of(OK, row("flagged", "littles-law", "pool:20")), List.of(OK, OK_POOL));
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        java.io.PrintStream was = System.out;
        List<Map<String, String>> got;
        try {
            System.setOut(new java.io.PrintStream(buf, true));
            got = Evidence.rerunOnce("pool control", n -> {
                attempts.add(n);
                return runs.get(n - 1);
            }, rows -> Evidence.of(rows).judge(Part.base("ab", List.of(1)), Part.variant("pool:20", List.of(2))));
        } finally {
            System.setOut(was);
        }
        assertEquals(List.of(1, 2), attempts);
        assertEquals(runs.get(1), got);
        assertTrue(buf.toString().contains("vtlab IT: pool control: ran the lab again: the rows its claim needs are not evidence (row 2 flagged (littles-law))"),
                buf.toString());

        // a narrower claim is asserted as it is: one run
        attempts.clear();
        Evidence.rerunOnce("pool control", n -> {
            attempts.add(n);
            return List.of(row("flagged", "littles-law", null), OK, OK_POOL);
        }, rows -> Evidence.of(rows).judge(Part.base("ab", List.of(1, 2)), Part.variant("pool:20", List.of(3))));
        assertEquals(List.of(1), attempts);
    }

    /**
     * The case that passed before: the pool control's rows flagged in both runs, and the control asserted the lab's
     * refusal ("not evidence (flagged ...)") with zero ok rows behind its claim. Now the second refusal is a skip with
     * its reason, which the suite counts (SuiteReport), never a pass.
     */
    @Test
    void aClaimStillRefusedAfterItsRerunIsASkipWithItsReasonNotAPass() {
        List<Integer> attempts = new ArrayList<>();
        org.opentest4j.TestAbortedException skipped = org.junit.jupiter.api.Assertions.assertThrows(org.opentest4j.TestAbortedException.class,
                () -> Evidence.rerunOnce("pool control", n -> {
                    attempts.add(n);
                    return List.of(OK, row("flagged", "busy-machine", "pool:20"));
                }, rows -> Evidence.of(rows).judge(Part.base("ab", List.of(1)), Part.variant("pool:20", List.of(2)))));
        assertEquals(List.of(1, 2), attempts, "run once more first");
        assertEquals(vtlab.cli.SuiteReport.CONTROL_SKIPPED + "pool control: row 2 flagged (busy-machine)", skipped.getMessage());
    }

    /** On ok rows, a claim the judge left undetermined is missing too: the control runs once more, then skips. */
    @Test
    void anUndeterminedClaimOnOkRowsIsRunAgainThenSkipped() throws Exception {
        List<Integer> attempts = new ArrayList<>();
        java.util.function.Function<List<Map<String, String>>, Evidence.Judged> judge = rows -> {
            Evidence.Judged j = Evidence.of(rows).judge(Part.variant("ab", List.of(1, 2)), Part.variant("pool:20", List.of(3, 4)));
            return j.call() == Call.CLAIM && rows.size() == 4 ? Evidence.undetermined(j, "the judge: 1.60× (95% CI 0.80–3.10×): undetermined") : j;
        };
        org.opentest4j.TestAbortedException skipped = org.junit.jupiter.api.Assertions.assertThrows(org.opentest4j.TestAbortedException.class,
                () -> Evidence.rerunOnce("pool control", n -> {
                    attempts.add(n);
                    return List.of(OK, OK, OK_POOL, OK_POOL);
                }, judge));
        assertEquals(List.of(1, 2), attempts);
        assertTrue(skipped.getMessage().endsWith("pool control: the judge: 1.60× (95% CI 0.80–3.10×): undetermined"), skipped.getMessage());
        // decided on the second run: that run is the one asserted, no skip
        attempts.clear();
        List<Map<String, String>> got = Evidence.rerunOnce("pool control", n -> {
            attempts.add(n);
            return n == 1 ? List.of(OK, OK, OK_POOL, OK_POOL) : List.of(OK, OK, OK_POOL, OK_POOL, OK_POOL);
        }, judge);
        assertEquals(List.of(1, 2), attempts);
        assertEquals(5, got.size());
    }

    /** A control reads the judge's typed claims from findings.json, by what they compare. */
    @Test
    void theJudgesTypedClaimsAreReadFromFindings(@org.junit.jupiter.api.io.TempDir java.nio.file.Path run) throws Exception {
        vtlab.data.judge.Claim made = vtlab.data.judge.Judge.ratio("pool 20 / virtual as shipped req/s", new double[] {100, 104}, new double[] {200, 206},
                vtlab.data.judge.Margin.DEFAULT);
        new vtlab.data.Findings(List.of(new vtlab.data.Findings.Entry("ab", "", List.of(new vtlab.data.Finding("next step", List.of(1, 2, 3, 4))
                .withClaims(List.of(made))), null, null)), List.of()).write(run);
        Map<String, Object> c = Evidence.claim(run, "pool 20 / virtual as shipped req/s");
        assertEquals("better", Evidence.answer(c));
        assertEquals(List.of(2, 2), java.util.Arrays.stream(Evidence.forks(c)).boxed().toList());
        assertEquals(null, Evidence.claim(run, "pool 40 / virtual as shipped req/s"), "a claim the lab did not make is none");
    }

    /** NextStepIT's reading of a next-step line: a gain said (with or without its interval), or taken back. */
    @Test
    void aVariantsWordsClaimAGainOnlyWhenNothingTakesItBack() {
        String line = "next step, /api at 200 connections, virtual as shipped (row 2): 71% of request time waiting for a pooled connection"
                + " → pool 20 (rows 3, 4): +93% req/s (95% CI +80% to +106%), p99 −50%; the largest cause is now on CPU (64%) → pool 40 (rows 5, 6): +1% req/s";
        String words = NextStepIT.variant(line, "pool 20 (rows 3, 4)");
        assertEquals("+93% req/s (95% CI +80% to +106%), p99 −50%; the largest cause is now on CPU (64%)", words);
        assertTrue(NextStepIT.gainShown(words, true));
        assertFalse(NextStepIT.gainShown(words, false), "an interval where none was expected is a different claim");
        assertTrue(NextStepIT.gainShown("+60% req/s, p99 −40%; the largest cause is now on CPU (64%)", false), "the narrower claim: no interval");
        // the wording of a claim between forks: the p99's change with its own interval (CI's fresh clone, 2026-11-28)
        assertTrue(NextStepIT.gainShown("+179% req/s (95% CI +116% to +292%), p99 −66% (95% CI −84% to +1303%); the largest cause is now waiting to run (94%)", true));
        // the p99's interval unbounded (two forks, one with a far tail): the fresh clone of 2026-11-28 23:00, whose test
        // knew only a bounded one and failed on a claim the lab made rightly
        assertTrue(NextStepIT.gainShown("+100% req/s (95% CI +84% to +115%), p99 −47% (95% CI unbounded); the largest cause is still waiting for a pooled connection (87%, was 94%)", true));
        assertFalse(NextStepIT.gainShown("+287% req/s (95% CI −4% to +579%), p99 −74% (95% CI unbounded): within the noise between forks, no gain shown; the largest cause is now waiting to run (86%)", true));
        assertFalse(NextStepIT.gainShown("+30% req/s (95% CI +10% to +50%), p99 +90% (95% CI +20% to +160%): more throughput for a longer p99 tail: a trade, not a gain", true),
                "a trade is no gain");
        for (String back : List.of("+9% req/s, p99 −1%: one rep a side, within this machine's ±15% between JVMs: no gain shown",
                "+30% req/s (95% CI −5% to +65%), p99 −10%: within the noise of its reps, no gain shown",
                "+93% req/s (95% CI +80% to +106%), p99 −50%, not evidence (flagged busy-machine); the largest cause is now on CPU (64%)",
                "−20% req/s, p99 +30%: worse")) {
            assertFalse(NextStepIT.gainShown(back, true) || NextStepIT.gainShown(back, false), back);
        }
    }
}
