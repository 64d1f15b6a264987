package vtlab.run;

import java.util.List;
import java.util.Map;

import vtlab.check.FaultVerdict;
import vtlab.data.RowValues;
import vtlab.load.LoadResult;
import vtlab.plan.RateProfile;
import vtlab.plan.Row;

/**
 * The part of a hold a row's verdict judges (p99 before, during and after it, the recovery): its faults' window as
 * applied, or its rate profile's rise (a spike: from the first to the last second the rate is above the one it starts
 * at). A row has one or none: the faults experiment keeps profiled rows off its fault axis.
 *
 * @param fault true for a fault's window: the seconds before it judge the rig's health; a spike is the load itself
 */
record HoldWindow(String what, double fromS, double toS, boolean fault) {
    /** The row's window once its hold has run (a fault's times are the ones applied), or null when it has none. */
    static HoldWindow of(FaultSchedule faults, Row row) {
        if (faults.any()) return new HoldWindow(faults.spec(), faults.fromS(), faults.toS(), true);
        RateProfile p = row.rateProfile();
        if (p == null) return null;
        List<double[]> above = p.above(p.rateAt(0), row.hold().toMillis() / 1000.0);
        return above.isEmpty() ? null
                : new HoldWindow("spike:" + p.spec(), above.getFirst()[0], above.getLast()[1], false);
    }

    /**
     * The window's columns and its verdict into the row. A fault's own columns are already there (written by
     * {@link FaultSchedule#into}, which fails a fault that did not run); a spike fills the same ones.
     */
    void into(RowValues out, Row row, Map<String, List<double[]>> series, LoadResult r) {
        if (!fault) {
            out.put(FaultSchedule.FAULT, what);
            out.put(FaultSchedule.FROM, fromS);
            out.put(FaultSchedule.TO, toS);
        }
        out.putAll(FaultVerdict.of(new FaultVerdict.Inputs(what, fromS, toS, (int) row.hold().toSeconds(), series,
                (a, b) -> r.series().percentileMs(a, b, 99), RowRunner.dropped(r))));
    }

    /** For an open row's validity: the hold's second a fault began (judged on the seconds before), else null. */
    Integer faultFromS() {
        return fault ? (int) Math.floor(fromS) : null;
    }
}
