package vtlab.tier.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import vtlab.core.UsageError;
import vtlab.proc.CoreMap;

/** Where a run across hosts puts its CPUs: per host, machines told apart by boot id, the shared-CPU rule per machine. */
class PlacementTest {
    static final CoreMap LOCAL = new CoreMap(java.util.Map.of(CoreMap.APP, "0", CoreMap.LOAD, "1", CoreMap.PG, "1", CoreMap.STUB, "1"), 2);

    /** A topology's survey: each host with a CPU count and a boot id. */
    static List<HostSurvey.Entry> survey(Topology t, int[] cpus, String[] boots) {
        List<HostSurvey.Entry> out = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (HostSpec s : t.all()) {
            if (seen.contains(s.where())) continue;
            int i = seen.size();
            seen.add(s.where());
            out.add(new HostSurvey.Entry(s.where(), List.of(s), new HostFacts(cpus[i], null, "6.1", null, boots[i]), new ClockOffset(0, 0.1), null));
        }
        return out;
    }

    static Topology topology(String text) throws UsageError {
        return Topology.parse(text, null);
    }

    /** hosts up 3: h1..h3 and this machine are one machine, the agents both on its CPU 1, the SUT on 0. */
    @Test
    void testHostsAreThisMachine() throws Exception {
        Topology t = topology("""
                [sut]
                host = "root@10.77.0.11"
                cpus = "0"
                [[load]]
                host = "root@10.77.0.12"
                cpus = "1"
                [[load]]
                host = "root@10.77.0.13"
                cpus = "1"
                """);
        // survey order: sut, local (pg, stub), h2, h3
        Placement p = Placement.of(t, survey(t, new int[] {2, 2, 2, 2}, new String[] {"b", "b", "b", "b"}), LOCAL, "b");
        CoreMap c = p.cores();
        assertEquals("0", c.of(CoreMap.APP));
        assertEquals("1", c.of(CoreMap.LOAD));
        assertEquals(1, c.count(CoreMap.LOAD), "two agents on one CPU of one machine have one CPU");
        assertEquals(Set.of(CoreMap.HERE), c.machinesOf(CoreMap.LOAD));
        assertNull(c.shared());
        assertEquals("1", c.labCpus(), "the SUT is on this machine: the lab keeps off its CPU");
        assertEquals(List.of("1", "1"), p.agentCpus());
        assertEquals(LOCAL.of(CoreMap.PG), c.of(CoreMap.PG));

        Topology overlap = topology("""
                [sut]
                host = "root@10.77.0.11"
                cpus = "0-1"
                [[load]]
                host = "root@10.77.0.12"
                cpus = "1"
                """);
        CoreMap o = Placement.of(overlap, survey(overlap, new int[] {2, 2, 2}, new String[] {"b", "b", "b"}), LOCAL, "b").cores();
        assertEquals("1", o.shared(), "SUT and agent on one machine's CPU 1");
    }

    /** Real hosts: the SUT's machine of its own, two agent machines with every CPU of theirs. */
    @Test
    void realHostsHaveCpusOfTheirOwn() throws Exception {
        Topology t = topology("""
                sut = "bench@app"
                load = ["bench@load-1", "bench@load-2"]
                """);
        Placement p = Placement.of(t, survey(t, new int[] {16, 2, 8, 8}, new String[] {"a", "here", "l1", "l2"}), LOCAL, "here");
        CoreMap c = p.cores();
        assertEquals("0-15", c.of(CoreMap.APP));
        assertEquals(16, c.count(CoreMap.APP));
        assertEquals("0-7", c.of(CoreMap.LOAD));
        assertEquals(16, c.count(CoreMap.LOAD), "8 CPUs on each of two machines");
        assertNull(c.shared(), "different machines share no CPU, whatever their lists");
        assertNull(c.labCpus(), "the SUT runs elsewhere: the lab need not keep off anything here");
        assertTrue(c.toString().contains("app on bench@app; load on bench@load-1, bench@load-2"), c.toString());
    }

