package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.planning.HostsPlan;
import vtlab.planning.RowHooks;
import vtlab.planning.RunPlan;
import vtlab.probe.Probes;

/**
 * ./vtlab run --hosts FILE refuses in one line what it does not run across hosts yet, before any host is reached
 * (the hosts here are addresses nothing answers on: a refusal that needed them would say so instead).
 */
class RunAcrossHostsTest {
    @TempDir
    Path tmp;

    Path topology(String text) throws Exception {
        return Files.writeString(tmp.resolve("hosts.toml"), text);
    }

    static final String TWO_AGENTS = """
            [sut]
            host = "root@127.0.0.1:1"
            [[load]]
            host = "root@127.0.0.1:2"
            [[load]]
            host = "root@127.0.0.1:3"
            """;

    String refusal(Path hosts, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--hosts", hosts.toString()));
        UsageError e = assertThrows(UsageError.class, () -> {
            Options o = vtlab.cli.Main.parse(all);
            RunCommand.prepare(o, o.positional().subList(1, o.positional().size()));
        });
        assertEquals(1, e.getMessage().lines().count(), "one line: " + e.getMessage());
        return e.getMessage();
    }

    @Test
    void whatDoesNotRunAcrossHostsYetIsRefusedByName() throws Exception {
        Path two = topology(TWO_AGENTS);
        assertEquals("--hosts: servlet-io does not run across hosts yet (servlet, order-summary, pool-bottleneck, spring-sleep, scenario do)",
                refusal(two, "run", "servlet-io"));
        assertEquals("--hosts: faults does not run across hosts yet (servlet, order-summary, pool-bottleneck, spring-sleep, scenario do)",
                refusal(two, "run", "faults"));
        assertEquals("--hosts: load agents run wrk (closed model), oha or vegeta or k6 (open model) so far, not hey", refusal(two, "run", "servlet", "--generator", "hey"));
        String k6Closed = refusal(two, "run", "servlet", "--workloads", "sleep", "--modes", "platform", "--generator", "k6");
        assertTrue(k6Closed.startsWith("--hosts: closed-model agents run wrk so far, not k6 (row "), k6Closed);
        String profile = refusal(two, "run", "servlet", "--workloads", "sleep", "--modes", "platform", "--rate-profile", "100@0s,200@2s", "--generator", "k6");
        assertTrue(profile.startsWith("--hosts: rows with a rate profile do not run across hosts yet (row "), profile);
        assertEquals("--hosts: the SUT's and the agents' CPUs are the topology file's (cpus = \"...\" in an entry), not --cpus-app",
                refusal(two, "run", "servlet", "--cpus-app", "0"));
        String few = refusal(two, "run", "servlet", "--workloads", "sleep", "--modes", "platform", "--conc", "1");
        assertTrue(few.startsWith("--hosts: 2 load agents need at least 2 connections, row ") && few.endsWith(" has 1"), few);
        String probe = refusal(two, "run", "servlet", "--probes", "cpu,jfr-pinning,jvm");
        assertEquals("--hosts: probe jvm reads the SUT through this machine (JMX by the local attach API, or its /proc directly): not across hosts yet,"
                + " remote JMX is not built (cpu, rss, threads, cpu-threads, nmt, jfr-pinning, vtdump, gc, profile, paths, served, listen, live-set are)", probe);
        assertEquals("--hosts: sut is local, which is the lab without --hosts: give it a host (sut = \"user@host\")",
                refusal(topology("sut = \"local\"\nload = [\"root@127.0.0.1:2\"]\n"), "run", "servlet"));
    }

    /**
     * Rows with pg and the stub run across hosts (spring-mvc's order-summary gets as far as reaching the hosts); a row
     * with another tier (the fault proxy) is refused naming it.
     */
    @Test
    void rowsWithPgAndTheStubRunAcrossHostsOtherTiersDoNot() throws Exception {
        Path two = topology(TWO_AGENTS);
        String reached = refusal(two, "run", "order-summary", "--modes", "platform", "--conc", "10", "--reps", "1");
        assertTrue(reached.contains("root@127.0.0.1:1 (sut) does not answer"), "refused only when the hosts are reached: " + reached);
        Options o = vtlab.cli.Main.parse(List.of("run", "order-summary", "--modes", "platform", "--conc", "10", "--reps", "1"));
        vtlab.plan.PlanContext ctx = vtlab.plan.PlanContext.from(o);
        List<vtlab.plan.Row> rows = vtlab.experiment.registry.Experiments.byName("order-summary").plan(o, ctx);
        assertTrue(rows.getFirst().tiers().containsAll(List.of("pg", "stub")), rows.getFirst().tiers().toString());
        List<vtlab.plan.Row> proxied = rows.stream().map(r -> {
            List<String> t = new ArrayList<>(r.tiers());
            t.add("toxiproxy");
            return r.withTiers(t);
        }).toList();
        vtlab.tier.host.Topology t = vtlab.tier.host.Topology.read(two);
        vtlab.load.Generator wrk = vtlab.load.generator.Generators.configured("wrk", o);
        HostsPlan.refuse(t, List.of("order-summary"), rows, false, wrk, o);
        UsageError e = assertThrows(UsageError.class, () -> HostsPlan.refuse(t, List.of("order-summary"), proxied, false, wrk, o));
        assertTrue(e.getMessage().startsWith("--hosts: rows with the toxiproxy tier do not run across hosts yet (row "), e.getMessage());
    }

