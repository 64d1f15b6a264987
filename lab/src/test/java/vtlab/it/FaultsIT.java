package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.cli.Main;

/** Ctrl-C / SIGTERM and a dying SUT: nothing left running, no finished row lost. */
class FaultsIT {
    @TempDir
    Path out;

    static boolean isSut(ProcessHandle p) {
        return p.info().commandLine().orElse("").contains("vtlab-servlet.jar");
    }

    /** Ctrl-C on ./vtlab run as a user types it: exit code 130, every tier and generator stopped, the run marked incomplete. */
    @Test
    void ctrlCExits130AndLeavesNothingRunning() throws Exception {
        Path dir = Files.createDirectories(out.resolve("ctrl-c"));
        // a terminal's Ctrl-C reaches a program whose SIGINT is not ignored; a suite started in the background (a
        // non-interactive shell's `&`, some CI runners) passes SIGINT ignored down to every child, and a JVM keeps an
        // ignored SIGINT ignored: env gives the launcher the default disposition, as a terminal would
        ProcessBuilder pb = new ProcessBuilder("env", "--default-signal=INT", "bash", Lab.home().resolve("vtlab").toString(), "run", "servlet", "--workloads", "sleep",
                "--conc", "50", "--warmup", "1s", "--warmup-max", "0s", "--hold", "20s", "--reps", "1", "--modes", "platform",
                "--port", Integer.toString(Lab.freePort()), "--out", dir.toString());
        pb.environment().put("VTLAB_NO_BUILD", "1");
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process lab = pb.redirectErrorStream(true).redirectOutput(dir.resolve("console.txt").toFile()).start();
        try {
            List<ProcessHandle> children = List.of();
            // until the SUT is under load: the clock is the run's own, it cannot end by itself before its 20 s hold does
            while (lab.isAlive()) {
                Thread.sleep(200);
                children = lab.descendants().toList();
                if (children.stream().anyMatch(FaultsIT::isSut)
                        && children.stream().anyMatch(p -> p.info().command().orElse("").endsWith("wrk"))) break;
            }
            assertTrue(lab.isAlive() && children.stream().anyMatch(FaultsIT::isSut), "the SUT was under load: " + Files.readString(dir.resolve("console.txt")));
            Process k = new ProcessBuilder("kill", "-INT", Long.toString(lab.pid())).start(); // the launcher exec'd the lab's JVM
            assertEquals(0, k.waitFor());
            assertTrue(lab.waitFor(30, TimeUnit.SECONDS), "the lab stops promptly");
            assertEquals(130, lab.exitValue(), Files.readString(dir.resolve("console.txt")));
            Thread.sleep(500);
            for (ProcessHandle c : children) assertFalse(c.isAlive(), "left behind: " + c.info().commandLine().orElse("?"));
            assertTrue(Files.exists(Lab.onlyRun(dir).resolve("INCOMPLETE")));
        } finally {
            lab.destroyForcibly();
        }
    }

    @Test
    void sigtermStopsEveryChildAndKeepsFinishedRows() throws Exception {
        Process lab = Lab.cli(List.of("run", "servlet", "--workloads", "sleep", "--conc", "50", "--warmup", "1s", "--warmup-max", "0s",
                "--hold", "3s", "--reps", "5", "--port", Integer.toString(Lab.freePort()), "--out", out.toString()))
                .redirectErrorStream(true).redirectOutput(out.resolve("console.txt").toFile()).start();
        try {
            // wait for one finished row and the next row's SUT to be up
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            List<ProcessHandle> children = List.of();
            while (System.nanoTime() < deadline) {
                Thread.sleep(300);
                List<Path> runs = Files.list(out).filter(Files::isDirectory).toList();
                boolean oneRow = !runs.isEmpty() && Lab.rows(runs.getFirst()).size() >= 1;
                children = lab.descendants().toList();
                if (oneRow && children.stream().anyMatch(FaultsIT::isSut)) break;
            }
            assertTrue(children.stream().anyMatch(FaultsIT::isSut), "a SUT was running: " + Files.readString(out.resolve("console.txt")));
            lab.destroy(); // SIGTERM, as kill or a CI timeout sends it
            assertTrue(lab.waitFor(30, TimeUnit.SECONDS), "the lab stops promptly");
            Thread.sleep(500);
            for (ProcessHandle c : children) assertFalse(c.isAlive(), "left behind: " + c.info().commandLine().orElse("?"));

            Path run = Lab.onlyRun(out);
            List<Map<String, String>> rows = Lab.rows(run);
            assertTrue(rows.size() >= 1 && rows.size() < 10);
            for (Map<String, String> r : rows) {
                assertEquals(vtlab.run.MatrixSchema.full().size(), r.size());
                assertEquals("ok", r.get("status"), r.toString()); // only whole rows: the cut row is not written
                assertTrue(Double.parseDouble(r.get("throughput_rps")) > 0);
            }
            assertTrue(Files.exists(run.resolve("INCOMPLETE")));
            assertTrue(Files.readString(run.resolve("environment.json")).contains("\"status\" : \"incomplete\""));
        } finally {
            lab.destroyForcibly();
        }
    }

