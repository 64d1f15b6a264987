package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The request time the breakdown divides by. */
class ProfileProbeTest {
    /**
     * wrk's figures of the GC control at one connection (2,741 requests in 6.0 s, its coordinated-omission-corrected
     * mean 6.31 ms where the real mean was 6.0 s / 2,741 = 2.19 ms): Little's law on them gives 17.3 s of request time
     * in a 6 s hold on one connection, three times what can exist; the closed model caps it at connections × hold.
     */
    @Test
    void aClosedModelHoldsAtMostItsConnectionsInFlight() {
        assertEquals(6.0, ProfileProbe.requestSeconds(456.78, 6.309, 6.0, 1), 1e-9);
        assertEquals(120.0, ProfileProbe.requestSeconds(2000, 100, 6.0, 20), 1e-9); // beyond the connections: capped
        assertEquals(456.78 * 1.5 / 1000 * 6, ProfileProbe.requestSeconds(456.78, 1.5, 6.0, 1), 1e-9); // under it: Little's law
        // the open model has no connection count to cap at (k6's latencies are not corrected)
        assertEquals(456.78 * 6.309 / 1000 * 6, ProfileProbe.requestSeconds(456.78, 6.309, 6.0, null), 1e-9);
    }

    /** Samples in a loop without a safepoint poll name the loop's frame only with debug information between polls. */
    @Test
    void theSutKeepsDebugInformationBetweenSafepoints() {
        List<String> args = new ProfileProbe().jvmArgs();
        assertTrue(args.indexOf("-XX:+UnlockDiagnosticVMOptions") >= 0 && args.indexOf("-XX:+UnlockDiagnosticVMOptions") < args.indexOf("-XX:+DebugNonSafepoints"), args.toString());
        assertTrue(args.contains("-XX:FlightRecorderOptions:stackdepth=512"), args.toString());
    }
}