    @Test
    void aBadFileOrAHostThatDoesNotAnswerIsRefusedInOneLine() throws Exception {
        String bad = refusal(topology("[sut]\nhost = \"root@\"\n"), "run", "servlet");
        assertTrue(bad.startsWith("--hosts " + tmp.resolve("hosts.toml") + ": sut: 'root@' is not an SSH destination"), bad);
        // nothing listens on port 1: ssh is refused at once, and the run with it, naming the host
        String gone = refusal(topology(TWO_AGENTS), "run", "servlet", "--workloads", "sleep", "--modes", "platform", "--conc", "400");
        assertTrue(gone.startsWith("--hosts " + tmp.resolve("hosts.toml") + ": root@127.0.0.1:1 (sut) does not answer: "), gone);
        // open rows with vegeta, oha or k6 agents pass the refusals: the hosts are reached next
        for (String gen : List.of("vegeta", "oha", "k6")) {
            String open = refusal(topology(TWO_AGENTS), "run", "servlet", "--workloads", "sleep", "--modes", "platform", "--load-model", "open",
                    "--rates", "100", "--generator", gen);
            assertTrue(open.startsWith("--hosts " + tmp.resolve("hosts.toml") + ": root@127.0.0.1:1 (sut) does not answer: "), gen + ": " + open);
        }
    }

    /** prepare's hosts step alone, on servlet's planned rows whose probes include jvm (JMX through this machine). */
    RunCommand.Hosts hostsStep(vtlab.tier.host.Topology topology, Options o, vtlab.load.Generator gen, vtlab.proc.CoreMap cores) throws Exception {
        RunPlan plan = RunPlan.of(o, o.positional().subList(1, o.positional().size()));
        List<vtlab.plan.PlannedRow> planned = new ArrayList<>();
        for (vtlab.plan.Row r : plan.rows()) planned.add(new RowHooks(List.of("cpu", "jvm"), false, null).planned(r));
        return RunCommand.hosts(o, topology, plan.rows(), planned, gen, cores);
    }

    /** Without --hosts the hosts step refuses and reaches nothing: the run keeps this machine's generator and CPUs. */
    @Test
    void theHostsStepWithoutHostsKeepsThisMachinesGeneratorAndCores() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "servlet", "--workloads", "sleep", "--modes", "platform", "--conc", "400"));
        vtlab.load.Generator wrk = vtlab.load.generator.Generators.configured("wrk", o);
        vtlab.proc.CoreMap cores = vtlab.tier.Tiers.cores(vtlab.proc.LabAffinity.machineCpus(), o);
        RunCommand.Hosts local = hostsStep(null, o, wrk, cores);
        assertNull(local.across(), "no host reached");
        assertSame(wrk, local.generator());
        assertSame(cores, local.cores());
    }

    /** With --hosts a planned row's probe that reads the SUT through this machine is refused before a host is reached. */
    @Test
    void theHostsStepRefusesARowsLocalProbeBeforeReachingAHost() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "servlet", "--workloads", "sleep", "--modes", "platform", "--conc", "400"));
        vtlab.tier.host.Topology two = vtlab.tier.host.Topology.read(topology(TWO_AGENTS));
        UsageError e = assertThrows(UsageError.class, () -> hostsStep(two, o, vtlab.load.generator.Generators.configured("wrk", o),
                vtlab.tier.Tiers.cores(vtlab.proc.LabAffinity.machineCpus(), o)));
        assertTrue(e.getMessage().startsWith("--hosts: probe jvm reads the SUT through this machine"), "refused by name, not by an unreachable host: " + e.getMessage());
    }

    /**
     * Without --probes a run across hosts takes the default probes that read /proc and run jcmd where the SUT runs: the
     * local default less hikari (JMX for a service without /api/pool; no row across hosts has a pool).
     */
    @Test
    void theDefaultProbesAreThoseThatReadTheSutWhereItRuns() throws Exception {
        List<String> probes = HostsPlan.probes(vtlab.cli.Main.parse(List.of("run", "servlet")));
        assertEquals(List.of("cpu", "rss", "threads", "cpu-threads", "gc", "jfr-pinning"), probes);
        assertTrue(Probes.DEFAULT.containsAll(probes));
        assertEquals(List.of(), HostsPlan.probes(vtlab.cli.Main.parse(List.of("run", "servlet", "--no-probes"))));
    }
}