    @Test
    void aSutDyingMidRowFailsThatRowAndTheRunGoesOn() throws Exception {
        // kill -9 the first SUT while it is under load; the second row must still be measured
        java.util.concurrent.Future<Boolean> killed = Lab.watcher("kill-sut", () -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                var sut = ProcessHandle.current().descendants().filter(FaultsIT::isSut).findFirst();
                boolean loaded = ProcessHandle.current().descendants().anyMatch(p -> p.info().command().orElse("").endsWith("wrk"));
                if (sut.isPresent() && loaded) {
                    try {
                        Thread.sleep(1500); // into the measured phase
                    } catch (InterruptedException e) {
                        return false;
                    }
                    return sut.get().destroyForcibly();
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return false;
                }
            }
            return false;
        });
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        // thresholds every row breaches (the sleep is 50 ms): failed rows still win, exit 1 not 99
        int code = Main.run(List.of("run", "servlet", "--workloads", "sleep", "--modes", "platform,virtual", "--conc", "50",
                "--warmup", "0s", "--hold", "4s", "--reps", "1", "--port", Integer.toString(Lab.freePort()),
                "--fail-on", "p50_ms>1", "--out", out.toString()), new PrintStream(buf, true));
        assertTrue(killed.get(), "the test found and killed the SUT");
        assertEquals(1, code, "a run whose rows failed exits 1: " + buf);
        String summary = Files.readString(Lab.onlyRun(out).resolve("summary.json"));
        assertTrue(summary.contains("\"breached\" : true") && summary.contains("\"failed_rows\""), summary);
        List<Map<String, String>> rows = Lab.rows(Lab.onlyRun(out));
        assertEquals(2, rows.size(), buf.toString());
        assertEquals("failed", rows.get(0).get("status"));
        assertTrue(rows.get(0).get("note").contains("SUT died"), rows.get(0).get("note"));
        assertEquals("", rows.get(0).get("throughput_rps"), "a failed row never carries numbers");
        // the run went on: the next row ran whole and carries its numbers (whether they are evidence is the machine's
        // say, a flag of its own: a 4 s hold with no warm-up on a VM that lost CPU to the hypervisor once was not)
        assertTrue(List.of("ok", "flagged").contains(rows.get(1).get("status")), rows.get(1).toString());
        assertFalse(rows.get(1).get("throughput_rps").isBlank(), rows.get(1).toString());
        assertTrue(buf.toString().contains("FAILED"), buf.toString());
        assertTrue(ProcessHandle.current().descendants().noneMatch(FaultsIT::isSut));
    }

    @Test
    void badInputExitsWithCodeTwoAndOneLine() throws Exception {
        // through the launcher, with the machine's default java (17) on PATH: it must find JDK >= 25 by itself
        ProcessBuilder pb = new ProcessBuilder("bash", Lab.home().resolve("vtlab").toString(), "run", "servlet", "--conc", "zero");
        pb.environment().put("VTLAB_NO_BUILD", "1");
        pb.environment().remove("JAVA_HOME");
        Process p = pb.redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes());
        assertEquals(2, p.waitFor(), text);
        assertEquals("vtlab: --conc takes positive whole numbers, not 'zero'", text.strip());
    }
}
