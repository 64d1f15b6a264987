package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.data.Column;
import vtlab.probe.Measurements;
import vtlab.probe.Probe;
import vtlab.probe.ProbeContext;

class ProbeSessionTest {
    /** Records the calls it gets; one that acts on the SUT in finish() (as cpu-threads' jcmd Thread.print does). */
    record Recorder(String name, List<String> calls) implements Probe {
        @Override
        public String description() {
            return name;
        }

        @Override
        public List<Column> columns() {
            return List.of();
        }

        @Override
        public void stop(ProbeContext ctx) {
            calls.add(name + ".stop");
        }

        @Override
        public void finish(ProbeContext ctx, Measurements out) {
            calls.add(name + ".finish");
        }
    }

    /** The gc probe's window must close before another probe's finish() stops the SUT for a thread dump. */
    @Test
    void everyProbeStopsBeforeAnyFinishes() {
        List<String> calls = new ArrayList<>();
        new ProbeSession(List.of(new Recorder("cpu-threads", calls), new Recorder("gc", calls))).finish(null);
        assertEquals(List.of("cpu-threads.stop", "gc.stop", "cpu-threads.finish", "gc.finish"), calls);
    }

    /** What a test probe's finish() does: throw, or take its time. */
    interface Finish {
        void run() throws Exception;
    }

    /** A probe whose finish() does this; its other calls do nothing. */
    record Finishing(String name, Finish body) implements Probe {
        @Override
        public String description() {
            return name;
        }

        @Override
        public List<Column> columns() {
            return List.of();
        }

        @Override
        public void finish(ProbeContext ctx, Measurements out) throws Exception {
            body.run();
        }
    }

    /** A probe that could not stop its recording says so by type, not in words: the SUT is no longer clean. */
    @Test
    void aProbeThatLeavesTheSutUncleanIsKeptApartFromOtherErrors() {
        ProbeSession other = new ProbeSession(List.of(failing("gc", new java.io.IOException("jcmd JFR.stop failed"))));
        other.finish(null);
        assertTrue(other.sutClean(), "an error's text alone never marks the SUT");
        ProbeSession left = new ProbeSession(List.of(failing("jfr-pinning", new vtlab.probe.SutNotClean(
                "JFR recording vtlab-pinning could not be stopped: no answer", new java.io.IOException("no answer")))));
        left.finish(null);
        assertFalse(left.sutClean());
        assertEquals(List.of("jfr-pinning: JFR recording vtlab-pinning could not be stopped: no answer"), left.errors());
    }

    /** Each probe's wall time, a row's explaining probes' added to its own, largest first. */
    @Test
    void whatEachProbeCostsTheRowIsWritten() {
        ProbeSession probes = new ProbeSession(List.of(slow("gc", 20), slow("live-set", 300)));
        ProbeSession explainers = new ProbeSession(List.of(slow("profile", 120)));
        probes.finish(null);
        explainers.finish(null);
        explainers.finish(null);
        vtlab.data.RowValues out = new vtlab.data.RowValues();
        ProbeSession.into(out, probes, explainers, null);
        String[] parts = ((String) out.get(ProbeSession.WALL)).split(";");
        assertEquals(List.of("live-set", "profile", "gc"), java.util.Arrays.stream(parts).map(p -> p.split(" ")[0]).toList(), String.join(";", parts));
        double liveSet = Double.parseDouble(parts[0].split(" ")[1]), profile = Double.parseDouble(parts[1].split(" ")[1]);
        assertTrue(liveSet >= 0.3 && liveSet < 1.0, parts[0]);
        assertTrue(profile >= 0.2 && profile < 1.0, "two calls of 120 ms: " + parts[1]);
    }

    static Finishing failing(String name, Exception thrown) {
        return new Finishing(name, () -> {
            throw thrown;
        });
    }

    /** A probe whose finish() takes this long, as a live set's full collection does. */
    static Finishing slow(String name, long millis) {
        return new Finishing(name, () -> Thread.sleep(millis));
    }
}
