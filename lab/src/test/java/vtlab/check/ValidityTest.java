package vtlab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.data.AgentLoad;

import vtlab.plan.RateProfile;

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

    // ---- open model

    static Validity.OpenInputs open(double target, double achieved, double meanMs, long dropped, Double loadCpu, Double appCpu,
                                    Double bound) {
        return new Validity.OpenInputs(target, achieved, meanMs, 10_000, dropped, 0, loadCpu, 1, appCpu, 1, bound, 30);
    }

    @Test
    void anOpenRowThatHeldItsRateStands() {
        var v = Validity.openFlags(open(2000, 1990, 52, 0, 30.0, 40.0, 4000.0));
        assertEquals(List.of(), v.flags());
        assertEquals(1990 / 2000.0, Validity.openBoundRatio(1990, 2000, 4000.0), 1e-9);
    }

    @Test
    void aRateNotHeldIsNamedByTheTierThatSaturated() {
        var gen = Validity.openFlags(open(2000, 1500, 52, 0, 95.0, 40.0, 4000.0));
        assertTrue(gen.flags().contains("rate-not-held"));
        assertTrue(gen.notes().getFirst().contains("generator saturated (load CPU 95% of 1 cores)"), gen.notes().getFirst());
        var app = Validity.openFlags(open(2000, 1500, 52, 0, 30.0, 97.0, null));
        assertTrue(app.notes().getFirst().contains("SUT saturated"), app.notes().getFirst());
        var neither = Validity.openFlags(open(2000, 2100, 52, 0, 30.0, 40.0, null));
        assertTrue(neither.flags().contains("rate-not-held"), "too fast is not held either");
        assertTrue(neither.notes().getFirst().contains("neither tier saturated"), neither.notes().getFirst());
        assertTrue(Validity.voids("rate-not-held"));
    }

    /** Platform sleep: 200 threads / 50 ms = 4,000 req/s; 6,000 offered queues for the whole hold. */
    @Test
    void aRateAboveTheBoundIsOverloadedAndStillAFinding() {
        var v = Validity.openFlags(open(6000, 3990, 900, 0, 30.0, 40.0, 4000.0));
        assertEquals(List.of("overloaded"), v.flags(), "completing at the bound holds what the row could reach");
        assertTrue(v.notes().getFirst().contains("latency grows with the hold's length"), v.notes().getFirst());
        assertFalse(Validity.voids("overloaded"));
        assertEquals(3990 / 4000.0, Validity.openBoundRatio(3990, 6000, 4000.0), 1e-9);
        var slow = Validity.openFlags(open(6000, 3000, 900, 0, 30.0, 40.0, 4000.0));
        assertEquals(List.of("rate-not-held", "overloaded"), slow.flags());
    }

    /** Little's law: 2,000 req/s x 4.6 s mean = 9,200 in flight, 92 % of a 10,000 cap: the model was not open. */
    @Test
    void anOpenRowAtItsInFlightCapIsVoid() {
        assertEquals(0.92, Validity.inFlightShare(2000, 4600, 10_000), 1e-9);
        var v = Validity.openFlags(open(2000, 2000, 4600, 0, 30.0, 40.0, null));
        assertEquals(List.of("in-flight-cap"), v.flags());
        assertTrue(v.notes().getFirst().contains("9200 in flight against a cap of 10000"), v.notes().getFirst());
        assertTrue(Validity.voids("in-flight-cap"));
        // 60,000 due in 30 s: 12 unsent is the schedule's edge (a note), 1,200 (2 %) leaves the tail unmeasured
        var few = Validity.openFlags(open(2000, 2000, 50, 12, 30.0, 40.0, null));
        assertEquals(List.of(), few.flags());
        assertTrue(few.notes().getFirst().contains("12 of 60000 requests due were never sent"), few.notes().getFirst());
        var many = Validity.openFlags(open(2000, 1960, 50, 1200, 30.0, 40.0, null));
        assertTrue(many.flags().contains("dropped"), many.flags().toString());
        assertTrue(Validity.voids("dropped"));
        // overloaded (4,400 offered, bound 4,000): the backlog at the end is the finding, noted, not voiding
        var backlog = Validity.openFlags(open(4400, 4070, 1000, 6500, 30.0, 40.0, 4000.0));
        assertEquals(List.of("overloaded"), backlog.flags());
        assertTrue(backlog.notes().getLast().contains("the backlog still queued"), backlog.notes().getLast());
        assertEquals(List.of(), Validity.openFlags(open(2000, 2000, 4400, 0, 30.0, 40.0, null)).flags(), "88 %: below the line");
    }

    /**
     * A profile's mean (2,333 req/s over 30 s) is under the 4,000 bound, its 10 s spike to 5,000 is not: overloaded
     * while it lasts, with the seconds named; the achieved rate is still held against the mean.
     */
    @Test
    void aSpikeAboveTheBoundIsAnOverloadDuringTheSpike() {
        RateProfile spike = RateProfile.parse("1000@0s,5000@10s,1000@20s");
        double mean = spike.meanRate(30);
        var v = Validity.openFlags(new Validity.OpenInputs(mean, mean * 0.995, 300, 10_000, 0, 0, 30.0, 1, 40.0, 1, 4000.0, 30, spike));
        assertEquals(List.of("overloaded"), v.flags());
        assertEquals("overloaded: the rate profile's peak of 5000 req/s is above the bound of 4000 during 10s-20s of the hold:"
                + " the queue grows while it is, so latency then is not a steady-state number", v.notes().getFirst());
        assertEquals(List.of(), Validity.openFlags(new Validity.OpenInputs(mean, mean, 300, 10_000, 0, 0, 30.0, 1, 40.0, 1, 6000.0, 30, spike)).flags(),
                "a peak under the bound: no overload");
        assertEquals(List.of(), Validity.openFlags(open(mean, mean, 300, 0, 30.0, 40.0, 4000.0)).flags(), "the same mean at a constant rate: none");
        var slow = Validity.openFlags(new Validity.OpenInputs(mean, mean * 0.9, 300, 10_000, 0, 0, 30.0, 1, 40.0, 1, 4000.0, 30, spike));
        assertEquals(List.of("rate-not-held", "overloaded"), slow.flags(), "achieved is held against the mean");
    }

    /** A closed-model agent: its connections and what they answered in a 10 s hold. */
    static AgentLoad closed(String name, int connections, long requests) {
        return new AgentLoad(name, "root@10.77.0.1" + name.charAt(name.length() - 1), connections, null, requests, requests, 10, null);
    }

    /** An open-model agent: its share of the rate, what it sent (all answered) and dropped in a 10 s hold. */
    static AgentLoad open(String name, double shareRps, long sent, long dropped) {
        return new AgentLoad(name, "root@10.77.0.1" + name.charAt(name.length() - 1), 100, shareRps, sent, sent, 10, dropped);
    }

    @Test
    void aClosedModelAgentFarBelowTheOthersPerConnectionFallsBehind() {
        // 200 connections each: 2,000 and 1,950 req/s are alike; 1,500 is 75% of the others' median
        assertEquals(List.of(), Validity.agentsBehind(List.of(closed("agent1", 200, 20_000), closed("agent2", 200, 19_500)), false).flags());
        Validity.CheckResult v = Validity.agentsBehind(List.of(closed("agent1", 200, 20_000), closed("agent2", 200, 15_000)), false);
        assertEquals(List.of("agent-behind:agent2"), v.flags(), "only the slower one: the other is the reference");
        assertEquals(List.of("agent-behind:agent2: 7.50 req/s per connection (200 connections, 1500 req/s) against the other agents' median of 10.00 (75%)"),
                v.notes());
        // per connection: an agent with fewer connections (the split's remainder) answering fewer is not behind
        assertEquals(List.of(), Validity.agentsBehind(List.of(closed("agent1", 134, 13_400), closed("agent2", 133, 13_300), closed("agent3", 133, 13_250)), false).flags());
        // three agents: the median of the others, so one slow agent cannot drag the reference down
        assertEquals(List.of("agent-behind:agent3"),
                Validity.agentsBehind(List.of(closed("agent1", 100, 10_000), closed("agent2", 100, 9_900), closed("agent3", 100, 7_000)), false).flags());
        assertEquals(List.of(), Validity.agentsBehind(List.of(closed("agent1", 100, 10_000)), false).flags(), "one agent: no others to compare with");
        assertEquals(List.of(), Validity.agentsBehind(List.of(), false).flags(), "one generator: no agents");
        assertTrue(Validity.voids("agent-behind:agent2"), "its row's load was not the one planned: not evidence");
    }

    @Test
    void anOpenModelAgentShortOfItsShareOrDroppingFallsBehind() {
        // 100 req/s each over 10 s: 1,000 due
        assertEquals(List.of(), Validity.agentsBehind(List.of(open("agent1", 100, 1000, 0), open("agent2", 100, 960, 0)), false).flags(),
                "96% of its share: within 5%");
        Validity.CheckResult v = Validity.agentsBehind(List.of(open("agent1", 100, 1000, 0), open("agent2", 100, 900, 100)), false);
        assertEquals(List.of("agent-behind:agent2"), v.flags());
        assertEquals(List.of("agent-behind:agent2: sent 90.0 req/s of its 100.0 req/s share (90%), 100 due never sent"), v.notes());
        // all it sent, yet more than 1% of its due dropped (k6: no VU free)
        v = Validity.agentsBehind(List.of(open("agent1", 100, 990, 20), open("agent2", 100, 1000, 5)), false);
        assertEquals(List.of("agent-behind:agent1"), v.flags());
        assertEquals(List.of("agent-behind:agent1: 20 of its 1000 requests due were never sent (2.0%)"), v.notes());
        // a single agent is judged on its own share
        assertEquals(List.of("agent-behind:agent1"), Validity.agentsBehind(List.of(open("agent1", 100, 800, 0)), false).flags());
    }

    @Test
    void anOverloadedRowsAgentsFallShortAlikeOnlyOneFarBelowTheOthersIsBehind() {
        // the SUT answers 60% of what is offered: every agent sends 60% of its share, that is the overload's
        List<AgentLoad> alike = List.of(open("agent1", 100, 600, 400), open("agent2", 100, 590, 410));
        assertEquals(List.of("agent-behind:agent1", "agent-behind:agent2"), Validity.agentsBehind(alike, false).flags(), "not overloaded: both short");
        assertEquals(List.of(), Validity.agentsBehind(alike, true).flags());
        Validity.CheckResult v = Validity.agentsBehind(List.of(open("agent1", 100, 600, 400), open("agent2", 100, 300, 700)), true);
        assertEquals(List.of("agent-behind:agent2"), v.flags());
        assertTrue(v.notes().getFirst().startsWith("agent-behind:agent2: sent 30% of its 100.0 req/s, the other agents 60% (median)"), v.notes().toString());
    }
}
