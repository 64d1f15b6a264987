package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import jdk.jfr.consumer.RecordingFile;

import vtlab.cli.Main;
import vtlab.tier.host.HostsFixture;

/**
 * The jcmd probes across hosts for real (as root): two test hosts, the servlet's sleep row on virtual threads with the
 * SUT on h1 and wrk on h2, probed with nmt, jfr-pinning, gc, vtdump and cpu-threads. Every one of them read the SUT
 * where it ran — NMT's figures are those of the SUT's pid, its JFR recording, GC log and thread dump came back into
 * raw/ — no probe failed, and the work folder they used there is gone with the run.
 * <p>
 * The test hosts share this machine's pids and files (network namespaces only), so a jcmd run here against the SUT's
 * pid would give the same answers: where each jcmd ran is told by the network namespace it ran in, watched while the
 * row runs, and by the paths it was given (the run's work folder there, not raw/ here).
 */
class RemoteProbesIT {
    @TempDir
    Path tmp;

    @RegisterExtension
    final HostsFixture hosts = new HostsFixture(2);

    /** A process seen while the row ran: its command line and the network namespace it ran in. */
    record Seen(long pid, String command, String netns) {}

    /** The network namespace of a process ("net:[4026532…]"), or null once it is gone. */
    static String netns(long pid) {
        try {
            return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns", "net")).toString();
        } catch (Exception e) {
            return null;
        }
    }

    /** Every jcmd and SUT that lives while it runs, polled every 10 ms (a jcmd is a JVM start: hundreds of ms). */
    static final class Watch implements AutoCloseable {
        final Map<Long, Seen> seen = new ConcurrentHashMap<>();
        final AtomicBoolean on = new AtomicBoolean(true);
        final Thread thread = Thread.ofPlatform().daemon().name("remote-probes-watch").start(() -> {
            while (on.get()) {
                ProcessHandle.allProcesses().forEach(p -> {
                    if (seen.containsKey(p.pid())) return;
                    String exe = p.info().command().orElse(""), cmd = p.info().commandLine().orElse("");
                    if (!exe.endsWith("/jcmd") && !cmd.contains("vtlab-servlet.jar")) return;
                    String ns = netns(p.pid());
                    if (ns != null) seen.putIfAbsent(p.pid(), new Seen(p.pid(), cmd, ns));
                });
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });

        @Override
        public void close() throws InterruptedException {
            on.set(false);
            thread.join();
        }
    }

    @Test
    void jcmdProbesRunOnTheSutsHostAndTheirFilesComeBack() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        String h1 = netns(hosts.sshd(1)), here = netns(ProcessHandle.current().pid());
        assertTrue(h1 != null && !h1.equals(here), "h1 has a network namespace of its own: " + h1);
        Watch watch = new Watch();
        int code;
        try (watch) {
            // a 4 MB young generation: collections within the 4 s hold, so the GC log has lines to judge
            code = Main.run(List.of("run", "servlet", "--workloads", "sleep", "--modes", "virtual", "--conc", "100",
                    "--warmup", "0s", "--hold", "4s", "--reps", "1", "--probes", "cpu,nmt,jfr-pinning,gc,vtdump,cpu-threads",
                    "--jvm-args", "-Xms128m -Xmx128m -Xmn4m",
                    "--hosts", hosts.file().toString(), "--port", Integer.toString(Lab.freePort()), "--out", tmp.toString()), new PrintStream(buf, true));
        }
        String console = buf.toString();
        Path run = Lab.onlyRun(tmp);
        List<Map<String, String>> rows = Lab.rows(run);
        assertEquals(1, rows.size(), console);
        Map<String, String> r = rows.getFirst();
        // a row the machine's noise flagged still has its probes' columns: what is asserted here
        assertEquals(0, code, console);
        assertTrue(r.get("note") == null || !r.get("note").contains("probe errors"), r.get("note"));

        Path raw = run.resolve("raw");
        String stem = r.get("raw").replace(".wrk.txt", "");
        long pid = new ObjectMapper().readTree(raw.resolve(stem + ".runtime-info.json").toFile()).path("pid").asLong();
        assertTrue(pid > 0, "the SUT says its pid");

