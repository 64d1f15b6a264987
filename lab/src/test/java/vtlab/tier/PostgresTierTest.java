package vtlab.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.stack.Stack;
import vtlab.stack.StackData;
import vtlab.proc.Commands;
import vtlab.tier.host.TierSite;

class PostgresTierTest {
    @TempDir
    Path tmp;

    @Test
    void theServerListensOnLoopbackOnlyAndCountsStatements() {
        Map<String, String> s = PostgresCluster.serverSettings();
        assertEquals("127.0.0.1", s.get("listen_addresses"));
        assertEquals("", s.get("unix_socket_directories"), "no socket in a shared /var/run/postgresql");
        assertEquals("pg_stat_statements", s.get("shared_preload_libraries"));
        assertEquals("scram-sha-256", s.get("password_encryption"));
        assertTrue(Integer.parseInt(s.get("max_connections")) > 800, "the largest pool of the sweep must fit");
    }

    /** spring-mvc's own schema and seed files, rendered with a small size. */
    static List<String> springSeed(long customers, long orders) throws Exception {
        StackData d = Stack.load("spring-mvc").data().orElseThrow();
        return PostgresSeed.statements(Files.readString(d.schema()), Files.readString(d.seed()),
                new java.util.TreeMap<>(Map.of("customers", customers, "orders", orders)));
    }

    /**
     * For a SUT on another host the server listens on the address it reaches (this machine's as that host sees it, or
     * the database host's own) and lets in the lab and the SUT's host alone; the commands a host runs are the ones here.
     */
    @Test
    void acrossHostsItListensWhereTheSutReachesItForTheLabAndTheSutAlone() {
        List<String> cmd = PostgresCluster.serverCommand("/usr/lib/postgresql/17/bin", "/tmp/vtlab-1/pg/data", 25432, "1", "10.77.0.12");
        assertEquals(List.of("taskset", "-c", "1", "/usr/lib/postgresql/17/bin/postgres", "-D", "/tmp/vtlab-1/pg/data", "-p", "25432",
                "-c", "listen_addresses=10.77.0.12"), cmd.subList(0, 10));
        assertTrue(cmd.contains("unix_socket_directories=") && cmd.contains("shared_preload_libraries=pg_stat_statements"), cmd.toString());
        assertEquals("""
                # vtlab: TCP from the lab and the SUT only, SCRAM passwords; no Unix socket, no trust
                host all all 10.77.0.12/32 scram-sha-256
                host all all 10.77.0.11/32 scram-sha-256
                host all all 10.77.0.1/32 scram-sha-256
                host all all fd00::1/128 scram-sha-256
                """, PostgresCluster.hba(List.of("10.77.0.12", "10.77.0.11", "10.77.0.1", "10.77.0.11", "fd00::1")));
        assertEquals(List.of("setpriv", "--reuid=999", "--regid=998", "--clear-groups", "--"), PostgresCluster.asUser(999, 998));
        assertEquals(List.of("/b/pg_ctl", "stop", "-D", "/d", "-m", "fast", "-w", "-t", "30"), PostgresCluster.stopCommand("/b", "/d"));
    }

    /** The stub is told its port and address (loopback, or where a SUT on another host reaches it), and its delay. */
    @Test
    void theStubListensWhereItsSiteSays() {
        assertEquals(Map.of("PORT", "30001", "SERVER_PORT", "30001", "SERVER_ADDRESS", "10.77.0.13", "STUB_DELAY_MS", "100"),
                StubTier.environment(30001, "10.77.0.13", "100").asMap());
        assertEquals(Map.of("PORT", "30001", "SERVER_PORT", "30001", "SERVER_ADDRESS", "127.0.0.1"), StubTier.environment(30001, "127.0.0.1", null).asMap());
        assertEquals("[fd00::13]:5432", TierSite.here("fd00::13", List.of()).endpoint(5432));
        assertEquals("127.0.0.1:5432", TierSite.here().endpoint(5432));
        assertFalse(TierSite.here().remote());
    }

