package vtlab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.core.UsageError;
import vtlab.data.DataRow;

/**
 * The limits an SLO (--slo) and thresholds (--fail-on) hold a row to, each operator probed just inside, on and just
 * outside its limit, with the units converted; and the edges of what the options accept.
 */
class SloEdgesTest {
    static int broken(String slo, String column, String value) throws UsageError {
        return Slo.parse(slo).broken(DataRow.of(Map.of(column, value))).size();
    }

    static int breached(String thresholds, String column, String value) throws UsageError {
        return Slo.failOn(thresholds).breached(DataRow.of(Map.of(column, value))).size();
    }

    @Test
    void belowMeansStrictlyBelowAndAtMostIncludesTheLimit() throws Exception {
        assertEquals(0, broken("p99<100ms", "p99_ms", "99.9"));
        assertEquals(1, broken("p99<100ms", "p99_ms", "100"), "< excludes the limit");
        assertEquals(1, broken("p99<100ms", "p99_ms", "100.1"));
        assertEquals(0, broken("p99<=100ms", "p99_ms", "99.9"));
        assertEquals(0, broken("p99<=100ms", "p99_ms", "100"), "<= includes it");
        assertEquals(1, broken("p99<=100ms", "p99_ms", "100.1"));
    }

    @Test
    void unitsAreConvertedToTheColumnsBeforeComparing() throws Exception {
        // 0.1 s = 100 ms, 100,000 us = 100 ms; errors 0.1% = 0.001 of the requests
        assertEquals(0, broken("p99<0.1s", "p99_ms", "99.9"));
        assertEquals(1, broken("p99<0.1s", "p99_ms", "100.1"));
        assertEquals(0, broken("p99<100000us", "p99_ms", "99.9"));
        assertEquals(1, broken("p99<100000us", "p99_ms", "100"));
        assertEquals(0, broken("errors<0.1%", "error_rate", "0.00099"));
        assertEquals(1, broken("errors<0.1%", "error_rate", "0.001"));
        assertEquals(0, broken("errors<=0.001", "error_rate", "0.001"), "a ratio, the edge in");
        assertEquals(1, broken("errors<=0.001", "error_rate", "0.00101"));
    }

    @Test
    void thresholdsBreachOnlyPastTheirLimitOrOnItWithEquals() throws Exception {
        assertEquals(0, breached("p99_ms>200", "p99_ms", "199.9"));
        assertEquals(0, breached("p99_ms>200", "p99_ms", "200"), "> excludes the limit");
        assertEquals(1, breached("p99_ms>200", "p99_ms", "200.1"));
        assertEquals(0, breached("p99_ms>=200", "p99_ms", "199.9"));
        assertEquals(1, breached("p99_ms>=200", "p99_ms", "200"), ">= includes it");
        assertEquals(1, breached("rps<1000", "throughput_rps", "999.9"));
        assertEquals(0, breached("rps<1000", "throughput_rps", "1000"));
        assertEquals(1, breached("rps<=1000", "throughput_rps", "1000"));
        assertEquals(0, breached("rps<=1000", "throughput_rps", "1000.1"));
        assertEquals(0, breached("error_rate>0", "error_rate", "0"), "no error breaches nothing");
        assertEquals(1, breached("error_rate>0", "error_rate", "0.00001"), "any error does");
    }

    @Test
    void theOptionsTakeLimitsUpToTheirEdges() throws Exception {
        assertEquals(1.0, Slo.parse("errors<100%").terms().getFirst().limit(), 1e-12, "100% is the most errors can be");
        assertThrows(UsageError.class, () -> Slo.parse("errors<100.1%"));
        assertThrows(UsageError.class, () -> Slo.failOn("error_rate>1.001"));
        assertEquals(0.001, Slo.parse("p99<0.001ms").terms().getFirst().limit(), 1e-12, "any positive objective");
        assertThrows(UsageError.class, () -> Slo.parse("p99<0ms"), "an objective of 0 is never met");
        assertEquals(List.of(0.0), Slo.failOn("error_rate>0").terms().stream().map(Rule::limit).toList(), "a threshold of 0 is");
    }
}
