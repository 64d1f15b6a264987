package vtlab.probe;

import java.nio.file.Files;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vtlab.data.Column;

/**
 * Native Memory Tracking's Thread category at the end of the hold (and idle, before load): what the thread stacks
 * reserve and commit.
 * The SUT is started with -XX:NativeMemoryTracking=summary and read with the JDK's jcmd where it runs (across hosts:
 * on the SUT's host); the text goes to raw/.
 */
public final class NmtProbe implements Probe {
    static final Pattern THREAD = Pattern.compile(
            "-\\s+Thread \\(reserved=(\\d+)KB, committed=(\\d+)KB\\)\\s*\\n\\s*\\(threads? #(\\d+)\\)");

    static final Column RESERVED = vtlab.data.Columns.NMT_RESERVED;
    static final Column COMMITTED = vtlab.data.Columns.NMT_COMMITTED;
    static final Column THREADS = Column.integer("nmt_threads", "threads", "threads NMT counts at the end of the hold");
    static final Column RESERVED_IDLE = vtlab.data.Columns.NMT_RESERVED_IDLE;
    static final Column COMMITTED_IDLE = vtlab.data.Columns.NMT_COMMITTED_IDLE;

    @Override
    public List<Column> columns() {
        return List.of(RESERVED, COMMITTED, RESERVED_IDLE, COMMITTED_IDLE, THREADS);
    }

    @Override
    public String name() {
        return "nmt";
    }

    /** jcmd on the SUT's host, its text brought back. */
    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public String description() {
        return "NMT Thread reserved/committed KB at the end of the hold (SUT runs with -XX:NativeMemoryTracking=summary)";
    }

    @Override
    public List<String> jvmArgs() {
        return List.of("-XX:NativeMemoryTracking=summary");
    }

    /** The SUT before any load: what its idle thread pool reserves (the footprint experiment's "before"). */
    @Override
    public void beforeLoad(ProbeContext ctx, Measurements out) throws Exception {
        Reading r = read(ctx, ".idle.nmt.txt");
        out.put(RESERVED_IDLE, r.reservedKb());
        out.put(COMMITTED_IDLE, r.committedKb());
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) throws Exception {
        Reading r = read(ctx, ".nmt.txt");
        out.put(RESERVED, r.reservedKb());
        out.put(COMMITTED, r.committedKb());
        out.put(THREADS, r.threads());
    }

    private static Reading read(ProbeContext ctx, String rawSuffix) throws Exception {
        String text = Jcmd.run(ctx.app(), ctx.row().jdk(), SUMMARY);
        Files.writeString(ctx.rawDir().resolve(ctx.stem() + rawSuffix), text);
        Reading r = parse(text);
        if (r == null) throw new IllegalStateException("no Thread category in NMT output: " + text.strip().lines().findFirst().orElse(""));
        return r;
    }

    private static final String[] SUMMARY = {"VM.native_memory", "summary"};

    /** `jcmd PID VM.native_memory summary` of a JVM of this machine started with -XX:NativeMemoryTracking=summary, as text. */
    public static String summary(vtlab.tier.tool.Jdk jdk, long pid) throws java.io.IOException, InterruptedException {
        return Jcmd.run(jdk, pid, SUMMARY);
    }

    public record Reading(long reservedKb, long committedKb, long threads) {}

    public static Reading parse(String text) {
        Matcher m = THREAD.matcher(text);
        return m.find() ? new Reading(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))) : null;
    }
}
