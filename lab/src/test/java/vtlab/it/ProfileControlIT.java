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

import vtlab.data.RequestTime;
import vtlab.data.Rows;


/**
 * Controls for the profile probe, end to end, each a workload whose answer is known, each judged on one run: a run is
 * repeated only when the lab's own validity checks void its rows (a failed row, or a flag that voids evidence such as
 * littles-law or generator-bound: the machine's noise, not the probe's answer), and the test prints why.
 *
 * <p>Positive controls, platform and virtual threads alike: the monitor (every request holds one {@code synchronized}
 * lock for 1 ms, 20 connections: JFR names it on platform threads, the probe's thread dumps on virtual ones, where
 * JFR 25 writes no event for a virtual thread blocked off its carrier); CPU (the servlet's alloc workload on the
 * default heap at one connection: the request is its own work); GC (the same on a 40 MB heap); a downstream and a
 * pooled connection (one Spring Boot run, HikariCP pool 10 with the connection held across the stub's 100 ms: at 10
 * connections every request has one and waits for the stub, at 40 they queue for the pool); and the CPU when it is
 * full (the alloc workload at 4 connections: the samples must put the full core's work in the service's own loop,
 * which the breakdown's rule for a full CPU does not decide). The negative control: a request that computes, sleeps and parks 5 ms each, where no
 * single cause may be named as dominant.
 *
 * <p>Each profiled row's explanation comes from a hold of its own after the measured one (vtlab.run.ExplainingHold).
 */
class ProfileControlIT {
    @TempDir
    Path out;

    /** A run's console, folder and rows. */
    record Run(int code, String console, Path dir, List<Map<String, String>> rows) {
        static Run of(Lab.LabRun r) {
            return new Run(r.code(), r.console(), r.run(), r.rows());
        }

