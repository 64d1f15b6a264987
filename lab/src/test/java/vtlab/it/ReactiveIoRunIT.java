package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.check.Validity;
import vtlab.cli.Main;

/**
 * The reactive, servlet-io and response-size experiments end to end on tiny matrices: real Tomcat, Spring MVC,
 * WebFlux on Reactor Netty, the stub and PostgreSQL tiers, real wrk. Short loads on cold JVMs: the assertions are the
 * ones no machine can miss (ceilings, ordering by an order of magnitude, what each row must carry), not tuned numbers.
 */
class ReactiveIoRunIT {
    @TempDir
    Path out;

    private record Run(String console, Path dir, List<Map<String, String>> rows) {}

    private int runs;

    private Run run(String... args) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(List.of(args));
        // the probes the assertions read (the pinning recorder and the pool sampler only cost time here)
        all.addAll(List.of("--probes", "cpu,threads,nmt", "--port", Integer.toString(Lab.freePort()), "--out", out.resolve(args[0] + "-" + ++runs).toString()));
        int code = Main.run(all, new PrintStream(buf, true));
        String console = buf.toString();
        assertEquals(0, code, console);
        Path dir = Lab.onlyRun(out.resolve(args[0] + "-" + runs));
        List<Map<String, String>> rows = Lab.rows(dir);
        for (Map<String, String> r : rows) {
            assertTrue(List.of("ok", "flagged").contains(r.get("status")), "row failed: " + r.get("scenario") + ": " + r.get("note") + "\n" + console);
            assertTrue(Lab.num(r, "throughput_rps") > 0 && Lab.num(r, "http_reqs") > 0, r.toString());
            assertEquals("0", r.get("error_rate"), r.toString());
            assertTrue(Lab.num(r, "jvm_threads_max") > 5 && Lab.num(r, "nmt_thread_reserved_kb") > 0, r.toString());
        }
        assertTrue(Files.readString(dir.resolve("summary.txt")).contains("Findings, " + args[0]), console);
        return new Run(console, dir, rows);
    }

    private static Map<String, String> row(Run run, String threadMode, String workload, String param) {
        return run.rows().stream().filter(r -> r.get("thread_mode").equals(threadMode) && r.get("workload").equals(workload)
                && hasParam(r, param)).findFirst().orElseThrow(() -> new AssertionError(threadMode + " " + workload + " " + param));
    }

    private static boolean hasParam(Map<String, String> r, String kv) {
        return List.of(r.get("params").split(";")).contains(kv);
    }

    /**
     * The SUT as it reported itself before load: every servlet-stack row runs Tomcat with the stack's documented
     * defaults (processor cache -1, 8,192 connections) and the run's carrier count, whichever experiment planned it.
     */
    private static void assertTomcatDefaults(Run run) throws Exception {
        for (Map<String, String> r : run.rows()) {
            var info = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                    run.dir().resolve("raw").resolve(r.get("raw").replace(".wrk.txt", ".runtime-info.json")).toFile());
            assertEquals(-1, info.get("processor_cache").asInt(), r.get("scenario") + ": " + info);
            assertEquals(8192, info.get("max_connections").asInt(), r.get("scenario") + ": " + info);
            assertEquals(r.get("carriers"), info.get("vt_carriers").asText(), r.get("scenario") + ": " + info);
        }
    }

    private static Map<String, String> at(Run run, String mode, String c, String kv) {
        return run.rows().stream().filter(r -> r.get("thread_mode").equals(mode) && r.get("concurrency").equals(c) && hasParam(r, kv))
                .findFirst().orElseThrow(() -> new AssertionError(mode + " c=" + c + " " + kv));
    }

    @Test
    void reactiveSetsTheBlockingPoolAgainstWebfluxAndVirtualThreadsOnNetty() throws Exception {
        // A 20-thread MVC pool at 40 connections and 100 ms: 200 req/s at most; the Netty variants are capped at 400.
        // the claim rests on every row: a run the machine's noise flagged is run once more, then asserted strictly. At
        // 200 connections the 20-thread pool starved some of them for seconds (1 s a request): a 4 s hold cut off their
        // answers and read Little's law at 0.85 (flagged), and it took 12 s holds; at 40 a request waits 0.2 s in the
        // pool's queue, which a 6 s hold cuts off only at its end.
        Run run = Lab.validOrRetriedOnce(() -> run("reactive", "--variants", "platform-20,reactive,virtual-netty", "--conc", "40", "--sleep-ms", "100",
                "--warmup", "4s", "--warmup-max", "0s", "--hold", "6s"), r -> Lab.allOk(r.rows()));
        assertEquals(3, run.rows().size(), run.console());
        Map<String, String> pool = row(run, "platform", "sleep", "maxThreads=20");
        assertEquals("spring-mvc", pool.get("stack"));
        assertEquals(200.0, Lab.num(pool, "bound_rps"), 1e-9);
        assertTrue(Lab.num(pool, "throughput_rps") <= 200 * 1.05, "never above its pool's ceiling: " + pool);
        assertEquals("ok", pool.get("status"), pool.toString());
        assertTrue(Lab.num(pool, "bound_ratio") >= Validity.BOUND_LOW || pool.get("flags").contains("app-cpu-bound"), pool.toString());
        assertTrue(Lab.num(pool, "p50_ms") >= 100, pool.toString());
        for (String mode : List.of("reactive", "virtual-netty")) {
            Map<String, String> wf = row(run, mode, "sleep", "sleepMs=100");
            assertEquals("webflux", wf.get("stack"));
            assertEquals(400.0, Lab.num(wf, "bound_rps"), 1e-9);
            assertEquals("ok", wf.get("status"), wf.toString());
            assertTrue(Lab.num(wf, "throughput_rps") > Lab.num(pool, "bound_rps"), mode + " beats the pool's ceiling: " + wf);
            assertTrue(Lab.num(wf, "p50_ms") >= 100, wf.toString());
            String info = Files.readString(run.dir().resolve("raw").resolve(wf.get("raw").replace(".wrk.txt", ".runtime-info.json")));
            assertTrue(info.contains("\"thread_mode\":\"" + mode + "\""), info);
        }
        // the event loops and the JVM's own threads, not one thread per connection
        assertTrue(Lab.num(row(run, "reactive", "sleep", "sleepMs=100"), "jvm_threads_max") < 60, run.console());
        String summary = Files.readString(run.dir().resolve("summary.txt"));
        for (String variant : List.of("platform-20", "reactive", "virtual-netty")) assertTrue(summary.contains(variant), summary);
        assertTrue(summary.contains("platform-20 holds at its pool's ceiling") && summary.contains("at or below it, as it must")
                && !summary.contains("ABOVE it"), summary);
    }

    @Test
    void servletIoCountsBodiesAndCallsTheStub() throws Exception {
        // 2 s holds: 80 calls of 100 ms at 4 connections, thousands of counted bodies; each row asserts a ceiling, a floor
        // and what the SUT reported, none a steady-state figure
        Run run = run("servlet-io", "--body-sizes", "64k", "--conc", "4", "--delay-ms", "100", "--warmup", "1s", "--warmup-max", "0s", "--hold", "2s");
        assertEquals(8, run.rows().size(), run.console());
        for (String mode : List.of("platform", "virtual")) {
            for (String w : List.of("count", "count-async")) {
                Map<String, String> r = row(run, mode, w, "bodyBytes=65536");
                assertEquals("", r.get("bound_rps"), "no closed-form bound for a CPU/IO-bound count");
                // verified before load: the endpoint answered "Total bytes read = [65536]" for a 64 KB body
                assertTrue(Lab.num(r, "throughput_rps") > 20, r.toString());
            }
            for (String w : List.of("call", "call-async")) {
                Map<String, String> r = row(run, mode, w, "delayMs=100");
                assertEquals(40.0, Lab.num(r, "bound_rps"), 1e-9); // 4 connections / 100 ms
                assertTrue(Lab.num(r, "p50_ms") >= 100, "the stub's wait is in every call: " + r);
                assertTrue(Lab.num(r, "throughput_rps") <= 40 * 1.05, r.toString());
                String info = Files.readString(run.dir().resolve("raw").resolve(r.get("raw").replace(".wrk.txt", ".runtime-info.json")));
                assertTrue(info.contains("\"downstream\":\"stub http://127.0.0.1:"), info);
            }
        }
        assertTomcatDefaults(run);
        assertTrue(run.console().contains("Downstream call, blocking HttpClient.send on virtual threads vs async servlet")
                || run.console().contains("not used as evidence"), run.console());
    }

    @Test
    void responseSizeSweepsSizesAndConcurrency() throws Exception {
        // each mode's first row (10 B) is its JVM's first: with --warmup 1s it measured a Tomcat still compiling against
        // a 256 KB row on the JIT the first row had warmed, an order a slow machine could turn around. --quick keeps the
        // lab's own warm-ups for this sweep: 6 s for a cold JVM's first row, 3 s for the rows after it (warming every
        // row until steady, up to 16 s, took 93 s here against 42 s so: the JIT's catch-up pauses after each slice)
        Run run = run("response-size", "--quick", "--sizes", "10,256k", "--conc", "4", "--hold", "2s");
        assertEquals(4, run.rows().size(), run.console());
        for (String mode : List.of("platform", "virtual")) {
            for (String c : List.of("4")) {
                Map<String, String> small = at(run, mode, c, "bytes=10"), big = at(run, mode, c, "bytes=262144");
                assertTrue(Lab.num(small, "throughput_rps") > Lab.num(big, "throughput_rps"), "10 B answers outrun 256 KB ones: " + small + " / " + big);
            }
        }
        assertTomcatDefaults(run);
        String summary = Files.readString(run.dir().resolve("summary.txt"));
        assertTrue(summary.contains("bytes c=4 jdk"), summary);
        assertTrue(summary.contains("bytes=262144"), "the size stays visible in the table: " + summary);
    }
}