    @Test
    void cpusAHostDoesNotHaveOrDifferentListsOnDifferentMachinesAreRefused() throws Exception {
        Topology many = topology("""
                [sut]
                host = "bench@app"
                cpus = "0-7"
                """);
        UsageError e = assertThrows(UsageError.class, () -> Placement.of(many, survey(many, new int[] {4, 2, 2}, new String[] {"a", "h", "h"}), LOCAL, "h"));
        assertEquals("--hosts: sut (bench@app): cpus CPU list '0-7' names CPUs bench@app does not have (0-3)", e.getMessage());
        Topology uneven = topology("""
                sut = "bench@app"
                load = ["bench@load-1", "bench@load-2"]
                """);
        e = assertThrows(UsageError.class, () -> Placement.of(uneven, survey(uneven, new int[] {4, 2, 8, 4}, new String[] {"a", "h", "l1", "l2"}), LOCAL, "h"));
        assertTrue(e.getMessage().startsWith("--hosts: load agents on different machines need the same cpus"), e.getMessage());
        assertTrue(e.getMessage().endsWith("bench@load-1 0-7, bench@load-2 0-3"), e.getMessage());
    }

    @Test
    void cpuNumbersBecomeATasksetList() {
        assertEquals("0-3,6,8-9", Placement.list(new java.util.TreeSet<>(List.of(9, 0, 1, 2, 3, 6, 8))));
        assertEquals("1", Placement.list(Set.of(1)));
    }

    /**
     * pg and the stub on hosts: on a test host (this machine's boot id) where the local core map puts them; on a machine
     * of their own every CPU of it, or their entry's; counted on that machine.
     */
    @Test
    void pgAndTheStubOnHostsOfTheirOwn() throws Exception {
        Topology t = topology("""
                [sut]
                host = "root@10.77.0.11"
                cpus = "0"
                [pg]
                host = "root@10.77.0.12"
                [stub]
                host = "db@192.0.2.7"
                cpus = "2-3"
                [[load]]
                host = "root@10.77.0.14"
                cpus = "1"
                """);
        // survey order: sut, pg's host, stub's host, the agent's
        Placement p = Placement.of(t, survey(t, new int[] {2, 2, 8, 2}, new String[] {"b", "b", "other", "b"}), LOCAL, "b");
        CoreMap c = p.cores();
        assertEquals("1", c.of(CoreMap.PG), "a test host is this machine: pg where this machine's core map puts it");
        assertEquals(Set.of(CoreMap.HERE), c.machinesOf(CoreMap.PG));
        assertEquals("2-3", c.of(CoreMap.STUB));
        assertEquals(Set.of("db@192.0.2.7"), c.machinesOf(CoreMap.STUB));
        assertEquals(2, c.count(CoreMap.STUB));

        Topology alone = topology("[sut]\nhost = \"root@10.77.0.11\"\ncpus = \"0\"\n[pg]\nhost = \"db@192.0.2.7\"\n[[load]]\nhost = \"root@10.77.0.14\"\ncpus = \"1\"\n");
        CoreMap own = Placement.of(alone, survey(alone, new int[] {2, 4, 2, 2}, new String[] {"b", "other", "b", "b"}), LOCAL, "b").cores();
        assertEquals("0-3", own.of(CoreMap.PG), "a machine of its own: every CPU of it");
        assertEquals("1", own.of(CoreMap.STUB), "the stub stays here, where this machine's core map puts it");

        Topology tooMany = topology("[sut]\nhost = \"root@10.77.0.11\"\n[pg]\nhost = \"db@192.0.2.7\"\ncpus = \"5\"\n");
        UsageError e = assertThrows(UsageError.class, () -> Placement.of(tooMany, survey(tooMany, new int[] {2, 2, 4}, new String[] {"b", "b", "o"}), LOCAL, "b"));
        assertTrue(e.getMessage().startsWith("--hosts: pg (db@192.0.2.7): cpus "), e.getMessage());
    }
}
