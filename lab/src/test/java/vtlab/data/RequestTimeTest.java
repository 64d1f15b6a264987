package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RequestTimeTest {
    static Map<String, String> row(String mode, String top, String evidence, Map<String, String> shares) {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("experiment", "servlet");
        r.put("workload", "monitor");
        r.put("thread_mode", mode);
        r.put("concurrency", "20");
        r.put("jdk", "25");
        r.put("params", mode.equals("platform") ? "lockMs=1;maxThreads=200" : "lockMs=1");
        r.put("status", "ok");
        r.put("time_top_cause", top);
        r.put("time_top_evidence", evidence);
        shares.forEach((k, v) -> r.put("time_" + k + "_pct", v));
        return r;
    }

    @Test
    void theLargestCauseWithItsEvidenceForEachModeAndHowItMoved() {
        Map<String, String> p = row("platform", "monitor", "lock a.Ledger in a.Servlet.doGet, 100% of it",
                Map.of("cpu", "3", "runqueue", "1", "monitor", "88", "sleep", "5", "other", "3"));
        Map<String, String> v = row("virtual", "other", "virtual threads parked or blocked off their carrier",
                Map.of("cpu", "4", "runqueue", "0", "monitor", "0", "sleep", "5", "other", "91"));
        Map<String, String> unprofiled = new LinkedHashMap<>(p);
        unprofiled.remove("time_top_cause");
        assertNull(RequestTime.line(DataRow.of(unprofiled)));
        assertEquals("88% of request time blocked on a monitor (lock a.Ledger in a.Servlet.doGet, 100% of it)", RequestTime.line(DataRow.of(p)));
        List<Finding> found = RequestTime.findings(DataRow.numbered(List.of(unprofiled, p, v)), Grouping::variant);
        assertEquals(List.of(2, 3), found.getFirst().rows(), "the rows it names, as data");
        List<String> lines = Finding.texts(found);
        assertEquals(1, lines.size(), lines.toString());
        String line = lines.getFirst();
        assertTrue(line.startsWith("where request time goes, monitor c=20 jdk25 lockMs=1: platform-200 (row 2): 88% of request time blocked on a monitor"), line);
        assertTrue(line.contains("; virtual (row 3): 91% of request time in other waits, not seen by the probe (virtual threads parked"), line);
        assertTrue(line.endsWith("The largest cause moved: platform-200 blocked on a monitor → virtual in other waits, not seen by the probe"), line);
        // a second cause of at least 10% is named after the first
        Map<String, String> two = row("platform", "runqueue", "200 request threads on 1 CPU",
                Map.of("cpu", "20", "runqueue", "58", "gc", "21"));
        assertEquals("58% of request time waiting to run (200 request threads on 1 CPU), then 21% stopped by GC", RequestTime.line(DataRow.of(two)));
        // flagged rows are not evidence
        v.put("status", "flagged");
        assertTrue(lines(List.of(p, v)).getFirst().endsWith("(row 1): 88% of request time blocked on a monitor (lock a.Ledger in a.Servlet.doGet, 100% of it)"));
    }

    /**
     * PetClinic at 200 connections on the busy VM: every row flagged littles-law (wrk's corrected latencies), and the
     * verdict had no word on where the time went. It says it now, from the flagged rows and saying so; a failed row
     * never speaks.
     */
    @Test
    void aScenarioWithOnlyFlaggedRowsStillSaysWhereItsTimeWentAndThatTheRowsAreFlagged() {
        Map<String, String> p = row("platform", "runqueue", "200 request threads on 1 CPU", Map.of("cpu", "10", "runqueue", "85", "other", "5"));
        Map<String, String> v = row("virtual", "cpu", "most of it in the JDBC driver, pool or ORM, 40% of samples", Map.of("cpu", "70", "runqueue", "20", "other", "10"));
        p.put("status", "flagged");
        p.put("flags", "littles-law;warmup-not-steady");
        v.put("status", "flagged");
        v.put("flags", "littles-law;app-cpu-bound");
        List<String> lines = lines(List.of(p, v));
        assertEquals(1, lines.size(), lines.toString());
        String line = lines.getFirst();
        assertTrue(line.startsWith("where request time goes, monitor c=20 jdk25 lockMs=1 (from rows flagged app-cpu-bound, littles-law,"
                + " warmup-not-steady: not measured evidence): platform-200 (row 1): 85% of request time waiting to run"), line);
        assertTrue(line.contains("virtual (row 2): 70% of request time on CPU (most of it in the JDBC driver"), line);
        assertTrue(line.endsWith("The largest cause moved: platform-200 waiting to run → virtual on CPU"), line);
        // an ok row of the scenario speaks alone; failed rows never
        Map<String, String> ok = new LinkedHashMap<>(v);
        ok.put("status", "ok");
        assertTrue(lines(List.of(p, ok)).getFirst().startsWith("where request time goes, monitor c=20 jdk25 lockMs=1: virtual (row 2)"));
        p.put("status", "failed");
        v.put("status", "failed");
        assertEquals(List.of(), lines(List.of(p, v)));
    }

    /** The findings' sentences over rows numbered as a matrix's, in this order. */
    static List<String> lines(List<Map<String, String>> rows) {
        return Finding.texts(RequestTime.findings(DataRow.numbered(rows), Grouping::variant));
    }
}
