package vtlab.load.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.LatencyHistogram;
import vtlab.stack.Request;
import vtlab.tier.host.HostRun;
import vtlab.tier.host.LocalHost;
import vtlab.tier.host.Topology;
import vtlab.load.Generator;
import vtlab.load.LoadSpec;
import vtlab.load.LoadResult;
import vtlab.load.LoadSeries;
import vtlab.load.LoadModel;
import vtlab.load.LoadAgent;
import vtlab.load.agent.AgentsGenerator;
import vtlab.load.agent.LoadAgents;

/** wrk from several agents: each one's share of the connections and CPUs, and their results as one row's. */
class WrkAgentsTest {
    @TempDir
    Path tmp;

    LoadSpec spec(boolean rateOnly) {
        LoadSpec s = new LoadSpec(URI.create("http://10.77.0.11:18080/sleep?ms=50"), Request.of("GET"), 400, 1, Duration.ofSeconds(5),
                Duration.ofSeconds(30), "1", tmp, "001-servlet", LoadModel.CLOSED, null);
        return rateOnly ? s.forRateOnly() : s;
    }

    @Test
    void eachAgentRunsItsShareOnItsOwnCpus() {
        LoadSpec mine = AgentsGenerator.share(spec(false), 133, null, "0-3");
        assertEquals(133, mine.connections());
        assertEquals(4, mine.threads(), "a wrk thread per CPU of the agent");
        assertEquals("0-3", mine.cpus());
        assertEquals(List.of("taskset", "-c", "0-3", "wrk", "-t", "4", "-c", "133", "-d", "5s", "--timeout", "30s", "--latency", "-s",
                "/tmp/vtlab-1/abc.wrk.lua", "http://10.77.0.11:18080/sleep?ms=50"), WrkGenerator.command("wrk", mine, "/tmp/vtlab-1/abc.wrk.lua"));
        assertEquals(List.of(134, 133, 133), LoadAgents.connections(400, 3));
    }

