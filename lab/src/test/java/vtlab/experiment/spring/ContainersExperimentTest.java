package vtlab.experiment.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.proc.ContainerLimits;
import vtlab.tier.tool.Jdk;

class ContainersExperimentTest {
    @Test
    void everyRowIsContainedAndTheJvmSizesItself() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("--quick"));
        List<Row> rows = new ContainersExperiment().plan(o, new PlanContext(List.of(Jdk.current()), List.of("-Xms512m", "-Xmx512m"), 2,
                java.time.Duration.ZERO));
        assertEquals(3 * 2, rows.size(), "modes x (0.5 CPU x 256m, 1g) under --quick");
        for (Row r : rows) {
            assertEquals(0.5, r.limits().cpus(), 1e-9);
            assertTrue(r.jvmArgs().stream().noneMatch(a -> a.startsWith("-Xm") || a.contains("parallelism")), r.jvmArgs().toString());
            assertTrue(r.open(), "a constant open-model rate");
        }
        assertEquals(new ContainerLimits(0.5, 256L << 20), rows.getFirst().limits());
    }

    @Test
    void findingsSayWhatTheJvmSawWhatThrottledAndWhatWasKilled() {
        Map<String, String> healthy = Map.of("status", "ok", "thread_mode", "virtual", "params", "cpu_quota=0.5;memory_limit=1g;fault=none",
                "jvm_available_processors", "1", "jvm_vt_parallelism", "1", "jvm_gc", "Serial", "jvm_gc_threads", "1", "jvm_max_heap_mb", "256",
                "p99_ms", "180.4", "cg_throttled_pct", "12.5");
        Map<String, String> killed = Map.of("status", "failed", "thread_mode", "virtual", "params", "cpu_quota=0.5;memory_limit=256m;fault=db:lock@4s-6s",
                "note", "killed by the memory limit at 256 MB (limit 256m; last seen: 640 requests in flight, heap 116 MB used)");
        List<vtlab.data.Finding> found = ContainersExperiment.findingsOf(vtlab.data.DataRow.numbered(List.of(healthy, killed)));
        List<String> f = vtlab.data.Finding.texts(found);
        assertEquals(List.of(2), found.stream().filter(x -> x.text().startsWith("killed: ")).findFirst().orElseThrow().rows(), "the killed row, as data");
        assertTrue(f.contains("cpu 0.5, memory 1g: the JVM saw 1 CPU(s), ran 1 carrier(s), chose Serial GC with 1 thread(s) and a 256 MB max heap"), f.toString());
        assertTrue(f.stream().anyMatch(l -> l.startsWith("healthy, cpu 0.5, memory 1g, virtual: p99 180 ms, 12.5% of CFS periods throttled")), f.toString());
        assertTrue(f.contains("killed: cpu 0.5, memory 256m, virtual, fault db:lock@4s-6s: " + killed.get("note")), f.toString());
    }
}
