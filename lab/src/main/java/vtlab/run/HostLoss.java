package vtlab.run;

import vtlab.check.Validity;
import vtlab.data.RowValues;

/**
 * A run across hosts after a failed row (a host lost mid-row fails that row with its name: see docs/design.md, "A host
 * lost mid-run"): every host is asked whether it answers a new session. When each does, the run goes on with the next
 * row (what a lost host's stop could not reach is stopped there then). When one does not, the run stops: rows on a
 * silent host could only fail one by one, each after its own timeouts. The rows not run go to matrix.csv as failed with
 * a note "not run: the run stopped: ..." (every reader already treats a failed row as no evidence), the console gets
 * one line, and environment.json's status is "stopped".
 */
public final class HostLoss {
    static final String NOT_RUN = "not run: the run stopped: ";

    /** The run's hosts: null when each answers a new session now, else one line naming each that does not. */
    public interface Check {
        String unreachable() throws InterruptedException;
    }

    private final Check hosts;
    private String why;
    private int notRun;

    /** @param hosts null: every tier on this machine, nothing to ask */
    HostLoss(Check hosts) {
        this.hosts = hosts;
    }

    /** After a failed row: whether the run stops here (a host does not answer); asks the hosts. */
    boolean stopsAfter(RowRunner.Result failed) throws InterruptedException {
        if (hosts == null || !failed.failed()) return false;
        why = hosts.unreachable();
        return why != null;
    }

    /** A row the stop left out: its identity columns (base), failed, and why. */
    RowValues notRun(RowValues base) {
        notRun++;
        return base.put(Validity.STATUS, "failed").put(Validity.NOTE, NOT_RUN + why);
    }

    /** The console's line once the rows not run are written. */
    String line(int done, int total) {
        return "vtlab: run stopped after row " + done + " of " + total + ": " + why + "; " + notRun + " row" + (notRun == 1 ? "" : "s")
                + " not run (in matrix.csv as failed, note \"not run\")";
    }

    /** Why the run stopped, null while it did not. */
    String why() {
        return why;
    }

    int notRun() {
        return notRun;
    }
}