    @Test
    void loadAgentsRunWrkK6OrOhaEachByItsOwnSplit() {
        HostRun run = new HostRun(Topology.allLocal());
        try {
            List<LoadAgent> one = List.of(new LoadAgent("agent1", new LocalHost(), "1"));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Generators.overAgents(new HeyGenerator(), run, one));
            assertEquals("load agents run wrk, oha, vegeta, k6, not hey", e.getMessage());
            assertTrue(Generators.overAgents(new VegetaGenerator(), run, one) instanceof VegetaAgents);
            assertTrue(Generators.overAgents(new WrkGenerator(), run, one) instanceof WrkAgents);
            assertTrue(Generators.overAgents(new K6Generator(), run, one) instanceof K6Agents);
            assertTrue(Generators.overAgents(new OhaGenerator(), run, one) instanceof OhaAgents);
        } finally {
            run.close();
        }
    }

    /** An agent's result as wrk's parser leaves it: its histogram in an .hlog, per-second counts. */
    LoadResult agent(String name, long requests, double seconds, long errors, double ms, int perSecond) throws Exception {
        Histogram h = LatencyHistogram.empty();
        for (int i = 0; i < requests; i++) LatencyHistogram.recordSeconds(h, ms / 1000 * (1 + (i % 10) / 10.0));
        Path hlog = tmp.resolve("001-servlet." + name + ".wrk.hlog");
        LatencyHistogram.write(h, hlog);
        List<LoadSeries.Second> secs = new java.util.ArrayList<>();
        for (int s = 0; s < (int) seconds; s++) secs.add(new LoadSeries.Second(s, perSecond, s == 0 ? errors : 0, null, null));
        return LoadResult.builder().requests(requests, seconds).latencyMs(ms).errors(0, 0, 0, 0, errors).bytes(requests * 100)
                .raw(tmp.resolve("001-servlet." + name + ".wrk.txt")).histogram(hlog).series(LoadSeries.of(WrkGenerator.SERIES_KINDS, secs)).build();
    }

    List<AgentsGenerator.Share> shares() {
        return List.of(new AgentsGenerator.Share(new LoadAgent("agent1", new LocalHost(), "1"), 200, null, "200 connections",
                        tmp.resolve("001-servlet.agent1.wrk.txt")),
                new AgentsGenerator.Share(new LoadAgent("agent2", new LocalHost(), "1"), 200, null, "200 connections",
                        tmp.resolve("001-servlet.agent2.wrk.txt")));
    }

    @Test
    void theRowIsTheAgentsAddedItsLatenciesTheirHistogramsMerged() throws Exception {
        LoadResult a = agent("agent1", 10_000, 5.0, 3, 50, 2000), b = agent("agent2", 9_000, 4.5, 0, 60, 2000);
        LoadResult row = AgentsGenerator.merge(spec(false), "wrk", shares(), List.of(a, b));
        assertEquals(19_000, row.requests());
        assertEquals(2000 + 2000, row.rps(), 1e-9, "the rate is the sum of the agents' rates");
        assertEquals(3, row.errStatus());
        assertEquals(1_900_000, row.bytes());
        Histogram merged = LatencyHistogram.read(row.histogram());
        assertEquals(LatencyHistogram.read(a.histogram()).getTotalCount() + LatencyHistogram.read(b.histogram()).getTotalCount(), merged.getTotalCount());
        assertEquals(tmp.resolve("001-servlet.wrk.hlog"), row.histogram());
        assertEquals(LatencyHistogram.ms(merged, 99), row.p99Ms(), 1e-9);
        assertTrue(row.p99Ms() > 60, "the slower agent's tail is in the row's: " + row.p99Ms());
        // per second: the seconds both agents have, added
        assertEquals(4, row.series().seconds().size());
        assertEquals(4000, row.series().seconds().get(1).requests());
        assertEquals(3, row.series().seconds().get(0).errors());
        assertNull(row.series().seconds().get(1).p99Ms());
        String summary = Files.readString(row.raw());
        assertEquals(tmp.resolve("001-servlet.wrk.txt"), row.raw());
        assertTrue(summary.contains("agent1 local cpus 1: 200 connections, 10000 requests in 5.000 s (2000.0 req/s)"), summary);
        assertTrue(summary.contains("merged: 19000 requests, 4000.0 req/s, histogram 19000 = 10000 + 9000"), summary);
    }

    @Test
    void anAgentWithoutItsHistogramFailsTheRowWithItsName() throws Exception {
        LoadResult a = agent("agent1", 100, 5.0, 0, 50, 20), b = agent("agent2", 100, 5.0, 0, 50, 20);
        LoadResult noHistogram = LoadResult.builder().requests(b.requests(), b.durationS()).latencyMs(50).raw(b.raw()).series(b.series()).build();
        Generator.LoadException e = assertThrows(Generator.LoadException.class, () -> AgentsGenerator.merge(spec(false), "wrk", shares(), List.of(a, noHistogram)));
        assertTrue(e.getMessage().startsWith("load agent agent2 (local): no whole histogram"), e.getMessage());
        // a warm-up slice wants the rate only: nothing to merge
        LoadResult warm = AgentsGenerator.merge(spec(true), "wrk", shares(), List.of(a, noHistogram));
        assertEquals(40, warm.rps(), 1e-9);
        assertNull(warm.histogram());
    }

    /** A host that answers a new session or not, as told: ssh's own words when it does not. */
    record Answering(String why) implements vtlab.tier.host.Host {
        public String name() {
            return "root@10.77.0.13";
        }

        public boolean local() {
            return false;
        }

        public List<String> command(List<String> cmd) {
            return cmd;
        }

        public String unreachable() {
            return why;
        }

        public void copyTo(Path file, String path, Duration timeout) {}

        public void copyFrom(String path, Path file, Duration timeout) {}
    }

    @Test
    void aHostLostWhileItsAgentStartsFailsTheLoadNamingBoth() throws Exception {
        java.io.IOException read = new java.io.IOException("root@10.77.0.13: the read session ended");
        LoadAgent lost = new LoadAgent("agent2", new Answering("ssh: connect to host 10.77.0.13 port 22: Connection timed out"), "1");
        assertEquals("load agent agent2 (root@10.77.0.13): host unreachable: ssh: connect to host 10.77.0.13 port 22: Connection timed out",
                AgentsGenerator.lostOr(lost, read).getMessage());
        // a host that still answers: the error is the start's own, not a loss
        LoadAgent answers = new LoadAgent("agent2", new Answering(null), "1");
        assertEquals(read, assertThrows(java.io.IOException.class, () -> AgentsGenerator.lostOr(answers, read)));
    }
}
