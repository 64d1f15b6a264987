package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.cli.Main;
import vtlab.tier.host.HostsFixture;
import vtlab.tier.host.TestHosts;

/**
 * A load agent's host cut off mid-row (as root): three test hosts, two rows of the servlet's sleep workload with the
 * SUT on h1 and agents on h2 and h3; one second into the first row's hold this machine's end of h3's link goes down (a
 * pulled cable: ssh neither fails nor answers). The row fails within a bounded time naming the agent, its host and
 * why; h3 still silent after it, the run stops: the second row is in matrix.csv as not run, the exit code is 1, no
 * ssh, scp or wrk is left on this machine; with the link back up nothing of the run is left on any host, and hosts
 * down leaves nothing at all (docs/design.md, "A host lost mid-run").
 */
class HostLostIT {
    @TempDir
    Path tmp;

    @RegisterExtension
    final HostsFixture hosts = new HostsFixture(3);

    @Test
    void aLoadAgentsHostLostMidRowFailsThatRowByNameAndTheRunStops() throws Exception {
        long t0 = System.nanoTime();
        Path out = tmp.resolve("out");
        AtomicLong cutAt = new AtomicLong();
        // the cutter's clock is the run itself: it waits for agent2's wrk as long as the run goes on (copying the jars and
        // starting the SUT on h1 may take longer on a slow machine than any fixed budget), and gives up when it has ended
        AtomicBoolean running = new AtomicBoolean(true);
        // the cut: one second after agent2's wrk of the first hold started (no warm-up: the first wrk is the hold's)
        Thread cutter = Thread.ofPlatform().daemon().start(() -> {
            try {
                while (running.get() && !started(out, "agent2")) Thread.sleep(100);
                // its wrk running inside h3, not only its command written: a cut while the lab still starts it is
                // another case (the row fails naming the agent all the same), this test's is a cut in the hold
                while (running.get() && HostsFixture.pids(TestHosts.namespace(3)).stream()
                        .noneMatch(h -> h.info().command().orElse("").endsWith("/wrk"))) Thread.sleep(50);
                if (!running.get()) return;
                Thread.sleep(1000);
                hosts.linkDown(3);
                cutAt.set(System.nanoTime());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int code;
        try {
            code = Main.run(List.of("run", "servlet", "--workloads", "sleep", "--modes", "platform,virtual", "--conc", "40",
                    "--warmup", "0s", "--warmup-max", "0s", "--hold", "6s", "--reps", "1", "--hosts", hosts.file().toString(),
                    "--port", Integer.toString(Lab.freePort()), "--out", out.toString()), new PrintStream(buf, true));
        } finally {
            running.set(false);
        }
        long ended = System.nanoTime();
        cutter.join(5_000);
        String console = buf.toString();
        System.out.printf("HostLostIT: h3 cut off %.1f s into the run, which ended %.1f s after the cut%n%s",
                (cutAt.get() - t0) / 1e9, (ended - cutAt.get()) / 1e9, console);
        assertTrue(cutAt.get() > 0, "h3 was cut off during the run: " + console);
        double afterCut = (ended - cutAt.get()) / 1e9;
        assertTrue(afterCut < 35, "the run ended " + afterCut + " s after the cut: " + console);

        // the row failed naming the agent, its host and why; the run stopped: the second row not run, exit code 1
        assertEquals(1, code, console);
        Path run = Lab.onlyRun(out);
        List<Map<String, String>> rows = Lab.rows(run);
        assertEquals(2, rows.size(), console);
        assertEquals("failed", rows.get(0).get("status"), rows.get(0).toString());
        assertTrue(rows.get(0).get("note").startsWith("load agent agent2 (root@10.77.0.13): host unreachable: "), rows.get(0).get("note"));
        assertEquals("platform", rows.get(0).get("thread_mode"));
        assertEquals("failed", rows.get(1).get("status"), rows.get(1).toString());
        assertEquals("virtual", rows.get(1).get("thread_mode"));
        assertTrue(rows.get(1).get("note").startsWith("not run: the run stopped: root@10.77.0.13 (load) does not answer: "), rows.get(1).get("note"));
        assertTrue(console.contains("vtlab: run stopped after row 1 of 2: root@10.77.0.13 (load) does not answer"), console);
        assertTrue(console.contains("1 row(s) failed, 1 not run (the run stopped): exit code 1"), console);
        JsonNode env = new ObjectMapper().readTree(run.resolve("environment.json").toFile());
        assertEquals("stopped", env.path("status").asText(), env.toString());
        assertEquals(1, env.path("rows_not_run").asInt(), env.toString());
        // agent1's own output of the row is kept in raw/ beside the failure
        try (Stream<Path> raw = Files.list(run.resolve("raw"))) {
            assertTrue(raw.anyMatch(p -> p.getFileName().toString().endsWith(".agent1.wrk.cmd")), "agent1's command in raw/");
        }

        // nothing of the run left on this machine: no ssh, scp or wrk under this JVM
        List<String> local = List.of();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            local = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                    .map(p -> p.info().command().orElse("?")).filter(c -> c.matches(".*/(ssh|scp|wrk)$")).toList();
            if (local.isEmpty()) break;
            Thread.sleep(200);
        }
        assertEquals(List.of(), local, "left running on this machine");

        // the host back: nothing of the run on any host (its sessions given up there too), no work folder left
        hosts.linkUp(3);
        for (int i = 1; i <= 3; i++) assertEquals(List.of(), hosts.besidesSshd(i, Duration.ofSeconds(10)), TestHosts.namespace(i) + " runs more than its sshd");
        assertEquals(List.of(), HostsFixture.workFoldersLeft());
        hosts.hosts().down();
        assertEquals(List.of(), HostsFixture.remains(), "hosts down leaves nothing");
    }

    /** Whether an agent's wrk of the run under out has started (its command is written just before it starts). */
    private static boolean started(Path out, String agent) throws java.io.IOException {
        if (!Files.isDirectory(out)) return false;
        try (Stream<Path> all = Files.walk(out)) {
            return all.anyMatch(p -> p.getFileName().toString().endsWith("." + agent + ".wrk.cmd"));
        } catch (java.io.UncheckedIOException e) {
            return false; // a file went while the walk passed: look again
        }
    }
}
