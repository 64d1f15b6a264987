package vtlab.load.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.AgentLoad;
import vtlab.data.LatencyHistogram;
import vtlab.stack.Request;
import vtlab.tier.host.HostRun;
import vtlab.tier.host.LocalHost;
import vtlab.tier.host.Topology;
import vtlab.load.LoadSpec;
import vtlab.load.LoadResult;
import vtlab.load.LoadSeries;
import vtlab.load.LoadModel;
import vtlab.load.LoadAgent;
import vtlab.load.agent.AgentsGenerator;

/**
 * The open model from several agents: vegeta and oha agents at rate/n, k6 agents each running their segment of one
 * test, and their results as one row's — vegeta's and k6's stamps moved onto this machine's clock by each host's offset
 * before the seconds are added.
 */
class OpenAgentsTest {
    @TempDir
    Path tmp;

    static final long START = 1_795_448_546_000L; // the agents' start, on this machine's clock (epoch ms)

    LoadSpec open(double rate, int cap, int holdS) {
        return new LoadSpec(URI.create("http://10.77.0.11:18080/sleep?ms=50"), Request.of("GET"), cap, 1, Duration.ofSeconds(holdS),
                Duration.ofSeconds(30), "1", tmp, "001-servlet", LoadModel.OPEN, rate);
    }

    @Test
    void everyK6AgentRunsItsOwnSegmentOfTheSameTest() {
        LoadSpec mine = AgentsGenerator.share(open(300, 90, 5), 90, 300.0, "2-3");
        List<String> cmd = K6Agents.command("/tmp/w/bin/k6", mine, "/tmp/w/abc.k6.js", "/tmp/w/r.agent2.k6.csv", "/tmp/w/r.agent2.k6.summary.json", 2, 3);
        assertEquals(List.of("env", "GOMAXPROCS=2", "K6_CSV_TIME_FORMAT=unix_milli", "taskset", "-c", "2-3", "/tmp/w/bin/k6", "run", "--quiet",
                "--no-color", "--no-usage-report", "--out", "csv=/tmp/w/r.agent2.k6.csv", "--summary-export", "/tmp/w/r.agent2.k6.summary.json",
                "--execution-segment=1/3:2/3", "--execution-segment-sequence=0,1/3,2/3,1", "/tmp/w/abc.k6.js"), cmd);
        // the script is the whole test's, the same for every agent: k6 scales its rate and VUs to the segment
        String js = K6Generator.script(mine, null);
        assertTrue(js.contains("rate: 300, timeUnit: '1s'") && js.contains("maxVUs: 90"), js);
    }

    @Test
    void ohaAgentsEachSendRateOverNWithinTheirShareOfTheCap() {
        HostRun run = new HostRun(Topology.allLocal());
        try {
            List<LoadAgent> two = List.of(new LoadAgent("agent1", new LocalHost(), "1"),
                    new LoadAgent("agent2", new LocalHost(), "1"));
            AgentsGenerator oha = (AgentsGenerator) Generators.overAgents(new OhaGenerator(), run, two);
            // 100 req/s: each agent opens oha's least (32) for its 50 req/s; one oha would open 32 in all
            assertEquals(64, oha.inFlightLimit(100.0, 400));
            assertEquals(OhaGenerator.connections(100, 400), new OhaGenerator().inFlightLimit(100.0, 400));
            // 2,000 req/s under a cap of 1,000: 200 each (0.2 s of its 1,000 req/s), each within its 500
            assertEquals(400, oha.inFlightLimit(2000.0, 1000));
            // 5,000 req/s: 500 each wanted, each capped at its 400 of 800
            assertEquals(800, oha.inFlightLimit(5000.0, 800));
        } finally {
            run.close();
        }
    }

    /**
     * A k6 agent's CSV: perSecond[i] answered requests ending in second i of the hold (as this machine counts it),
     * each latencyMs, stamped on a clock offsetMs ahead of ours; its summary beside it.
     */
    Path csv(String name, int[] perSecond, double latencyMs, long offsetMs, int dropped) throws Exception {
        List<String> lines = new ArrayList<>(List.of("metric_name,timestamp,metric_value,error_code,status,extra_tags,metadata"));
        int all = 0;
        for (int s = 0; s < perSecond.length; s++) {
            for (int i = 0; i < perSecond[s]; i++) {
                long stamp = START + offsetMs + s * 1000L + 100 + i * (800L / perSecond[s]);
                lines.add("http_req_duration," + stamp + "," + (latencyMs + i) + ",,200,,");
                all++;
            }
        }
        for (int i = 0; i < dropped; i++) lines.add("dropped_iterations," + (START + offsetMs + 500) + ",1.000000,,,,");
        Files.writeString(tmp.resolve(name + ".k6.summary.json"), "{\"metrics\": {\"http_reqs\": {\"count\": " + all + "}}}");
        return Files.write(tmp.resolve(name + ".k6.csv"), lines);
    }

