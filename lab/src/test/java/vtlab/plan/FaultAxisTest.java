package vtlab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.stack.Params;
import vtlab.tier.tool.Jdk;

class FaultAxisTest {
    static Row row(List<String> tiers, int holdS) {
        return Row.builder().experiment("order-summary").stack("spring-mvc").threadMode("virtual").workload("order-summary")
                .concurrency(100).rep(1).hikariPool(50).jdk(Jdk.current()).params(Params.NONE.with("orderId", "random")).tiers(tiers)
                .warmup(Duration.ZERO).hold(Duration.ofSeconds(holdS)).build();
    }

    @Test
    void eachScheduleIsARowAndAProxyFaultAddsTheProxyLast() throws Exception {
        List<String> schedules = FaultAxis.parse(vtlab.cli.Main.parse(List.of("--fault", "stub:latency=2s@10s-30s,db:lock@10s-15s,none")));
        assertEquals(List.of("stub:latency=2s@10s-30s", "db:lock@10s-15s", "none"), schedules);
        List<Row> rows = FaultAxis.apply(List.of(row(List.of("pg", "stub"), 60)), schedules);
        assertEquals(3, rows.size());
        assertEquals(List.of("pg", "stub", "toxiproxy"), rows.get(0).tiers(), "latency goes through the proxy, started after what it fronts");
        assertEquals(List.of("pg", "stub"), rows.get(1).tiers(), "a lock needs no proxy");
        assertEquals("db:lock@10s-15s", rows.get(1).params().get("fault"));
        assertEquals("random", rows.get(1).params().get("orderId"), "the row's own params stay");
        assertTrue(rows.get(0).scenario().contains("fault=stub:latency=2s@10s-30s"), "a fault is part of the scenario");
        assertEquals(List.of(row(List.of("pg"), 60)), FaultAxis.apply(List.of(row(List.of("pg"), 60)), List.of()), "no --fault: rows as they are");
    }

    /** A schedule scaled into a shorter hold: every time by the factor (to the ms), amounts and 'none' as they are. */
    @Test
    void schedulesScaleTheirTimesOnly() {
        assertEquals("stub:latency=1900ms@4s-12s,none,stub:down@2s-3s+db:lock@5s-7500ms",
                FaultAxis.scaled("stub:latency=1900ms@10s-30s,none,stub:down@5s-7.5s+db:lock@12.5s-18.75s", 0.4));
        assertEquals("stub:down@1s-2s", FaultAxis.scaled("stub:down@1s-2s", 1.0));
        assertThrows(IllegalArgumentException.class, () -> FaultAxis.scaled("stub:down@1s-2s", 0));
        assertEquals("1000@0s,5000@5s-7500ms,1000@15s", RateProfile.parse("1000@0s,5000@10s-15s,1000@30s").scaled(0.5).spec());
    }

    @Test
    void refusedInOneLineBeforeAnythingStarts() {
        assertTrue(assertThrows(UsageError.class, () -> FaultAxis.parse(vtlab.cli.Main.parse(List.of("--fault", "stub:slow@1s-2s"))))
                .getMessage().startsWith("--fault: "));
        assertTrue(assertThrows(UsageError.class, () -> FaultAxis.apply(List.of(row(List.of("pg"), 60)), List.of("stub:down@10s-20s")))
                .getMessage().contains("this row has no dependency stub"));
        assertTrue(assertThrows(UsageError.class, () -> FaultAxis.apply(List.of(row(List.of("pg", "stub"), 20)), List.of("stub:down@10s-30s")))
                .getMessage().contains("ends after the 20s hold"));
    }
}
