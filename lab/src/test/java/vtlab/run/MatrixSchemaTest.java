package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.check.Validity;
import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.Dataset;
import vtlab.data.RowValues;
import vtlab.load.generator.Generators;
import vtlab.load.LoadResult;
import vtlab.probe.Measurements;
import vtlab.probe.NmtProbe;
import vtlab.probe.Probes;

class MatrixSchemaTest {
    @TempDir
    Path tmp;

    @Test
    void everySeedColumnIsDeclaredBySomeComponentAndComesFirstInOrder() {
        List<Column> declared = new ArrayList<>(RowColumns.ALL);
        Generators.all().values().forEach(g -> declared.addAll(g.get().columns()));
        declared.addAll(Validity.COLUMNS);
        Probes.all().values().forEach(p -> declared.addAll(p.get().columns()));
        for (String seed : Columns.SEED) assertTrue(declared.stream().anyMatch(c -> c.name().equals(seed)), seed);
        assertEquals(Columns.SEED, MatrixSchema.full().names().subList(0, Columns.SEED.size()));
    }

    /**
     * Every column the readers read through its declaration (data.Columns) is the very column a component writes:
     * the same name, kind, unit and meaning in the schema of matrix.csv, so a typed read cannot miss its column.
     */
    @Test
    void everyDeclarationTheReadersUseIsTheOneWritten() throws Exception {
        vtlab.data.Schema schema = MatrixSchema.full();
        int n = 0;
        for (java.lang.reflect.Field f : Columns.class.getFields()) {
            if (f.getType() != vtlab.data.Column.class) continue;
            vtlab.data.Column c = (vtlab.data.Column) f.get(null);
            assertTrue(schema.declares(c.name()), f.getName() + " (" + c.name() + ") is written by no component");
            assertEquals(c, schema.column(c.name()), f.getName());
            n++;
        }
        assertTrue(n > 80, "the scan sees the declarations: " + n);
    }

    @Test
    void columnsTheReadersUseAreStillThere() {
        List<String> names = MatrixSchema.full().names();
        for (String c : List.of("experiment", "stack", "workload", "jdk", "generator", "load_model", "bound_rps", "bound_ratio",
                "littles_law_ok", "generator_bound", "nmt_thread_reserved_kb", "nmt_thread_committed_kb", "status", "note",
                "mean_ms", "p90_ms", "duration_s", "errors_connect", "errors_read", "errors_write", "errors_timeout",
                "errors_status", "stub_cpu_pct", "app_cpus", "load_cpus", "bound_note", "littles_law_ratio", "flags", "params",
                "scenario", "raw", "nmt_thread_reserved_kb_idle", "nmt_thread_committed_kb_idle", "jvm_threads_idle",
                "pinned_total_ms", "pinned_max_ms", "pinned_reasons", "vthreads_dump", "sut_jvm", "sut_log", "drain_ms",
                "carriers", "warmup_s", "warmup_steady", "warmup_trend", "warmup_rps", "app_cpu_by_thread", "warmup_jit_pct")) {
            assertTrue(names.contains(c), c);
        }
    }

    @Test
    void nmtThreadsReachesMatrixCsv() throws Exception {
        Measurements m = new Measurements();
        for (Column c : new NmtProbe().columns()) m.put(c, 7L);
        Path f = tmp.resolve("matrix.csv");
        try (Dataset d = new Dataset(f, MatrixSchema.full())) {
            d.append(new RowValues().put(RowColumns.EXPERIMENT, "footprint").putAll(m.columns()));
        }
        Map<String, String> row = Dataset.read(f).getFirst();
        assertEquals("7", row.get("nmt_threads"));
        assertEquals("7", row.get("nmt_thread_reserved_kb_idle"));
    }

    @Test
    void aGeneratorResultFillsItsDeclaredColumns() throws Exception {
        LoadResult r = LoadResult.builder().requests(1000, 10).latencyMs(2.5, 2, 3, 4, 5, 6, 7).errors(1, 2, 3, 4, 5).bytes(999)
                .raw(tmp.resolve("x.wrk.txt")).build();
        RowValues v = r.values();
        assertEquals(LoadResult.COLUMNS, List.copyOf(v.asMap().keySet()));
        assertEquals(100.0, v.get("throughput_rps"));
        assertEquals("x.wrk.txt", v.get("raw"));
    }
}
