package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.cli.Main;
import vtlab.data.Dataset;

/**
 * The thread studies through the lab's own path: JMH's runner on the packaged bench/jmh jar, parked-thread JVMs read
 * with jcmd, and the footprint rows' idle readings. Asserts valid rows and physical facts, not benchmark scores.
 */
class ThreadStudiesIT {
    @TempDir
    Path out;

    @Test
    void threadCostAndThreadMemoryWriteTheirDatasetsAndFindings() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int code = Main.run(List.of("run", "thread-cost", "thread-memory", "--quick", "--jmh-time", "300ms", "--threads", "200,1000",
                "--out", out.toString()), new PrintStream(buf, true));
        String console = buf.toString();
        assertEquals(0, code, console);
        Path run = Lab.onlyRun(out);

        List<Map<String, String>> jmh = Dataset.read(run.resolve("jmh.csv"));
        assertEquals(3, jmh.size(), console);
        assertEquals(Set.of("main", "platform", "virtual"), jmh.stream().map(r -> r.get("thread_mode")).collect(Collectors.toSet()));
        for (Map<String, String> r : jmh) {
            assertTrue(r.get("benchmark").startsWith("vtlab.bench.ThreadCostBenchmark.compute"), r.toString());
            assertEquals("thread-cost", r.get("study"));
            assertEquals("us/op", r.get("unit"));
            assertEquals("3", r.get("samples"), "3 measured iterations: " + r);
            assertTrue(Lab.num(r, "score") > 0, r.toString());
            assertTrue(Lab.num(r, "error") >= 0, "3 iterations give an error: " + r);
            assertTrue(Files.exists(run.resolve("raw").resolve(r.get("raw"))), r.get("raw"));
        }
        assertTrue(Files.readString(run.resolve("raw/jmh-thread-cost-jdk" + jmh.getFirst().get("jdk") + ".log")).contains("taskset"));

        List<Map<String, String>> mem = Dataset.read(run.resolve("thread-memory.csv"));
        assertEquals(4, mem.size(), console);
        for (Map<String, String> r : mem) {
            int n = (int) Lab.whole(r, "threads");
            assertTrue(Set.of(200, 1000).contains(n), r.toString());
            assertTrue(Lab.num(r, "nmt_thread_reserved_kb") >= Lab.num(r, "nmt_thread_committed_kb"), r.toString());
            assertTrue(Lab.num(r, "nmt_thread_committed_kb") > 0 && Lab.num(r, "rss_mb") > 0 && Lab.num(r, "heap_used_mb") > 0, r.toString());
            assertEquals(Lab.num(r, "nmt_thread_reserved_kb") / n, Lab.num(r, "reserved_kb_per_thread"), 0.001);
            if (r.get("mode").equals("platform")) {
                // every platform thread is an OS thread with its own stack reservation
                assertTrue(Lab.num(r, "os_threads") >= n && Lab.num(r, "nmt_threads") >= n, r.toString());
                assertTrue(Lab.num(r, "nmt_thread_reserved_kb") >= n * Lab.num(r, "thread_stack_size_kb") * 0.9, r.toString());
            } else {
                assertTrue(Lab.num(r, "os_threads") < 200, "virtual threads are not OS threads: " + r);
            }
        }
        String summary = Files.readString(run.resolve("summary.txt"));
        assertTrue(summary.contains("Findings, thread-cost:") && summary.contains("a virtual thread starts (and joins)"), summary);
        assertTrue(summary.contains("Findings, thread-memory:") && summary.contains("at 1,000 platform threads NMT Thread reserved"), summary);
        assertTrue(Files.readString(run.resolve("environment.json")).contains("\"status\" : \"complete\""));
    }

    @Test
    void footprintRowsCarryIdleAndAfterLoadReadings() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int code = Main.run(List.of("run", "footprint", "--warmup", "0s", "--hold", "3s", "--conc", "200", "--probes", "threads,nmt",
                "--port", Integer.toString(Lab.freePort()), "--out", out.toString()), new PrintStream(buf, true));
        String console = buf.toString();
        assertEquals(0, code, console);
        List<Map<String, String>> rows = Lab.rows(Lab.onlyRun(out));
        assertEquals(2, rows.size(), console);
        Map<String, Map<String, String>> byMode = rows.stream().collect(Collectors.toMap(r -> r.get("thread_mode"), r -> r));
        for (Map<String, String> r : rows) {
            assertEquals("footprint", r.get("experiment"));
            assertEquals("fresh", r.get("sut_jvm"), "idle readings come from a JVM of the row's own");
            assertTrue(Lab.num(r, "jvm_threads_idle") > 0 && Lab.num(r, "nmt_thread_reserved_kb_idle") > 0
                    && Lab.num(r, "nmt_thread_committed_kb_idle") > 0, r.toString());
        }
        Map<String, String> p = byMode.get("platform"), v = byMode.get("virtual");
        // 200 connections against 25 spare threads: the pool grows under load; virtual threads need no pool
        assertTrue(Lab.num(p, "jvm_threads_max") > Lab.num(p, "jvm_threads_idle"), p.toString());
        assertTrue(Lab.num(p, "nmt_thread_reserved_kb") > Lab.num(p, "nmt_thread_reserved_kb_idle"), p.toString());
        assertTrue(Lab.num(v, "jvm_threads_max") < Lab.num(p, "jvm_threads_max"), v + " vs " + p);
        assertTrue(Files.readString(Lab.onlyRun(out).resolve("summary.txt")).contains("Findings, footprint:"), console);
    }
}