    LoadResult agent(LoadAgent a, int[] perSecond, double latencyMs, long stampOffsetMs, int dropped) throws Exception {
        String stem = "001-servlet." + a.name();
        Path csv = csv(stem, perSecond, latencyMs, stampOffsetMs, dropped);
        return K6Agents.parse(a, "", tmp.resolve(stem + ".k6.txt"), csv, tmp.resolve(stem + ".k6.summary.json"), tmp.resolve(stem + ".k6.hlog"),
                perSecond.length, START);
    }

    @Test
    void k6StampsOfAHostWhoseClockIsAheadAreMovedOntoOursBeforeTheSecondsAreAdded() throws Exception {
        assertEquals(START + 2300, LoadAgent.onHostClock(START, 2300.4));
        assertEquals(START - 1500, LoadAgent.onHostClock(START, -1500));
        var here = new LoadAgent("agent1", new LocalHost(), "1", 0);
        var ahead = new LoadAgent("agent2", new LocalHost(), "1", 2300); // its clock 2.3 s ahead of ours
        LoadResult a = agent(here, new int[] {10, 20, 30}, 50, 0, 0);
        LoadResult b = agent(ahead, new int[] {1, 2, 3}, 80, 2300, 4);
        assertEquals(List.of(1L, 2L, 3L), b.series().seconds().stream().map(LoadSeries.Second::requests).toList(),
                "its records in the seconds of the hold they ended in, by our clock");
        // the same records read as if its clock were ours: 2.3 s late, the hold's last second holding its first
        LoadResult unshifted = agent(new LoadAgent("agent9", new LocalHost(), "1", 0), new int[] {1, 2, 3}, 80, 2300, 0);
        assertEquals(List.of(0L, 0L, 1L), unshifted.series().seconds().stream().map(LoadSeries.Second::requests).toList());

        LoadSpec s = open(60, 40, 3);
        List<AgentsGenerator.Share> shares = List.of(new AgentsGenerator.Share(here, 20, 30.0, "segment 0:1/2", tmp.resolve("001-servlet.agent1.k6.txt")),
                new AgentsGenerator.Share(ahead, 20, 30.0, "segment 1/2:1", tmp.resolve("001-servlet.agent2.k6.txt")));
        LoadResult row = AgentsGenerator.merge(s, "k6", shares, List.of(a, b));
        assertEquals(66, row.requests());
        assertEquals(a.rps() + b.rps(), row.rps(), 1e-9, "the achieved rate is the agents' added");
        assertEquals(4L, row.dropped(), "drops added");
        assertEquals(List.of(11L, 22L, 33L), row.series().seconds().stream().map(LoadSeries.Second::requests).toList(), "second by second");
        // a second's percentile is that of both agents' requests in it: second 0 holds agent1's 10 (50-59 ms) and agent2's one (80 ms)
        // (a second's histogram has two significant digits: within 1%)
        assertEquals(80, row.series().seconds().getFirst().p99Ms(), 0.8);
        assertEquals(55, row.series().seconds().getFirst().p50Ms(), 0.55);
        // the row's histogram holds every agent's requests
        Histogram merged = LatencyHistogram.read(row.histogram());
        assertEquals(LatencyHistogram.read(a.histogram()).getTotalCount() + LatencyHistogram.read(b.histogram()).getTotalCount(), merged.getTotalCount());
        assertEquals(66, merged.getTotalCount());
        // what each agent did, for the checks
        List<AgentLoad> did = row.agents();
        assertEquals(List.of("agent1", "agent2"), did.stream().map(AgentLoad::name).toList());
        assertEquals(30.0, did.getFirst().shareRps());
        assertEquals(6, did.get(1).attempted());
        assertEquals(4L, did.get(1).dropped());
        String summary = Files.readString(row.raw());
        assertEquals(tmp.resolve("001-servlet.k6.txt"), row.raw());
        assertTrue(summary.startsWith("# k6 from 2 load agents, each its k6 execution segment;"), summary);
        assertTrue(summary.contains("agent2 local cpus 1: segment 1/2:1, 6 requests in 3.000 s (2.0 req/s), 0 errors, 4 dropped"), summary);
    }

