package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.check.Validity;

/**
 * ./vtlab run servers --quick on two servers end to end, once (about 45 s): real Jetty 12.1 on its VirtualThreadPool
 * (virtual threads, at most 200 running at once) and real Helidon SE 4.5 (a virtual thread per connection, no pool),
 * both sleeping 50 ms at 1,000 connections. Each row is proven in its mode by the server's own count of the threads
 * that ran its requests, and Jetty's cap is a real bound: 200 / 50 ms = 4,000 req/s, where Helidon's is the
 * connections' 20,000. What the lab claims of the run rests on the rows it took as evidence.
 */
class ServersRunIT {
    @TempDir
    Path out;

    @Test
    void eachServerRunsInItsDeclaredModeAndWithinItsDeclaredBound() throws Exception {
        // what the findings claim (the best server) rests on the rows that are evidence: with none, once more, then skipped
        Lab.LabRun a = Evidence.rerunOnce("servers' best", n -> Lab.runMain(Files.createDirectories(out.resolve("attempt-" + n)),
                List.of("run", "servers", "--quick", "--servers", "jetty,helidon", "--modes", "jetty:virtual-pool",
                        "--workloads", "sleep", "--probes", "cpu,threads,cpu-threads")), // cpu-threads: the JIT's share of the hold
                run -> Evidence.of(run.rows()).judge(Evidence.Part.base("servers", Evidence.of(run.rows()).all())));
        String console = a.console();
        assertEquals(0, a.code(), console);
        List<Map<String, String>> rows = a.rows();
        assertEquals(2, rows.size(), console);
        Map<String, String> jetty = rows.getFirst(), helidon = rows.get(1);
        assertEquals("jetty virtual-pool", jetty.get("stack") + " " + jetty.get("thread_mode"), console);
        assertEquals("helidon virtual", helidon.get("stack") + " " + helidon.get("thread_mode"), console);
        // each measured against its own declared bound
        assertEquals(4000.0, Lab.num(jetty, "bound_rps"), 1e-9);
        assertEquals(20000.0, Lab.num(helidon, "bound_rps"), 1e-9);

        for (Map<String, String> r : rows) {
            if (r.get("status").equals("failed")) continue; // a failed row has no numbers: the findings leave it out (below)
            // the proof from the server itself, over the hold: every request on a virtual thread, none on a platform one
            assertEquals(0, Lab.whole(r, "sut_requests_platform"), Lab.describe(r));
            assertTrue(Lab.whole(r, "sut_requests_virtual") > 0, Lab.describe(r));
            String info = Files.readString(a.run().resolve("raw").resolve(r.get("raw").replace(".wrk.txt", ".runtime-info.json")));
            assertTrue(info.contains("\"thread_mode\":\"" + r.get("thread_mode") + "\""), info);
            assertTrue(info.contains("\"server\":\"" + r.get("stack") + " "), info);
        }
        // Jetty's cap holds whatever the machine: no row answers faster than 200 sleeping tasks allow
        if (!jetty.get("status").equals("failed")) {
            assertTrue(Lab.num(jetty, "bound_ratio") <= Validity.BOUND_HIGH, Lab.describe(jetty));
            // and on a row the lab took as evidence it is held at the cap, unless its core ran out or the JIT still
            // compiled in the hold (the lab's own caveats: --quick's 3 s warm-up left it 34% of the core, 88% of the cap)
            if (jetty.get("status").equals("ok")) {
                assertTrue(Lab.num(jetty, "bound_ratio") >= Validity.BOUND_LOW || jetty.get("flags").contains("app-cpu-bound")
                        || jetty.get("flags").contains("jit-busy"), Lab.describe(jetty));
            }
        }

        // the findings compare the servers of one model from the rows that are evidence only, the best named with its rate
        Evidence e = Evidence.of(rows);
        String findings = Files.readString(a.run().resolve("findings.json"));
        List<Integer> ok = e.ok(e.all());
        assertFalse(ok.isEmpty(), "rerunOnce skips a run without an ok row: " + e.why(e.all()));
        // the best named from the ok rows alone, 'ahead of' only when both are
        String best = ok.size() == 2 && Lab.num(helidon, "throughput_rps") > Lab.num(jetty, "throughput_rps") ? "helidon virtual"
                : ok.size() == 2 ? "jetty virtual-pool" : e.row(ok.getFirst()).text(vtlab.data.Columns.STACK) + " " + e.row(ok.getFirst()).mode();
        assertTrue(findings.contains("sleep at 1000 connections, virtual threads: best " + best + " "), findings);
        assertEquals(ok.size() == 2, findings.contains("ahead of "), findings);
    }
}
