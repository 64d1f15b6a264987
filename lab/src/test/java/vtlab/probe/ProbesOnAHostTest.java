package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.RowValues;
import vtlab.plan.Row;
import vtlab.proc.Env;
import vtlab.tier.tool.Jdk;
import vtlab.tier.host.TierProcess;
import vtlab.tier.host.FileSession;
import vtlab.tier.host.RecordingHost;

/**
 * The jcmd probes take one path for a JVM here and one on a host: run on this JVM twice, once as this machine's
 * process and once as a process on a host (this machine, every command and copy recorded), they fill the same
 * columns, their raw files land in raw/ both times, and on the host every jcmd ran through it, every file the JVM
 * wrote was copied back and removed there.
 */
class ProbesOnAHostTest {
    @TempDir
    Path tmp;

    static final List<String> JCMD_PROBES = List.of("gc", "jfr-pinning", "vtdump", "cpu-threads");

    /** A virtual row (jfr-pinning records only those) of this JVM's JDK, a one-second hold (vtdump dumps at its half). */
    static Row row() {
        return Row.builder().experiment("servlet").stack("servlet").threadMode("virtual").workload("hello").concurrency(10).rep(1)
                .jdk(Jdk.current()).sutEnv(Env.NONE.with("THREAD_MODE", "virtual")).warmup(Duration.ZERO).hold(Duration.ofSeconds(1)).build();
    }

    /** The probes through a row's calls against jvm, as ProbeSession calls them; their values. */
    static RowValues probe(TierProcess jvm, Path raw) throws Exception {
        List<Probe> probes = Probes.create(JCMD_PROBES);
        ProbeContext ctx = new ProbeContext(row(), Map.of("app", jvm), Map.of("app", 1), URI.create("http://127.0.0.1:1"), raw, "001");
        Measurements out = new Measurements();
        for (Probe p : probes) p.beforeLoad(ctx, out);
        for (Probe p : probes) p.start(ctx);
        System.gc(); // a pause in the gc log
        for (Probe p : probes) p.sample(ctx, 1, out);
        for (Probe p : probes) p.stop(ctx);
        for (Probe p : probes) p.finish(ctx, out);
        return out.columns();
    }

    static List<String> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theJcmdProbesGiveTheSameReadingsHereAndThroughAHost() throws Exception {
        Path rawHere = Files.createDirectories(tmp.resolve("here/raw"));
        RowValues here = probe(TierProcess.local(ProcessHandle.current()), rawHere);

        RecordingHost host = new RecordingHost();
        Path rawThere = Files.createDirectories(tmp.resolve("there/raw")), work = Files.createDirectories(tmp.resolve("there/work"));
        RowValues there;
        try (FileSession session = new FileSession(host)) {
            there = probe(TierProcess.on(session, ProcessHandle.current().pid(), () -> true, work.toString(), "0"), rawThere);
        }

        for (RowValues v : List.of(here, there)) {
            assertTrue(((Number) v.get(GcProbe.PAUSES)).longValue() >= 1, "System.gc() paused: " + v);
            assertEquals(0L, ((Number) v.get(JfrPinningProbe.EVENTS)).longValue(), "nothing pinned: " + v);
            assertTrue(((Number) v.get(VirtualThreadDumpProbe.VTHREADS)).longValue() >= 0, v.toString());
            assertFalse(((String) v.get(CpuByThreadProbe.BY_THREAD)).isEmpty(), v.toString());
        }
        List<String> raw = List.of("001.gc.log", "001.pinning.jfc", "001.pinning.jfr", "001.threads.json", "001.threads.txt");
        assertEquals(raw, files(rawHere));
        assertEquals(raw, files(rawThere), "the host's files copied back into raw/");
        assertEquals(List.of("001.pinning.jfc"), files(work), "what the JVM wrote there is removed once copied; the settings it read stay");
        assertTrue(Files.readString(rawThere.resolve("001.gc.log")).contains("Pause Full (System.gc())"));

        // every jcmd through the host (the JDK's own), the threads' /proc through its session, each file copied
        String jcmd = Jdk.current().home().resolve("bin/jcmd").toString();
        List<String> verbs = host.commands.stream().filter(c -> c.contains(jcmd)).map(c -> c.get(c.indexOf(jcmd) + 2)).toList();
        assertEquals(List.of("JFR.start", "VM.log", "Thread.dump_to_file", "VM.log", "JFR.dump", "JFR.stop", "Thread.print"), verbs);
        assertEquals(List.of("to " + work + "/001.pinning.jfc", "from " + work + "/001.threads.json", "from " + work + "/001.gc.log",
                "from " + work + "/001.pinning.jfr"), host.copies);
    }
}
