package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** A cell read back means the same everywhere: an empty or malformed one is NaN, an absent one "". */
class RowsTest {
    private static DataRow row(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return DataRow.of(m);
    }

    static final Column V = Column.number("v", "", "a number");

    @Test
    void numIsNaNForAbsentEmptyBlankAndMalformedCells() {
        DataRow r = row("a", "", "b", "  ", "c", "12x", "d", " 2.5 ", "e", "-3");
        assertTrue(Double.isNaN(r.num("missing")));
        assertTrue(Double.isNaN(r.num("a")));
        assertTrue(Double.isNaN(r.num("b")));
        assertTrue(Double.isNaN(r.num("c")));
        assertEquals(2.5, r.num("d"));
        assertEquals(-3, r.num("e"));
        assertEquals("", r.cell("missing"));
        assertEquals("", r.text(Columns.NOTE));
    }

    @Test
    void paramFindsExactKeysOnly() {
        DataRow r = row("params", "sleepMs=50;maxThreads=200;x=;=7;bad");
        assertEquals("50", r.param("sleepMs"));
        assertEquals("200", r.param(Rows.MAX_THREADS));
        assertEquals("", r.param("x"));
        assertNull(r.param("Threads"));
        assertNull(r.param("bad"));
        assertNull(row().param("sleepMs"));
        assertNull(row("params", "").param("sleepMs"));
    }

    @Test
    void meanSkipsEmptyAndMalformedCells() {
        List<DataRow> rows = List.of(row("v", "10"), row("v", ""), row("v", "n/a"), row("v", "30"), row());
        assertEquals(20, Rows.mean(rows, V));
        assertEquals(30, Rows.max(rows, V));
        assertTrue(Double.isNaN(Rows.mean(List.of(), V)));
        assertTrue(Double.isNaN(Rows.mean(List.of(row("v", "")), V)));
        assertEquals(30, Rows.mean(rows, r -> "30".equals(r.cell("v")), V));
    }

    @Test
    void statusAndFlags() {
        DataRow ok = row("status", "ok", "flags", "app-cpu-bound;;x");
        DataRow flagged = row("status", "flagged", "flags", "");
        assertTrue(ok.ok());
        assertFalse(flagged.ok());
        assertTrue(flagged.flagged());
        assertEquals(List.of("app-cpu-bound", "x"), ok.flags());
        assertEquals(List.of(), flagged.flags());
        assertEquals(List.of(ok), Rows.valid(List.of(ok, flagged, row())));
    }
}
