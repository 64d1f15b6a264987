package vtlab.proc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.core.UsageError;

class CoreMapTest {
    @Test
    void twoCoresGiveTheSutOneAndTheGeneratorTheOther() throws Exception {
        CoreMap m = CoreMap.compute(2, vtlab.cli.Main.parse(List.of()));
        assertEquals("0", m.of(CoreMap.APP));
        assertEquals("1", m.of(CoreMap.LOAD));
        assertEquals(1, m.count(CoreMap.APP));
    }

    @Test
    void largerMachinesGiveTheDatabaseItsOwnCore() throws Exception {
        CoreMap m = CoreMap.compute(16, null);
        assertEquals("0-7", m.of(CoreMap.APP));
        assertEquals("8", m.of(CoreMap.PG));
        assertEquals("9-15", m.of(CoreMap.LOAD));
        assertEquals(8, m.count(CoreMap.APP));
    }

    @Test
    void theLabGetsEveryCpuTheSutDoesNotRunOn() throws Exception {
        assertEquals("1", CoreMap.compute(2, null).labCpus());
        assertEquals("1,3", CoreMap.compute(4, vtlab.cli.Main.parse(List.of("--cpus-app", "0,2"))).labCpus());
        assertEquals("8,9,10,11,12,13,14,15", CoreMap.compute(16, null).labCpus());
        assertEquals(null, CoreMap.compute(1, null).labCpus(), "one CPU: nowhere else to go");
    }

    @Test
    void overridesAreValidatedAgainstTheMachine() throws Exception {
        CoreMap m = CoreMap.compute(4, vtlab.cli.Main.parse(List.of("--cpus-app", "0,2", "--cpus-load", "1,3")));
        assertEquals("0,2", m.of(CoreMap.APP));
        assertEquals(2, m.count(CoreMap.LOAD));
        UsageError e = assertThrows(UsageError.class, () -> CoreMap.compute(2, vtlab.cli.Main.parse(List.of("--cpus-app", "5"))));
        assertTrue(e.getMessage().startsWith("--cpus-app"), e.getMessage());
        assertThrows(UsageError.class, () -> CoreMap.compute(2, vtlab.cli.Main.parse(List.of("--cpus-load", "one"))));
        assertArrayEquals(new int[] {0, 1}, CoreMap.parse("0-1", 2));
    }

    /** The SUT and the generator on one CPU: refused unless asked for (a one-CPU machine has no other way). */
    @Test
    void sharedCpusAreRefusedUnlessAllowed() throws Exception {
        assertEquals(null, CoreMap.compute(2, null).shared());
        CoreMap overlap = CoreMap.compute(4, vtlab.cli.Main.parse(List.of("--cpus-app", "0,2", "--cpus-load", "1-3")));
        assertEquals("2", overlap.shared());
        UsageError e = assertThrows(UsageError.class, () -> overlap.refuseShared(false));
        assertEquals("--cpus-app 0,2 and --cpus-load 1-3 share CPU 2 (the generator's work would be taken from the SUT's): give them"
                + " disjoint CPUs, or pass --allow-shared-cpus (rows flagged shared-cpu)", e.getMessage());
        overlap.refuseShared(true);
        // today's map on one CPU puts every tier on CPU 0
        CoreMap one = CoreMap.compute(1, null);
        assertEquals("0", one.shared());
        assertTrue(assertThrows(UsageError.class, () -> one.refuseShared(false)).getMessage().startsWith("this machine has one CPU"));
    }
}