    /**
     * One vegeta agent's results on its host's clock (offsetMs ahead of ours): one attacker at 10 req/s over a 3 s
     * hold that sent its first n hits on schedule (hit i at (i + 1) x 100 ms), latencyMs each, and never the rest.
     */
    LoadResult vegetaAgent(LoadAgent a, int n, long latencyMs, long offsetMs) throws Exception {
        VegetaGenerator.Attacker at = new VegetaGenerator.Attacker(0, "load", -1, 10, 0, 3000, 20, 5);
        List<VegetaGenerator.Hit> hits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long sentMs = START + offsetMs + (i + 1) * 100L;
            hits.add(new VegetaGenerator.Hit(i, sentMs * 1_000_000L, latencyMs * 1_000_000L, 200, "", 2));
        }
        String stem = "001-servlet." + a.name();
        return VegetaGenerator.parse("", tmp.resolve(stem + ".vegeta.txt"), List.of(at), List.of(hits), List.of(tmp.resolve(stem + ".vegeta.0.bin")),
                tmp.resolve(stem + ".vegeta.hlog"), 3, a.onHostClock(START));
    }

    /** vegeta agents: each result's send time on its host's clock, moved onto ours; seconds added, histograms merged exactly. */
    @Test
    void vegetaResultsOfAHostWhoseClockIsAheadAreMovedOntoOursBeforeTheSecondsAreAdded() throws Exception {
        var here = new LoadAgent("agent1", new LocalHost(), "1", 0);
        var ahead = new LoadAgent("agent2", new LocalHost(), "1", 2300);
        LoadResult a = vegetaAgent(here, 27, 50, 0);
        LoadResult b = vegetaAgent(ahead, 6, 80, 2300);
        assertEquals(List.of(9L, 10L, 8L), a.series().seconds().stream().map(LoadSeries.Second::requests).toList(), "each in the second it ended in");
        assertEquals(List.of(6L, 0L, 0L), b.series().seconds().stream().map(LoadSeries.Second::requests).toList(), "by our clock");
        LoadResult unshifted = vegetaAgent(new LoadAgent("agent9", new LocalHost(), "1", 0), 6, 80, 2300);
        assertEquals(List.of(0L, 0L, 6L), unshifted.series().seconds().stream().map(LoadSeries.Second::requests).toList(), "read as if on ours: 2.3 s late");
        assertEquals(80, LatencyHistogram.read(b.histogram()).getMaxValue() / 1000.0, 0.1, "on schedule: vegeta's own latency");
        LoadSpec s = open(20, 40, 3);
        List<AgentsGenerator.Share> shares = List.of(new AgentsGenerator.Share(here, 20, 10.0, "10.0 req/s", tmp.resolve("001-servlet.agent1.vegeta.txt")),
                new AgentsGenerator.Share(ahead, 20, 10.0, "10.0 req/s", tmp.resolve("001-servlet.agent2.vegeta.txt")));
        LoadResult row = AgentsGenerator.merge(s, "vegeta", shares, List.of(a, b));
        assertEquals(33, row.requests());
        assertEquals(List.of(15L, 10L, 8L), row.series().seconds().stream().map(LoadSeries.Second::requests).toList(), "second by second");
        assertEquals(80, row.series().seconds().getFirst().p99Ms(), 0.8, "second 0: agent1's nine at 50 ms and agent2's six at 80 ms");
        assertEquals(50, row.series().seconds().get(1).p99Ms(), 0.5, "second 1: agent1's alone");
        assertEquals(3L + 24L, row.dropped(), "30 due each: 27 and 6 sent");
        Histogram merged = LatencyHistogram.read(row.histogram());
        assertEquals(33, merged.getTotalCount());
        assertEquals(LatencyHistogram.ms(merged, 99), row.p99Ms(), 1e-9);
        assertEquals(6, merged.getCountBetweenValues(79_000, 81_000), "agent2's six at 80 ms");
        assertTrue(Files.readString(row.raw()).startsWith("# vegeta from 2 load agents, each at rate/2;"), Files.readString(row.raw()));
    }
}
