package vtlab.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The tiers declare themselves; the registry makes them by name and gives the core map what they declare. */
class TiersTest {
    @Test
    void theFaultProxyDeclaresItRunsOnTheStubsCpus() throws Exception {
        assertEquals(List.of("pg", "stub", "toxiproxy"), Tiers.builtIn());
        assertEquals(Map.of("app", "0", "load", "1", "pg", "1", "stub", "1", "toxiproxy", "1"), Tiers.cores(2, null).cpus());
        assertEquals(List.of("app", "pg", "load", "stub", "toxiproxy"), List.copyOf(Tiers.cores(8, null).cpus().keySet()), "in the core map line's order");
        assertEquals("5-7", Tiers.cores(8, null).of(ToxiproxyTier.NAME));
        assertEquals(ToxiproxyTier.NAME, Tiers.create(ToxiproxyTier.NAME).name());
        assertEquals(List.of("pg", "stub"), Tiers.startableAlone(), "the proxy serves the stub: ./vtlab tiers does not start it alone");
    }

    @Test
    void pgAndTheStubDeclareTheyRunAcrossHostsTheProxyAndARowsOwnDependencyDoNot() throws Exception {
        assertEquals(List.of("pg", "stub"), Tiers.builtIn().stream().filter(Tiers::acrossHosts).toList());
        assertFalse(Tiers.acrossHosts("orders-db"), "a dependency a run registers");
        Tiers.hostCheck(StubTier.NAME).check(new vtlab.tier.host.LocalHost(), false); // the lab's JDK is here, at its path
        assertThrows(IllegalArgumentException.class, () -> Tiers.hostCheck(ToxiproxyTier.NAME));
    }
}
