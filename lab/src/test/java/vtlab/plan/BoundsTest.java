package vtlab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BoundsTest {
    @Test
    void platformIsCappedByItsPool() {
        // the article: 200 threads, 50 ms sleep -> 4,000 req/s whatever the connection count
        assertEquals(4000.0, Bounds.closedModelRps(Bounds.inFlight("platform", 200, 400, 8192), 50), 1e-9);
        assertEquals(4000.0, Bounds.closedModelRps(Bounds.inFlight("platform", 200, 1000, 8192), 50), 1e-9);
        // fewer connections than threads: the connections are the cap
        assertEquals(2000.0, Bounds.closedModelRps(Bounds.inFlight("platform", 200, 100, 8192), 50), 1e-9);
    }

    @Test
    void virtualIsCappedByConnectionsThenMaxConnections() {
        assertEquals(8000.0, Bounds.closedModelRps(Bounds.inFlight("virtual", null, 400, 8192), 50), 1e-9);
        assertEquals(20000.0, Bounds.closedModelRps(Bounds.inFlight("virtual", null, 1000, 8192), 50), 1e-9);
        assertEquals(8192 * 20.0, Bounds.closedModelRps(Bounds.inFlight("virtual", null, 10000, 8192), 50), 1e-9);
    }

    @Test
    void notesSayWhereTheBoundComesFrom() {
        assertEquals("200 pool threads / 50 ms", Bounds.note("platform", 200, 1000, 8192, 50));
        assertEquals("1000 connections / 50 ms", Bounds.note("virtual", null, 1000, 8192, 50));
        assertEquals("8192 (maxConnections) / 100 ms", Bounds.note("virtual", null, 10000, 8192, 100));
    }

    @Test
    void rejectsANonPositiveServiceTime() {
        assertThrows(IllegalArgumentException.class, () -> Bounds.closedModelRps(10, 0));
    }
}
