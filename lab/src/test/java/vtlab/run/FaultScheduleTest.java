package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.data.RowValues;
import vtlab.plan.Row;
import vtlab.proc.Env;
import vtlab.stack.Params;
import vtlab.tier.tool.Jdk;
import vtlab.tier.RunTier;
import vtlab.tier.fault.Fault;
import vtlab.tier.fault.FaultKind;

class FaultScheduleTest {
    /**
     * A fault kind of this test's own, carried by the dependency's tier (a Recorder): what a new kind is, one class
     * (docs/design.md, "Adding a fault kind"). A row carries its faults typed, so the schedule needs no registration.
     */
    static final class Flap extends FaultKind {
        Flap() {
            super("flap", "stub:flap@1s-2s", "recorded", false);
        }

        @Override
        public AutoCloseable begin(Fault f, RunTier carrier) throws Exception {
            return ((Recorder) carrier).inject(f);
        }
    }

    static final Flap FLAP = new Flap();

    /** A tier that injects what it is asked to and notes when (ms from the test's start). */
    static final class Recorder implements RunTier {
        final List<String> log = Collections.synchronizedList(new ArrayList<>());
        final long t0 = System.nanoTime();
        boolean fail;

        long ms() {
            return (System.nanoTime() - t0) / 1_000_000;
        }

        AutoCloseable inject(Fault f) {
            if (fail) throw new IllegalStateException("proxy gone");
            log.add("on " + f.kind().name() + " " + ms());
            return () -> log.add("off " + ms());
        }

        public String name() {
            return "stub";
        }

        public void start(Context ctx) {}

        public ProcessHandle process() {
            return null;
        }

        public Env sutEnv() {
            return Env.NONE;
        }

        public void close() {}
    }

    static Row row(List<Fault> faults) {
        return Row.builder().experiment("faults").stack("spring-mvc").threadMode("virtual").workload("order-summary").concurrency(10)
                .rep(1).jdk(Jdk.current()).params(Params.NONE).tiers(List.of("pg", "stub")).warmup(Duration.ZERO)
                .hold(Duration.ofSeconds(2)).build().withFaults(faults);
    }

    /** stub:flap@FROM-TO, in ms. */
    static Row flap(long fromMs, long toMs) {
        return row(List.of(new Fault("stub", FLAP, null, Duration.ofMillis(fromMs), Duration.ofMillis(toMs))));
    }

    @Test
    void eachFaultBeginsAndEndsOnTimeAndTheRowRecordsWhen() throws Exception {
        Recorder stub = new Recorder();
        FaultSchedule s = FaultSchedule.of(flap(300, 700), Map.of("stub", stub));
        assertTrue(s.any());
        try (s) {
            s.start(System.nanoTime());
            Thread.sleep(1000);
        }
        assertEquals(2, stub.log.size(), stub.log.toString());
        long on = Long.parseLong(stub.log.get(0).split(" ")[2]), off = Long.parseLong(stub.log.get(1).split(" ")[1]);
        assertTrue(on >= 290 && on < 500, "began at " + on + " ms");
        assertTrue(off >= 690 && off < 900, "ended at " + off + " ms");
        RowValues out = new RowValues();
        s.into(out);
        assertEquals("stub:flap@300ms-700ms", out.get(FaultSchedule.FAULT));
        assertEquals(0.3, (double) out.get(FaultSchedule.FROM), 0.15);
        assertEquals(0.7, (double) out.get(FaultSchedule.TO), 0.15);
    }

    @Test
    void aHoldCutShortStillEndsItsFault() throws Exception {
        Recorder stub = new Recorder();
        FaultSchedule s = FaultSchedule.of(flap(100, 2000), Map.of("stub", stub));
        try (s) {
            s.start(System.nanoTime());
            Thread.sleep(300);
        } // the row failed at 300 ms: the fault must not outlive it
        assertEquals(2, stub.log.size(), stub.log.toString());
        assertTrue(stub.log.get(1).startsWith("off "));
    }

    @Test
    void noTierToInjectItOrAFailedInjectionFailsTheRow() throws Exception {
        assertTrue(assertThrows(RowRunner.RowFailed.class, () -> FaultSchedule.of(row(Fault.parse("db:lock@0s-1s")), Map.of("stub", new Recorder())))
                .getMessage().contains("no running tier can inject db:lock"));
        Recorder broken = new Recorder();
        broken.fail = true;
        FaultSchedule s = FaultSchedule.of(flap(0, 200), Map.of("stub", broken));
        try (s) {
            s.start(System.nanoTime());
            Thread.sleep(300);
        }
        assertTrue(assertThrows(RowRunner.RowFailed.class, () -> s.into(new RowValues())).getMessage().contains("proxy gone"));
        assertFalse(FaultSchedule.of(row(List.of()), Map.of()).any());
        assertTrue(assertThrows(RowRunner.RowFailed.class, () -> FaultSchedule.of(row(Fault.parse("stub:down@0s-1s")), Map.of("stub", new Recorder())))
                .getMessage().contains("no running tier can inject stub:down"), "down goes through the proxy, which is not running");
    }
}
