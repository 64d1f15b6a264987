package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RowsTest {
    private static Map<String, String> row(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return m;
    }

    @Test
    void numIsNaNForAbsentEmptyBlankAndMalformedCells() {
        Map<String, String> r = row("a", "", "b", "  ", "c", "12x", "d", " 2.5 ", "e", "-3");
        assertTrue(Double.isNaN(Rows.num(r, "missing")));
        assertTrue(Double.isNaN(Rows.num(r, "a")));
        assertTrue(Double.isNaN(Rows.num(r, "b")));
        assertTrue(Double.isNaN(Rows.num(r, "c")));
        assertEquals(2.5, Rows.num(r, "d"));
        assertEquals(-3, Rows.num(r, "e"));
        assertEquals("", Rows.text(r, "missing"));
    }

    @Test
    void paramFindsExactKeysOnly() {
        Map<String, String> r = row("params", "sleepMs=50;maxThreads=200;x=;=7;bad");
        assertEquals("50", Rows.param(r, "sleepMs"));
        assertEquals("200", Rows.param(r, "maxThreads"));
        assertEquals("", Rows.param(r, "x"));
        assertNull(Rows.param(r, "Threads"));
        assertNull(Rows.param(r, "bad"));
        assertNull(Rows.param(row(), "sleepMs"));
        assertNull(Rows.param(row("params", ""), "sleepMs"));
    }

    @Test
    void meanAndSpreadSkipEmptyAndMalformedCells() {
        List<Map<String, String>> rows = List.of(row("v", "10"), row("v", ""), row("v", "n/a"), row("v", "30"), row());
        assertEquals(20, Rows.mean(rows, "v"));
        assertEquals(100, Rows.spreadPct(rows, "v"));
        assertTrue(Double.isNaN(Rows.mean(List.of(), "v")));
        assertTrue(Double.isNaN(Rows.mean(List.of(row("v", "")), "v")));
        assertTrue(Double.isNaN(Rows.spreadPct(List.of(row("v", "5")), "v")), "one value has no spread");
        assertEquals(30, Rows.mean(rows, r -> "30".equals(r.get("v")), "v"));
    }

    @Test
    void statusAndFlags() {
        Map<String, String> ok = row("status", "ok", "flags", "app-cpu-bound;;x");
        Map<String, String> flagged = row("status", "flagged", "flags", "");
        assertTrue(Rows.ok(ok));
        assertFalse(Rows.ok(flagged));
        assertTrue(Rows.flagged(flagged));
        assertEquals(List.of("app-cpu-bound", "x"), Rows.flags(ok));
        assertEquals(List.of(), Rows.flags(flagged));
        assertEquals(List.of(ok), Rows.okOnly(List.of(ok, flagged, row())));
    }
}
