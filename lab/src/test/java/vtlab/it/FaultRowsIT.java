package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.DoublePredicate;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.proc.Env;


/**
 * The fault rows DependencyFaultIT does not run, end to end at the least cost: one faults run of two rows (plain
 * virtual threads under a database lock and then the stub down, in one hold; a spike row), and one ./vtlab ab row
 * with --dependency and a fault on the lab's spring-mvc jar with a concurrency limit. Every assertion judges what the
 * lab reports — the rows' status, their fault columns, their per-second series, what the generator's own records say —
 * and only bounds a slower machine keeps (a lock stalls longer, requests pile up more, never fewer).
 */
@org.junit.jupiter.api.Tag("oha") // open-model rows with the default generator: ./vtlab test runs these once oha is built
@ExtendWith(SharedTiers.Resolver.class)
class FaultRowsIT {
    static final ObjectMapper JSON = new ObjectMapper();
    static final int RATE = 100;
    /**
     * The tables locked from 6 s to 9 s, then the stub down from 12 s to 14 s, in one 18 s hold: the row's health is
     * judged on its seconds before the fault, and 4 of them (not 2, with the fault at 4 s) keep a busy machine's
     * catch-up bursts within the rate's 2%.
     */
    static final String LOCK_THEN_DOWN = "db:lock@6s-9s+stub:down@12s-14s";
    static final String SPIKE = "100@0s,200@6s,100@10s";

