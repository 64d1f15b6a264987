package vtlab.probe;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vtlab.data.Column;
import vtlab.data.Columns;

/**
 * The SUT's stop-the-world pauses during the hold, from the JVM's own unified logging: GC pauses (count, total,
 * longest) and the longest safepoint of any cause with that cause. Logging is switched on for the hold only, on the
 * running JVM (jcmd VM.log where the SUT runs, so a reused SUT needs no restart), into raw/NNN.gc.log (across hosts:
 * written on the SUT's host, copied back after the hold). Why it exists: on a one-CPU SUT
 * the JVM picks the Serial collector, and in the article's 512 MB heap a virtual-thread row at 9,000 req/s stopped
 * for ~150 ms every ~25 s (old-generation collections): that, not a thread pool or the CPU, decided its p99.
 * Safepoints cover every collector (ZGC's pauses are safepoints too, though its gc=info lines carry no pause time).
 */
public final class GcProbe implements Probe {
    /** "[2026-11-23T17:41:21.863+0000][3.660s] GC(493) Pause Full (Allocation Failure) 53M->12M(61M) 22.861ms" */
    static final Pattern PAUSE = Pattern.compile("^\\[([^]]+)]\\[[^]]+] GC\\(\\d+\\) Pause .*\\s(\\d+(?:\\.\\d+)?)ms\\s*$");
    /** "[...][...] Safepoint "SerialCollectForAllocation", Time since last: ... Total: 22961345 ns, ..." */
    static final Pattern SAFEPOINT = Pattern.compile("^\\[([^]]+)]\\[[^]]+] Safepoint \"([^\"]+)\".*?Total: (\\d+) ns");
    private static final DateTimeFormatter UTCTIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    static final Column PAUSES = Columns.GC_PAUSES;
    static final Column PAUSE_TOTAL = Columns.GC_PAUSE_TOTAL;
    static final Column PAUSE_MAX = Columns.GC_PAUSE_MAX;
    static final Column STW_MAX = Columns.STW_MAX;
    static final Column STW_CAUSE = Columns.STW_CAUSE;
    static final Column HEAP_AFTER_LAST = Columns.HEAP_AFTER_GC;
    static final Column HEAP_AFTER_SLOPE = Columns.HEAP_AFTER_GC_SLOPE;
    /** The heap before->after(capacity) of a pause line, in the log's unit (M for every collector the lab sees). */
    static final Pattern HEAP = Pattern.compile("\\s(\\d+)M->(\\d+)M\\((\\d+)M\\)");

    private Path log;
    private String logThere;
    private Instant holdStart;

    @Override
    public String name() {
        return "gc";
    }

    /** jcmd on the SUT's host, the log brought back. */
    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public String description() {
        return "GC pauses (count, total, max ms) and the longest safepoint with its cause in the hold, from the JVM's gc/safepoint log";
    }

    @Override
    public List<Column> columns() {
        return List.of(PAUSES, PAUSE_TOTAL, PAUSE_MAX, STW_MAX, STW_CAUSE, HEAP_AFTER_LAST, HEAP_AFTER_SLOPE);
    }

    @Override
    public void start(ProbeContext ctx) throws Exception {
        log = ctx.rawDir().resolve(ctx.stem() + ".gc.log");
        logThere = ctx.app().site().path(log);
        holdStart = Instant.now();
        Jcmd.run(ctx.app(), ctx.row().jdk(), "VM.log", "output=file=" + logThere, "what=gc=info,safepoint=info", "decorators=utctime,uptime");
    }

    /** Logging off as the load ends, before other probes' jcmd calls (Thread.print) stop the SUT themselves. */
    @Override
    public void stop(ProbeContext ctx) throws Exception {
        if (log == null) return;
        // removes this output only (and closes its file): the SUT's own logging (stdout warnings) stays as it was
        Jcmd.run(ctx.app(), ctx.row().jdk(), "VM.log", "output=file=" + logThere, "what=all=off");
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) throws Exception {
        if (log == null) return;
        ctx.app().site().fetch(log);
        Pauses p = parse(Files.readAllLines(log), holdStart);
        out.put(PAUSES, p.count());
        out.put(PAUSE_TOTAL, round(p.totalMs()));
        out.put(PAUSE_MAX, round(p.maxMs()));
        out.put(STW_MAX, round(p.stwMaxMs()));
        if (p.stwCause() != null) out.put(STW_CAUSE, p.stwCause());
        for (double[] point : p.points()) out.point("gc_pause_ms", point[0], point[1]);
        for (double[] point : p.heapAfter()) out.point("heap_after_gc_mb", point[0], point[1]);
        if (!p.heapAfter().isEmpty()) out.put(HEAP_AFTER_LAST, p.heapAfter().getLast()[1]);
        Double slope = slopePerMinute(p.heapAfter());
        if (slope != null) out.put(HEAP_AFTER_SLOPE, round(slope));
    }

    /**
     * What a hold's log says; points are (second of the hold, pause ms) for the over-time chart, heapAfter (second,
     * MB in use after the pause): over a long hold its trend is what a leak or a growing backlog looks like.
     */
    record Pauses(int count, double totalMs, double maxMs, double stwMaxMs, String stwCause, List<double[]> points, List<double[]> heapAfter) {}

    /** Least-squares slope of (second, MB) in MB per minute; null under 3 points or when they share one second. */
    static Double slopePerMinute(List<double[]> pts) {
        if (pts.size() < 3) return null;
        double n = pts.size(), sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (double[] p : pts) {
            sx += p[0];
            sy += p[1];
            sxx += p[0] * p[0];
            sxy += p[0] * p[1];
        }
        double d = n * sxx - sx * sx;
        return d == 0 ? null : (n * sxy - sx * sy) / d * 60;
    }

    static Pauses parse(List<String> lines, Instant holdStart) {
        int count = 0;
        double total = 0, max = 0, stwMax = 0;
        String cause = null;
        List<double[]> points = new java.util.ArrayList<>(), heapAfter = new java.util.ArrayList<>();
        for (String line : lines) {
            Matcher m = PAUSE.matcher(line);
            if (m.find()) {
                double ms = Double.parseDouble(m.group(2));
                count++;
                total += ms;
                max = Math.max(max, ms);
                double at = second(m.group(1), holdStart);
                points.add(new double[] {at, ms});
                Matcher h = HEAP.matcher(line);
                if (h.find()) heapAfter.add(new double[] {at, Double.parseDouble(h.group(2))});
                continue;
            }
            Matcher s = SAFEPOINT.matcher(line);
            if (s.find()) {
                double ms = Long.parseLong(s.group(3)) / 1e6;
                if (ms > stwMax) {
                    stwMax = ms;
                    cause = s.group(2);
                }
            }
        }
        return new Pauses(count, total, max, stwMax, cause, points, heapAfter);
    }

    private static double second(String utctime, Instant holdStart) {
        Instant t = OffsetDateTime.parse(utctime, UTCTIME).toInstant();
        return Math.max(0, (t.toEpochMilli() - holdStart.toEpochMilli()) / 1000.0);
    }

    private static double round(double ms) {
        return Math.round(ms * 1000) / 1000.0;
    }
}
