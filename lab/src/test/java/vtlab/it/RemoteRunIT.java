package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.cli.Main;
import vtlab.data.LatencyHistogram;
import vtlab.load.generator.WrkGenerator;
import vtlab.tier.host.HostsFixture;
import vtlab.tier.host.TestHosts;

/**
 * A run across hosts for real (as root): three test hosts, the servlet's sleep row on platform threads at 400
 * connections with the SUT on h1 and load from agents on h2 and h3 over ssh. The row is valid evidence, its
 * histogram is the agents' added (its count the sum of theirs, its requests theirs), the SUT was probed where it
 * ran, environment.json holds every host, and nothing the run started is left in any namespace or work folder.
 */
class RemoteRunIT {
    @TempDir
    Path tmp;

    @RegisterExtension
    final HostsFixture hosts = new HostsFixture(3);

    /** ./vtlab run ARGS on a free port into its own folder; run once more if a row is not ok (the machine's noise). */
    Lab.LabRun runValidOrRetriedOnce(String folder, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(List.of(args));
        return Lab.retriedOnce(Files.createDirectories(tmp.resolve(folder)), t -> t.code() == 0 && Lab.allOk(t.rows()), dir -> Lab.runMain(dir, all));
    }

    @Test
    void theSutOnItsHostAndLoadFromTwoAgentsMergedExactly() throws Exception {
        Path file = hosts.file();
        Lab.LabRun a = runValidOrRetriedOnce("attempt", "servlet", "--workloads", "sleep", "--modes", "platform", "--conc", "400",
                "--warmup", "3s", "--warmup-max", "0s", "--hold", "5s", "--reps", "1", "--hosts", file.toString(),
                // the /proc probes this test asserts; the jcmd ones across hosts are RemoteProbesIT's (each a JVM start on h1)
                "--probes", "cpu,rss,threads");
        String console = a.console();
        assertEquals(0, a.code(), console);
        assertEquals(1, a.rows().size(), console);
        Map<String, String> r = a.rows().getFirst();
        assertEquals("ok", r.get("status"), r.toString());
        assertEquals("0", r.get("error_rate"), r.toString());
        assertEquals("true", r.get("littles_law_ok"), r.toString());
        assertTrue(console.contains("SUT on root@10.77.0.11") && console.contains("load agent2 on root@10.77.0.13"), console);

        // the row's histogram is the agents' added: its count the sum of theirs, its requests the sum of theirs, its p99
        // that of the union of what each agent's wrk printed (read again here from their raw outputs, not the lab's files)
        Path raw = a.run().resolve("raw");
        String stem = r.get("raw").replace(".wrk.txt", "");
        Histogram merged = LatencyHistogram.read(raw.resolve(r.get("histogram")));
        Histogram union = LatencyHistogram.empty();
        long counts = 0, requests = 0;
        for (String agent : List.of("agent1", "agent2")) {
            counts += LatencyHistogram.read(raw.resolve(stem + "." + agent + ".wrk.hlog")).getTotalCount();
            String out = Files.readString(raw.resolve(stem + "." + agent + ".wrk.txt"));
            requests += WrkGenerator.parse(out, raw.resolve(stem + "." + agent + ".wrk.txt"), tmp.resolve(agent + ".hlog")).requests();
            Histogram own = LatencyHistogram.read(tmp.resolve(agent + ".hlog"));
            assertTrue(own.getTotalCount() > 0, agent + "'s wrk recorded latencies");
            union.add(own);
            assertTrue(Files.readString(raw.resolve(stem + "." + agent + ".wrk.cmd")).contains("-c 200 "), agent + " ran half the connections");
        }
        assertEquals(counts, merged.getTotalCount(), "the merged histogram holds every agent's recorded latencies");
        assertEquals(union.getTotalCount(), merged.getTotalCount(), "... as many as the agents' own outputs hold");
        assertEquals(requests, Lab.whole(r, "http_reqs"), "the row's requests are the agents'");
        assertEquals(LatencyHistogram.ms(union, 99), Lab.num(r, "p99_ms"), 0.01, "the row's p99 is that of the agents' outputs together");
        assertTrue(Lab.num(r, "p50_ms") >= 50, "nobody answers faster than the sleep: " + r.get("p50_ms"));

        // probed where they ran: the SUT's JVM on h1, the agents' wrk on h2 and h3
        assertTrue(Lab.num(r, "app_cpu_pct") > 0 && Lab.num(r, "load_cpu_pct") > 0, r.toString());
        assertTrue(Lab.num(r, "rss_mb_max") > 50, r.toString());
        assertTrue(Lab.num(r, "jvm_threads_max") >= 200, "a 200-thread pool at 400 connections: " + r.get("jvm_threads_max"));
        String sutLog = Files.readString(raw.resolve(r.get("sut_log")));
        assertTrue(sutLog.startsWith("# on root@10.77.0.11: taskset -c "), sutLog);
        String info = Files.readString(raw.resolve(stem + ".runtime-info.json"));
        assertTrue(info.contains("\"address\":\"10.77.0.11\""), info);

        // environment.json: every host with its facts, the topology file
        JsonNode env = new ObjectMapper().readTree(a.run().resolve("environment.json").toFile());
        List<String> names = new ArrayList<>();
        env.path("hosts").forEach(h -> names.add(h.path("host").asText()));
        assertEquals(List.of("root@10.77.0.11", "local", "root@10.77.0.12", "root@10.77.0.13"), names);
        env.path("hosts").forEach(h -> assertFalse(h.path("boot_id").asText().isEmpty(), h.toString()));
        assertEquals(file.toAbsolutePath().toString(), env.path("topology").asText());

        // nothing left: every namespace holds only its sshd, and no work folder of this JVM's runs is left in /tmp
        for (int i = 1; i <= 3; i++) assertEquals(List.of(), hosts.besidesSshd(i, Duration.ofSeconds(10)), TestHosts.namespace(i) + " runs more than its sshd");
        assertEquals(List.of(), HostsFixture.workFoldersLeft());

        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        assertEquals(0, Main.run(List.of("hosts", "down"), new PrintStream(buf, true)), buf.toString());
        assertEquals(List.of(), HostsFixture.remains());
    }

