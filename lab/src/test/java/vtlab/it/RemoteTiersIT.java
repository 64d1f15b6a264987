package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import vtlab.cli.Main;
import vtlab.tier.host.HostsFixture;
import vtlab.tier.host.TestHosts;

/**
 * Rows with tiers across hosts for real (as root): a short order-summary row of spring-mvc with the SUT on h1 (its JDK
 * copied there: jdk = "copy"), PostgreSQL on h2 and the stub on h3, load from this machine. The row is valid (its
 * verification counted the SUT's queries in that database), the SUT was handed their addresses on their hosts,
 * PostgreSQL and the stub ran inside h2's and h3's namespaces and were probed there, and nothing is left on any host.
 */
class RemoteTiersIT {
    @TempDir
    Path tmp;

    @RegisterExtension
    final HostsFixture hosts = new HostsFixture(3);

    @Test
    void orderSummaryWithTheSutPgAndTheStubEachOnAHostOfItsOwn() throws Exception {
        TestHosts th = hosts.hosts();
        String keys = "identity = \"" + th.identity() + "\"\nknown_hosts = \"" + th.knownHosts() + "\"\n";
        Path file = Files.writeString(hosts.dir().resolve("tiers.toml"), """
                [sut]
                host = "root@10.77.0.11"
                cpus = "0"
                jdk = "copy"
                %s
                [pg]
                host = "root@10.77.0.12"
                %s
                [stub]
                host = "root@10.77.0.13"
                %s
                [[load]]
                host = "local"
                cpus = "1"
                """.formatted(keys, keys, keys));

        // what runs inside h2 and h3 while the row runs, by command line (the namespaces share this machine's pids)
        Set<String> seen = ConcurrentHashMap.newKeySet();
        Thread watch = Thread.ofVirtual().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    for (int i : new int[] {2, 3}) {
                        for (ProcessHandle p : HostsFixture.pids(TestHosts.namespace(i))) {
                            String cmd = p.info().commandLine().orElse("");
                            if (cmd.contains("/postgres -D /tmp/vtlab-")) seen.add("h" + i + " postgres");
                            if (cmd.contains("vtlab-stub.jar")) seen.add("h" + i + " stub");
                        }
                    }
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    // a namespace listed as a process ends: the next look
                }
            }
        });
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int code;
        try {
            code = Main.run(List.of("run", "order-summary", "--modes", "platform", "--conc", "20", "--pool", "4", "--reps", "1",
                    "--warmup", "3s", "--warmup-max", "0s", "--hold", "3s", "--jvm-args", "-Xmx256m", "--hosts", file.toString(),
                    "--port", Integer.toString(Lab.freePort()), "--out", tmp.toString()), new PrintStream(buf, true));
        } finally {
            watch.interrupt();
            watch.join();
        }
        String console = buf.toString();
        assertEquals(0, code, console);
        assertTrue(console.contains("vtlab:   pg on root@10.77.0.12 cpus 1, listening on 10.77.0.12"), console);
        assertTrue(console.contains("vtlab:   stub on root@10.77.0.13 cpus 1, listening on 10.77.0.13"), console);
        assertEquals(Set.of("h2 postgres", "h3 stub"), seen, "PostgreSQL ran inside h2, the stub inside h3, nothing of theirs elsewhere");

        Path run = Lab.onlyRun(tmp);
        List<Map<String, String>> rows = Lab.rows(run);
        assertEquals(1, rows.size(), console);
        Map<String, String> r = rows.getFirst();
        // ok: runtime-info as configured, every request queried the database on h2 once (pg_stat_statements there), valid
        assertEquals("ok", r.get("status"), r.toString());
        assertEquals("0", r.get("error_rate"), r.toString());
        assertTrue(Lab.num(r, "p50_ms") >= 100, "no answer beats the stub's delay: " + r.get("p50_ms"));
        assertTrue(Lab.num(r, "pg_cpu_pct") > 0 && Lab.num(r, "stub_cpu_pct") > 0, "probed where they ran: " + r);

        Path raw = run.resolve("raw");
        String sutLog = Files.readString(raw.resolve(r.get("sut_log")));
        assertTrue(sutLog.startsWith("# on root@10.77.0.11: taskset -c 0 /tmp/vtlab-") && sutLog.lines().findFirst().orElse("").contains("/jdks/"),
                "the SUT on the JDK copied into h1's work folder: " + sutLog.lines().findFirst().orElse(""));
        assertTrue(sutLog.matches("(?s).*DB_URL=jdbc:postgresql://10\\.77\\.0\\.12:\\d+/vtlab.*"), "handed pg on h2: " + sutLog.lines().limit(2).toList());
        assertTrue(sutLog.matches("(?s).*STUB_URL=http://10\\.77\\.0\\.13:\\d+.*"), "handed the stub on h3: " + sutLog.lines().limit(2).toList());
        assertTrue(Files.readString(raw.resolve("pg.log")).contains("# on root@10.77.0.12: setpriv "), "PostgreSQL as its own user on h2");
        assertTrue(Files.readString(raw.resolve("stub.log")).startsWith("# on root@10.77.0.13: taskset -c 1 "), "the stub on h3");

        // nothing left: every namespace holds only its sshd, no work folder of this JVM's runs (cluster, JDK copy) remains
        for (int i = 1; i <= 3; i++) assertEquals(List.of(), hosts.besidesSshd(i, Duration.ofSeconds(10)), TestHosts.namespace(i) + " runs more than its sshd");
        assertEquals(List.of(), HostsFixture.workFoldersLeft());
        // the run's shared ssh connections ended with it: no session of its left on any host
        for (int i = 1; i <= 3; i++) assertEquals(List.of(), hosts.besidesSshd(i, java.time.Duration.ofSeconds(5)), TestHosts.namespace(i) + " runs more than its sshd");
    }
}
