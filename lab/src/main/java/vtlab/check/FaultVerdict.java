package vtlab.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.RowValues;

/**
 * What a fault did, from the row's own per-second series (series.jsonl): p99 before, during and after the fault's
 * window (exact: from the generator's per-second histograms merged), how long after the fault's end p99 came back,
 * how much work piled up in the server and the client, what it cost in heap, and which errors the clients saw.
 * <p>
 * Recovery: the first second from the fault's end whose p99 is within 10% of the p99 before the fault and stays
 * there for {@link #STAY_S} seconds (one good second between bad ones is noise, not recovery); none in the hold:
 * "did not recover within the hold". A point of a series at x covers the second (x - 1, x] of the hold.
 */
public final class FaultVerdict {
    public static final double RECOVERED_WITHIN = 1.10;
    public static final int STAY_S = 3;

    public static final Column P99_BEFORE = Columns.P99_BEFORE;
    public static final Column P99_DURING = Columns.P99_DURING;
    public static final Column P99_AFTER = Columns.P99_AFTER;
    public static final Column RECOVERY_S = Columns.RECOVERY_S;
    public static final Column PEAK_IN_FLIGHT = Columns.PEAK_IN_FLIGHT;
    public static final Column PEAK_LOAD_IN_FLIGHT = Columns.PEAK_LOAD_IN_FLIGHT;
    public static final Column HEAP_BEFORE = Columns.HEAP_BEFORE;
    public static final Column PEAK_HEAP = Columns.PEAK_HEAP;
    public static final Column ERR_TIMEOUT = Columns.FAULT_ERRORS_TIMEOUT;
    public static final Column ERR_STATUS = Columns.FAULT_ERRORS_STATUS;
    public static final Column ERR_CONNECT = Columns.FAULT_ERRORS_CONNECT;
    public static final Column ERR_IO = Columns.FAULT_ERRORS_IO;
    public static final Column SHED_PCT = Columns.FAULT_SHED_PCT;
    public static final Column NEVER_ANSWERED = Columns.NEVER_ANSWERED;
    public static final Column VERDICT = Columns.FAULT_VERDICT;

    public static final List<Column> COLUMNS = List.of(P99_BEFORE, P99_DURING, P99_AFTER, RECOVERY_S, PEAK_IN_FLIGHT, PEAK_LOAD_IN_FLIGHT,
            HEAP_BEFORE, PEAK_HEAP, ERR_TIMEOUT, ERR_STATUS, ERR_CONNECT, ERR_IO, SHED_PCT, NEVER_ANSWERED, VERDICT);

    /** The p99 (ms) of every answer in seconds [from, to) of the hold; null where none. */
    public interface WindowPercentile {
        Double p99(int fromS, int toS);
    }

    /**
     * @param fault    the fault as written
     * @param fromS    when it began, seconds into the hold (as applied)
     * @param toS      when it ended
     * @param holdS    the hold's whole seconds
     * @param series   the row's series by name (generator's load_*, the jvm probe's)
     * @param dropped  requests the generator never sent (open model), 0 where none
     */
    public record Inputs(String fault, double fromS, double toS, int holdS, Map<String, List<double[]>> series, WindowPercentile p99,
                         long dropped) {}

    private FaultVerdict() {}

    public static RowValues of(Inputs in) {
        RowValues out = new RowValues();
        int from = (int) Math.floor(in.fromS()), to = (int) Math.ceil(in.toS());
        Double before = in.p99().p99(0, from), during = in.p99().p99(from, to), after = in.p99().p99(to, in.holdS());
        out.put(P99_BEFORE, before);
        out.put(P99_DURING, during);
        out.put(P99_AFTER, after);
        Integer recovery = recovery(series(in, "load_p99_ms"), before, to, in.holdS());
        out.put(RECOVERY_S, recovery);
        Double inFlight = max(series(in, "sut_in_flight"), from, in.holdS()), loadInFlight = max(series(in, "load_in_flight"), from, in.holdS());
        Double heapBefore = max(series(in, "heap_used_mb"), 0, from), heap = max(series(in, "heap_used_mb"), from, in.holdS());
        out.put(PEAK_IN_FLIGHT, inFlight == null ? null : Math.round(inFlight));
        out.put(PEAK_LOAD_IN_FLIGHT, loadInFlight == null ? null : Math.round(loadInFlight));
        out.put(HEAP_BEFORE, heapBefore);
        out.put(PEAK_HEAP, heap);
        long timeout = sum(series(in, "load_errors_timeout"), from, in.holdS()), status = sum(series(in, "load_errors_status"), from, in.holdS()),
                connect = sum(series(in, "load_errors_connect"), from, in.holdS()), io = sum(series(in, "load_errors_io"), from, in.holdS());
        out.put(ERR_TIMEOUT, timeout);
        out.put(ERR_STATUS, status);
        out.put(ERR_CONNECT, connect);
        out.put(ERR_IO, io);
        long answered = sum(series(in, "load_requests_rps"), from, in.holdS());
        long failed = timeout + connect + io; // answered already counts the status errors
        double shed = answered + failed == 0 ? 0 : 100.0 * (failed + status) / (answered + failed);
        out.put(SHED_PCT, shed);
        long never = sum(series(in, "load_errors_timeout"), 0, in.holdS()) + sum(series(in, "load_errors_connect"), 0, in.holdS())
                + sum(series(in, "load_errors_io"), 0, in.holdS()) + in.dropped();
        out.put(NEVER_ANSWERED, never);
        out.put(VERDICT, sentence(in, before, during, after, recovery, inFlight, loadInFlight, heapBefore, heap, timeout, status, connect, io, shed, never));
        return out;
    }