    /** A row's per-second series by name: points [second, value], a point at x covering the second (x - 1, x]. */
    static List<JsonNode> series(Path run) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(run.resolve("series.jsonl"))) out.add(JSON.readTree(line).get("series"));
        return out;
    }

    /** The values of a series whose points' seconds pass the test. */
    static List<Double> values(JsonNode series, String name, DoublePredicate second) {
        return bySecond(series, name).entrySet().stream().filter(p -> second.test(p.getKey())).map(Map.Entry::getValue).toList();
    }

    /** A series' points by their second. */
    static Map<Double, Double> bySecond(JsonNode series, String name) {
        Map<Double, Double> out = new java.util.TreeMap<>();
        assertTrue(series.has(name), "series " + name + " in " + series.fieldNames());
        for (JsonNode pt : series.get(name)) out.put(pt.get(0).asDouble(), pt.get(1).asDouble());
        return out;
    }

    static double sum(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).sum();
    }

    static double max(List<Double> v) {
        assertFalse(v.isEmpty(), "no point in the seconds asked");
        return v.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    /** A column the row must have: said by name and row when it is empty, never a parse error. */
    static double col(Map<String, String> r, String col) {
        String v = r.get(col);
        assertTrue(v != null && !v.isEmpty(), col + " is empty in row " + r.get("scenario") + ": " + r.get("note"));
        return Double.parseDouble(v);
    }

    /** Answers with a 5xx status in vegeta's own record of each request of a row (raw/STEM.vegeta.N.bin). */
    static long fiveXx(Path raw, String stem) throws Exception {
        return Lab.vegetaResults(raw, stem).stream().filter(n -> n.path("code").asInt() >= 500).count();
    }

    @Test
    void aDatabaseLockThenTheStubDownOnPlainVirtualThreadsAndASpike(@TempDir Path out) throws Exception {
        Path state = SpringMvcIT.stateDir(); // its own cluster, started and stopped by the run
        try {
            // a 4 s warm-up, slices up to 9 s while the SUT's JIT is busy (with one slice only, p99 before the spike was
            // 1.2 s and the spike row dropped requests on a busy 2-core VM); the SUT's default 512 MB heap (256 MB had
            // 350 ms Serial pauses)
            Lab.LabRun a = Lab.retriedOnce(out, t -> Lab.allOk(t.rows()), dir -> Lab.runInProcess(state, dir, List.of("run", "faults",
                    "--modes", "virtual", "--rate", Integer.toString(RATE), "--fault", LOCK_THEN_DOWN, "--spike", SPIKE, "--warmup", "4s",
                    "--warmup-max", "9s", "--hold", "18s", "--max-in-flight", "1000")));
            List<Map<String, String>> rows = a.rows();
            assertEquals(2, rows.size(), a.console());
            List<JsonNode> series = series(a.run());
            for (Map<String, String> r : rows) {
                assertEquals("ok", r.get("status"), "healthy before its window: " + r);
                assertEquals("virtual", r.get("thread_mode"), r.toString());
            }

            // plain virtual threads, the tables locked from 6 s to 9 s
            Map<String, String> fault = rows.get(0);
            JsonNode s = series.get(0);
            String what = fault.get("fault_verdict");
            assertEquals(LOCK_THEN_DOWN, fault.get("fault"));
            assertEquals(6.0, col(fault, "fault_from_s"), 0.5, what);
            assertEquals(14.0, col(fault, "fault_to_s"), 0.5, "the last fault's end: " + what);
            assertTrue(what.startsWith(LOCK_THEN_DOWN), what);
            // a stall: in the seconds wholly inside the lock, fewer than half the requests due were answered ...
            double answered = sum(values(s, "load_requests_rps", x -> x > 7.5 && x < 9.5));
            assertTrue(answered < RATE, "seconds 7-9 under the lock answered " + answered + " of the " + 2 * RATE + " due: " + values(s, "load_requests_rps", x -> true));
            // ... because every pooled connection waited on the lock, and the requests behind them waited for one
            double pool = col(fault, "hikari_pool");
            assertEquals(pool, max(values(s, "hikari_active", x -> x >= 7 && x <= 9)), "every connection held under the lock: " + s.get("hikari_active"));
            assertTrue(max(values(s, "hikari_pending", x -> x >= 7 && x <= 9)) > 0, "requests waiting for a connection: " + s.get("hikari_pending"));
            // nothing caps virtual threads: the SUT took in more than a second's arrivals, and the tail waited out the lock
            assertTrue(col(fault, "peak_in_flight") >= RATE, "requests piled up in the SUT: " + what);
            assertTrue(col(fault, "p99_during_ms") >= 1000, what);
            // the stub down from 12 s to 14 s: answered 5xx at once, and only then
            assertEquals(0.0, sum(values(s, "load_errors_status", x -> x <= 12)), "no status error before the stub went down: " + s.get("load_errors_status"));
            assertTrue(sum(values(s, "load_errors_status", x -> x > 12.5 && x < 14.5)) > 0, "status errors while the stub was down: " + s.get("load_errors_status"));
            assertTrue(col(fault, "fault_errors_status") > 0 && col(fault, "fault_shed_pct") > 0, what);
            Path raw = a.run().resolve("raw");
            assertEquals("vegeta", fault.get("generator"), "the faults experiment's default");
            assertTrue(fiveXx(raw, fault.get("raw").replace(".vegeta.txt", "")) > 0, "vegeta's own records hold 5xx answers");

            // the spike: 100 -> 200 req/s from 6 s to 10 s, judged as a window of its own
            Map<String, String> spike = rows.get(1);
            JsonNode t = series.get(1);
            assertEquals("spike:" + SPIKE, spike.get("fault"));
            assertEquals(6.0, col(spike, "fault_from_s"), 1e-9);
            assertEquals(10.0, col(spike, "fault_to_s"), 1e-9);
            assertEquals((6 * 100 + 4 * 200 + 8 * 100) / 18.0, col(spike, "target_rps"), 0.01, "the profile's mean is the row's target");
            assertTrue(spike.get("fault_verdict").startsWith("spike:" + SPIKE), spike.get("fault_verdict"));
            for (String c : List.of("p99_before_ms", "p99_during_ms", "p99_after_ms", "peak_in_flight", "peak_load_in_flight")) col(spike, c);
            double before = sum(values(t, "load_requests_rps", x -> x > 1.5 && x < 6.5)) / 5, during = sum(values(t, "load_requests_rps", x -> x > 7.5 && x < 10.5)) / 3;
            assertTrue(during >= 1.4 * before, "the rate rose: " + before + " req/s before, " + during + " during: " + t.get("load_requests_rps"));
            assertEquals(0, col(spike, "fault_errors_status"), spike.get("fault_verdict"));

            String summary = Files.readString(a.run().resolve("summary.txt"));
            assertTrue(summary.contains("virtual: " + LOCK_THEN_DOWN) && summary.contains("virtual: spike:" + SPIKE), summary);
            List<String> live = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(h -> h.info().commandLine().orElse("")).toList();
            assertEquals(List.of(), live.stream().filter(c -> c.contains("toxiproxy-server") || c.contains("vtlab-spring-mvc.jar") || c.contains(state.toString())).toList(),
                    "the run stopped its proxy, SUTs and database");
        } finally {
            SpringMvcIT.deleteTree(state);
        }
    }

    /**
     * ./vtlab ab on the lab's spring-mvc jar as a user's service, its downstream behind the fault proxy
     * (--dependency) answering 1.5 s later from 6 s to 10 s, with a concurrency limit of 60 (CONCURRENCY_LIMIT): the
     * ~160 requests the slowdown keeps in flight at 100 req/s exceed it, so the limit sheds, and the SUT's peak in
     * flight is the limit itself — reached, and never above it, however many it turned away.
     */
    @Test
    void abWithADependencyUnderAFault(SharedTiers shared, @TempDir Path out) throws Exception {
        int limit = 60;
        String fault = "downstream:latency=1500ms@6s-10s"; // 4 healthy seconds before it to judge the row on
        Env stubEnv = shared.stub().sutEnv();
        URI stub = URI.create(stubEnv.get("STUB_URL"));
        List<String> args = new ArrayList<>(List.of("ab", "--app", AbIT.SPRING_JAR.toString(), "--aot-cache", "--url", "/api/order-summary/random",
                "--modes", "virtual", "--variants", "as-shipped", "--load-model", "open", "--rates", Integer.toString(RATE), "--generator", "vegeta",
                "--max-in-flight", "500", "--warmup", "4s", "--warmup-max", "0s", "--hold", "14s", "--probes", "cpu,jvm,hikari",
                "--env", "CONCURRENCY_LIMIT=" + limit, "--dependency", "downstream=" + stub.getHost() + ":" + stub.getPort(), "--fault", fault));
        shared.pg().sutEnv().forEach((k, v) -> args.addAll(List.of("--env", k + "=" + v)));
        stubEnv.forEach((k, v) -> args.addAll(List.of("--env", k + "=" + v)));
        record Attempt(int exit, String console, List<Map<String, String>> rows, Path run) {}
        int[] n = {0};
        Attempt a = Lab.validOrRetriedOnce(() -> {
            Path dir = Files.createDirectories(out.resolve("attempt-" + ++n[0]));
            List<String> all = new ArrayList<>(args);
            all.addAll(List.of("--port", Integer.toString(Lab.freePort()), "--out", dir.toString()));
            Path console = dir.resolve("console.txt");
            Process lab = Lab.cli(all).redirectErrorStream(true).redirectOutput(console.toFile()).start();
            try {
                assertTrue(lab.waitFor(170, TimeUnit.SECONDS), "ab finished: " + Files.readString(console));
            } finally {
                lab.destroyForcibly();
            }
            Path run = Lab.onlyRun(dir);
            return new Attempt(lab.exitValue(), Files.readString(console), Lab.rows(run), run);
        }, t -> Lab.allOk(t.rows()));
        assertEquals(0, a.exit(), a.console());
        assertEquals(1, a.rows().size(), a.console());
        Map<String, String> r = a.rows().getFirst();
        String what = r.get("fault_verdict");
        assertEquals("ok", r.get("status"), "healthy before the fault: " + r);
        assertEquals(fault, r.get("fault"));
        assertEquals(6.0, col(r, "fault_from_s"), 0.5, what);
        assertEquals(10.0, col(r, "fault_to_s"), 0.5, what);
        assertTrue(what.startsWith(fault), what);
        JsonNode s = series(a.run()).getFirst();
        // the proxy slowed every downstream answer: each second wholly inside the window, p99 above the added 1.5 s,
        // unless the limit shed that second whole (every slot held by a slowed request, every request a fast 503: seen
        // once, second 8 at p99 17.8 ms between 128 ms before and 1,646 ms after); and the slowdown shows in most of them
        Map<Double, Double> p99s = bySecond(s, "load_p99_ms"), sent = bySecond(s, "load_requests_rps"), shed = bySecond(s, "load_errors_status");
        int slowed = 0, inside = 0;
        for (var p : p99s.entrySet()) {
            if (!(p.getKey() > 7.5 && p.getKey() < 10.5)) continue;
            inside++;
            if (p.getValue() >= 1500) slowed++;
            else assertTrue(shed.getOrDefault(p.getKey(), 0.0) >= 0.98 * sent.getOrDefault(p.getKey(), Double.MAX_VALUE),
                    "p99 " + p.getValue() + " in the window, and not a second the limit shed whole: " + s.get("load_p99_ms") + " | 503s "
                            + s.get("load_errors_status") + " | requests " + s.get("load_requests_rps"));
        }
        assertTrue(slowed >= inside - 1 && slowed >= 2, "the slowdown in the window's seconds: " + s.get("load_p99_ms"));
        assertTrue(col(r, "p99_during_ms") >= 1500, what);
        // the limit shed (503s) and held: its peak is exactly the limit, never a turned-away request more
        assertTrue(col(r, "sut_rejected") > 0 && col(r, "fault_errors_status") > 0, what);
        assertEquals(limit, col(r, "peak_in_flight"), "the SUT's own peak under the fault: " + what);
        assertEquals(limit, col(r, "sut_in_flight_max"), r.toString());
        assertTrue(max(values(s, "sut_in_flight", x -> true)) <= limit, s.get("sut_in_flight").toString());
        String report = Files.readString(a.run().resolve("report.html"));
        assertTrue(report.contains("<section id=\"faults\">") && report.contains(">" + fault + "</h3>"), "the report's panels of the fault");
        assertTrue(ProcessHandle.current().descendants().noneMatch(p -> p.info().commandLine().orElse("").contains("toxiproxy-server")), "the proxy stopped");
    }
}
