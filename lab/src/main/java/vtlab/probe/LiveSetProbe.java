package vtlab.probe;

import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vtlab.data.Column;
import vtlab.data.Columns;

/**
 * The data a service keeps, not the heap its collector grew to: at the row's end, after the measured hold (a full
 * collection is a pause, never taken inside one), the heap in use (live data and garbage not yet collected) and the
 * heap the collector had grown to, then a full collection (jcmd GC.run) and the heap in use after it: the live set.
 * Why it exists: on a one-CPU SUT the JVM picks the Serial collector, whose young collections promote a virtual-thread
 * row's short-lived stacks and buffers into an old generation it rarely collects; the sleep A/B's virtual rows had
 * 1,774 MB of RSS against platform's 309 MB, and 88 MB live after a full collection (docs/results.md).
 */
public final class LiveSetProbe implements Probe {
    public static final String NAME = "live-set";

    /** "DefNew total 78656K, used 48525K [..." (Serial, Parallel's PSYoungGen/ParOldGen: one line per generation). */
    static final Pattern GENERATION = Pattern.compile("^(\\S[^\\n]*?)\\s+total (\\d+)K, used (\\d+)K", Pattern.MULTILINE);
    /** "garbage-first heap   total reserved 262144K, committed 150528K, used 43913K [..." (G1). */
    static final Pattern G1 = Pattern.compile("^garbage-first heap\\s+total reserved \\d+K, committed (\\d+)K, used (\\d+)K", Pattern.MULTILINE);
    /** "ZHeap            used 44M, capacity 256M, max capacity 256M" (ZGC). */
    static final Pattern ZGC = Pattern.compile("^ZHeap\\s+used (\\d+)M, capacity (\\d+)M", Pattern.MULTILINE);

    /** What `jcmd PID GC.heap_info` says of the heap: its collector, what is in use and what it has grown to, MB. */
    record Heap(String collector, double usedMb, double committedMb) {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "the live set at the row's end: heap in use and grown to, then a full collection (jcmd GC.run, after the hold) and the heap in use after it";
    }

    @Override
    public List<Column> columns() {
        return List.of(Columns.LIVE_SET, Columns.HEAP_IN_USE, Columns.HEAP_GROWN, Columns.GC_COLLECTOR);
    }

    /** jcmd on the SUT's host, its text brought back. */
    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) throws Exception {
        String before = Jcmd.run(ctx.app(), ctx.row().jdk(), "GC.heap_info");
        Jcmd.run(ctx.app(), ctx.row().jdk(), "GC.run");
        String after = Jcmd.run(ctx.app(), ctx.row().jdk(), "GC.heap_info");
        Files.writeString(ctx.rawDir().resolve(ctx.stem() + ".heap.txt"), "# before a full collection\n" + before + "\n# after it (jcmd GC.run)\n" + after);
        Heap b = parse(before), a = parse(after);
        if (b == null || a == null) throw new IllegalStateException("GC.heap_info not understood: " + before.strip().lines().skip(1).findFirst().orElse(""));
        out.put(Columns.HEAP_IN_USE, round(b.usedMb()));
        out.put(Columns.HEAP_GROWN, round(b.committedMb()));
        out.put(Columns.LIVE_SET, round(a.usedMb()));
        out.put(Columns.GC_COLLECTOR, b.collector());
    }

    /** The heap as GC.heap_info prints it for Serial, Parallel, G1 and ZGC; null for another collector's text. */
    static Heap parse(String text) {
        Matcher g1 = G1.matcher(text);
        if (g1.find()) return new Heap("G1", Long.parseLong(g1.group(2)) / 1024.0, Long.parseLong(g1.group(1)) / 1024.0);
        Matcher z = ZGC.matcher(text);
        if (z.find()) return new Heap("ZGC", Long.parseLong(z.group(1)), Long.parseLong(z.group(2)));
        Matcher m = GENERATION.matcher(text);
        double used = 0, committed = 0;
        String first = null;
        while (m.find()) {
            if (first == null) first = m.group(1).strip();
            committed += Long.parseLong(m.group(2)) / 1024.0;
            used += Long.parseLong(m.group(3)) / 1024.0;
        }
        if (first == null) return null;
        String collector = first.startsWith("DefNew") || first.startsWith("def new") ? "Serial" : first.startsWith("PSYoungGen") ? "Parallel" : first;
        return new Heap(collector, used, committed);
    }

    static double round(double mb) {
        return Math.round(mb * 10) / 10.0;
    }

    /** "88 MB live after a full collection (Serial: 614 MB in use before it, grown to 1,531 MB)". */
    public static String words(double live, double inUse, double grown, String collector) {
        return String.format(Locale.ROOT, "%,.0f MB live after a full collection (%s: %,.0f MB in use before it, grown to %,.0f MB)", live,
                collector.isBlank() ? "its collector" : collector, inUse, grown);
    }
}
