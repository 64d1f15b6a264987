package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.run.MatrixSchema;

class DatasetTest {
    @TempDir
    Path tmp;

    @Test
    void headerStartsWithTheSeedRigsColumnsInOrder() throws Exception {
        Path f = tmp.resolve("matrix.csv");
        try (Dataset d = new Dataset(f, MatrixSchema.full())) {
            // nothing appended
        }
        String header = Files.readAllLines(f).getFirst();
        assertTrue(header.startsWith("ts_iso,thread_mode,hikari_pool,path_mode,conn_mode,concurrency,rep,throughput_rps,"
                + "p50_ms,p95_ms,p99_ms,p999_ms,max_ms,error_rate,http_reqs,app_cpu_pct,pg_cpu_pct,load_cpu_pct,"
                + "hikari_active_max,hikari_pending_max,jvm_threads_max,rss_mb_max,pinned_events,experiment,"), header);
        List<String> names = List.of(header.split(","));
        for (String c : List.of("stack", "workload", "jdk", "generator", "load_model", "bound_rps", "bound_ratio",
                "littles_law_ok", "generator_bound", "nmt_thread_reserved_kb", "nmt_thread_committed_kb", "status", "note")) {
            assertTrue(names.contains(c), c);
        }
    }

    @Test
    void eachRowIsOnDiskAsSoonAsItIsAppended() throws Exception {
        Path f = tmp.resolve("matrix.csv");
        try (Dataset d = new Dataset(f, MatrixSchema.full())) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("thread_mode", "virtual");
            row.put("throughput_rps", 7846.123456);
            row.put("concurrency", 400);
            row.put("note", "SUT said \"no\", then, a newline\nhere");
            d.append(row);
            // read back while the writer is still open: an interrupted run keeps this row
            List<Map<String, String>> rows = Dataset.read(f);
            assertEquals(1, rows.size());
            assertEquals("virtual", rows.getFirst().get("thread_mode"));
            assertEquals("7846.123", rows.getFirst().get("throughput_rps"));
            assertEquals("400", rows.getFirst().get("concurrency"));
            assertEquals("SUT said \"no\", then, a newline\nhere", rows.getFirst().get("note"));
            assertEquals("", rows.getFirst().get("hikari_pool"));
        }
    }

    @Test
    void appendingToAnExistingFileKeepsOneHeader() throws Exception {
        Path f = tmp.resolve("matrix.csv");
        try (Dataset d = new Dataset(f, MatrixSchema.full())) {
            d.append(Map.of("rep", 1));
        }
        try (Dataset d = new Dataset(f, MatrixSchema.full())) {
            d.append(Map.of("rep", 2));
        }
        List<Map<String, String>> rows = Dataset.read(f);
        assertEquals(List.of("1", "2"), rows.stream().map(r -> r.get("rep")).toList());
    }

    @Test
    void aColumnTheSchemaDoesNotDeclareIsRefusedNotDropped() throws Exception {
        Column stray = Column.integer("stray", "", "declared by nobody");
        try (Dataset d = new Dataset(tmp.resolve("matrix.csv"), MatrixSchema.full())) {
            assertThrows(IllegalArgumentException.class, () -> d.append(new RowValues().put(stray, 1L)));
            assertThrows(IllegalArgumentException.class, () -> d.append(Map.of("stray", 1)));
        }
    }

    @Test
    void aValueOfTheWrongKindIsRefused() {
        Column c = Column.integer("n", "", "a count");
        assertThrows(IllegalArgumentException.class, () -> new RowValues().put(c, "many"));
        assertThrows(IllegalArgumentException.class, () -> new RowValues().put(Column.text("t", ""), 1));
        assertEquals(3L, new RowValues().put(c, 3L).get("n"));
    }

    @Test
    void twoDifferentDeclarationsOfOneNameAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Schema.of(List.of(Column.text("a", "one"), Column.text("a", "two"))));
    }

    @Test
    void formatsNumbersPlainly() {
        assertEquals("231", Dataset.format(231.0));
        assertEquals("0.125", Dataset.format(0.125));
        assertEquals("", Dataset.format(Double.NaN));
        assertEquals("", Dataset.format(null));
        assertEquals("true", Dataset.format(true));
    }
}
