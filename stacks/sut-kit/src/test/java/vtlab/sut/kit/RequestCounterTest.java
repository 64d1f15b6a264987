package vtlab.sut.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

class RequestCounterTest {

    @Test
    void countsByPathAndByTheKindOfThreadThatRanThem() throws Exception {
        RequestCounter c = RequestCounter.standard();
        assertTrue(c.enter("/hello"));
        c.leave();
        Thread v = Thread.ofVirtual().start(() -> {
            if (c.enter("/sleep")) c.leave();
        });
        v.join();
        assertFalse(c.enter(RuntimeInfo.PATH), "the lab's own path is not counted");
        assertEquals(Map.of("/hello", 1L, "/sleep", 1L), c.byPath());
        assertEquals(Map.of("platform", 1L, "virtual", 1L), c.byThread());
        assertEquals(0, c.inFlight());
    }

    @Test
    void thePeakIsTheMostInFlightAtOnceNotTheLastSample() throws Exception {
        RequestCounter c = RequestCounter.standard();
        int n = 5;
        CountDownLatch in = new CountDownLatch(n), out = new CountDownLatch(1);
        List<Thread> threads = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            threads.add(Thread.ofVirtual().start(() -> {
                c.enter("/sleep");
                in.countDown();
                try {
                    out.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                c.leave();
            }));
        }
        in.await();
        assertEquals(n, c.inFlight());
        out.countDown();
        for (Thread t : threads) t.join();
        assertEquals(0, c.inFlight());
        assertEquals(n, c.inFlightPeak());
    }

    @Test
    void runtimeInfoCarriesTheContractsFields() {
        RequestCounter c = RequestCounter.standard();
        c.count("/a?b");
        Map<String, Object> info = RuntimeInfo.requests(RuntimeInfo.of("x", "virtual"), c);
        for (String k : List.of("stack", "thread_mode", "jdk_major", "vt_carriers", "pid", "requests_by_path", "requests_by_thread", "in_flight_peak")) {
            assertTrue(info.containsKey(k), k + " in " + info);
        }
        assertEquals("{\"a\":[1,null,\"q\\\"\\n\"],\"b\":true}", Json.write(new java.util.TreeMap<>(Map.of("a", java.util.Arrays.asList(1, null, "q\"\n"), "b", true))));
    }
}
