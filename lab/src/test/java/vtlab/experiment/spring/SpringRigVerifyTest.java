package vtlab.experiment.spring;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.plan.VerificationFailed;
import vtlab.tier.RunTier;
import vtlab.tier.StubTier;

/** The query check refuses before sending anything when the stack's data tier is missing or counts no statements. */
class SpringRigVerifyTest {
    static final URI NOWHERE = URI.create("http://127.0.0.1:9/api/order-summary/random");

    @Test
    void refusesWithoutTheDataTier() {
        var e = assertThrows(VerificationFailed.class, () -> SpringRig.verifyQueries(NOWHERE, Map.of(), "pg", "FROM orders", 3));
        assertTrue(e.getMessage().contains("no pg tier is running"), e.getMessage());
    }

    @Test
    void refusesATierThatCountsNoStatements() {
        Map<String, RunTier> tiers = Map.of("pg", new StubTier());
        var e = assertThrows(VerificationFailed.class, () -> SpringRig.verifyQueries(NOWHERE, tiers, "pg", "FROM orders", 3));
        assertTrue(e.getMessage().contains("counts no statements"), e.getMessage());
    }
}
