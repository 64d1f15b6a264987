package vtlab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.data.AgentLoad;
import vtlab.plan.RateProfile;

/**
 * Every threshold {@link Validity} judges a row by, probed on both sides of its edge (about 0.1% inside and outside,
 * and on the edge itself where the rule says whether the edge is in): a threshold moved by more than that fails here.
 * The values are written out, never read from the constants, so a changed constant is a failing test, not a moved one.
 */
class ValidityEdgesTest {

    // ---- closed rows: one core for each tier, a bound of 4,000 req/s (200 threads / 50 ms), 1,000 connections

    static List<String> closed(double rps, double errorRate, double little, double loadCpu, double appCpu, int connections) {
        return Validity.flags(new Validity.Inputs(connections, rps, errorRate, little, loadCpu, 1, appCpu, 1, 8192, 4000.0));
    }

    static List<String> closed(double rps) {
        return closed(rps, 0, 1.0, 30, 40, 1000);
    }

    /** SATURATED 0.90: a tier at or above 90% of its cores, whatever their number. */
    @Test
    void saturatedFromNinetyPercentOfTheTiersCoresOn() {
        assertFalse(Validity.saturated(89.9, 1));
        assertTrue(Validity.saturated(90.0, 1), "90% is saturated: the edge is in");
        assertTrue(Validity.saturated(90.1, 1));
        assertFalse(Validity.saturated(179.8, 2));
        assertTrue(Validity.saturated(180.0, 2));
        assertTrue(Validity.saturated(180.2, 2));
        assertFalse(Validity.saturated(89.9, 0), "no cores: nothing to saturate");
        // as the flags read it: the generator's cores, and the SUT's
        assertEquals(List.of(), closed(4000, 0, 1.0, 89.9, 40, 1000));
        assertEquals(List.of("generator-bound"), closed(4000, 0, 1.0, 90.1, 40, 1000));
        assertEquals(List.of(), closed(4000, 0, 1.0, 30, 89.9, 1000));
        assertEquals(List.of("app-cpu-bound"), closed(4000, 0, 1.0, 30, 90.1, 1000));
    }

    /** LITTLE_TOLERANCE 0.10: connections x mean latency over the connections at least 0.9; above 1 is wrk's correction. */
    @Test
    void littlesLawHoldsFromNinetyPercentOfTheConnectionsBusyUp() {
        assertFalse(Validity.littlesLawOk(0.899));
        assertTrue(Validity.littlesLawOk(0.900), "0.9 holds: the edge is in");
        assertTrue(Validity.littlesLawOk(0.901));
        assertTrue(Validity.littlesLawOk(1.5), "only the low side is checked");
        // 1,000 connections at 4,000 req/s: 225 ms mean is 0.9 of them busy
        assertEquals(0.899, Validity.littlesLawRatio(1000, 4000, 224.75), 1e-12);
        assertEquals(List.of("littles-law"), closed(4000, 0, Validity.littlesLawRatio(1000, 4000, 224.75), 30, 40, 1000));
        assertEquals(List.of(), closed(4000, 0, Validity.littlesLawRatio(1000, 4000, 225.25), 30, 40, 1000));
    }

    /** BOUND_LOW 0.90: below 90% of the bound is below-bound, unless the SUT's cores were full (a finding, not a fault). */
    @Test
    void belowBoundUnderNinetyPercentOfTheBound() {
        assertEquals(List.of("below-bound"), closed(3596), "0.899 of the bound");
        assertEquals(List.of(), closed(3600), "0.900: the edge is not below");
        assertEquals(List.of(), closed(3604), "0.901");
        assertEquals(0.899, Validity.boundRatio(3596, 4000.0), 1e-12);
        // the SUT's core full explains the shortfall: app-cpu-bound instead, from 90% of it on
        assertEquals(List.of("app-cpu-bound"), closed(3596, 0, 1.0, 30, 90.0, 1000));
        assertEquals(List.of("below-bound"), closed(3596, 0, 1.0, 30, 89.9, 1000));
    }

    /** BOUND_HIGH 1.05: above 105% of the bound is above-bound (a bound is a ceiling: the formula or the row is wrong). */
    @Test
    void aboveBoundOverAHundredAndFivePercentOfTheBound() {
        assertEquals(List.of(), closed(4196), "1.049");
        assertEquals(List.of(), closed(4200), "1.050: the edge is not above");
        assertEquals(List.of("above-bound"), closed(4204), "1.051");
    }

