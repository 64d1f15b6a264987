package vtlab.tier.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.proc.CoreMap;

/** What ./vtlab hosts up writes, read back (the namespaces themselves are made for real in HostsIT). */
class TestHostsTest {
    @TempDir
    Path tmp;

    static final CoreMap TWO = new CoreMap(Map.of(CoreMap.APP, "0", CoreMap.LOAD, "1"), 2);

    @Test
    void theTopologyPutsTheSutOnH1AndAnAgentOnEachOtherHost() throws Exception {
        TestHosts hosts = new TestHosts(tmp);
        Files.writeString(hosts.identity(), "key"); // read back, an identity must be readable
        Topology t = Topology.parse(hosts.topology(3, TWO), tmp);
        assertEquals("root@10.77.0.11", t.sut().where());
        assertEquals("0", t.sut().cpus());
        assertEquals(List.of("root@10.77.0.12", "root@10.77.0.13"), t.load().stream().map(HostSpec::where).toList());
        assertEquals(List.of("1", "1"), t.load().stream().map(HostSpec::cpus).toList());
        assertTrue(t.pg().isLocal() && t.stub().isLocal());
        for (HostSpec h : List.of(t.sut(), t.load().getFirst())) {
            assertEquals(hosts.identity(), h.identity());
            assertEquals(hosts.knownHosts(), h.knownHosts());
        }
    }

    @Test
    void oneHostCarriesTheSutAndTheLoadStaysLocal() throws Exception {
        TestHosts hosts = new TestHosts(tmp);
        Files.writeString(hosts.identity(), "key");
        Topology t = Topology.parse(hosts.topology(1, TWO), tmp);
        assertEquals("root@10.77.0.11", t.sut().where());
        assertEquals(List.of("local"), t.load().stream().map(HostSpec::where).toList());
    }

    @Test
    void eachSshdListensOnItsAddressOnlyWithKeysOnly() {
        String c = TestHosts.sshdConfig("10.77.0.12", Path.of("/h/h2/key"), Path.of("/h/h2/sshd.pid"), Path.of("/h/authorized_keys"));
        for (String line : List.of("ListenAddress 10.77.0.12", "HostKey /h/h2/key", "PidFile /h/h2/sshd.pid", "AuthorizedKeysFile /h/authorized_keys",
                "PasswordAuthentication no", "PermitRootLogin prohibit-password", "Subsystem sftp internal-sftp", "ClientAliveInterval 2")) {
            assertTrue(c.lines().anyMatch(line::equals), line + " in\n" + c);
        }
        assertEquals("vtlab-h7", TestHosts.namespace(7));
        assertEquals("10.77.0.17", TestHosts.address(7));
        assertEquals("\"a\\\\b\\\"c\"", TestHosts.string("a\\b\"c"));
    }
}
