package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.data.RowValues;
import vtlab.plan.Row;
import vtlab.tier.tool.Jdk;
import vtlab.tier.RunTier;
import vtlab.tier.fault.Fault;
import vtlab.tier.fault.FaultInjector;

class FaultScheduleTest {
    /** A tier that injects what it is asked to and notes when (ms from the test's start). */
    static final class Recorder implements RunTier, FaultInjector {
        final List<String> log = Collections.synchronizedList(new ArrayList<>());
        final long t0 = System.nanoTime();
        boolean fail;

        long ms() {
            return (System.nanoTime() - t0) / 1_000_000;
        }

        public boolean injects(Fault f) {
            return f.tier().equals("stub");
        }

        public Active inject(Fault f) throws Exception {
            if (fail) throw new IllegalStateException("proxy gone");
            log.add("on " + f.kind() + " " + ms());
            return () -> log.add("off " + ms());
        }

        public String name() {
            return "stub";
        }

        public void start(Context ctx) {}

        public ProcessHandle process() {
            return null;
        }

        public Map<String, String> sutEnv() {
            return Map.of();
        }

        public void close() {}
    }

    static Row row(String fault) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put(Fault.PARAM, fault);
        return new Row("faults", "spring-mvc", "virtual", "order-summary", 10, 1, null, null, null, Jdk.current(), params, Map.of(), Map.of(),
                null, null, List.of("pg", "stub"), Duration.ZERO, Duration.ofSeconds(2), List.of());
    }

    @Test
    void eachFaultBeginsAndEndsOnTimeAndTheRowRecordsWhen() throws Exception {
        Recorder stub = new Recorder();
        FaultSchedule s = FaultSchedule.of(row("stub:down@300ms-700ms"), Map.of("stub", stub));
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
        assertEquals("stub:down@300ms-700ms", out.get(FaultSchedule.FAULT));
        assertEquals(0.3, (double) out.get(FaultSchedule.FROM), 0.15);
        assertEquals(0.7, (double) out.get(FaultSchedule.TO), 0.15);
    }

    @Test
    void aHoldCutShortStillEndsItsFault() throws Exception {
        Recorder stub = new Recorder();
        FaultSchedule s = FaultSchedule.of(row("stub:latency=1s@100ms-2s"), Map.of("stub", stub));
        try (s) {
            s.start(System.nanoTime());
            Thread.sleep(300);
        } // the row failed at 300 ms: the fault must not outlive it
        assertEquals(2, stub.log.size(), stub.log.toString());
        assertTrue(stub.log.get(1).startsWith("off "));
    }

    @Test
    void noTierToInjectItOrAFailedInjectionFailsTheRow() throws Exception {
        assertTrue(assertThrows(RowRunner.RowFailed.class, () -> FaultSchedule.of(row("db:lock@0s-1s"), Map.of("stub", new Recorder())))
                .getMessage().contains("no running tier can inject db:lock"));
        Recorder broken = new Recorder();
        broken.fail = true;
        FaultSchedule s = FaultSchedule.of(row("stub:down@0s-200ms"), Map.of("stub", broken));
        try (s) {
            s.start(System.nanoTime());
            Thread.sleep(300);
        }
        assertTrue(assertThrows(RowRunner.RowFailed.class, () -> s.into(new RowValues())).getMessage().contains("proxy gone"));
        assertFalse(FaultSchedule.of(row("none"), Map.of()).any());
    }
}
