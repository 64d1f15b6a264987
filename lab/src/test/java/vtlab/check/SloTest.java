package vtlab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.core.UsageError;

class SloTest {
    @Test
    void termsParseWithUnitsAndPercentages() throws Exception {
        Slo s = Slo.parse("p99<100ms, errors<0.1%, p50<=0.02s, max<2000000us");
        assertEquals(4, s.terms().size());
        assertEquals(new Slo.Term("p99", "p99_ms", false, 100), s.terms().get(0));
        assertEquals(0.001, s.terms().get(1).limit(), 1e-12);
        assertEquals(new Slo.Term("p50", "p50_ms", true, 20), s.terms().get(2));
        assertEquals(2000, s.terms().get(3).limit(), 1e-9);
        assertEquals(0.01, Slo.parse("errors<0.01").terms().getFirst().limit(), 1e-12, "a ratio");
        assertEquals("p999_ms", Slo.parse("p99.9<1s").terms().getFirst().column());
    }

    @Test
    void aRowMeetsItOrSaysWhichTermItBreaks() throws Exception {
        Slo s = Slo.parse("p99<100ms,errors<0.1%");
        assertEquals(List.of(), s.broken(Map.of("p99_ms", "99.9", "error_rate", "0")));
        List<String> broken = s.broken(Map.of("p99_ms", "412", "error_rate", "0.002"));
        assertEquals(2, broken.size());
        assertTrue(broken.get(0).startsWith("p99 412 ms breaks p99 < 100 ms"), broken.get(0));
        assertTrue(broken.get(1).startsWith("errors 0.2"), broken.get(1));
        assertEquals(List.of("p99 not measured"), Slo.parse("p99<1s").broken(Map.of()));
        assertEquals(List.of(), Slo.parse("p99<=100ms").broken(Map.of("p99_ms", "100")), "<= includes the bound");
        assertEquals(1, Slo.parse("p99<100ms").broken(Map.of("p99_ms", "100")).size(), "< excludes it");
    }

    @Test
    void whatDoesNotParseIsRefusedInOneLine() {
        for (String bad : List.of("", "p99", "p99<", "p98<10ms", "p99>10ms", "p99<10", "errors<5ms", "errors<200%", "p99<0ms", "p99<abc")) {
            UsageError e = assertThrows(UsageError.class, () -> Slo.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("--slo"), e.getMessage());
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
