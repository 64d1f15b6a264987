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

import vtlab.cli.Main;

/**
 * The capacity search's loop end to end on real rows: a 10-thread pool behind a 100 ms sleep can answer 100 req/s at
 * most (the exact bound on any machine, the CPU stays low), so the search must step up from 50, find the failing
 * rates above 100 and bisect down to the bound, each next rate being the search's own rule applied to the rows so far.
 * The doubling is capped at --max-rate 120 (above the bound, so the cap is a failing step): 50, 100, 120, 110, 105, five
 * steps of ~13 s each instead of eight (200, 150, 125, 113, 107, 104 under the default cap) for the same loop.
 */
@org.junit.jupiter.api.Tag("oha") // open-model rows with the default generator: ./vtlab test runs these once oha is built
class CapacityRunIT {
    static final double FROM = 50, MAX_RATE = 120;

    @TempDir
    Path out;

    static String fmt(double rate) {
        return Long.toString(Math.round(rate));
    }

    @Test
    void theSearchClimbsToThePoolsBoundAndStopsThere() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int code = Main.run(List.of("run", "capacity", "--of", "servlet", "--workloads", "sleep", "--sleep-ms", "100", "--max-threads", "10",
                "--min-spare-threads", "5", "--modes", "platform", "--slo", "p99<300ms", "--from", fmt(FROM), "--max-rate", fmt(MAX_RATE),
                "--warmup", "1s", "--warmup-max", "0s", "--hold", "3s", "--probes", "cpu", "--port", Integer.toString(Lab.freePort()),
                "--out", out.toString()), new PrintStream(buf, true));
        String console = buf.toString();
        assertEquals(0, code, console);
        Path run = Lab.onlyRun(out);
        List<Map<String, String>> rows = Lab.rows(run);
        assertTrue(rows.size() >= 4, "doubling, then bisection: " + console);
        // the loop: each step's rate is what the search asks after the steps before it, and it stopped when it said so
        List<Map<String, String>> before = new ArrayList<>();
        for (Map<String, String> r : rows) {
            assertEquals(vtlab.experiment.capacity.CapacitySearchAccess.next(before, FROM, MAX_RATE), Lab.num(r, vtlab.data.Columns.TARGET_RPS.name()), 0.5, "step " + before.size() + ": " + console);
            before.add(r);
        }
        assertEquals(null, vtlab.experiment.capacity.CapacitySearchAccess.next(before, FROM, MAX_RATE), "the search ended when its rule said so");
        // what it found: the highest passing step, at the pool's bound (the lab's own thresholds) and never above it
        double found = rows.stream().filter(vtlab.experiment.capacity.CapacitySearchAccess::passes).mapToDouble(r -> Lab.num(r, vtlab.data.Columns.TARGET_RPS.name())).max().orElseThrow();
        assertTrue(found >= vtlab.check.Validity.BOUND_LOW * 100 && found <= vtlab.check.Validity.BOUND_HIGH * 100, found + " req/s: " + console);
        assertTrue(rows.stream().anyMatch(r -> Lab.num(r, vtlab.data.Columns.TARGET_RPS.name()) > found && !vtlab.experiment.capacity.CapacitySearchAccess.passes(r)),
                "a failing step above it bounds it: " + console);
        String findings = Files.readString(run.resolve("findings.json"));
        assertTrue(findings.contains("platform-10 sustains " + Math.round(found) + " req/s"), findings);
    }
}
