package vtlab.run;

import java.io.PrintStream;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Rows done / total with an ETA. On a terminal one line redrawn in place; without one (CI, a pipe) plain lines,
 * one per step, so logs stay readable.
 */
public final class Progress {
    private final PrintStream out;
    private final boolean tty;
    private final int total;
    private final LongSupplier nanos;
    private final long startNanos;
    private final long plannedTotal;
    private long remainingPlannedSeconds;
    private double overheadPerRow = 8; // start-up, verification, tear-down; learned as rows finish
    private int done;
    // the row under way: when it started and its planned seconds, so the ETA counts down within a long row (a soak)
    private long rowStartNanos = -1;
    private long rowPlannedSeconds;
    // the wall time the run's budgets allow from its start (ab's --budget and --next-step-budget), 0 when unbounded
    private long budgetSeconds;

    public Progress(PrintStream out, boolean tty, int total, long plannedSeconds) {
        this(out, tty, total, plannedSeconds, System::nanoTime);
    }

    Progress(PrintStream out, boolean tty, int total, long plannedSeconds, LongSupplier nanos) {
        this.out = out;
        this.tty = tty;
        this.total = total;
        this.remainingPlannedSeconds = plannedSeconds;
        this.plannedTotal = plannedSeconds;
        this.nanos = nanos;
        this.startNanos = nanos.getAsLong();
    }

    /**
     * A run whose rows all sit inside budgets (ab: the A/B's --budget, the next step's own) ends within them plus at
     * most one fork: its ETA is the budget's once the plan's would outlast it, never more than the budget left (or
     * the row under way, when that runs past the budget).
     */
    public synchronized void budget(long seconds) {
        budgetSeconds = Math.max(0, seconds);
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

    /** A row starts (its tiers next): the ETA from now on takes off the time it has run, up to what it was planned to take. */
    public synchronized void rowStarted(long plannedSeconds) {
        rowStartNanos = nanos.getAsLong();
        rowPlannedSeconds = plannedSeconds;
    }

    public synchronized void rowDone(long plannedSeconds, String result) {
        done++;
        remainingPlannedSeconds -= plannedSeconds;
        rowStartNanos = -1;
        double elapsed = (nanos.getAsLong() - startNanos) / 1e9;
        overheadPerRow = Math.max(0, elapsed / done - plannedDone() / (double) done);
        if (tty) out.print("\r\033[K");
        out.println("vtlab: " + String.format("[%s] %d/%d rows  %s", bar(), done, total, result));
    }

    private long plannedDone() {
        return plannedTotal - remainingPlannedSeconds;
    }

    String eta() {
        double inRow = rowStartNanos < 0 ? 0 : Math.min((nanos.getAsLong() - rowStartNanos) / 1e9, rowPlannedSeconds + overheadPerRow);
        long s = Math.round(Math.max(0, remainingPlannedSeconds) + overheadPerRow * Math.max(0, total - done) - inRow);
        if (budgetSeconds > 0) {
            double elapsed = (nanos.getAsLong() - startNanos) / 1e9;
            double rowLeft = rowStartNanos < 0 ? 0 : rowPlannedSeconds + overheadPerRow - inRow;
            s = Math.min(s, Math.round(Math.max(budgetSeconds - elapsed, rowLeft)));
        }
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
