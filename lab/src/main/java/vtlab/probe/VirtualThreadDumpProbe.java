package vtlab.probe;

import java.util.List;

import vtlab.data.Column;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One JSON thread dump of the SUT in the middle of the hold (jstack does not show virtual threads; this does):
 * the count of virtual threads goes to vthreads_dump, the summary and the dump to raw/ (across hosts: taken on the
 * SUT's host and copied back).
 */
public final class VirtualThreadDumpProbe implements Probe {
    static final Column VTHREADS = Column.integer("vthreads_dump", "threads", "virtual threads in a JSON thread dump at mid-hold");
    private boolean taken;

    @Override
    public java.util.List<Column> columns() {
        return java.util.List.of(VTHREADS);
    }

    @Override
    public String name() {
        return "vtdump";
    }

    /** jcmd on the SUT's host, the dump brought back. */
    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public String description() {
        return "JSON thread dump at mid-hold: virtual threads by state and top stacks (vthreads_dump)";
    }

    @Override
    public void sample(ProbeContext ctx, double second, Measurements out) throws Exception {
        if (taken || second < ctx.row().hold().toSeconds() / 2.0) return;
        taken = true;
        Path file = ThreadDump.take(ctx.app(), ctx.row().jdk(), ctx.rawDir().resolve(ctx.stem() + ".threads.json"));
        ThreadDump.Summary s = ThreadDump.summarize(Files.readString(file), 8);
        Files.writeString(ctx.rawDir().resolve(ctx.stem() + ".threads.txt"), s.render(5));
        out.put(VTHREADS, s.virtual());
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) {
        // the dump was taken mid-hold
    }
}
