package vtlab.tier.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import vtlab.proc.Commands;

/**
 * Two test hosts made for real (as root): ssh and scp through {@link Host} reach each namespace, the commands run
 * inside it, files go there and back, the clock offset of a host that shares this machine's clock is within its
 * uncertainty, a key the hosts do not know is refused without a prompt, and down leaves no namespace, link or process.
 * (Not named Test*: surefire would take it for a unit test.)
 */
class HostsIT {
    @TempDir
    Path tmp;

    @RegisterExtension
    final HostsFixture fixture = new HostsFixture(2);

    @Test
    void twoHostsAnswerOverSshAndLeaveNothingBehind() throws Exception {
        TestHosts hosts = fixture.hosts();
        Path file = fixture.file();
        Topology t = fixture.topology();
        assertEquals(List.of("vtlab-h1", "vtlab-h2"), TestHosts.namespaces().stream().sorted().toList());
        assertEquals("root@10.77.0.11", t.sut().where());
        assertEquals(List.of("root@10.77.0.12"), t.load().stream().map(HostSpec::where).toList());
        assertEquals(t, Topology.read(file), "the file written is the topology returned");

        // ssh reaches each namespace: its own address on its eth0, this machine's /proc (one kernel)
        List<HostSpec> remote = List.of(t.sut(), t.load().getFirst());
        for (int i = 0; i < remote.size(); i++) {
            Host h = Host.of(remote.get(i));
            assertTrue(h instanceof SshHost);
            String addr = h.output(List.of("ip", "-4", "-o", "addr", "show", "dev", "eth0"), Duration.ofSeconds(20));
            assertTrue(addr.contains("inet " + TestHosts.address(i + 1) + "/24"), addr);
            assertFalse(h.output(List.of("hostname"), Duration.ofSeconds(20)).isBlank());
            assertTrue(h.read("/proc/cpuinfo").contains("processor"));
            assertEquals(new LocalHost().facts().cpus(), h.facts().cpus());
            assertEquals(new LocalHost().facts().kernel(), h.facts().kernel());
        }
        // what environment.json records of each host: pg and stub share the local entry
        List<java.util.Map<String, Object>> survey = HostSurvey.of(t);
        assertEquals(List.of("root@10.77.0.11", "local", "root@10.77.0.12"), survey.stream().map(m -> m.get("host")).toList());
        assertEquals(List.of("pg", "stub"), survey.get(1).get("roles"));
        assertTrue(HostSurvey.allReached(survey), survey.toString());
        for (var m : survey) {
            assertEquals(new LocalHost().facts().cpus(), m.get("cpus"), m.toString());
            assertTrue(Math.abs((double) m.get("clock_offset_ms")) <= (double) m.get("clock_uncertainty_ms") + 5, m.toString());
        }
        assertEquals(List.of("0"), survey.getFirst().get("pinned_cpus"));

        Host sut = Host.of(t.sut());
        assertEquals("it's \"quoted\" $HOME\n", sut.output(List.of("printf", "%s\\n", "it's \"quoted\" $HOME"), Duration.ofSeconds(20)));
        assertEquals(3, sut.run(List.of("sh", "-c", "exit 3"), Duration.ofSeconds(20)).code());

        // scp there and back (the namespaces share this machine's files: the copy lands where we can see it)
        Path jar = Files.writeString(tmp.resolve("app.jar"), "not really a jar\n".repeat(1000));
        Path there = tmp.resolve("copied-to-h1.jar"), back = tmp.resolve("copied-back.jar");
        sut.copyTo(jar, there.toString(), Duration.ofSeconds(30));
        assertEquals(Files.readString(jar), Files.readString(there));
        sut.copyFrom(there.toString(), back, Duration.ofSeconds(30));
        assertEquals(Files.readString(jar), Files.readString(back));
        IOException missing = assertThrows(IOException.class, () -> sut.copyFrom(tmp.resolve("none").toString(), back, Duration.ofSeconds(30)));
        assertTrue(missing.getMessage().startsWith("root@10.77.0.11: "), missing.getMessage());

        // one clock: the measured offset is within the exchange's uncertainty (and a few ms of scheduling)
        ClockOffset o = sut.clockOffset(5);
        assertTrue(Math.abs(o.offsetMs()) <= o.uncertaintyMs() + 5, o.toString());

        // a key the hosts were not given: refused at once, no password prompt (BatchMode)
        Path stranger = tmp.resolve("stranger");
        Commands.run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", stranger.toString()), Duration.ofSeconds(20));
        Host refused = Host.of(new HostSpec("sut", t.sut().destination(), stranger, t.sut().knownHosts(), null));
        Commands.Result r = refused.run(List.of("true"), Duration.ofSeconds(20));
        assertEquals(255, r.code(), r.output());
        assertTrue(r.output().contains("Permission denied"), r.output());

        // something left running on a host (a stray load agent) goes with it
        Process stray = Host.of(t.load().getFirst()).start(List.of("sleep", "300"));
        List<ProcessHandle> inside = new ArrayList<>();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline && inside.stream().noneMatch(p -> p.info().command().orElse("").endsWith("sleep"))) {
            inside.clear();
            inside.addAll(HostsFixture.pids("vtlab-h2"));
            Thread.sleep(100);
        }
        assertTrue(inside.stream().anyMatch(p -> p.info().command().orElse("").endsWith("sleep")), "sleep runs in vtlab-h2: " + inside);
        inside.addAll(HostsFixture.pids("vtlab-h1"));

        List<String> removed = hosts.down();
        assertTrue(removed.containsAll(List.of("vtlab-br0")) && removed.stream().anyMatch(s -> s.startsWith("vtlab-h2 (")), removed.toString());
        assertEquals(List.of(), HostsFixture.remains(), "no namespace, bridge or link left");
        for (ProcessHandle p : inside) {
            p.onExit().get(5, java.util.concurrent.TimeUnit.SECONDS);
            assertFalse(p.isAlive(), p + " " + p.info());
        }
        assertTrue(stray.waitFor(10, java.util.concurrent.TimeUnit.SECONDS), "the local ssh client ends with its host");
        assertEquals(List.of(), hosts.down(), "down again: nothing left to remove");
    }
}
