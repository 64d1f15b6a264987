package vtlab.tier.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class FaultTest {
    @Test
    void parsesEachKindAndWritesItBackTheSame() {
        Fault f = Fault.parse("stub:latency=2s@10s-30s").getFirst();
        assertEquals("stub", f.tier());
        assertEquals("latency", f.kind().name());
        assertTrue(f.kind().throughProxy(), "latency goes through the proxy");
        assertEquals(Duration.ofSeconds(2), f.amount());
        assertEquals(10.0, f.fromS());
        assertEquals(30.0, f.toS());
        assertEquals("stub:latency=2s@10s-30s", f.spec());
        assertEquals("pg", Fault.parse("db:lock@10s-15s").getFirst().tier(), "db is the pg tier");
        assertEquals("db:latency=500ms@1500ms-3s", Fault.parse("db:latency=500ms@1.5s-3").getFirst().spec());
        List<Fault> two = Fault.parse("stub:down@10s-20s+db:lock@30s-35s");
        assertEquals(2, two.size());
        assertEquals("down", two.getFirst().kind().name());
        assertFalse(two.getLast().kind().throughProxy(), "a lock needs no proxy");
        assertEquals(List.of(), Fault.parse("none"));
    }

    @Test
    void refusesWhatDoesNotParseWithTheReason() {
        assertEquals("'stub:slow@1s-2s': no fault kind slow (latency, down, lock)",
                assertThrows(IllegalArgumentException.class, () -> Fault.parse("stub:slow@1s-2s")).getMessage(), "the kinds as declared");
        assertEquals("'stub' is not a fault: write TARGET:KIND[=AMOUNT]@FROM-TO, e.g. stub:latency=2s@10s-30s, stub:down@10s-20s, db:lock@10s-15s",
                assertThrows(IllegalArgumentException.class, () -> Fault.parse("stub")).getMessage(), "each kind's example");
        assertEquals("cache", Fault.parse("cache:down@1s-2s").getFirst().tier(), "a dependency a row declares (ab --dependency) is its own tier");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Fault.check(Fault.parse("cache:down@1s-2s"), List.of("pg"), Duration.ofSeconds(5)))
                .getMessage().contains("this row has no dependency cache"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Fault.parse("Cache:down@1s-2s")).getMessage().contains("TARGET:KIND"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Fault.parse("stub:latency@1s-2s")).getMessage().contains("needs its amount"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Fault.parse("stub:down=1s@1s-2s")).getMessage().contains("takes no amount"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Fault.parse("stub:lock@1s-2s")).getMessage().contains("only the lab's database"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Fault.parse("stub:down@20s-10s")).getMessage().contains("end after it starts"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Fault.parse("stub:down 10s")).getMessage().contains("TARGET:KIND"));
    }

    @Test
    void refusesATierTheRowLacksAWindowOutsideTheHoldAndOverlaps() {
        Duration hold = Duration.ofSeconds(60);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Fault.check(Fault.parse("stub:down@10s-20s"), List.of("pg"), hold))
                .getMessage().contains("this row has no dependency stub"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Fault.check(Fault.parse("db:lock@50s-70s"), List.of("pg"), hold))
                .getMessage().contains("ends after the 60s hold"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> Fault.check(Fault.parse("stub:down@10s-20s+stub:latency=1s@15s-25s"), List.of("pg", "stub"), hold)).getMessage().contains("overlap"));
        Fault.check(Fault.parse("stub:down@10s-20s+stub:latency=1s@20s-25s+db:lock@10s-15s"), List.of("pg", "stub"), hold); // back to back: fine
    }
}