        // the SUT ran on h1, and every jcmd against it ran there too, given paths in the run's work folder there
        Seen sut = watch.seen.get(pid);
        assertTrue(sut != null && sut.command().contains("vtlab-servlet.jar"), "the SUT's process was seen: " + watch.seen.values());
        assertEquals(h1, sut.netns(), "the SUT ran in h1's namespace");
        List<Seen> jcmds = watch.seen.values().stream().filter(x -> x.command().matches(".*/jcmd " + pid + " .*")).toList();
        assertTrue(jcmds.size() >= 3, "the probes' jcmd calls against the SUT were seen (NMT twice, JFR, VM.log, Thread.print ...): " + watch.seen.values());
        for (Seen j : jcmds) assertEquals(h1, j.netns(), "a jcmd ran on h1, not here: " + j.command());
        for (Seen j : jcmds) {
            for (String word : j.command().split(" ")) {
                if (word.startsWith("filename=") || word.startsWith("output=file=") || word.startsWith("settings=")) {
                    String path = word.substring(word.lastIndexOf('=') + 1);
                    assertTrue(path.startsWith("/tmp/vtlab-") && !path.startsWith(run.toString()), "a file of the work folder on h1, not raw/ here: " + j.command());
                }
            }
        }

        // NMT: the SUT's own figures (jcmd answers "PID:" first), before the load and at its end
        for (String col : List.of("nmt_thread_reserved_kb", "nmt_thread_committed_kb", "nmt_thread_reserved_kb_idle", "nmt_thread_committed_kb_idle", "nmt_threads")) {
            assertTrue(Lab.num(r, col) > 0, col + ": " + r.get(col));
        }
        for (String nmt : List.of(".idle.nmt.txt", ".nmt.txt")) {
            assertEquals(pid + ":", Files.readString(raw.resolve(stem + nmt)).lines().findFirst().orElse(""), nmt);
        }

        // JFR: the recording made on h1 is in raw/, a recording with the pinned event's type; sleeping pins nothing
        Path jfr = raw.resolve(stem + ".pinning.jfr");
        assertTrue(Files.size(jfr) > 0, jfr.toString());
        try (RecordingFile f = new RecordingFile(jfr)) {
            assertTrue(f.readEventTypes().stream().anyMatch(t -> t.getName().equals("jdk.VirtualThreadPinned")));
        }
        // a sleep pins nothing; JDK 25 can still report a pin outside the servlet's code when a freeze fails (a fresh clone
        // saw one, 0.1 ms, "Freeze or preempt failed (2)" at Tomcat's NioChannel.read): the sleep's own frames never pinned
        assertTrue(Lab.num(r, "pinned_events") == 0 || !r.get("pinned_top_frame").contains("vtlab.sut.") && Lab.num(r, "pinned_total_ms") < 10,
                r.toString());

        // gc log, thread dump, thread names: theirs too. The GC log came back from h1 with the hold's collections in it,
        // each a line of unified logging, and the row's pauses are the log's
        String gc = Files.readString(raw.resolve(stem + ".gc.log"));
        List<String> lines = gc.lines().toList();
        assertFalse(lines.isEmpty(), "the GC log has lines");
        assertTrue(lines.stream().allMatch(l -> l.startsWith("[")), "unified logging's lines, decorated: " + gc);
        long pauses = lines.stream().filter(l -> l.matches("^\\[[^]]+]\\[[^]]+] GC\\(\\d+\\) Pause .*ms$")).count();
        assertTrue(pauses > 0, "collections in the hold with a 4 MB young generation: " + gc);
        assertEquals(pauses, Lab.num(r, "gc_pauses"), 0, "the row's pauses are the log's: " + r.get("gc_pauses"));
        assertTrue(Lab.num(r, "stw_max_ms") > 0 && !r.get("stw_max_cause").isEmpty(), r.toString());
        assertTrue(Lab.num(r, "vthreads_dump") > 0, "requests on virtual threads at mid-hold: " + r.get("vthreads_dump"));
        assertTrue(Files.readString(raw.resolve(stem + ".threads.json")).contains("\"threadDump\""));
        assertTrue(r.get("app_cpu_by_thread").contains("requests "), r.get("app_cpu_by_thread"));

        // nothing left: each namespace runs only its sshd, no work folder of this JVM's runs is left in /tmp
        for (int i = 1; i <= 2; i++) assertEquals(List.of(), hosts.besidesSshd(i, Duration.ofSeconds(10)));
        assertEquals(List.of(), HostsFixture.workFoldersLeft());
    }
}
