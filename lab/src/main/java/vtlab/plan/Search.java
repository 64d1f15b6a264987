package vtlab.plan;

import java.util.List;

import vtlab.data.DataRow;

/**
 * Rows decided one at a time from what the rows before measured (a capacity search), where a fixed plan cannot know
 * the next rate. The runner asks for the next row after each one, with every row of this search so far as matrix.csv
 * holds it (read through its columns' declarations), until the search says it is done.
 */
public interface Search {
    /** What is searched, for progress lines: "capacity servlet platform sleep". */
    String label();

    /** The next row to run, or null when the search is done. */
    Row next(List<DataRow> measured);

    /**
     * The next row given also the run's rows before this search (its fixed rows and earlier searches', as matrix.csv
     * holds them): a search that starts from what the plan measured (ab's next step) reads them; by default only its
     * own rows count.
     */
    default Row next(List<DataRow> before, List<DataRow> measured) {
        return next(measured);
    }

    /**
     * Whether a row of this search that fails counts as a failed row of the run (exit code 1). A search that tries
     * changes to the service (ab's next step) says no: a change that does not start is one of its answers, said in its
     * verdict, and the run's exit code stays the plan's.
     */
    default boolean failedRowsFailTheRun() {
        return true;
    }

    /** Where the search stands after the rows so far, one line (e.g. "meets the SLO at 3,000 req/s; next 3,500"). */
    String status(List<DataRow> measured);

    /** A row like the ones it will run (stack, tiers, JDK, cap), for the checks made before anything starts. */
    Row template();

    /** An estimate of how many rows it will take and how long each is, for the ETA. */
    int expectedRows();

    long secondsPerRow();

    /**
     * The wall time from the run's start within which this search's rows (and the fixed rows before it, for a search
     * whose budget counts from them) end, give or take one row; 0 when the search has no budget. When every search of
     * a run has one, the progress line's ETA is the budgets' sum, not the plan's estimate.
     */
    default long budgetSeconds() {
        return 0;
    }
}
