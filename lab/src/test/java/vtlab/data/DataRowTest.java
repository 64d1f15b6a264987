package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A row read back through its columns' declarations, numbered as its file has it. */
class DataRowTest {
    @TempDir
    Path dir;

    @Test
    void aRowReadBackIsReadThroughItsDeclarationsAndKnowsItsNumber() throws Exception {
        Path f = dir.resolve("matrix.csv");
        try (Dataset d = new Dataset(f, Schema.of(List.of(Columns.EXPERIMENT, Columns.THREAD_MODE, Columns.RPS, Columns.STATUS, Columns.FLAGS,
                Columns.PARAMS)))) {
            d.append(Map.of("experiment", "servlet", "thread_mode", "platform", "throughput_rps", 3968.5, "status", "ok", "params", "maxThreads=200"));
            d.append(Map.of("experiment", "servlet", "thread_mode", "virtual", "status", "flagged", "flags", "littles-law;app-cpu-bound"));
        }
        List<DataRow> rows = Dataset.rows(f);
        assertEquals(List.of(1, 2), rows.stream().map(DataRow::number).toList());
        DataRow p = rows.getFirst(), v = rows.get(1);
        assertEquals(3968.5, p.num(Columns.RPS), 1e-9);
        assertEquals("platform", p.mode());
        assertTrue(p.ok() && !p.failed() && !p.flagged());
        assertEquals("200", p.param("maxThreads"));
        assertNull(p.param("sleepMs"));
        assertTrue(Double.isNaN(v.num(Columns.RPS)), "an empty cell is NaN");
        assertEquals("", v.text(Columns.RPS));
        assertFalse(v.has(Columns.RPS));
        assertEquals(List.of("littles-law", "app-cpu-bound"), v.flags());
        assertEquals("?", v.text(Columns.JDK, "?"), "a column the file does not have");
        assertEquals(List.of(2), Finding.of("x (row 2, 97% app CPU)", List.of(v)).rows(), "a finding carries its rows as numbers");
    }
}