    @Test
    void theSeedHasTheRequestedSizeAndItsMarkerComesLast() throws Exception {
        List<String> sql = springSeed(1000, 10000);
        String all = String.join("\n", sql);
        assertTrue(all.contains("generate_series(1, 1000::bigint)"), all);
        assertTrue(all.contains("generate_series(1, 10000::bigint)"), all);
        assertTrue(all.contains("ALTER TABLE orders ADD PRIMARY KEY (id)"), all);
        // every order's customer exists: ids 1 + (g * 7919) % customers lie in 1..customers
        assertTrue(all.contains("1 + (g * 7919) % 1000"), all);
        assertFalse(all.contains("--"), "comments are dropped: " + all);
        assertEquals("SET LOCAL synchronous_commit = off", sql.getFirst());
        assertTrue(sql.get(2).startsWith("DROP TABLE IF EXISTS orders, customers"), sql.get(2));
        assertTrue(sql.getLast().startsWith("INSERT INTO vtlab_seed VALUES ('"), sql.getLast());
        assertTrue(sql.getLast().contains("customers=1000, orders=10000"), sql.getLast());
    }

    @Test
    void anotherSizeIsAnotherSeed() throws Exception {
        assertEquals(springSeed(1000, 10000).getLast().substring(0, 60), springSeed(1000, 10000).getLast().substring(0, 60));
        assertNotEquals(springSeed(1000, 10000).getLast().substring(0, 60), springSeed(1000, 20000).getLast().substring(0, 60));
    }

    @Test
    void scriptsSplitAtSemicolonsOutsideQuotesAndComments() {
        List<String> s = PostgresSeed.split("""
                -- a comment; not a statement
                INSERT INTO t VALUES ('a;b', "c;d"); /* block; comment */ SELECT {n}
                ;
                """);
        assertEquals(List.of("INSERT INTO t VALUES ('a;b', \"c;d\")", "SELECT {n}"), s);
        assertEquals("SELECT 5", PostgresSeed.render(s.get(1), Map.of("n", 5L)));
        assertThrows(IllegalStateException.class, () -> PostgresSeed.render(s.get(1), Map.of()));
    }

    @Test
    void seedSizesAreTierOptionsOverTheStacksDefaults() throws Exception {
        StackData d = Stack.load("spring-mvc").data().orElseThrow();
        assertEquals(Map.of("customers", 100_000L, "orders", 1_000_000L), PostgresSeed.sizes(d, PostgresTier.NAME, TierOptions.NONE));
        assertEquals(Map.of("customers", 100_000L, "orders", 10_000L),
                PostgresSeed.sizes(d, PostgresTier.NAME, TierOptions.NONE.with("pg.orders", "10_000")));
        assertThrows(IllegalArgumentException.class, () -> PostgresSeed.sizes(d, PostgresTier.NAME, TierOptions.NONE.with("pg.orders", "0")));
    }

    @Test
    void springMvcDeclaresItsDataAndTheOrderLookup() throws Exception {
        StackData d = Stack.load("spring-mvc").data().orElseThrow();
        assertEquals(PostgresTier.NAME, d.tier());
        assertTrue(Files.isRegularFile(d.schema()) && Files.isRegularFile(d.seed()), d.toString());
        assertEquals("FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id = $1", d.query("order-lookup"));
        assertThrows(IllegalStateException.class, () -> d.query("nope"));
        assertTrue(Stack.load("servlet").data().isEmpty(), "a stack without a database declares no data");
    }

    @Test
    void onlyATierThatCountsStatementsOffersCounts() throws Exception {
        assertTrue(new StubTier().statementCalls("anything").isEmpty());
    }

    @Test
    void aServerFolderNeedsPostgresInitdbAndPgCtl() throws Exception {
        for (String b : List.of("postgres", "initdb")) {
            Files.createFile(tmp.resolve(b), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        }
        assertFalse(vtlab.tier.tool.PostgresServer.hasServer(tmp));
        Files.createFile(tmp.resolve("pg_ctl"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        assertTrue(vtlab.tier.tool.PostgresServer.hasServer(tmp));
    }

    @Test
    void commandsReportTheirOutputOnFailure() throws Exception {
        assertEquals("hi\n", Commands.run(List.of("echo", "hi"), java.time.Duration.ofSeconds(10)));
        var e = assertThrows(java.io.IOException.class, () -> Commands.run(List.of("sh", "-c", "echo broken >&2; exit 3"),
                java.time.Duration.ofSeconds(10)));
        assertTrue(e.getMessage().contains("(3): broken"), e.getMessage());
    }
}
