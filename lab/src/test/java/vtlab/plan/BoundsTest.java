package vtlab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import vtlab.stack.ThreadMode;

class BoundsTest {
    /** Tomcat's modes as stacks/servlet/stack.json declares them: a pool of 200 platform threads, no pool. */
    static final ThreadMode.RequestBound POOL_200 = new ThreadMode.RequestBound(ThreadMode.Bound.POOL, 200),
            NO_POOL = new ThreadMode.RequestBound(ThreadMode.Bound.NONE, null);

    @Test
    void platformIsCappedByItsPool() {
        // the article: 200 threads, 50 ms sleep -> 4,000 req/s whatever the connection count
        assertEquals(4000.0, Bounds.closedModelRps(Bounds.inFlight(POOL_200, 400, 8192), 50), 1e-9);
        assertEquals(4000.0, Bounds.closedModelRps(Bounds.inFlight(POOL_200, 1000, 8192), 50), 1e-9);
        // fewer connections than threads: the connections are the cap
        assertEquals(2000.0, Bounds.closedModelRps(Bounds.inFlight(POOL_200, 100, 8192), 50), 1e-9);
    }

    @Test
    void virtualIsCappedByConnectionsThenMaxConnections() {
        assertEquals(8000.0, Bounds.closedModelRps(Bounds.inFlight(NO_POOL, 400, 8192), 50), 1e-9);
        assertEquals(20000.0, Bounds.closedModelRps(Bounds.inFlight(NO_POOL, 1000, 8192), 50), 1e-9);
        assertEquals(8192 * 20.0, Bounds.closedModelRps(Bounds.inFlight(NO_POOL, 10000, 8192), 50), 1e-9);
    }

    @Test
    void notesSayWhereTheBoundComesFrom() {
        assertEquals("200 pool threads / 50 ms", Bounds.note(POOL_200, 1000, 8192, 50));
        assertEquals("1000 connections / 50 ms", Bounds.note(NO_POOL, 1000, 8192, 50));
        assertEquals("8192 (maxConnections) / 100 ms", Bounds.note(NO_POOL, 10000, 8192, 100));
    }

    @Test
    void aDeclaredBoundCapsTheRequestsOnlyWhereItsNBoundsThem() {
        // Jetty's VirtualThreadPool: virtual threads, at most 200 tasks at once -> the same 4,000 req/s as a 200-thread pool
        ThreadMode.RequestBound capped = new ThreadMode.RequestBound(ThreadMode.Bound.VIRTUAL_CAP, 200);
        assertEquals(4000.0, Bounds.closedModelRps(Bounds.inFlight(capped, 1000, 8192), 50), 1e-9);
        assertEquals("200 virtual threads at most / 50 ms", Bounds.note(capped, 1000, 8192, 50));
        // a queued pool in front of virtual threads runs the server, not the requests: the connections bound them
        ThreadMode.RequestBound front = new ThreadMode.RequestBound(ThreadMode.Bound.POOL_BEFORE_VIRTUAL, 200);
        assertEquals(20000.0, Bounds.closedModelRps(Bounds.inFlight(front, 1000, 8192), 50), 1e-9);
        assertEquals("1000 connections / 50 ms", Bounds.note(front, 1000, 8192, 50));
        assertEquals("a pool of 200 in front of virtual threads", front.describe());
        // no pool (Helidon) and an event loop (Netty): the connections, then the connection cap
        assertEquals(400, Bounds.inFlight(new ThreadMode.RequestBound(ThreadMode.Bound.NONE, null), 400, 8192));
        assertEquals(300, Bounds.inFlight(new ThreadMode.RequestBound(ThreadMode.Bound.EVENT_LOOP, 4), 1000, 300));
        assertEquals("200 pool threads / 50 ms", Bounds.note(new ThreadMode.RequestBound(ThreadMode.Bound.POOL, 200), 1000, 8192, 50));
    }

    @Test
    void rejectsANonPositiveServiceTime() {
        assertThrows(IllegalArgumentException.class, () -> Bounds.closedModelRps(10, 0));
    }
}