        Map<String, String> at(String mode, int conc) {
            return rows.stream().filter(r -> r.get("thread_mode").equals(mode) && r.get("concurrency").equals(Integer.toString(conc))).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + mode + " row at " + conc + ": " + console));
        }
    }

    /**
     * One `./vtlab run` with the profile probe in the given modes; once more only when the lab's validity checks voided
     * a row (it says which).
     */
    Run profiled(String name, String modes, List<String> args) throws Exception {
        List<String> all = new java.util.ArrayList<>(List.of("run"));
        all.addAll(args);
        all.addAll(List.of("--modes", modes, "--warmup", "3s", "--warmup-max", "6s", "--hold", "5s", "--reps", "1",
                "--probes", "cpu,profile"));
        return Run.of(Lab.retriedOnce(out.resolve(name), ProfileControlIT::validByTheLab, dir -> Lab.runMain(dir, all)));
    }

    /** The lab's own verdict on a run: no failed row, no flag that voids evidence; when not, why (printed). */
    static boolean validByTheLab(Lab.LabRun t) {
        for (Map<String, String> r : t.rows()) {
            List<String> voiding = vtlab.data.DataRow.of(r).flags().stream().filter(Rows::voids).toList();
            if ("failed".equals(r.get("status")) || !voiding.isEmpty()) {
                System.out.println("vtlab IT: run again: the lab voided row " + r.get("thread_mode") + " c=" + r.get("concurrency") + " ("
                        + ("failed".equals(r.get("status")) ? r.get("note") : String.join(", ", voiding)) + ")");
                return false;
            }
        }
        return !t.rows().isEmpty();
    }

    static String shares(Map<String, String> r) {
        StringBuilder sb = new StringBuilder();
        for (String c : List.of("cpu", "runqueue", "monitor", "park", "thread_wait", "pool_wait", "db", "downstream", "sleep", "gc", "other")) {
            sb.append(c).append('=').append(r.get("time_" + c + "_pct")).append(' ');
        }
        return sb + "top=" + r.get("time_top_cause") + (r.get("time_top_dominant") == null ? "" : " dominant=" + r.get("time_top_dominant"))
                + " (" + r.get("time_top_evidence") + ") sut cpu " + r.get("time_sut_cpu_pct") + "%";
    }

    /** What every profiled row carries: its explanation from a hold of its own, and what that hold cost. */
    static void explainedSeparately(Map<String, String> r) {
        assertTrue(Lab.num(r, "profiled_hold_s") >= 4, r.toString());
        assertTrue(Lab.num(r, "profiled_rps") > 0, r.toString());
        assertTrue(r.get("profile_jfr").contains(".profiled."), "the recording is of the profiled hold: " + r.get("profile_jfr"));
        assertTrue(!"other".equals(r.get("time_top_cause")), "never 'other' as the cause: " + shares(r));
    }

    /**
     * CPU: each request allocates and writes 8 MB in the service's own loop, one connection (a second would wait for
     * the one CPU: its run queue, not its work); platform and virtual threads alike.
     */
    @Test
    void cpuIsNamedForAWorkloadThatComputes() throws Exception {
        // C1 only: on the one-CPU SUT C2 was still compiling Tomcat's request path through a 5 s hold at a few hundred
        // requests a second (15-22% of the CPU, the request thread waiting for it in the run queue); C1 is done in the warm-up
        Run run = profiled("cpu", "platform,virtual", List.of("servlet", "--workloads", "alloc", "--alloc-kb", "8192", "--conc", "1",
                "--jvm-args", "-Xms512m -Xmx512m -XX:TieredStopAtLevel=1"));
        for (String mode : List.of("platform", "virtual")) {
            Map<String, String> r = run.at(mode, 1);
            System.out.println("vtlab IT: CPU control, " + mode + ": " + shares(r));
            explainedSeparately(r);
            assertEquals("cpu", r.get("time_top_cause"), mode + ": the largest cause of a computing request must be its CPU"
                    + (Lab.num(r, "time_runqueue_pct") > Lab.num(r, "time_cpu_pct") ? " (the run queue exceeded it: another process"
                    + " held the SUT's CPU, this control cannot be produced on a CPU this busy): " : ": ") + shares(r));
            assertTrue(Lab.num(r, "time_cpu_pct") > 35, shares(r));
            // the loop is the service's own code (JFR needs -XX:+DebugNonSafepoints to see it: the probe's JVM options)
            assertTrue(r.get("time_top_evidence").startsWith("most of it in the service's own code")
                    && r.get("time_top_evidence").contains("top frame vtlab.sut.servlet.AllocServlet.doGet"), r.get("time_top_evidence"));
            // the flame graph is drawn from the same recording's samples: the loop is in it
            assertTrue(Files.readString(run.dir().resolve("raw").resolve(r.get("profile_flame"))).contains("AllocServlet"), r.get("profile_flame"));
        }
    }

    /**
     * The CPU when it is full, and what it is full of: the alloc workload (8 MB written a request in the service's own
     * loop, as the CPU control) at 4 connections on platform threads, four request threads on the SUT's one core. On
     * a core 90% busy or more the breakdown's rule gives what no source saw to the run queue, so naming the CPU or
     * its queue proves nothing here; what the rule does not decide is whose work filled it: the execution samples of
     * the request threads must put it in the service's own code, the loop its top frame (time_cpu_owners, the
     * profiled hold's account and its flame graph), and the threads' own on-CPU time (schedstat) must be seen.
     */
    @Test
    void aFullCoreIsFullOfTheServicesOwnWork() throws Exception {
        Run run = profiled("full-core", "platform", List.of("servlet", "--workloads", "alloc", "--alloc-kb", "8192", "--conc", "4",
                "--jvm-args", "-Xms512m -Xmx512m -XX:TieredStopAtLevel=1"));
        Map<String, String> r = run.at("platform", 4);
        System.out.println("vtlab IT: full-core control: " + shares(r) + " owners " + r.get("time_cpu_owners"));
        explainedSeparately(r);
        assertTrue(Math.max(Lab.num(r, "time_sut_cpu_pct"), Lab.num(r, "time_sut_cores_busy_pct")) >= 90, "the control needs the SUT's core full: " + shares(r));
        // whose work: the service's own code, by the samples (not by the rule that splits unseen time)
        assertTrue(Lab.cell(r, "time_cpu_owners").startsWith("the service's own code "), "the CPU is full of the service's own work: " + r.get("time_cpu_owners"));
        String txt = Files.readString(run.dir().resolve("raw").resolve(r.get("profile_jfr").replace(".jfr", ".txt")));
        String frames = txt.substring(txt.indexOf("CPU by owner"));
        java.util.regex.Matcher top = java.util.regex.Pattern.compile("(?m)^\\s+\\d+\\s+(\\S+)").matcher(frames);
        assertTrue(top.find() && top.group(1).equals("vtlab.sut.servlet.AllocServlet.doGet"), "the loop is the top frame: " + frames);
        assertTrue(Files.readString(run.dir().resolve("raw").resolve(r.get("profile_flame"))).contains("AllocServlet"), r.get("profile_flame"));
        // the request threads' own time on the core was measured (schedstat), not only what the rule gave the queue
        assertTrue(Lab.num(r, "time_cpu_pct") >= 10, "the work is seen on the CPU: " + shares(r));
    }

    /**
     * The negative control: each request computes, sleeps and parks 5 ms (a third each) at one connection, and nothing
     * else holds what it waits for: the park ends at its own timeout. All of it is the request's own work; the verdict
     * names none of it a bottleneck, the park least of all (read as a lock's queue, it once was: "bottleneck: 30% parked
     * on a lock or condition"). A queue for the one core (JIT, Tomcat's threads) may be named: that one is real.
     */
    @Test
    void theRequestsOwnWorkIsNoBottleneckWhereNothingQueues() throws Exception {
        Run run = profiled("mixed", "platform", List.of("servlet", "--workloads", "mixed", "--mixed-ms", "5", "--conc", "1"));
        Map<String, String> r = run.at("platform", 1);
        System.out.println("vtlab IT: negative control: " + shares(r) + " queue=" + r.get("time_queue_cause"));
        explainedSeparately(r);
        // each part is seen: the CPU, and the sleep with the park beside it (a control that saw one would prove little)
        assertTrue(Lab.num(r, "time_cpu_pct") > 15, "cpu: " + shares(r));
        assertTrue(Lab.num(r, "time_sleep_pct") > 30, "the sleep and the park to its own timeout: " + shares(r));
        assertTrue(Lab.num(r, "time_park_pct") < RequestTime.MATERIAL_QUEUE_PCT, "a park to its own timeout is no queue: " + shares(r));
        // empty where no queue is material (working, not waiting): on a quiet machine the run queue stays under 10%
        assertTrue(r.containsKey("time_queue_cause"), "the breakdown writes its bottleneck column: " + r.keySet());
        String queue = r.get("time_queue_cause");
        assertTrue(queue.isBlank() || queue.equals("runqueue") || queue.equals("gc"), "only a queue for the core may be named: " + queue + " " + shares(r));
        String summary = Files.readString(run.dir().resolve("summary.txt"));
        assertTrue(summary.contains("the request's own work"), summary);
        assertFalse(summary.contains("parked on a lock or condition"), summary);
    }

    /** GC: the same workload on a 40 MB heap (8 MB of live ring, Tomcat's own and the bytes workload's 16 MB buffer). */
    @Test
    void gcIsNamedOnAHeapTooSmallForTheWorkload() throws Exception {
        Run run = profiled("gc", "platform,virtual", List.of("servlet", "--workloads", "alloc", "--alloc-kb", "256", "--conc", "4",
                "--jvm-args", "-Xms40m -Xmx40m"));
        for (String mode : List.of("platform", "virtual")) {
            Map<String, String> r = run.at(mode, 4);
            System.out.println("vtlab IT: GC control, " + mode + ": " + shares(r));
            explainedSeparately(r);
            assertEquals("gc", r.get("time_top_cause"), mode + ": " + shares(r));
            assertTrue(Lab.num(r, "time_gc_pct") > 40, shares(r));
            // the pauses, and the requests queued for the one core (or a carrier) while the collector held it
            assertTrue(r.get("time_top_evidence").matches("\\d+ pauses, \\d+ ms of the 5 s hold(; with \\d+% of request time queued for the CPU behind its work)?"),
                    r.get("time_top_evidence"));
        }
    }

    /**
     * A downstream and a pooled connection, in one Spring Boot run per mode (PostgreSQL, the stub, one SUT JVM): HikariCP
     * pool 10, the connection held across the stub's 100 ms call. At 10 connections each request has a connection and
     * waits for the stub; at 40, 30 of them wait for one of the 10 connections (about 300 ms of each 400 ms request). Not
     * 200: a 2 s wait is 40% of a 5 s hold, and the hold's first requests, answered before the queue formed, pull the
     * mean latency down until Little's law voids the row (it did on every run: a second run each time).
     */
    @Test
    void aDownstreamAndAPooledConnectionAreNamedWithWhatWasWaitedOn() throws Exception {
        Run run = profiled("spring", "platform,virtual", List.of("order-summary", "--conn-mode", "held", "--pool", "10", "--conc", "10,40"));
        assertEquals(4, run.rows().size(), run.console());
        for (String mode : List.of("platform", "virtual")) {
            Map<String, String> downstream = run.at(mode, 10), pool = run.at(mode, 40);
            System.out.println("vtlab IT: downstream control, " + mode + ": " + shares(downstream));
            System.out.println("vtlab IT: pool control, " + mode + ": " + shares(pool));
            explainedSeparately(downstream);
            explainedSeparately(pool);
            assertEquals("downstream", downstream.get("time_top_cause"), mode + ": " + shares(downstream));
            assertTrue(Lab.num(downstream, "time_downstream_pct") > 50, shares(downstream));
            // its evidence is the stub itself: the address the SUT was given for it
            String stub = stubAddress(run.dir());
            assertTrue(downstream.get("time_top_evidence").contains(stub), "the stub (" + stub + ") is the evidence: " + downstream.get("time_top_evidence"));
            assertEquals("pool_wait", pool.get("time_top_cause"), mode + ": " + shares(pool));
            assertTrue(Lab.num(pool, "time_pool_wait_pct") > 50, shares(pool));
            assertTrue(pool.get("time_top_evidence").startsWith("com.zaxxer.hikari."), pool.get("time_top_evidence"));
            // the row's own account (the verdict cites ok rows only; these are flagged below the stub's bound, by design)
            String txt = Files.readString(run.dir().resolve("raw").resolve(pool.get("profile_jfr").replace(".jfr", ".txt")));
            assertTrue(txt.contains("largest: ") && txt.contains("waiting for a pooled connection (com.zaxxer.hikari."), txt);
        }
    }

    /** The stub's host:port as the SUT was given it (its runtime-info's downstream URL, kept in raw/). */
    static String stubAddress(Path run) throws Exception {
        try (var files = Files.list(run.resolve("raw"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".runtime-info.json")).toList()) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"downstream_url\"\\s*:\\s*\"https?://([^/\"]+)").matcher(Files.readString(f));
                if (m.find()) return m.group(1);
            }
        }
        throw new AssertionError("no downstream URL in the runtime-info of " + run);
    }

    @Test
    void theMonitorIsNamedAsTheLargestCauseWithItsLock() throws Exception {
        Lab.LabRun a = Lab.retriedOnce(out, ProfileControlIT::validByTheLab,
                dir -> Lab.runMain(dir, List.of("run", "servlet", "--workloads", "monitor", "--lock-ms", "1", "--modes", "platform,virtual",
                        "--conc", "20", "--warmup", "3s", "--warmup-max", "6s", "--hold", "5s", "--reps", "1", "--probes", "cpu,threads,profile")));
        String console = a.console();
        List<Map<String, String>> rows = a.rows();
        assertEquals(2, rows.size(), console);
        Map<String, String> platform = rows.stream().filter(r -> r.get("thread_mode").equals("platform")).findFirst().orElseThrow();
        Map<String, String> virtual = rows.stream().filter(r -> r.get("thread_mode").equals("virtual")).findFirst().orElseThrow();
        for (Map<String, String> r : rows) {
            assertTrue(List.of("ok", "flagged").contains(r.get("status")), r.toString());
            // the lock allows 1,000 req/s at most: 20 in flight wait ~20 ms each
            assertTrue(Lab.num(r, "throughput_rps") < 1000 && Lab.num(r, "throughput_rps") > 300, r.get("throughput_rps"));
            explainedSeparately(r);
            Path raw = a.run().resolve("raw");
            assertTrue(Files.size(raw.resolve(r.get("profile_jfr"))) > 0);
            assertTrue(Files.readString(raw.resolve(r.get("profile_jfr").replace(".jfr", ".txt"))).contains("largest: "));
            // the interactive flame graph of the profiled hold's CPU samples, linked from the report (a request blocked
            // on the lock takes no sample: the CPU control checks what the graph draws)
            String flame = Files.readString(raw.resolve(r.get("profile_flame")));
            assertTrue(flame.startsWith("<!DOCTYPE html>"), r.get("profile_flame"));
        }
        // platform: the monitor first, its lock and the frame that took it as evidence
        assertEquals("monitor", platform.get("time_top_cause"), platform.toString());
        assertTrue(Lab.num(platform, "time_monitor_pct") > 50, platform.get("time_monitor_pct"));
        assertTrue(platform.get("time_top_evidence").startsWith("lock vtlab.sut.servlet.MonitorServlet$Ledger in vtlab.sut.servlet.MonitorServlet.doGet"),
                platform.get("time_top_evidence"));
        // the holder's 1 ms sleep is seen too, as the workload's own wait, far below the queue on the lock
        assertTrue(Lab.num(platform, "time_sleep_pct") > 0 && Lab.num(platform, "time_sleep_pct") < 25, platform.get("time_sleep_pct"));
        // virtual: JFR 25 records no blocked enter of an unmounted virtual thread; the probe's thread dumps see them
        assertEquals("monitor", virtual.get("time_top_cause"), virtual.toString());
        assertTrue(Lab.num(virtual, "time_monitor_pct") > 50, virtual.get("time_monitor_pct"));
        assertTrue(virtual.get("time_top_evidence").matches("lock vtlab\\.sut\\.servlet\\.MonitorServlet\\$Ledger in vtlab\\.sut\\.servlet\\.MonitorServlet\\.doGet"
                + " \\[\\d+ of \\d+ virtual threads in 4 dumps, 95% CI \\d+–\\d+%\\], .*"), virtual.get("time_top_evidence"));
        assertTrue(Files.exists(a.run().resolve("raw").resolve(virtual.get("profile_jfr").replace(".profile.jfr", ".profile-dump-4.json"))));
        // the verdict and the report say it
        String summary = Files.readString(a.run().resolve("summary.txt"));
        summary.lines().filter(l -> l.contains("where request time goes")).forEach(System.out::println); // kept in the failsafe report
        assertTrue(summary.contains("where request time goes, monitor c=20"), summary);
        assertTrue(summary.contains("blocked on a monitor (lock vtlab.sut.servlet.MonitorServlet$Ledger"), summary);
        // both modes in one line when the lab reads them alike: both evidence, or (on a busy machine) both flagged, said
        // so; one of each and the lab speaks of the ok one alone (a flagged row is not set against a measured one)
        Evidence e = Evidence.of(rows);
        if (e.allOk(e.all()) || e.ok(e.all()).isEmpty()) {
            assertTrue(summary.contains("The bottleneck stayed the same"), summary);
        } else {
            System.out.println("vtlab IT: monitor control: one mode's row is not evidence (" + e.why(e.all()) + "): the lab names the other's alone");
            String line = summary.lines().filter(l -> l.contains("where request time goes, monitor c=20")).findFirst().orElseThrow();
            assertTrue(!line.contains("The bottleneck") && !line.contains("(from rows flagged"), line);
        }
        // why the tail is slow, per mode, from the profiled hold's own p99
        assertTrue(summary.contains("Why the tail is slow, ") && summary.contains("the slowest 1% (p99 "), summary);
        assertTrue(platform.get("time_tail").startsWith("the slowest 1% (p99 "), platform.get("time_tail"));
        String html = Files.readString(a.run().resolve("report.html"));
        assertTrue(html.contains("<h2>Where request time goes</h2>"));
        assertEquals(2, html.split("<div class=\"tbar-row\"", -1).length - 1);
        assertTrue(html.contains("<a class=\"flame\" href=\"raw/" + platform.get("profile_flame") + "\">flame graph</a>"));
    }
}
