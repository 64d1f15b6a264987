package vtlab.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostgresTierTest {
    @TempDir
    Path tmp;

    @Test
    void theServerListensOnLoopbackOnlyAndCountsStatements() {
        Map<String, String> s = PostgresTier.serverSettings();
        assertEquals("127.0.0.1", s.get("listen_addresses"));
        assertEquals("", s.get("unix_socket_directories"), "no socket in a shared /var/run/postgresql");
        assertEquals("pg_stat_statements", s.get("shared_preload_libraries"));
        assertEquals("scram-sha-256", s.get("password_encryption"));
        assertTrue(Integer.parseInt(s.get("max_connections")) > 800, "the largest pool of the sweep must fit");
    }

    @Test
    void theSeedHasTheRequestedSizeAndItsMarkerComesLast() {
        List<String> sql = PostgresTier.seedSql(1000, 10000);
        String all = String.join("\n", sql);
        assertTrue(all.contains("generate_series(1, 1000::bigint)"), all);
        assertTrue(all.contains("generate_series(1, 10000::bigint)"), all);
        assertTrue(all.contains("ALTER TABLE orders ADD PRIMARY KEY (id)"), all);
        // every order's customer exists: ids 1 + (g * 7919) % customers lie in 1..customers
        assertTrue(all.contains("1 + (g * 7919) % 1000"), all);
        assertTrue(sql.getLast().startsWith("INSERT INTO vtlab_seed VALUES (1000, 10000"), sql.getLast());
    }

    @Test
    void seedSizesAreTierOptions() {
        assertEquals(100_000, PostgresTier.longOption(Map.of(), PostgresTier.OPT_CUSTOMERS, PostgresTier.DEFAULT_CUSTOMERS));
        assertEquals(10_000, PostgresTier.longOption(Map.of(PostgresTier.OPT_ORDERS, "10_000"), PostgresTier.OPT_ORDERS, 1));
        assertThrows(IllegalArgumentException.class, () -> PostgresTier.longOption(Map.of(PostgresTier.OPT_ORDERS, "0"), PostgresTier.OPT_ORDERS, 1));
    }

    @Test
    void aServerFolderNeedsPostgresInitdbAndPgCtl() throws Exception {
        for (String b : List.of("postgres", "initdb")) {
            Files.createFile(tmp.resolve(b), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        }
        assertFalse(PostgresTier.hasServer(tmp));
        Files.createFile(tmp.resolve("pg_ctl"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        assertTrue(PostgresTier.hasServer(tmp));
    }

    @Test
    void commandsReportTheirOutputOnFailure() throws Exception {
        assertEquals("hi\n", PostgresTier.run(List.of("echo", "hi"), java.time.Duration.ofSeconds(10)));
        var e = assertThrows(java.io.IOException.class, () -> PostgresTier.run(List.of("sh", "-c", "echo broken >&2; exit 3"),
                java.time.Duration.ofSeconds(10)));
        assertTrue(e.getMessage().contains("(3): broken"), e.getMessage());
    }
}
