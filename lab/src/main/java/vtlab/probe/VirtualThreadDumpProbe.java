package vtlab.probe;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One JSON thread dump of the SUT in the middle of the hold (jstack does not show virtual threads; this does):
 * the count of virtual threads goes to vthreads_dump, the summary and the dump to raw/.
 */
public final class VirtualThreadDumpProbe implements Probe {
    private boolean taken;

    @Override
    public String name() {
        return "vtdump";
    }

    @Override
    public String description() {
        return "JSON thread dump at mid-hold: virtual threads by state and top stacks (vthreads_dump)";
    }

    @Override
    public void sample(ProbeContext ctx, double second, Measurements out) throws Exception {
        if (taken || second < ctx.row().hold().toSeconds() / 2.0) return;
        taken = true;
        Path file = ThreadDump.take(ctx.row().jdk(), ctx.app().pid(), ctx.rawDir().resolve(ctx.stem() + ".threads.json"));
        ThreadDump.Summary s = ThreadDump.summarize(Files.readString(file), 8);
        Files.writeString(ctx.rawDir().resolve(ctx.stem() + ".threads.txt"), s.render(5));
        out.put("vthreads_dump", s.virtual());
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) {
        // the dump was taken mid-hold
    }
}
