package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class GroupingTest {
    private static DataRow row(String mode, int concurrency, String params) {
        return DataRow.of(cells(mode, concurrency, params));
    }

    private static Map<String, String> cells(String mode, int concurrency, String params) {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("experiment", "servlet-io");
        r.put("stack", "servlet");
        r.put("thread_mode", mode);
        r.put("workload", "sleep");
        r.put("concurrency", String.valueOf(concurrency));
        r.put("hikari_pool", "");
        r.put("path_mode", "");
        r.put("conn_mode", "");
        r.put("jdk", "25");
        r.put("rep", "1");
        r.put("params", params);
        return r;
    }

    /** A declared variant (tuning=as-shipped) is a variant of the scenario, not another scenario. */
    @Test
    void anAsShippedVariantComparesWithTheTunedOne() {
        DataRow tuned = row("virtual", 1000, "sleepMs=50"), shipped = row("virtual", 1000, "sleepMs=50;tuning=as-shipped");
        assertEquals(Grouping.comparison(tuned), Grouping.comparison(shipped));
        assertEquals(Grouping.scenario(tuned, true), Grouping.scenario(shipped, true));
        assertEquals("virtual-as-shipped", Grouping.variant(shipped));
        assertEquals("virtual", Grouping.tunedOf(Grouping.variant(shipped)));
        assertEquals(null, Grouping.tunedOf(Grouping.variant(tuned)));
    }

    @Test
    void platform200AndVirtualOfOneScenarioCompare() {
        Map<String, String> vCells = cells("virtual", 1000, "sleepMs=50");
        vCells.put("rep", "2");
        DataRow p = row("platform", 1000, "sleepMs=50;maxThreads=200"), v = DataRow.of(vCells);
        assertEquals(Grouping.comparison(p), Grouping.comparison(v));
        assertEquals(Grouping.scenario(p, true), Grouping.scenario(v, true));
        assertEquals(Grouping.panel(p, Columns.CONCURRENCY, false), Grouping.panel(v, Columns.CONCURRENCY, false));
        assertEquals("platform-200", Grouping.variant(p));
        assertEquals("virtual", Grouping.variant(v));
        assertEquals("servlet platform-200", Grouping.variant(p, true));
        assertEquals("sleep c=1000 jdk25 sleepMs=50", Grouping.comparisonLabel(Grouping.comparison(p)));
        assertEquals("servlet-io sleep c=1000 sleepMs=50", Grouping.scenario(p, false));
        assertEquals("sleep · sleepMs=50 · JDK 25 · servlet", Grouping.panel(p, Columns.CONCURRENCY, false));
    }

    /** Open rows at different rates, and open vs closed rows at the same cap, are different scenarios. */
    @Test
    void openRowsCompareOnlyAtTheSameRate() {
        DataRow closed = row("virtual", 10000, "sleepMs=50"), a = open(cells("virtual", 10000, "sleepMs=50"), "2000"),
                b = open(cells("virtual", 10000, "sleepMs=50"), "4000"), p = open(cells("platform", 10000, "sleepMs=50;maxThreads=200"), "2000");
        assertNotEquals(Grouping.comparison(a), Grouping.comparison(b));
        assertNotEquals(Grouping.scenario(a, true), Grouping.scenario(b, true));
        assertNotEquals(Grouping.comparison(a), Grouping.comparison(closed));
        assertNotEquals(Grouping.scenario(a, true), Grouping.scenario(closed, true));
        assertEquals(Grouping.comparison(a), Grouping.comparison(p), "platform vs virtual at one rate compare");
        assertEquals("sleep open rate=2000 cap=10000 jdk25 sleepMs=50", Grouping.comparisonLabel(Grouping.comparison(a)));
        assertEquals("servlet-io sleep c=10000 sleepMs=50 open rate=2000", Grouping.scenario(a, false));
        // along the offered rate (latency vs rate) the rates share a panel; along anything else they do not
        assertEquals(Grouping.panel(a, Columns.TARGET_RPS, false), Grouping.panel(b, Columns.TARGET_RPS, false));
        assertEquals("sleep · 10,000 in flight at most · sleepMs=50 · JDK 25 · servlet", Grouping.panel(a, Columns.TARGET_RPS, false));
        assertNotEquals(Grouping.panel(a, Columns.CONCURRENCY, false), Grouping.panel(b, Columns.CONCURRENCY, false));
    }

    private static DataRow open(Map<String, String> r, String rate) {
        r.put("load_model", "open");
        r.put("target_rps", rate);
        return DataRow.of(r);
    }

    @Test
    void differentConcurrencyOrKnobsDoNotCompare() {
        DataRow a = row("virtual", 1000, "sleepMs=50"), b = row("virtual", 2000, "sleepMs=50"), c = row("virtual", 1000, "sleepMs=10");
        assertNotEquals(Grouping.comparison(a), Grouping.comparison(b));
        assertNotEquals(Grouping.scenario(a, false), Grouping.scenario(b, false));
        assertNotEquals(Grouping.comparison(a), Grouping.comparison(c));
        // a concurrency sweep is one panel: the x axis is not part of it
        assertEquals(Grouping.panel(a, Columns.CONCURRENCY, false), Grouping.panel(b, Columns.CONCURRENCY, false));
    }

    @Test
    void platformPoolSizesAreDifferentVariants() {
        assertNotEquals(Grouping.variant(row("platform", 1, "maxThreads=200")), Grouping.variant(row("platform", 1, "maxThreads=2000")));
        assertEquals("platform", Grouping.variant(row("platform", 1, "")));
    }
}
