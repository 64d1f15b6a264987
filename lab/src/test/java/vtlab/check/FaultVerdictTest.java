package vtlab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.data.RowValues;

/** The verdict on recorded series: a 20-second hold, a fault over seconds 5-10. */
class FaultVerdictTest {
    static final int HOLD = 20;

    /** One value per second of the hold, as series.jsonl holds them: the point at the second's end. */
    static List<double[]> perSecond(double... v) {
        List<double[]> out = new ArrayList<>();
        for (int s = 0; s < v.length; s++) out.add(new double[] {s + 1, v[s]});
        return out;
    }

    static RowValues verdict(double[] p99, Map<String, List<double[]>> more, long dropped) {
        Map<String, List<double[]>> series = new LinkedHashMap<>(more);
        series.put("load_p99_ms", perSecond(p99));
        series.putIfAbsent("load_requests_rps", perSecond(new double[HOLD]));
        // the window's p99: here the highest second's (what a merged histogram of equal seconds gives)
        FaultVerdict.WindowPercentile window = (from, to) -> {
            Double m = null;
            for (int s = Math.max(0, from); s < Math.min(to, p99.length); s++) m = m == null ? p99[s] : Math.max(m, p99[s]);
            return m;
        };
        return FaultVerdict.of(new FaultVerdict.Inputs("stub:latency=1900ms@5s-10s", 5.0, 10.0, HOLD, series, window, dropped));
    }

    @Test
    void recoveryIsTheFirstSecondBackWithinTenPercentThatStays() {
        //                 0   1   2   3   4  | 5     6     7     8     9   | 10   11  12  13  14  15 ...
        double[] p99 = {100, 100, 100, 100, 100, 2000, 2000, 2000, 2000, 2000, 900, 105, 300, 109, 110, 100, 100, 100, 100, 100};
        RowValues v = verdict(p99, Map.of(), 0);
        assertEquals(100.0, v.get(FaultVerdict.P99_BEFORE));
        assertEquals(2000.0, v.get(FaultVerdict.P99_DURING));
        assertEquals(900.0, v.get(FaultVerdict.P99_AFTER));
        assertEquals(3, v.get(FaultVerdict.RECOVERY_S), "second 11 is back but 12 is not: second 13 (110 <= 110) stays, 3 s after the fault ended at 10");
        assertTrue(((String) v.get(FaultVerdict.VERDICT)).contains("recovered 3 s after"), (String) v.get(FaultVerdict.VERDICT));
    }

    @Test
    void aHoldThatEndsSlowDidNotRecover() {
        double[] p99 = new double[HOLD];
        java.util.Arrays.fill(p99, 0, 5, 50);
        java.util.Arrays.fill(p99, 5, HOLD, 400);
        p99[19] = 50; // one good last second is not three
        RowValues v = verdict(p99, Map.of(), 0);
        assertNull(v.get(FaultVerdict.RECOVERY_S));
        assertTrue(((String) v.get(FaultVerdict.VERDICT)).contains("did not recover within the hold"));
    }

    @Test
    void peaksErrorsAndNeverAnsweredComeFromTheFaultOn() {
        double[] p99 = new double[HOLD];
        java.util.Arrays.fill(p99, 10);
        double[] inFlight = new double[HOLD], heap = new double[HOLD], timeouts = new double[HOLD], status = new double[HOLD], answered = new double[HOLD];
        java.util.Arrays.fill(inFlight, 20);
        java.util.Arrays.fill(heap, 100);
        java.util.Arrays.fill(answered, 100);
        inFlight[3] = 50;  // before the fault: not its peak
        inFlight[8] = 900;
        heap[2] = 150;
        heap[9] = 700;
        timeouts[1] = 2;   // before the fault: never answered, but not the fault's
        timeouts[7] = 5;
        status[6] = 40;
        answered[6] = 60;
        RowValues v = verdict(p99, Map.of("sut_in_flight", perSecond(inFlight), "heap_used_mb", perSecond(heap),
                "load_errors_timeout", perSecond(timeouts), "load_errors_status", perSecond(status), "load_requests_rps", perSecond(answered)), 7);
        assertEquals(900L, v.get(FaultVerdict.PEAK_IN_FLIGHT));
        assertEquals(700.0, v.get(FaultVerdict.PEAK_HEAP));
        assertEquals(150.0, v.get(FaultVerdict.HEAP_BEFORE));
        assertEquals(5L, v.get(FaultVerdict.ERR_TIMEOUT));
        assertEquals(40L, v.get(FaultVerdict.ERR_STATUS));
        assertEquals(2L + 5 + 7, v.get(FaultVerdict.NEVER_ANSWERED), "timeouts of the whole hold plus the dropped");
        // from second 5 on: 15 seconds answered 100 each but second 6 answered 60 = 1,460 answered (40 of them 5xx) + 5 timeouts
        assertEquals(100.0 * 45 / 1465, (double) v.get(FaultVerdict.SHED_PCT), 1e-9);
        assertNull(v.get(FaultVerdict.PEAK_LOAD_IN_FLIGHT), "no generator in-flight series: empty, not zero");
    }
}
