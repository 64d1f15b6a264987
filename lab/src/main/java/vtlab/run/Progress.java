package vtlab.run;

import java.io.PrintStream;
import java.time.Duration;

/**
 * Rows done / total with an ETA. On a terminal one line redrawn in place; without one (CI, a pipe) plain lines,
 * one per step, so logs stay readable.
 */
public final class Progress {
    private final PrintStream out;
    private final boolean tty;
    private final int total;
    private final long startNanos = System.nanoTime();
    private final long plannedTotal;
    private long remainingPlannedSeconds;
    private double overheadPerRow = 8; // start-up, verification, tear-down; learned as rows finish
    private int done;

    public Progress(PrintStream out, boolean tty, int total, long plannedSeconds) {
        this.out = out;
        this.tty = tty;
        this.total = total;
        this.remainingPlannedSeconds = plannedSeconds;
        this.plannedTotal = plannedSeconds;
    }

    public static boolean isTerminal() {
        return System.console() != null && System.getenv("CI") == null && !"dumb".equals(System.getenv("TERM"));
    }

    public synchronized void step(String rowLabel, String what) {
        String line = String.format("[%s] %d/%d rows  ETA %s  %s: %s", bar(), done, total, eta(), rowLabel, what);
        if (tty) {
            out.print("\r\033[K" + line);
            out.flush();
        } else {
            out.println("vtlab: " + line);
        }
    }

    public synchronized void rowDone(long plannedSeconds, String result) {
        done++;
        remainingPlannedSeconds -= plannedSeconds;
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        overheadPerRow = Math.max(0, elapsed / done - plannedDone() / (double) done);
        if (tty) out.print("\r\033[K");
        out.println("vtlab: " + String.format("[%s] %d/%d rows  %s", bar(), done, total, result));
    }

    private long plannedDone() {
        return plannedTotal - remainingPlannedSeconds;
    }

    String eta() {
        long s = Math.round(Math.max(0, remainingPlannedSeconds) + overheadPerRow * Math.max(0, total - done));
        return format(Duration.ofSeconds(Math.max(0, s)));
    }

    static String format(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format("%dh%02dm", s / 3600, s % 3600 / 60)
                : s >= 60 ? String.format("%dm%02ds", s / 60, s % 60) : s + "s";
    }

    private String bar() {
        int width = 20, filled = total == 0 ? width : Math.min(width, done * width / total); // a search may take more rows than it expected
        return "#".repeat(filled) + "-".repeat(width - filled);
    }

    public synchronized void finish() {
        if (tty) out.print("\r\033[K");
        out.flush();
    }
}
