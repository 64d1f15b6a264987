package vtlab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The one language of a metric against a limit, as each place that writes one takes it. */
class RuleTest {
    static final Rule.Grammar SCENARIO = Rule.Grammar.scenario(Map.of("p99_ms", "ms", "error_rate", "ratio", "throughput_rps", "req/s",
            "app_cpu_pct", "% core"));

    /** The same rule means the same wherever it is written: the column, the operator and the limit in the column's unit. */
    @Test
    void oneRuleReadsTheSameInEveryPlaceThatTakesIt() {
        for (Rule.Grammar g : List.of(Rule.Grammar.FAIL_ON, SCENARIO)) {
            Rule r = Rule.parse("p99_ms > 0.2s", g);
            assertEquals(List.of("p99_ms", Rule.Op.GT), List.of(r.column(), r.op()), g.where());
            assertEquals(200, r.limit(), 1e-9, g.where());
            Rule e = Rule.parse("error_rate <= 0.5%", g);
            assertEquals(0.005, e.limit(), 1e-12, g.where());
            assertTrue(e.holds(0.005) && !e.holds(0.0051), g.where());
        }
        assertEquals(200, Rule.parse("p99<200ms", Rule.Grammar.SLO).limit(), 1e-9);
        assertEquals("p99 < 200 ms", Rule.parse("p99<200ms", Rule.Grammar.SLO).words());
    }

    @Test
    void aScenarioTermNamesAModeARequestOrAMultipleOfAnotherTerm() {
        Rule r = Rule.parse("throughput_rps[virtual] >= 1.2 * throughput_rps[platform]", SCENARIO);
        assertEquals("virtual", r.mode());
        assertEquals(1.2, r.factor(), 1e-12);
        assertEquals("platform", r.ref().mode());
        assertTrue(Double.isNaN(r.limit()));
        Rule q = Rule.parse("p99_ms[virtual, checkout] <= 150", SCENARIO);
        assertEquals("checkout", q.request());
        assertNull(q.ref());
    }

    /** Each refusal is one line that starts with where the rule was written. */
    @Test
    void everyRefusalIsOneLineStartingWithWhereItWasWritten() {
        Map<Rule.Grammar, List<String>> bad = Map.of(
                Rule.Grammar.SLO, List.of("p99>3ms", "p99<10", "errors<5ms", "errors<200%", "p99<0ms", "rps<1000", "p99[virtual]<1ms"),
                Rule.Grammar.FAIL_ON, List.of("p99_ms=200", "error_rate>2", "rps>5ms", "p99_ms>200 * p50_ms"),
                SCENARIO, List.of("p99 < 1", "p99_ms < 5%", "app_cpu_pct < 5ms", "throughput_rps >= 1.2 * throughput_rps", "p99_ms is low"));
        bad.forEach((g, terms) -> {
            for (String t : terms) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Rule.parse(t, g), t);
                assertTrue(e.getMessage().startsWith(g.where()) && !e.getMessage().contains("\n"), e.getMessage());
            }
        });
        assertEquals("--fail-on 'error_rate>2': errors above 100% never bind", assertThrows(IllegalArgumentException.class,
                () -> Rule.parse("error_rate>2", Rule.Grammar.FAIL_ON)).getMessage());
        assertEquals("--slo term 'p99>3ms' does not parse: write " + Rule.Grammar.SLO.form(), assertThrows(IllegalArgumentException.class,
                () -> Rule.parse("p99>3ms", Rule.Grammar.SLO)).getMessage());
    }

    /** compare's --max-regression: the limit of a rule alone, a percentage from 0 to below 100. */
    @Test
    void aBudgetIsALimitAlone() {
        assertEquals(5, Rule.budget("--max-regression", "5%", 100), 1e-12);
        assertEquals(15, Rule.budget("--max-regression", "15", 100), 1e-12);
        for (String bad : List.of("x", "-5%", "100%", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Rule.budget("--max-regression", bad, 100), bad);
            assertEquals("--max-regression takes a percentage from 0 to 100, e.g. 5%, not '" + bad + "'", e.getMessage());
        }
    }
}
