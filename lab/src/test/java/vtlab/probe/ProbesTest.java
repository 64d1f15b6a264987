package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.core.UsageError;

/** Probe specs: a name, then options the probe parses itself (JMH's -prof name:opt=val). */
class ProbesTest {
    @Test
    void aPinIsPutOnTheFirstFrameOutsideTheJdk() {
        // pgjdbc 42.7.8's pin (pgjdbc#3835): parked on a ReentrantLock inside the synchronized LruCache.borrow
        assertEquals("org.postgresql.jdbc.ResourceLock.obtain:28", JfrPinningProbe.firstOutsideJdk(List.of(
                "java.lang.VirtualThread.park:596", "jdk.internal.misc.VirtualThreads.park:54", "java.util.concurrent.locks.LockSupport.park:219",
                "java.util.concurrent.locks.ReentrantLock.lock:322", "org.postgresql.jdbc.ResourceLock.obtain:28",
                "org.postgresql.core.QueryExecutorBase.getStandardConformingStrings:300", "org.postgresql.util.LruCache.borrow:110")));
        assertEquals("(only JDK frames)", JfrPinningProbe.firstOutsideJdk(List.of("sun.nio.ch.Poller.poll:87", "javax.net.ssl.X.y:1")));
        assertEquals("pinned_top_frame", new JfrPinningProbe().columns().getLast().name());
    }

    @Test
    void jfrPinningTakesItsThresholdAsAnOption() throws Exception {
        JfrPinningProbe p = (JfrPinningProbe) Probes.create(List.of("jfr-pinning:threshold=5ms")).getFirst();
        assertEquals(Duration.ofMillis(5), p.threshold());
        assertEquals(Duration.ZERO, ((JfrPinningProbe) Probes.create(List.of("jfr-pinning")).getFirst()).threshold());
        assertEquals(Duration.ofSeconds(1), ((JfrPinningProbe) Probes.create(List.of("jfr-pinning:threshold=1s")).getFirst()).threshold());
    }

    @Test
    void unknownOptionsAndBadValuesAreRefusedInOneLine() {
        for (String spec : List.of("jfr-pinning:depth=3", "jfr-pinning:threshold=soon", "cpu:x=1", "rss:x", "nosuch:x=1",
                "jfr-pinning:threshold=1ms;threshold=2ms")) {
            UsageError e = assertThrows(UsageError.class, () -> Probes.validate(List.of(spec)), spec);
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        }
    }

    @Test
    void anOptionCanBeAddedToEverySpecOfAProbeThatLacksIt() throws Exception {
        assertEquals(List.of("cpu", "jfr-pinning:threshold=5ms"), Probes.withOption(List.of("cpu", "jfr-pinning"), "jfr-pinning", "threshold", "5ms"));
        // an explicit option wins over the alias
        assertEquals(List.of("jfr-pinning:threshold=1ms"), Probes.withOption(List.of("jfr-pinning:threshold=1ms"), "jfr-pinning", "threshold", "5ms"));
        assertEquals("jfr-pinning", Probes.name("jfr-pinning:threshold=1ms"));
    }
}
