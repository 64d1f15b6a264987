package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;


/**
 * A bad day on the real Spring rig (PostgreSQL, the stub behind the real Toxiproxy, vegeta at a constant rate): the stub
 * answers 900 ms later from second 4 to 9 of a 24 s hold. The fault's window must show in the per-second series and
 * the verdict must name it, in both modes run here: platform-200, and virtual threads with a limit of 50 — below the
 * ~100 requests the slowdown keeps in flight at 100 req/s, so the limit must shed (the positive control: the same
 * fault leaves the pool, which has room for it, without an error, and its p99 comes back once the stub does).
 * <p>
 * Recovery is judged by the lab's own rule (a second's p99 back within 10% of before and staying there 3 s) and
 * asserted as the lab states it in the verdict, never as a figure of one machine. The fault is lifted a hair after
 * 9 s, so its last second is (9, 10]: a 14 s hold left two candidate starts for three quiet seconds, and on a 2-core VM
 * whose seconds were noisier than that there was no recovery to report (recovery_s empty). The 24 s hold leaves
 * twelve: here platform-200's p99 after the fault went 369, 164, 496, 153, 137, 160 ms against 177 ms before,
 * "recovered 3 s after the fault ended", which the 14 s hold could not have seen.
 */
@org.junit.jupiter.api.Tag("oha") // open-model rows with the default generator: ./vtlab test runs these once oha is built
class DependencyFaultIT {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String FAULT = "stub:latency=900ms@4s-9s";
    static final int HOLD_S = 24;

