package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.data.RequestTime.Cause;

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

    static Map<String, String> split(String mode, String queue, String queueEvidence, double own, Map<String, String> shares) {
        Map<String, String> r = row(mode, shares.entrySet().stream().max(java.util.Comparator.comparingDouble(e -> Double.parseDouble(e.getValue())))
                .orElseThrow().getKey(), "Thread.sleep in x.Y.doGet, 100% of it", shares);
        r.put("workload", "sleep");
        r.put("concurrency", "400");
        r.put("params", mode.equals("platform") ? "maxThreads=200" : "");
        r.put("time_queue_cause", queue);
        if (!queueEvidence.isEmpty()) r.put("time_queue_evidence", queueEvidence);
        r.put("time_own_pct", Double.toString(own));
        return r;
    }

    /**
     * The sleep A/B at 400 connections: platform's sleep is its floor and its queue for a thread the
     * bottleneck; virtual is working, not waiting, at the load's own bound (400 connections over a 50 ms floor).
     */
    @Test
    void theVerdictNamesTheQueueAsTheBottleneckAndTheOwnWorkAsTheFloor() {
        Map<String, String> p = split("platform", "thread_wait", "400 connections on 200 request threads, busy 99% of the hold", 51,
                Map.of("sleep", "50", "thread_wait", "49", "cpu", "1"));
        p.put("mean_ms", "100");
        p.put("throughput_rps", "4000");
        Map<String, String> v = split("virtual", "", "", 98, Map.of("sleep", "95", "cpu", "3", "runqueue", "2"));
        v.put("mean_ms", "52");
        v.put("throughput_rps", "7600");
        v.put("profiled_rps", "7700"); // the shares' own window
        String pl = RequestTime.line(DataRow.of(p));
        assertTrue(pl.startsWith("bottleneck: 49% of request time waiting for a free request thread (400 connections on 200 request threads"), pl);
        assertTrue(pl.contains("the request's own work 51% (sleeping (Thread.sleep, or a park to its own timeout) 50%, on CPU 1%): its floor, not a bottleneck"), pl);
        assertEquals(Cause.THREAD_WAIT, RequestTime.cause(DataRow.of(p)));
        assertTrue(RequestTime.evidence(DataRow.of(p)).startsWith("400 connections on 200"));
        String vl = RequestTime.line(DataRow.of(v));
        assertTrue(vl.startsWith("working, not waiting: 98% of request time the request's own work (sleeping"), vl);
        assertTrue(vl.contains("no queue of 10% or more"), vl);
        assertEquals(Cause.SLEEP, RequestTime.cause(DataRow.of(v)), "working: its largest own work");
        // queues of like size: none is named the bottleneck alone (a lock's park of 26%, a run queue of 19%)
        Map<String, String> mixed = split("platform", "park", "java.util.concurrent.locks.ReentrantLock$NonfairSync in x.Ledger.post, 100% of it", 55,
                Map.of("cpu", "29", "sleep", "26", "park", "26", "runqueue", "19"));
        assertTrue(RequestTime.line(DataRow.of(mixed)).startsWith("no single cause dominates: the largest queue 26% of request time parked on a lock or condition"
                + " (java.util.concurrent.locks.ReentrantLock$NonfairSync in x.Ledger.post, 100% of it), then 19% waiting to run"), RequestTime.line(DataRow.of(mixed)));
        String line = lines(List.of(p, v)).getFirst();
        assertTrue(line.contains("The bottleneck moved: platform-200 waiting for a free request thread → virtual none (working, not waiting)"), line);
        // the closed model's own bound: 400 connections over a floor of 51% of 100 ms (platform: 400 ÷ 4,000 req/s) and
        // of 98% of 51.9 ms (virtual: 400 ÷ its profiled hold's 7,700 req/s)
        assertTrue(line.contains("The load's own bound (connections ÷ the request's own work): platform-200: 400 connections ÷ 51.0 ms = 7,843 req/s,"
                + " 2.0× the row's"), line);
        assertTrue(line.contains("; virtual: 400 connections ÷ 50.9 ms = 7,857 req/s, and the row ran at 98% of it in its profiled hold:"
                + " the load, not the thread model, sets its throughput"), line);
    }

    /**
     * The Spring rig: the pool's gauge saw 168 waiters at its peak while the breakdown had the requests waiting
     * mostly for their downstream and then to run: one verdict, the gauge under it with both numbers.
     */
    @Test
    void aPeakGaugeIsEvidenceUnderTheBottleneckNotARivalVerdict() {
        Map<String, String> v = split("virtual", "runqueue", "the SUT's CPU full: 97% busy on 1 CPU", 72, Map.of("downstream", "71", "runqueue", "23", "pool_wait", "3", "cpu", "1"));
        v.put("hikari_pending_max", "168");
        v.put("hikari_active_max", "10");
        String g = RequestTime.gauges("virtual as shipped", DataRow.of(v));
        assertEquals("virtual as shipped: up to 168 requests waited for one of 10 busy pooled connections at the pool's peak, yet waiting for a"
                + " connection was 3% of request time: a peak, not the bottleneck", g);
        v.put("time_queue_cause", "pool_wait");
        assertTrue(RequestTime.gauges("v", DataRow.of(v)).endsWith("at the pool's peak (the bottleneck's evidence)"));
        // a row before the split speaks as it did (the verdict's own gauge lines speak for it)
        Map<String, String> old = row("virtual", "downstream", "socket reads", Map.of("downstream", "71", "runqueue", "23"));
        old.put("hikari_pending_max", "168");
        assertEquals("", RequestTime.gauges("v", DataRow.of(old)));
        assertEquals(Cause.DOWNSTREAM, RequestTime.cause(DataRow.of(old)));
    }

    /**
     * The REST service with its SQL logged: the CPU full, and what it spent on work a request does not need named
     * apart, each share with the samples it stands on and its interval (Wilson: 42% of 139 samples is 34–50%).
     */
    @Test
    void aFullCpuNamesItsOwnersWithTheirIntervalsAndTheWorkARequestDoesNotNeed() {
        Map<String, String> r = split("platform", "runqueue", "the SUT's CPU full: 112% busy on 1 CPU", 30, Map.of("cpu", "30", "runqueue", "65"));
        r.put("time_cpu_owners", "the JDBC driver, pool or ORM 42%;the web framework 37%;writing logs or the console 12%;the JDK 9%");
        r.put("time_cpu_samples", "139");
        String owners = RequestTime.cpuOwners(DataRow.of(r));
        assertEquals("the CPU's owners (139 execution samples): the JDBC driver, pool or ORM 42% (95% CI 34–50%), the web framework 37% (95% CI 29–45%),"
                + " the JDK 9% (95% CI 5–15%); work a request does not need: writing logs or the console 12% (95% CI 8–18%)", owners);
        assertTrue(RequestTime.line(DataRow.of(r)).endsWith("; " + owners), RequestTime.line(DataRow.of(r)));
        // a row queued for a pool says nothing of the CPU's owners
        r.put("time_queue_cause", "pool_wait");
        assertFalse(RequestTime.line(DataRow.of(r)).contains("the CPU's owners"));
        r.remove("time_cpu_samples");
        assertEquals("", RequestTime.cpuOwners(DataRow.of(r)), "no samples to stand on: no shares");
    }

    /**
     * One account: a row whose server's own time is known (thread dumps) and whose probe missed more than a fifth of it
     * names no bottleneck and says what it could not see; the same shares with the missing time small name theirs.
     */
    @Test
    void noBottleneckIsNamedWhileTheServersOwnTimeIsUnexplained() {
        // the server held 60% of the client's request time; the probe saw 30 points of it (a park 20, the CPU 10)
        Map<String, String> r = split("platform", "park", "x.Lock in x.Y.doGet, 100% of it", 10,
                Map.of("cpu", "10", "park", "20", "outside", "40", "other", "30"));
        r.put("time_server_pct", "60");
        assertEquals(50.0, RequestTime.unexplainedPct(DataRow.of(r)), 1e-9);
        String line = RequestTime.line(DataRow.of(r));
        assertTrue(line.startsWith("no bottleneck named: 50% of the server's own request time (30% of the client's) was not seen by the probe"), line);
        assertTrue(line.endsWith("; the largest it saw: 40% outside the server (the kernel's queues, the poller, the network, the client)"), line);
        assertEquals(Cause.OTHER, RequestTime.cause(DataRow.of(r)), "nothing to act on: the missing part could be larger than the park");
        // a tenth of the server's time missing: the park is the bottleneck as before
        Map<String, String> seen = split("platform", "park", "x.Lock in x.Y.doGet, 100% of it", 10,
                Map.of("cpu", "10", "park", "54", "outside", "30", "other", "6"));
        seen.put("time_server_pct", "70");
        assertTrue(RequestTime.line(DataRow.of(seen)).startsWith("bottleneck: 54% of request time parked on a lock or condition"), RequestTime.line(DataRow.of(seen)));
        assertEquals(Cause.PARK, RequestTime.cause(DataRow.of(seen)));
        // a row without the server's own time (no dumps, or written before): as it was
        seen.remove("time_server_pct");
        seen.put("time_other_pct", "46");
        assertTrue(Double.isNaN(RequestTime.unexplainedPct(DataRow.of(seen))));
        assertEquals(Cause.PARK, RequestTime.cause(DataRow.of(seen)));
    }
}