    /**
     * The open model across hosts: one row at 300 req/s (no warm-up, a 4 s hold) from vegeta agents on h2 and h3, each
     * at 150 req/s with half the in-flight cap, vegeta copied to each host. The row holds its rate, its histogram is the
     * agents' added, each agent's histogram holds every answer of vegeta's own records of that agent, and nothing is
     * left running anywhere.
     */
    @Test
    void anOpenRowFromVegetaAgentsEachAtItsShareMergedExactly() throws Exception {
        Path file = hosts.file();
        Lab.LabRun a = runValidOrRetriedOnce("open", "servlet", "--workloads", "sleep", "--modes", "platform", "--load-model", "open", "--rates", "300",
                "--max-in-flight", "200", "--generator", "vegeta", "--warmup", "0s", "--warmup-max", "0s", "--hold", "4s", "--reps", "1",
                "--hosts", file.toString());
        String console = a.console();
        assertEquals(0, a.code(), console);
        assertEquals(1, a.rows().size(), console);
        Map<String, String> r = a.rows().getFirst();
        assertEquals("ok", r.get("status"), r.toString());
        assertEquals("vegeta", r.get("generator"));
        assertEquals("open", r.get("load_model"));
        assertFalse(r.get("flags").contains("agent-behind"), r.toString());
        assertEquals(300, Lab.num(r, "achieved_rps"), 300 * 0.03, "the agents together hold the row's rate: " + r.get("achieved_rps"));

        Path raw = a.run().resolve("raw");
        String stem = r.get("raw").replace(".vegeta.txt", "");
        Histogram merged = LatencyHistogram.read(raw.resolve(r.get("histogram")));
        Histogram agents = LatencyHistogram.empty();
        long counts = 0;
        for (int i = 0; i < 2; i++) {
            String agent = "agent" + (i + 1);
            Histogram h = LatencyHistogram.read(raw.resolve(stem + "." + agent + ".vegeta.hlog"));
            long n = h.getTotalCount();
            assertTrue(n > 500, agent + " answered its share: " + n);
            counts += n;
            agents.add(h);
            String script = Files.readString(raw.resolve(stem + "." + agent + ".vegeta.sh"));
            assertTrue(script.contains("/bin/vegeta' 'attack'") && script.contains("'-rate=150/1s'") && script.contains("'-max-workers=100'"), script);
            assertTrue(Files.readString(raw.resolve(stem + "." + agent + ".vegeta.cmd")).contains("sh /tmp/vtlab-"), agent + " ran its script there");
            // vegeta's own record of every request that agent made, copied back and read by the real vegeta
            List<JsonNode> own = Lab.vegetaResults(raw, stem + "." + agent);
            long answered = own.stream().filter(x -> x.path("code").asInt() > 0).count();
            assertEquals(n, answered, agent + "'s histogram holds every answer of its vegeta records");
            // measured from the scheduled send: never below what vegeta measured from the actual one
            double ownMin = own.stream().filter(x -> x.path("code").asInt() > 0).mapToLong(x -> x.path("latency").asLong()).min().orElseThrow() / 1e6;
            assertTrue(h.getMinValue() / 1000.0 >= ownMin * 0.99 - 0.01, agent + ": " + h.getMinValue() + " us vs vegeta's " + ownMin + " ms");
        }
        assertEquals(counts, merged.getTotalCount(), "the merged histogram holds every agent's requests");
        assertEquals(counts, Lab.whole(r, "http_reqs"), "the row's requests are the agents'");
        assertEquals(LatencyHistogram.ms(agents, 99), Lab.num(r, "p99_ms"), 0.01, "the row's p99 is that of every agent's histogram added");
        assertTrue(Files.readString(raw.resolve(r.get("raw"))).contains("merged: " + counts + " requests"), r.get("raw"));

        for (int i = 1; i <= 3; i++) assertEquals(List.of(), hosts.besidesSshd(i, Duration.ofSeconds(10)), TestHosts.namespace(i) + " runs more than its sshd");
        assertEquals(List.of(), HostsFixture.workFoldersLeft());
    }
}
