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

    /** A probe whose finish() throws this; its other calls do nothing. */
    record Failing(String name, Exception thrown) implements Probe {
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
            throw thrown;
        }
    }

    /** A probe that could not stop its recording says so by type, not in words: the SUT is no longer clean. */
    @Test
    void aProbeThatLeavesTheSutUncleanIsKeptApartFromOtherErrors() {
        ProbeSession other = new ProbeSession(List.of(new Failing("gc", new java.io.IOException("jcmd JFR.stop failed"))));
        other.finish(null);
        assertTrue(other.sutClean(), "an error's text alone never marks the SUT");
        ProbeSession left = new ProbeSession(List.of(new Failing("jfr-pinning", new vtlab.probe.SutNotClean(
                "JFR recording vtlab-pinning could not be stopped: no answer", new java.io.IOException("no answer")))));
        left.finish(null);
        assertFalse(left.sutClean());
        assertEquals(List.of("jfr-pinning: JFR recording vtlab-pinning could not be stopped: no answer"), left.errors());
    }
}