    @Test
    void aSlowStubShowsInEverySecondAndInTheVerdict(@TempDir Path out) throws Exception {
        Path state = SpringMvcIT.stateDir(); // its own cluster, started and stopped by the run
        try {
            // Warm-up 4 s and one 5 s slice: an open row's rate is settled from the first slice (100 of 100 req/s), and the
            // JIT of a Spring SUT on one core is not quiet after 19 s either (13-14% of the core, then 15% in the hold), so
            // slices up to --warmup-max 20s only added ~24 s and the same warmup-not-steady caveat; p99 before the fault
            // was 120-300 ms either way, against the 600 ms asserted.
            Lab.LabRun a = Lab.retriedOnce(out, t -> Lab.allOk(t.rows()), dir -> Lab.runInProcess(state, dir, List.of("run", "faults",
                    "--modes", "platform,virtual-limit", "--limit", "50", "--rate", "100", "--fault", FAULT, "--spike", "none", "--warmup", "4s",
                    "--warmup-max", "9s", "--hold", HOLD_S + "s", "--max-in-flight", "1000", "--jvm-args", "-Xmx256m")));
            List<Map<String, String>> rows = a.rows();
            assertEquals(2, rows.size(), a.console());
            assertEquals("vegeta", rows.getFirst().get("generator"), "the faults experiment's generator: errors by kind per second");
            List<JsonNode> series = new ArrayList<>();
            for (String line : Files.readAllLines(a.run().resolve("series.jsonl"))) series.add(JSON.readTree(line).get("series"));
            for (int i = 0; i < rows.size(); i++) {
                Map<String, String> r = rows.get(i);
                String what = r.get("thread_mode") + ": " + r;
                assertEquals("ok", r.get("status"), what);
                assertEquals(FAULT, r.get("fault"), what);
                assertEquals(4.0, Lab.num(r, "fault_from_s"), 0.5, what);
                assertEquals(9.0, Lab.num(r, "fault_to_s"), 0.5, what);
                // in the test's output (Maven's log, kept per run by ./vtlab test --repeat): what this machine gave
                System.out.println("DependencyFaultIT: " + r.get("thread_mode") + ": " + r.get("fault_verdict") + " | p99 per second after the fault: "
                        + after(series.get(i), r));
                // every second: p99 above the added 900 ms inside the window, well below it before
                JsonNode p99 = series.get(i).get("load_p99_ms");
                for (JsonNode pt : p99) {
                    double x = pt.get(0).asDouble(), v = pt.get(1).asDouble();
                    if (x >= 6 && x <= 9) assertTrue(v >= 900, "second " + x + " in the window: p99 " + v + " | " + what);
                    if (x >= 2 && x <= 4) assertTrue(v < 600, "second " + x + " before the fault: p99 " + v + " | " + what);
                }
                assertTrue(Lab.num(r, "p99_during_ms") >= 900 && Lab.num(r, "p99_before_ms") < 600, what);
                assertTrue(r.get("fault_verdict").startsWith(FAULT), what);
                // the lab's own statement of the recovery, as its column has it: "recovered N s after the fault ended"
                // or "did not recover within the hold" (an empty recovery_s), never a parse of a cell it left empty
                String recovery = r.get("recovery_s");
                String said = recovery.isEmpty() ? "did not recover within the hold" : "recovered " + Lab.whole(r, "recovery_s") + " s after the fault ended";
                assertTrue(r.get("fault_verdict").contains("; " + said + ";"), "the verdict says what recovery_s holds (" + said + "): " + what);
                assertTrue(Lab.num(r, "peak_load_in_flight") >= 40, "a 1 s answer at 100 req/s keeps ~100 under way: " + what);
                assertTrue(series.get(i).has("sut_in_flight") && series.get(i).has("heap_used_mb"), "the jvm probe's seconds: " + what);
            }
            Map<String, String> platform = rows.get(0), limited = rows.get(1);
            assertEquals("platform", platform.get("thread_mode"));
            assertEquals("virtual-limit", limited.get("thread_mode"));
            // ~100 in flight: under the pool's 200 (nothing shed, p99 back once the stub is), over the limit of 50 (shed)
            assertEquals(0, Lab.num(platform, "fault_errors_status"), platform.toString());
            // the pool had room for what the fault kept in flight: once the stub answers in time again, so does the pool,
            // and the lab says so within the 15 s the hold leaves after the fault
            assertTrue(platform.get("fault_verdict").contains("; recovered ") && !platform.get("recovery_s").isEmpty(),
                    "platform-200 had room for the ~100 requests in flight, yet the lab saw no recovery within the hold: p99 per second after"
                            + " the fault " + after(series.get(0), platform) + " against " + platform.get("p99_before_ms") + " ms before | " + Lab.describe(platform)
                            + " | " + platform.get("fault_verdict"));
            assertTrue(Lab.num(limited, "fault_errors_status") > 50 && Lab.num(limited, "sut_rejected") > 50, limited.toString());
            assertTrue(Lab.num(limited, "peak_in_flight") <= 51, "the limit held: " + limited);
            String summary = Files.readString(a.run().resolve("summary.txt"));
            assertTrue(summary.contains("Findings, faults") && summary.contains("platform: " + FAULT), summary);
            assertTrue(Files.readString(a.run().resolve("report.html")).contains("Faults"), "the report's fault panels");
            List<String> live = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(h -> h.info().commandLine().orElse("")).toList();
            assertEquals(List.of(), live.stream().filter(c -> c.contains("toxiproxy-server") || c.contains("vtlab-spring-mvc.jar") || c.contains(state.toString())).toList(),
                    "the run stopped its proxy, SUTs and database");
        } finally {
            SpringMvcIT.deleteTree(state);
        }
    }

    /**
     * A row's p99 in each second the lab judges its recovery on ("11: 369 ms, 12: 164 ms, ..."; a point at x is the
     * second (x - 1, x] of the hold), for a message: from the whole second after the fault's end as applied (FaultVerdict:
     * a fault lifted a few milliseconds after 9 s has (9, 10] as its last second).
     */
    static String after(JsonNode series, Map<String, String> row) {
        double to = Math.ceil(Lab.num(row, "fault_to_s"));
        List<String> seconds = new ArrayList<>();
        for (JsonNode pt : series.path("load_p99_ms")) {
            if (pt.get(0).asDouble() > to) seconds.add(String.format(java.util.Locale.ROOT, "%.0f: %.0f ms", pt.get(0).asDouble(), pt.get(1).asDouble()));
        }
        return String.join(", ", seconds);
    }
}
