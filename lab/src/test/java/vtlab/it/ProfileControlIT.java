package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.cli.Main;

/**
 * A positive control for the profile probe, end to end: the servlet's monitor workload (every request holds one
 * {@code synchronized} lock for 1 ms) at 20 connections on real Tomcat and wrk, platform and virtual. On platform
 * threads the breakdown must name the monitor first from JFR's monitor-enter events, with the lock's class as
 * evidence; on virtual threads (JDK 25) JFR writes no event for a virtual thread blocked off its carrier, so the
 * probe's thread dumps during the hold must name it. The verdict (summary.txt) and the report's bars say the same.
 */
class ProfileControlIT {
    @TempDir
    Path out;

    @Test
    void theMonitorIsNamedAsTheLargestCauseWithItsLock() throws Exception {
        record Attempt(int code, String console, Path run, List<Map<String, String>> rows) {}
        int[] attempts = {0};
        Attempt a = Lab.validOrRetriedOnce(() -> {
            Path dir = Files.createDirectories(out.resolve("attempt-" + ++attempts[0]));
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            int code = Main.run(List.of("run", "servlet", "--workloads", "monitor", "--lock-ms", "1", "--modes", "platform,virtual",
                    "--conc", "20", "--warmup", "3s", "--warmup-max", "8s", "--hold", "8s", "--reps", "1",
                    "--probes", "cpu,threads,profile", "--port", Integer.toString(Lab.freePort()), "--out", dir.toString()), new PrintStream(buf, true));
            Path run = Lab.onlyRun(dir);
            return new Attempt(code, buf.toString(), run, Lab.rows(run));
        }, t -> t.rows().size() == 2 && t.rows().stream().noneMatch(r -> "failed".equals(r.get("status")))
                && "monitor".equals(t.rows().getFirst().get("time_top_cause")));
        String console = a.console();
        List<Map<String, String>> rows = a.rows();
        assertEquals(2, rows.size(), console);
        Map<String, String> platform = rows.stream().filter(r -> r.get("thread_mode").equals("platform")).findFirst().orElseThrow();
        Map<String, String> virtual = rows.stream().filter(r -> r.get("thread_mode").equals("virtual")).findFirst().orElseThrow();
        for (Map<String, String> r : rows) {
            assertTrue(List.of("ok", "flagged").contains(r.get("status")), r.toString());
            // the lock allows 1,000 req/s at most: 20 in flight wait ~20 ms each
            assertTrue(Lab.num(r, "throughput_rps") < 1000 && Lab.num(r, "throughput_rps") > 300, r.get("throughput_rps"));
            double request = Lab.num(r, "time_request_s");
            // Little's law, at most the 20 connections in flight (wrk's mean is corrected for coordinated omission)
            assertEquals(Math.min(Lab.num(r, "throughput_rps") * Lab.num(r, "mean_ms") / 1000, 20) * Lab.num(r, "duration_s"), request, 0.2, r.toString());
            double sum = 0;
            for (String c : List.of("cpu", "runqueue", "monitor", "park", "pool_wait", "db", "downstream", "sleep", "gc", "other")) {
                sum += Lab.num(r, "time_" + c + "_pct");
            }
            assertEquals(100, sum, 1, r.toString());
            Path raw = a.run().resolve("raw");
            assertTrue(Files.size(raw.resolve(r.get("profile_jfr"))) > 0);
            assertTrue(Files.readString(raw.resolve(r.get("profile_jfr").replace(".jfr", ".txt"))).contains("largest: "));
            // async-profiler's own interactive flame graph of the hold, linked from the report
            String flame = Files.readString(raw.resolve(r.get("profile_flame")));
            assertTrue(flame.startsWith("<!DOCTYPE html>") && flame.contains("MonitorServlet"), r.get("profile_flame"));
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
                + " \\[\\d+ of \\d+ virtual threads in 4 dumps\\], .*"), virtual.get("time_top_evidence"));
        assertTrue(Files.exists(a.run().resolve("raw").resolve(virtual.get("profile_jfr").replace(".profile.jfr", ".profile-dump-4.json"))));
        // the verdict and the report say it
        String summary = Files.readString(a.run().resolve("summary.txt"));
        summary.lines().filter(l -> l.contains("where request time goes")).forEach(System.out::println); // kept in the failsafe report
        assertTrue(summary.contains("where request time goes, monitor c=20"), summary);
        assertTrue(summary.contains("blocked on a monitor (lock vtlab.sut.servlet.MonitorServlet$Ledger"), summary);
        assertTrue(summary.contains("The largest cause stayed the same"), summary);
        String html = Files.readString(a.run().resolve("report.html"));
        assertTrue(html.contains("<h2>Where request time goes</h2>"));
        assertEquals(2, html.split("<div class=\"tbar-row\"", -1).length - 1);
        assertTrue(html.contains("<a class=\"flame\" href=\"raw/" + platform.get("profile_flame") + "\">flame graph</a>"));
    }
}
