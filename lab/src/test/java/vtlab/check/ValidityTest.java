package vtlab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ValidityTest {
    @Test
    void littlesLawHoldsForAClosedModel() {
        // 1,000 connections at 4,000 req/s must wait 250 ms on average
        assertEquals(1.0, Validity.littlesLawRatio(1000, 4000, 250), 1e-12);
        assertTrue(Validity.littlesLawOk(Validity.littlesLawRatio(1000, 4000, 230)));
        assertFalse(Validity.littlesLawOk(Validity.littlesLawRatio(1000, 4000, 200)), "20% short: connections were idle");
        assertFalse(Validity.littlesLawOk(Validity.littlesLawRatio(400, 8000, 40)));
        // above 1 only wrk's coordinated-omission correction of the mean can put it: not a void row
        assertTrue(Validity.littlesLawOk(Validity.littlesLawRatio(400, 8000, 60)));
    }

    @Test
    void saturationIsMeasuredAgainstTheTiersOwnCores() {
        assertTrue(Validity.saturated(95.0, 1));
        assertFalse(Validity.saturated(95.0, 2));
        assertTrue(Validity.saturated(180.0, 2));
        assertFalse(Validity.saturated(null, 1));
    }

    static Validity.Inputs in(double rps, double little, Double loadCpu, Double appCpu, Double bound) {
        return new Validity.Inputs(1000, rps, 0, little, loadCpu, 1, appCpu, 1, 8192, bound);
    }

    @Test
    void flagsWhatVoidsARowAndWhatIsAFinding() {
        assertEquals(List.of(), Validity.flags(in(3950, 1.0, 30.0, 40.0, 4000.0)));
        assertEquals(List.of("generator-bound"), Validity.flags(in(3950, 1.0, 97.0, 40.0, 4000.0)));
        assertEquals(List.of("app-cpu-bound"), Validity.flags(in(9000, 1.0, 30.0, 99.0, 20000.0)),
                "far below the bound because the SUT's core is full: a finding, not below-bound");
        assertEquals(List.of("below-bound"), Validity.flags(in(2000, 1.0, 30.0, 50.0, 4000.0)));
        assertEquals(List.of("above-bound"), Validity.flags(in(4400, 1.0, 30.0, 50.0, 4000.0)));
        assertTrue(Validity.voids("generator-bound"));
        assertTrue(Validity.voids("littles-law"));
        assertFalse(Validity.voids("app-cpu-bound"));
    }

    @Test
    void connectionsAboveMaxConnectionsAreFlagged() {
        var i = new Validity.Inputs(10000, 1000, 0, 1.0, 10.0, 1, 10.0, 1, 8192, null);
        assertEquals(List.of("over-max-connections"), Validity.flags(i));
    }

    @Test
    void errorsAreFlagged() {
        var i = new Validity.Inputs(100, 1000, 0.05, 1.0, 10.0, 1, 10.0, 1, 8192, null);
        assertEquals(List.of("errors"), Validity.flags(i));
    }
}
