package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.cli.Main;
import vtlab.load.generator.Generators;
import vtlab.load.LoadModel;
import vtlab.data.LatencyHistogram;

/**
 * Coordinated omission, end to end: the SUT is frozen for 1 s (SIGSTOP, then SIGCONT) in the middle of a 10 s hold.
 * Under the open model (1,000 req/s, latency from each request's intended send time) the ~1,000 requests due during
 * the pause all wait, so the tail shows the stall; under the closed model each of the 10 connections has one request
 * stuck and sends nothing more, so at most 10 requests are slow and the tail hides it.
 *
 * The closed half runs hey, not wrk: wrk corrects its histogram for coordinated omission (stats_correct backfills
 * samples at the per-connection interval), which would put a similar tail into the closed row and blur the contrast
 * this test is about.
 */
@org.junit.jupiter.api.Tag("oha") // open-model rows with the default generator: ./vtlab test runs these once oha is built
class CoordinatedOmissionIT {
    static final int PAUSE_MS = 1000;
    /** Into the hold before the pause, so the pause is mid-hold and the SUT has 5 s to catch up before the end. */
    static final int PAUSE_AFTER_MS = 4000;

    @TempDir
    Path out;

    static boolean isSut(ProcessHandle p) {
        return p.info().commandLine().orElse("").contains("vtlab-servlet.jar");
    }

    static boolean isTool(ProcessHandle p, String tool) {
        String cmd = p.info().command().orElse("");
        return cmd.equals(tool) || cmd.endsWith("/" + tool);
    }

    @Test
    void aStalledServerShowsInTheOpenModelsTailAndHidesInTheClosedOnes() throws Exception {
        // oha (built on first use) and hey (apt) are installed by the lab itself, as for a user
        assertTrue(Generators.all().get("oha").get().models().contains(LoadModel.OPEN), "oha runs the open model");

        Map<String, String> open = runPaused("open", "oha", List.of("--load-model", "open", "--rates", "1000",
                "--max-in-flight", "2000", "--generator", "oha"));
        assertEquals("open", open.get("load_model"));
        assertEquals(1000.0, Lab.num(open, "target_rps"), 1e-9);
        assertNotEquals("failed", open.get("status"), open.toString());
        // the ~1,000 requests due during the 1 s pause wait from 1 s down to 0: the slowest 1 % of 10,000 are ~0.9-1 s
        double openP99 = Lab.num(open, "p99_ms");
        assertTrue(openP99 >= 800, "open p99 shows the stall: " + openP99 + " ms; " + open);
        // the row's whole histogram: every request due in the pause waited, from ~1 s down; ~500 of them over 500 ms
        Histogram h = LatencyHistogram.read(Lab.onlyRun(out.resolve("open")).resolve("raw").resolve(open.get("histogram")));
        long slow = LatencyHistogram.countAbove(h, 500);
        assertTrue(slow >= 400, slow + " requests slower than 500 ms; " + open);

        Map<String, String> closed = runPaused("closed", "hey", List.of("--conc", "10", "--generator", "hey"));
        assertEquals("closed", closed.get("load_model"));
        assertNotEquals("failed", closed.get("status"), closed.toString());
        double closedP99 = Lab.num(closed, "p99_ms");
        // 10 stuck requests of ~18,000: far below 1 %, so the closed p99 stays near the 5 ms service time
        assertTrue(closedP99 * 4 < openP99, "closed p99 " + closedP99 + " ms should be far below open p99 " + openP99 + " ms");
        assertTrue(Lab.num(closed, "max_ms") >= 800, "the closed model did see the pause, in its few stuck requests: " + closed);
    }

    /**
     * One row of the sleep servlet (virtual threads, 5 ms) with no warm-up, so the generator's only run is the hold;
     * the SUT is paused {@link #PAUSE_AFTER_MS} into it.
     */
    private Map<String, String> runPaused(String name, String tool, List<String> load) throws Exception {
        Path dir = Files.createDirectories(out.resolve(name));
        // the watcher's clock is the run itself: it waits for the SUT and the generator as long as the run lasts (a tool
        // install or a slow start-up can no longer outlast it), and gives up only when the run has ended
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.Future<Boolean> paused = Lab.watcher("pause-sut", () -> pauseSutUnder(tool, running));
        List<String> args = new ArrayList<>(List.of("run", "servlet", "--workloads", "sleep", "--sleep-ms", "5", "--modes", "virtual",
                "--warmup", "0s", "--warmup-max", "0s", "--hold", "10s", "--reps", "1", "--no-probes",
                "--port", Integer.toString(Lab.freePort()), "--out", dir.toString()));
        args.addAll(load);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int code;
        try {
            code = Main.run(args, new PrintStream(buf, true));
        } finally {
            running.set(false);
        }
        assertTrue(paused.get(30, TimeUnit.SECONDS), "the test paused the SUT under " + tool + ": " + buf);
        assertEquals(0, code, buf.toString());
        List<Map<String, String>> rows = Lab.rows(Lab.onlyRun(dir));
        assertEquals(1, rows.size(), buf.toString());
        return rows.getFirst();
    }

    /**
     * Waits for the SUT and the generator, then SIGSTOP / SIGCONT the SUT; true once it was paused and resumed, false
     * when the run ended before both were up.
     */
    private static boolean pauseSutUnder(String tool, java.util.concurrent.atomic.AtomicBoolean running) {
        try {
            while (running.get()) {
                var sut = ProcessHandle.current().descendants().filter(CoordinatedOmissionIT::isSut).findFirst();
                boolean loaded = ProcessHandle.current().descendants().anyMatch(p -> isTool(p, tool));
                if (sut.isPresent() && loaded) {
                    Thread.sleep(PAUSE_AFTER_MS);
                    String pid = Long.toString(sut.get().pid());
                    signal("-STOP", pid);
                    try {
                        Thread.sleep(PAUSE_MS);
                    } finally {
                        signal("-CONT", pid); // never leave a stopped SUT behind
                    }
                    return true;
                }
                Thread.sleep(50);
            }
            return false;
        } catch (Exception e) {
            return false;
        }
    }

    private static void signal(String sig, String pid) throws Exception {
        Process k = new ProcessBuilder("kill", sig, pid).redirectErrorStream(true).start();
        if (k.waitFor() != 0) throw new IllegalStateException("kill " + sig + " " + pid + ": " + new String(k.getInputStream().readAllBytes()));
    }
}