    /**
     * Seconds after the fault's end (second `to` of the hold) until p99 is back: the first second s >= to whose p99
     * and the next STAY_S - 1 seconds' are within 10% of before; null when there is none or no baseline. The STAY_S
     * seconds must all be in the hold (a good last second proves nothing), and a second without answers is not back.
     */
    static Integer recovery(List<double[]> p99, Double before, int to, int holdS) {
        if (before == null || p99 == null) return null;
        Double[] bySecond = new Double[holdS];
        for (double[] pt : p99) {
            int s = (int) Math.round(pt[0]) - 1;
            if (s >= 0 && s < holdS) bySecond[s] = pt[1];
        }
        double limit = before * RECOVERED_WITHIN;
        for (int s = to; s + STAY_S <= holdS; s++) {
            boolean stays = true;
            for (int k = s; k < s + STAY_S; k++) {
                if (bySecond[k] == null || bySecond[k] > limit) {
                    stays = false;
                    break;
                }
            }
            if (stays) return s - to;
        }
        return null;
    }

    /** The largest value of points covering seconds [from, to) of the hold; null if none. */
    static Double max(List<double[]> pts, int from, int to) {
        Double m = null;
        for (double[] pt : pts == null ? List.<double[]>of() : pts) {
            if (covers(pt, from, to) && (m == null || pt[1] > m)) m = pt[1];
        }
        return m;
    }

    static long sum(List<double[]> pts, int from, int to) {
        double s = 0;
        for (double[] pt : pts == null ? List.<double[]>of() : pts) if (covers(pt, from, to)) s += pt[1];
        return Math.round(s);
    }

    /** A point at x covers the second (x - 1, x]: inside [from, to) when from < x <= to. */
    private static boolean covers(double[] pt, int from, int to) {
        return pt[0] > from + 1e-9 && pt[0] <= to + 1e-9;
    }

    private static List<double[]> series(Inputs in, String name) {
        return in.series().get(name);
    }

    private static String sentence(Inputs in, Double before, Double during, Double after, Integer recovery, Double inFlight,
                                   Double loadInFlight, Double heapBefore, Double heap, long timeout, long status, long connect, long io,
                                   double shed, long never) {
        List<String> parts = new ArrayList<>();
        parts.add(String.format(Locale.ROOT, "%s (applied %.1f-%.1f s): p99 %s before, %s during, %s after", in.fault(), in.fromS(), in.toS(),
                ms(before), ms(during), ms(after)));
        parts.add(recovery != null ? "recovered " + recovery + " s after the fault ended" : before == null ? "no p99 before the fault to recover to"
                : "did not recover within the hold");
        List<String> piled = new ArrayList<>();
        if (inFlight != null) piled.add(String.format(Locale.ROOT, "%.0f requests in the SUT", inFlight));
        if (loadInFlight != null) piled.add(String.format(Locale.ROOT, "%.0f under way at the generator", loadInFlight));
        if (heap != null) piled.add(String.format(Locale.ROOT, "heap %.0f MB (%s before)", heap, heapBefore == null ? "?" : String.format(Locale.ROOT, "%.0f MB", heapBefore)));
        if (!piled.isEmpty()) parts.add("at most " + String.join(", ", piled));
        parts.add(String.format(Locale.ROOT, "from the fault on %.1f%% failed (%d timeout, %d status >= 400, %d refused, %d reset)", shed, timeout, status, connect, io));
        if (never > 0) parts.add(never + " requests never answered");
        return String.join("; ", parts);
    }

    private static String ms(Double v) {
        return v == null ? "n/a" : String.format(Locale.ROOT, "%.0f ms", v);
    }
}