    /** ERROR_RATE_MAX 0.001: more than 0.1% of the requests failed, closed and open alike. */
    @Test
    void errorsAboveATenthOfAPercent() {
        assertEquals(List.of(), closed(4000, 0.00099, 1.0, 30, 40, 1000));
        assertEquals(List.of(), closed(4000, 0.001, 1.0, 30, 40, 1000), "0.1% is not above");
        assertEquals(List.of("errors"), closed(4000, 0.00101, 1.0, 30, 40, 1000));
        assertEquals(List.of(), Validity.openFlags(open(2000, 2000, 50, 0, 0.001, 4000.0)).flags());
        assertEquals(List.of("errors"), Validity.openFlags(open(2000, 2000, 50, 0, 0.00101, 4000.0)).flags());
    }

    /** Tomcat's maxConnections: more connections than the connector accepts are flagged; as many are not. */
    @Test
    void overMaxConnectionsOnlyAboveTheLimit() {
        assertEquals(List.of(), closed(4000, 0, 1.0, 30, 40, 8192));
        assertEquals(List.of("over-max-connections"), closed(4000, 0, 1.0, 30, 40, 8193));
    }

    // ---- open rows: a cap of 10,000 in flight, a 30 s hold, one core for each tier

    static Validity.OpenInputs open(double target, double achieved, double meanMs, long dropped, double errorRate, Double bound) {
        return new Validity.OpenInputs(target, achieved, meanMs, 10_000, dropped, errorRate, 30.0, 1, 40.0, 1, bound, 30);
    }

    static List<String> openFlags(double target, double achieved, double meanMs, long dropped, Double bound) {
        return Validity.openFlags(open(target, achieved, meanMs, dropped, 0, bound)).flags();
    }

    /** RATE_TOLERANCE 0.02: achieved within 2% of what the row could reach, on both sides. */
    @Test
    void theRateIsHeldWithinTwoPercentEitherWay() {
        assertEquals(List.of("rate-not-held"), openFlags(2000, 1959, 50, 0, null), "-2.05%");
        assertEquals(List.of(), openFlags(2000, 1961, 50, 0, null), "-1.95%");
        assertEquals(List.of(), openFlags(2000, 2039, 50, 0, null), "+1.95%");
        assertEquals(List.of("rate-not-held"), openFlags(2000, 2041, 50, 0, null), "+2.05%");
        // overloaded, what it could reach is the bound: 4,000 req/s of 5,000 offered
        assertEquals(List.of("rate-not-held", "overloaded"), openFlags(5000, 3919, 900, 0, 4000.0));
        assertEquals(List.of("overloaded"), openFlags(5000, 3921, 900, 0, 4000.0));
        assertEquals(List.of("overloaded"), openFlags(5000, 4079, 900, 0, 4000.0));
        assertEquals(List.of("rate-not-held", "overloaded"), openFlags(5000, 4081, 900, 0, 4000.0));
    }

    /** IN_FLIGHT_SHARE 0.90: offered rate x mean latency at 90% of the cap or more: the generator could not keep it open. */
    @Test
    void theInFlightCapFromNinetyPercentOfItOn() {
        // 2,000 req/s into a cap of 10,000: 4,500 ms mean is 9,000 in flight
        assertEquals(List.of(), openFlags(2000, 2000, 4495, 0, null), "0.899 of the cap");
        assertEquals(List.of("in-flight-cap"), openFlags(2000, 2000, 4500, 0, null), "0.900: the edge is in");
        assertEquals(List.of("in-flight-cap"), openFlags(2000, 2000, 4505, 0, null), "0.901");
        assertEquals(0.9, Validity.inFlightShare(2000, 4500, 10_000), 1e-12);
        // overloaded: the queue is the overload's, wherever it waits
        assertEquals(List.of("overloaded"), openFlags(4001, 4000, 4505, 0, 4000.0));
    }

    /** An open row is overloaded when what it offers (a profile: its peak) is above the bound; at the bound it is not. */
    @Test
    void overloadedOnlyAboveTheBound() {
        assertEquals(List.of(), openFlags(4000, 4000, 60, 0, 4000.0));
        assertEquals(List.of("overloaded"), openFlags(4001, 4000, 60, 0, 4000.0));
        RateProfile atBound = RateProfile.parse("1000@0s,4000@10s,1000@20s"), above = RateProfile.parse("1000@0s,4001@10s,1000@20s");
        double mean = atBound.meanRate(30);
        assertEquals(List.of(), Validity.openFlags(new Validity.OpenInputs(mean, mean, 60, 10_000, 0, 0, 30.0, 1, 40.0, 1, 4000.0, 30, atBound)).flags());
        double meanAbove = above.meanRate(30);
        assertEquals(List.of("overloaded"), Validity.openFlags(new Validity.OpenInputs(meanAbove, meanAbove, 60, 10_000, 0, 0, 30.0, 1, 40.0, 1,
                4000.0, 30, above)).flags(), "a peak of 4,001 over a bound of 4,000");
    }

