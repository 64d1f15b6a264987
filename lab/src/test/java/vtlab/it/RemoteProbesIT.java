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
 */
class RemoteProbesIT {
    @TempDir
    Path tmp;

    @RegisterExtension
    final HostsFixture hosts = new HostsFixture(2);

    @Test
    void jcmdProbesRunOnTheSutsHostAndTheirFilesComeBack() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int code = Main.run(List.of("run", "servlet", "--workloads", "sleep", "--modes", "virtual", "--conc", "100",
                "--warmup", "0s", "--hold", "4s", "--reps", "1", "--probes", "cpu,nmt,jfr-pinning,gc,vtdump,cpu-threads",
                "--hosts", hosts.file().toString(), "--port", Integer.toString(Lab.freePort()), "--out", tmp.toString()), new PrintStream(buf, true));
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
        assertEquals("0", r.get("pinned_events"), r.toString());

        // gc log, thread dump, thread names: theirs too
        // a 4 s hold may have no GC and no safepoint: its log came back (written on h1), and what it has is the JVM's
        String gc = Files.readString(raw.resolve(stem + ".gc.log"));
        assertTrue(gc.lines().allMatch(l -> l.startsWith("[")), "unified logging's lines, decorated: " + gc);
        assertTrue(Lab.num(r, "gc_pauses") >= 0 && Lab.num(r, "stw_max_ms") >= 0, r.toString());
        assertTrue(Lab.num(r, "vthreads_dump") > 0, "requests on virtual threads at mid-hold: " + r.get("vthreads_dump"));
        assertTrue(Files.readString(raw.resolve(stem + ".threads.json")).contains("\"threadDump\""));
        assertTrue(r.get("app_cpu_by_thread").contains("requests "), r.get("app_cpu_by_thread"));

        // nothing left: each namespace runs only its sshd, no work folder of this JVM's runs is left in /tmp
        for (int i = 1; i <= 2; i++) assertEquals(List.of(), hosts.besidesSshd(i, Duration.ofSeconds(10)));
        assertEquals(List.of(), HostsFixture.workFoldersLeft());
    }
}
