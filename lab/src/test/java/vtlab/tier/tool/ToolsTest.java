package vtlab.tier.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.core.UsageError;

/** The registry's lookup: the lab's own build first, then PATH, and never a binary of another version than the pin. */
class ToolsTest {
    @TempDir
    Path tmp;

    /** An executable that answers `--version` like oha does. */
    Path oha(String dir, String version) throws IOException {
        Path d = Files.createDirectories(tmp.resolve(dir));
        Path p = d.resolve("oha");
        Files.writeString(p, "#!/bin/sh\necho 'oha " + version + "'\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    BuiltTool ohaTool() {
        return (BuiltTool) Tools.OHA;
    }

    @Test
    void theLabsOwnBuildComesBeforePath() throws IOException {
        Path own = oha("own", Tools.OHA_VERSION), onPath = oha("path", Tools.OHA_VERSION);
        assertEquals(Optional.of(own), ohaTool().findIn(own.getParent(), List.of(onPath.getParent())));
        assertEquals(Optional.of(onPath), ohaTool().findIn(tmp.resolve("empty"), List.of(onPath.getParent())));
    }

    @Test
    void aBinaryOfAnotherVersionIsNeverUsed() throws IOException {
        Path own = oha("own", "1.4.0"), older = oha("a", "1.10.0"), pinned = oha("b", Tools.OHA_VERSION);
        assertEquals(Optional.of(pinned), ohaTool().findIn(own.getParent(), List.of(older.getParent(), pinned.getParent())));
        assertEquals(Optional.empty(), ohaTool().findIn(own.getParent(), List.of(older.getParent())));
    }

    @Test
    void versionsAreReadAsEachToolPrintsThem() throws IOException {
        assertEquals("1.16.0", Tools.ohaVersion(oha("v", "1.16.0")));
        Path k6 = tmp.resolve("k6");
        Files.writeString(k6, "#!/bin/sh\necho 'k6 v1.8.1 (go1.26.8, linux/amd64)'\n");
        Files.setPosixFilePermissions(k6, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals("v1.8.1", Tools.k6Version(k6));
        assertEquals(null, Tools.ohaVersion(k6));
    }

    @Test
    void everyToolTheLabUsesIsRegisteredAndAnUnknownNameIsRefused() {
        assertEquals(List.of("wrk", "hey", "oha", "vegeta", "k6", "postgres", "toxiproxy-server", "chromium", "chromedriver", "jdk21", "sshd", "ip"),
                List.copyOf(Tools.all().keySet()));
        UsageError e = assertThrows(UsageError.class, () -> Tools.named("wrk2"));
        assertTrue(e.getMessage().contains("unknown tool 'wrk2'") && e.getMessage().contains("oha"), e.getMessage());
    }

    /** k6 is AGPL-3.0: opt-in, in no default set (./vtlab setup, ./vtlab test); every other tool is in it, vegeta (MIT) among them. */
    @Test
    void k6AloneIsOptInWithItsLicence() throws Exception {
        assertEquals("AGPL-3.0", Tools.K6.optInLicence());
        assertEquals(List.of("wrk", "hey", "oha", "vegeta", "postgres", "toxiproxy-server", "chromium", "chromedriver", "jdk21", "sshd", "ip"),
                List.copyOf(Tools.defaults().keySet()));
        assertEquals(Tools.K6, Tools.named("k6"), "still installed by name");
        assertEquals("v12.13.0", Tools.VEGETA.pinned());
        assertEquals("Go module github.com/tsenart/vegeta/v12@v12.13.0 (go install)", Tools.VEGETA.source());
    }

    /** The test hosts' two OS tools say what they are the way Debian ships them (a line that does not start with the name). */
    @Test
    void sshdAndIpReadTheirVersionFromTheirFirstLine() throws IOException {
        Path sshd = tmp.resolve("sshd"), ip = tmp.resolve("ip");
        Files.writeString(sshd, "#!/bin/sh\n[ \"$1\" = -V ] && echo 'OpenSSH_9.2, OpenSSL 3.0.19 27 Jan 2026' >&2; exit 1\n");
        Files.writeString(ip, "#!/bin/sh\n[ \"$1\" = -V ] && echo 'ip utility, iproute2-6.1.0, libbpf 1.1.2'\n");
        for (Path p : List.of(sshd, ip)) Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals("OpenSSH_9.2, OpenSSL 3.0.19 27 Jan 2026", Tools.SSHD.versionAt(sshd));
        assertEquals("ip utility, iproute2-6.1.0, libbpf 1.1.2", Tools.IP.versionAt(ip));
        assertEquals("Debian package openssh-server", Tools.SSHD.source());
    }

    @Test
    void postgresIsAFolderWithTheServersThreeBinaries() throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("pg/bin"));
        for (String b : List.of("postgres", "initdb")) Files.createFile(bin.resolve(b)).toFile().setExecutable(true);
        assertEquals(false, PostgresServer.hasServer(bin));
        Files.createFile(bin.resolve("pg_ctl")).toFile().setExecutable(true);
        assertTrue(PostgresServer.hasServer(bin));
    }
}
