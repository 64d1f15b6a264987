package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.tier.host.TierProcess;

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

    @TempDir
    Path tmp;

    /**
     * A lower-priority build's top process (cargo, at nice 19) that ends in the profiled hold, reaped by a shell that
     * is not lower priority: its ticks leave /proc. Read as a sum at the hold's two ends, its system time came out as
     * minus its lifetime and the SUT's CPUs read busier than they were (time_sut_cores_busy_pct); the hold keeps it as
     * last read at the probe's samples, so only what the build did in the hold is taken out.
     */
    @Test
    void aBuildEndingInTheProfiledHoldTakesOutOnlyItsTicksInTheHold() throws Exception {
        long shell = 1, cargo = 100;
        Iterator<Map<Long, long[]>> readings = List.<Map<Long, long[]>>of(
                Map.of(cargo, new long[] {50_000, 5_000, shell}), // the hold's start
                Map.of(cargo, new long[] {50_090, 5_010, shell}), // a sample
                Map.of()).iterator(); // the hold's end: cargo has ended
        ProfileProbe probe = new ProfileProbe();
        probe.lowerPriorityProcesses = pid -> readings.next();
        ProbeContext ctx = new ProbeContext(ProbesOnAHostTest.row().withHold(Duration.ofSeconds(1)), Map.of("app", TierProcess.local(ProcessHandle.current())),
                Map.of("app", 1), URI.create("http://127.0.0.1:1"), tmp, "001");
        probe.start(ctx);
        probe.sample(ctx, 0, new Measurements()); // before the first thread dump's second
        probe.stop(ctx);
        // a niced SUT's own time is in the nice jiffies: then no lower-priority work is taken out
        long expected = Proc.nice(ProcessHandle.current().pid()) > 0 ? 0 : 10;
        assertEquals(expected, probe.lowerSystemTicks(), "cargo's 10 system ticks in the hold, not minus its 5,000");
    }
}
