package vtlab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.data.RowValues;
import vtlab.plan.Row;
import vtlab.tier.tool.Jdk;

/** A row's numbers judged into its flags, status and note, as the runner hands them over. */
class RowValidityTest {
    static final RowValidity.Context HERE = new RowValidity.Context(1, 1, null, 100, null, true, null, List.of());

    static Row row(int connections, Double boundRps, Double rate) {
        return Row.builder().experiment("servlet").stack("servlet").threadMode("virtual").workload("sleep").concurrency(connections)
                .rep(1).jdk(Jdk.current()).boundRps(boundRps).warmup(Duration.ZERO).hold(Duration.ofSeconds(20)).rate(rate).build();
    }

    static RowValidity.Measured closed(double rps, double meanMs) {
        return new RowValidity.Measured(rps, meanMs, 0, 20, 0, List.of(), List.of());
    }

    @Test
    void aClosedRowAtItsBoundIsEvidenceAndAnUnsettledWarmUpIsOnlyACaveat() {
        RowValues out = new RowValues();
        RowValidity.judge(out, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("ok", out.get(Validity.STATUS), String.valueOf(out.get(Validity.NOTE)));
        assertEquals(3950 / 4000.0, (double) out.get(Validity.BOUND_RATIO), 1e-9);

        RowValues unsettled = new RowValues();
        RowValidity.judge(unsettled, row(200, 4000.0, null), closed(3950, 50.5),
                new RowValidity.Context(1, 1, "1", 100, null, false, null, List.of("rss: gone")));
        assertEquals("ok", unsettled.get(Validity.STATUS));
        assertEquals("warmup-not-steady;shared-cpu", unsettled.get(Validity.FLAGS));
        String note = (String) unsettled.get(Validity.NOTE);
        assertTrue(note.contains("shared CPU 1") && note.contains("probe errors: rss: gone"), note);
    }

    /** Other processes took a quarter of a core while the row ran: its numbers are not the service's alone. */
    @Test
    void aBusyMachineVoidsTheRowAndSaysHowBusy() {
        RowValues quiet = new RowValues();
        quiet.put(vtlab.probe.CpuProbe.OTHERS, 3.5);
        RowValidity.judge(quiet, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("ok", quiet.get(Validity.STATUS), String.valueOf(quiet.get(Validity.NOTE)));

        RowValues busy = new RowValues();
        busy.put(vtlab.probe.CpuProbe.OTHERS, 61.0);
        RowValidity.judge(busy, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("flagged", busy.get(Validity.STATUS));
        assertEquals("busy-machine", busy.get(Validity.FLAGS));
        assertTrue(((String) busy.get(Validity.NOTE)).contains("other processes used 61% of a core during the hold"), String.valueOf(busy.get(Validity.NOTE)));
    }

    /**
     * The hypervisor took a tenth of a core from the VM while the row ran: its numbers are slower than the service's,
     * said with how much; a caveat, not yet voiding the row.
     */
    @Test
    void cpuTheHypervisorStoleIsFlaggedWithHowMuch() {
        RowValues little = new RowValues();
        little.put(vtlab.probe.CpuProbe.STEAL, 0.4);
        RowValidity.judge(little, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("ok", little.get(Validity.STATUS), String.valueOf(little.get(Validity.NOTE)));

        RowValues stolen = new RowValues();
        stolen.put(vtlab.probe.CpuProbe.STEAL, 14.0);
        RowValidity.judge(stolen, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("ok", stolen.get(Validity.STATUS), "a caveat");
        assertEquals("stolen-cpu", stolen.get(Validity.FLAGS));
        assertTrue(((String) stolen.get(Validity.NOTE)).contains("the hypervisor gave 14% of a core"), String.valueOf(stolen.get(Validity.NOTE)));
    }

    /**
     * Handshakes a full accept queue dropped are a caveat that names itself, and the cause in the note when the
     * connections then sat idle (run 20261128T224239Z-servers: Tomcat's backlog of 100 at 1,000 connections, ratio 0.87).
     */
    @Test
    void handshakesAFullAcceptQueueDroppedAreNamedAndExplainIdleConnections() {
        RowValues some = new RowValues();
        some.put(vtlab.data.Columns.LISTEN_OVERFLOWS, 40L);
        RowValidity.judge(some, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("ok", some.get(Validity.STATUS), "a caveat: Little's law held");
        assertEquals("accept-queue", some.get(Validity.FLAGS));
        String note = (String) some.get(Validity.NOTE);
        assertTrue(note.contains("accept-queue: 40 connection handshake(s) dropped by a full accept queue") && !note.contains("littles-law"), note);

        RowValues idle = new RowValues();
        idle.put(vtlab.data.Columns.LISTEN_OVERFLOWS, 2130L);
        RowValidity.judge(idle, row(1000, 4000.0, null), closed(3796, 229.3), HERE); // ratio 0.87
        assertEquals("flagged", idle.get(Validity.STATUS));
        assertEquals("littles-law;accept-queue", idle.get(Validity.FLAGS));
        assertTrue(((String) idle.get(Validity.NOTE)).contains("which is why the connections sat idle (littles-law)"), String.valueOf(idle.get(Validity.NOTE)));

        RowValues none = new RowValues();
        none.put(vtlab.data.Columns.LISTEN_OVERFLOWS, 0L);
        RowValidity.judge(none, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("", none.get(Validity.FLAGS));
    }

    /** A hold in which the JIT still took a tenth of a core or more is named, a caveat: the server was not warm. */
    @Test
    void aHoldWhileTheJitStillCompilesIsACaveatThatSaysHowMuch() {
        RowValues busy = new RowValues();
        busy.put(vtlab.data.Columns.APP_CPU_BY_THREAD, "requests 30.3;jit 28.3;gc-vm 0.3"); // WebFlux after a 3 s warm-up
        RowValidity.judge(busy, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("ok", busy.get(Validity.STATUS));
        assertEquals("jit-busy", busy.get(Validity.FLAGS));
        assertTrue(((String) busy.get(Validity.NOTE)).contains("jit-busy: the JIT compiler used 28% of a core in the hold"), String.valueOf(busy.get(Validity.NOTE)));
        RowValues warm = new RowValues();
        warm.put(vtlab.data.Columns.APP_CPU_BY_THREAD, "requests 80.1;jit 1.2");
        RowValidity.judge(warm, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("", warm.get(Validity.FLAGS));
    }

    @Test
    void connectionsSittingIdleVoidAClosedRow() {
        RowValues out = new RowValues();
        RowValidity.judge(out, row(200, 4000.0, null), closed(2000, 50), HERE); // 2,000 x 50 ms = 100 of 200 connections busy
        assertEquals("flagged", out.get(Validity.STATUS));
        assertTrue(((String) out.get(Validity.FLAGS)).contains("littles-law"), String.valueOf(out.get(Validity.FLAGS)));
    }

    @Test
    void aFaultRowIsJudgedOnTheSecondsBeforeItsFault() {
        List<RowValidity.Second> seconds = new ArrayList<>();
        seconds.add(new RowValidity.Second(0, 0)); // the generator starting
        for (int s = 1; s < 10; s++) seconds.add(new RowValidity.Second(100, 0));
        for (int s = 10; s < 20; s++) seconds.add(new RowValidity.Second(20, 80)); // the fault: most requests fail
        long answered = seconds.stream().mapToLong(RowValidity.Second::answered).sum();
        long errors = seconds.stream().mapToLong(RowValidity.Second::errors).sum();
        RowValidity.Measured m = new RowValidity.Measured(answered / 20.0, 40, errors / (double) (answered + errors), 20, 0, seconds, List.of());

        RowValues fault = new RowValues();
        RowValidity.judge(fault, row(1000, 4000.0, 100.0), m, new RowValidity.Context(1, 1, null, 1000, null, true, 10, List.of()));
        assertEquals("ok", fault.get(Validity.STATUS), String.valueOf(fault.get(Validity.NOTE)));
        assertTrue(((String) fault.get(Validity.NOTE)).contains("judged on the 8 s before the fault"), String.valueOf(fault.get(Validity.NOTE)));

        RowValues without = new RowValues();
        RowValidity.judge(without, row(1000, 4000.0, 100.0), m, new RowValidity.Context(1, 1, null, 1000, null, true, null, List.of()));
        assertEquals("flagged", without.get(Validity.STATUS), "the same hold without a fault is judged whole: " + without.get(Validity.FLAGS));
    }

    /** The served probe's count: a virtual row with requests on platform threads is flagged by name, never passed. */
    @Test
    void aVirtualRowWhosePlatformThreadsAlsoServedRequestsIsFlaggedMixed() {
        RowValues out = new RowValues();
        out.put(vtlab.probe.ServedProbe.ON_PLATFORM, 40L);
        out.put(vtlab.probe.ServedProbe.ON_VIRTUAL, 78_960L);
        RowValidity.judge(out, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("flagged", out.get(Validity.STATUS));
        assertEquals(Validity.THREAD_MODE_MIXED, out.get(Validity.FLAGS));
        String note = (String) out.get(Validity.NOTE);
        assertTrue(note.startsWith("flagged: thread-mode-mixed | thread-mode-mixed: 40 of the hold's 79000 requests ran on platform threads in a virtual row"), note);

        RowValues open = new RowValues(); // an open row too
        open.put(vtlab.probe.ServedProbe.ON_PLATFORM, 1L);
        open.put(vtlab.probe.ServedProbe.ON_VIRTUAL, 1999L);
        RowValidity.judge(open, row(1000, 4000.0, 100.0), new RowValidity.Measured(100, 50, 0, 20, 0, List.of(), List.of()), HERE);
        assertTrue(((String) open.get(Validity.FLAGS)).contains(Validity.THREAD_MODE_MIXED), String.valueOf(open.get(Validity.FLAGS)));

        RowValues clean = new RowValues();
        clean.put(vtlab.probe.ServedProbe.ON_PLATFORM, 0L);
        clean.put(vtlab.probe.ServedProbe.ON_VIRTUAL, 79_000L);
        RowValidity.judge(clean, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("ok", clean.get(Validity.STATUS), "all on virtual threads: " + clean.get(Validity.NOTE));
    }

    /** A platform row's requests on virtual threads are mixed too; a service without runtime-info is flagged from its proof. */
    @Test
    void theOtherWayRoundAndAProofThatSaysMixedAreFlaggedToo() {
        var platform = vtlab.stack.ThreadMode.Threads.PLATFORM;
        assertEquals(List.of(Validity.THREAD_MODE_MIXED), Validity.threadMode("platform", platform, 100L, 3L, null).flags());
        assertEquals(List.of(), Validity.threadMode("platform", platform, 100L, 0L, null).flags());
        assertEquals(List.of(), Validity.threadMode("virtual", vtlab.stack.ThreadMode.Threads.VIRTUAL, null, null, null).flags(), "not counted: nothing to say");
        // the declaration decides, not the name: Jetty's virtual-pool is virtual; an event loop's count is the loop's, never mixed
        assertEquals(List.of(Validity.THREAD_MODE_MIXED), Validity.threadMode("virtual-pool", vtlab.stack.ThreadMode.Threads.VIRTUAL, 5L, 100L, null).flags());
        assertEquals(List.of(), Validity.threadMode("virtual-netty", vtlab.stack.ThreadMode.Threads.EVENT_LOOP, 100L, 0L, null).flags());
        RowValues out = new RowValues();
        out.put(vtlab.run.RowColumns.MODE_PROOF, Validity.THREAD_MODE_MIXED + ": 4 request(s) on virtual threads, 2 on platform threads in 1 thread dump(s)");
        RowValidity.judge(out, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("flagged", out.get(Validity.STATUS));
        assertTrue(((String) out.get(Validity.NOTE)).contains("2 on platform threads"), String.valueOf(out.get(Validity.NOTE)));
        RowValues proven = new RowValues();
        proven.put(vtlab.run.RowColumns.MODE_PROOF, "4 request(s) on virtual threads, 0 on platform threads in 1 thread dump(s)");
        RowValidity.judge(proven, row(200, 4000.0, null), closed(3950, 50.5), HERE);
        assertEquals("ok", proven.get(Validity.STATUS));
    }
}
