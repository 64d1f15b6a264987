package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;

import org.junit.jupiter.api.Test;

/**
 * The jvm probe's requests in flight, read from a SUT that keeps its own peak (the spring-mvc stack's
 * vtlab:type=Requests): each second's point is the peak since the last read, the hold's column the largest of them and
 * of the hold's last window, and the warm-up's peak is none of them. The fake SUT's in-flight count at the moment of
 * each read is 0 (every request came and went between reads, as 1 s reads of 100 ms requests see): a probe that
 * samples InFlight instead of taking the peak reports 0s.
 */
class JvmProbeTest {
    /** A SUT's MBeans: InFlight always 0 when read, takeMax each window's peak in turn, Rejected counting up. */
    static final class FakeSut implements JvmProbe.Mbeans {
        final Deque<Integer> peaks;
        final boolean withTakeMax;
        int takes;
        long rejected = 7;

        FakeSut(boolean withTakeMax, Integer... peaks) {
            this.withTakeMax = withTakeMax;
            this.peaks = new ArrayDeque<>(List.of(peaks));
        }

        @Override
        public boolean has(String name) {
            return name.equals(JvmProbe.REQUESTS) || name.equals("java.lang:type=Memory");
        }

        @Override
        public boolean hasOperation(String name, String operation) {
            return withTakeMax && name.equals(JvmProbe.REQUESTS) && operation.equals("takeMax");
        }

        @Override
        public synchronized Object get(String name, String attribute) throws Exception {
            return switch (attribute) {
                case "InFlight" -> 0;
                case "Rejected" -> rejected += 5;
                case "ThreadCount" -> 30;
                case "HeapMemoryUsage" -> new CompositeDataSupport(new CompositeType("MemoryUsage", "heap", new String[] {"used"},
                        new String[] {"used"}, new OpenType<?>[] {SimpleType.LONG}), Map.of("used", 64L << 20));
                default -> throw new IllegalArgumentException(name + " " + attribute);
            };
        }

        @Override
        public synchronized Object invoke(String name, String operation) {
            if (!hasOperation(name, operation)) throw new IllegalArgumentException(operation);
            takes++;
            return peaks.isEmpty() ? 0 : peaks.removeFirst();
        }

        @Override
        public void close() {}
    }

    static Measurements hold(JvmProbe probe, int seconds) throws Exception {
        Measurements out = new Measurements();
        probe.beforeLoad(null, out);
        probe.start(null);
        for (int s = 1; s <= seconds; s++) {
            probe.sample(null, s, out);
            int second = s;
            long deadline = System.nanoTime() + 5_000_000_000L;
            // reads run off the sampling loop: wait for this second's point before the next second
            while (out.series().getOrDefault("sut_in_flight", List.of()).stream().noneMatch(p -> p[0] == second)) {
                assertTrue(System.nanoTime() < deadline, "second " + second + " was read");
                Thread.sleep(2);
            }
        }
        probe.stop(null);
        probe.finish(null, out);
        return out;
    }

    @Test
    void eachSecondIsThePeakSinceTheLastReadNotASample() throws Exception {
        // the warm-up's 400 (taken at the hold's start), three seconds' peaks, then the hold's last window's 60
        FakeSut sut = new FakeSut(true, 400, 12, 51, 3, 60);
        Measurements out = hold(new JvmProbe(ctx -> sut), 3);
        assertEquals(List.of("1.0=12.0", "2.0=51.0", "3.0=3.0"),
                out.series().get("sut_in_flight").stream().map(p -> p[0] + "=" + p[1]).toList(), "each second's own peak");
        assertEquals(60L, out.columns().get(JvmProbe.IN_FLIGHT_MAX), "the hold's peak: its last window's too, never the warm-up's");
        assertEquals(5, sut.takes, "one take at the start, one a second, one at the end");
    }

    @Test
    void aSutWithoutItsOwnPeakIsSampled() throws Exception {
        FakeSut sut = new FakeSut(false);
        Measurements out = hold(new JvmProbe(ctx -> sut), 2);
        assertEquals(List.of(0.0, 0.0), out.series().get("sut_in_flight").stream().map(p -> p[1]).toList());
        assertEquals(0L, out.columns().get(JvmProbe.IN_FLIGHT_MAX));
        assertEquals(0, sut.takes);
    }
}