    /** DROPPED_SHARE 0.01: more than 1% of the requests due never sent voids the row (its tail is unmeasured). */
    @Test
    void droppedAboveOnePercentOfTheRequestsDue() {
        // 2,000 req/s for 30 s: 60,000 due, 1% is 600
        assertEquals(List.of(), openFlags(2000, 2000, 50, 599, null));
        assertEquals(List.of(), openFlags(2000, 2000, 50, 600, null), "1% is not above");
        assertEquals(List.of("dropped"), openFlags(2000, 2000, 50, 601, null));
        assertTrue(Validity.openFlags(open(2000, 2000, 50, 600, 0, null)).notes().getFirst().startsWith("dropped: 600 of 60000"),
                "below the line it is a note");
    }

    // ---- load agents (a run across hosts), each over a 10 s hold

    static AgentLoad closedAgent(String name, int connections, long requests) {
        return new AgentLoad(name, "root@10.77.0.12", connections, null, requests, requests, 10, null);
    }

    static AgentLoad openAgent(String name, double shareRps, long sent, long dropped) {
        return new AgentLoad(name, "root@10.77.0.13", 100, shareRps, sent, sent, 10, dropped);
    }

    /** AGENT_SHARE_MIN 0.95: an open-model agent that sent under 95% of its share fell behind. */
    @Test
    void anOpenAgentFallsBehindUnderNinetyFivePercentOfItsShare() {
        assertEquals(List.of("agent-behind:agent2"), Validity.agentsBehind(List.of(openAgent("agent1", 100, 1000, 0),
                openAgent("agent2", 100, 949, 0)), false).flags(), "94.9%");
        assertEquals(List.of(), Validity.agentsBehind(List.of(openAgent("agent1", 100, 1000, 0), openAgent("agent2", 100, 950, 0)), false).flags(),
                "95%: the edge is kept up");
        assertEquals(List.of(), Validity.agentsBehind(List.of(openAgent("agent1", 100, 1000, 0), openAgent("agent2", 100, 951, 0)), false).flags());
    }

    /** An agent that sent its share but dropped more than 1% of its requests due (DROPPED_SHARE) fell behind too. */
    @Test
    void anOpenAgentFallsBehindDroppingMoreThanOnePercentOfItsDue() {
        // 100 req/s for 10 s: 1,000 due, 1% is 10
        assertEquals(List.of(), Validity.agentsBehind(List.of(openAgent("agent1", 100, 1000, 10), openAgent("agent2", 100, 1000, 0)), false).flags());
        assertEquals(List.of("agent-behind:agent1"),
                Validity.agentsBehind(List.of(openAgent("agent1", 100, 1000, 11), openAgent("agent2", 100, 1000, 0)), false).flags());
    }

    /** AGENT_PEERS_MIN 0.80: a closed-model agent under 80% of the others' median rate per connection fell behind. */
    @Test
    void aClosedAgentFallsBehindUnderEightyPercentOfItsPeersPerConnection() {
        // agent1: 200 connections at 2,000 req/s = 10 req/s each; agent2's at 7.992, 8.0 and 8.008 per connection
        assertEquals(List.of("agent-behind:agent2"),
                Validity.agentsBehind(List.of(closedAgent("agent1", 200, 20_000), closedAgent("agent2", 200, 15_984)), false).flags(), "0.7992");
        assertEquals(List.of(), Validity.agentsBehind(List.of(closedAgent("agent1", 200, 20_000), closedAgent("agent2", 200, 16_000)), false).flags(),
                "0.8: the edge keeps up");
        assertEquals(List.of(), Validity.agentsBehind(List.of(closedAgent("agent1", 200, 20_000), closedAgent("agent2", 200, 16_016)), false).flags());
    }

    /** Overloaded, every agent falls short alike: only one under 80% of the others' median share (AGENT_PEERS_MIN) is behind. */
    @Test
    void anOverloadedOpenAgentFallsBehindUnderEightyPercentOfItsPeers() {
        // agent1 sent 60% of its share; 80% of that is 48%
        assertEquals(List.of("agent-behind:agent2"),
                Validity.agentsBehind(List.of(openAgent("agent1", 100, 600, 400), openAgent("agent2", 100, 479, 521)), true).flags(), "47.9%");
        assertEquals(List.of(), Validity.agentsBehind(List.of(openAgent("agent1", 100, 600, 400), openAgent("agent2", 100, 481, 519)), true).flags(),
                "48.1%");
    }
}
