package vtlab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.core.UsageError;
import vtlab.data.DataRow;

class SloTest {
    static DataRow row(Map<String, String> cells) {
        return DataRow.of(cells);
    }

    /** A term as parsed: the metric as said, the column it reads, its operator and its limit in the column's unit. */
    static void assertTerm(String metric, String column, Rule.Op op, double limit, Rule t) {
        assertEquals(List.of(metric, column, op), List.of(t.metric(), t.column(), t.op()), t.toString());
        assertEquals(limit, t.limit(), 1e-9, t.toString());
    }

    @Test
    void termsParseWithUnitsAndPercentages() throws Exception {
        Slo s = Slo.parse("p99<100ms, errors<0.1%, p50<=0.02s, max<2000000us");
        assertEquals(4, s.terms().size());
        assertTerm("p99", "p99_ms", Rule.Op.LT, 100, s.terms().get(0));
        assertEquals(0.001, s.terms().get(1).limit(), 1e-12);
        assertTerm("p50", "p50_ms", Rule.Op.LE, 20, s.terms().get(2));
        assertEquals(2000, s.terms().get(3).limit(), 1e-9);
        assertEquals(0.01, Slo.parse("errors<0.01").terms().getFirst().limit(), 1e-12, "a ratio");
        assertEquals("p999_ms", Slo.parse("p99.9<1s").terms().getFirst().column());
    }

    @Test
    void aRowMeetsItOrSaysWhichTermItBreaks() throws Exception {
        Slo s = Slo.parse("p99<100ms,errors<0.1%");
        assertEquals(List.of(), s.broken(row(Map.of("p99_ms", "99.9", "error_rate", "0"))));
        List<String> broken = s.broken(row(Map.of("p99_ms", "412", "error_rate", "0.002")));
        assertEquals(2, broken.size());
        assertTrue(broken.get(0).startsWith("p99 412 ms breaks p99 < 100 ms"), broken.get(0));
        assertTrue(broken.get(1).startsWith("errors 0.2"), broken.get(1));
        assertEquals(List.of("p99 not measured"), Slo.parse("p99<1s").broken(row(Map.of())));
        assertEquals(List.of(), Slo.parse("p99<=100ms").broken(row(Map.of("p99_ms", "100"))), "<= includes the bound");
        assertEquals(1, Slo.parse("p99<100ms").broken(row(Map.of("p99_ms", "100"))).size(), "< excludes it");
    }

    @Test
    void whatDoesNotParseIsRefusedInOneLine() {
        for (String bad : List.of("", "p99", "p99<", "p98<10ms", "p99>10ms", "p99<10", "errors<5ms", "errors<200%", "p99<0ms", "p99<abc")) {
            UsageError e = assertThrows(UsageError.class, () -> Slo.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("--slo"), e.getMessage());
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void failOnTermsBreachWhenTheyHold() throws Exception {
        Slo t = Slo.failOn("p99_ms>200, error_rate>0.01, p50>=1s, rps<1000");
        assertTerm("p99", "p99_ms", Rule.Op.GT, 200, t.terms().get(0));
        assertTerm("errors", "error_rate", Rule.Op.GT, 0.01, t.terms().get(1));
        assertEquals(1000, t.terms().get(2).limit(), 1e-9);
        assertTerm("rps", "throughput_rps", Rule.Op.LT, 1000, t.terms().get(3));
        assertEquals(List.of(), t.breached(row(Map.of("p99_ms", "200", "error_rate", "0.01", "p50_ms", "999", "throughput_rps", "1000"))));
        List<String> b = t.breached(row(Map.of("p99_ms", "412", "error_rate", "0.02", "p50_ms", "1000", "throughput_rps", "950")));
        assertEquals(List.of("p99 412 ms (p99 > 200 ms)", "errors 2.00% (errors > 1.00%)", "p50 1000 ms (p50 >= 1000 ms)",
                "rps 950 req/s (rps < 1000 req/s)"), b);
        assertEquals(List.of(), t.breached(row(Map.of())), "a row without the cells (failed) breaches nothing");
        assertEquals(1, Slo.failOn("error_rate>0").breached(row(Map.of("error_rate", "0.0001"))).size(), "any error");
    }

    @Test
    void failOnRefusesWhatDoesNotParse() {
        for (String bad : List.of("", "p99_ms", "p99_ms=>5", "p98_ms>1", "error_rate>5ms", "rps>5ms", "errors_ms>1", "p99>10")) {
            UsageError e = assertThrows(UsageError.class, () -> Slo.failOn(bad), bad);
            assertTrue(e.getMessage().startsWith("--fail-on") && !e.getMessage().contains("\n"), e.getMessage());
        }
        assertThrows(UsageError.class, () -> Slo.parse("rps<1000"), "--slo takes no throughput term");
    }
}
