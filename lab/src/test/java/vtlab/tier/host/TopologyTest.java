package vtlab.tier.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.core.UsageError;

/** The topology file: every form it documents is read as written, and every mistake is one line. */
class TopologyTest {
    @TempDir
    Path tmp;

    Topology parse(String toml) throws UsageError {
        return Topology.parse(toml, tmp);
    }

    String refusal(String toml) {
        String m = assertThrows(UsageError.class, () -> parse(toml)).getMessage();
        assertFalse(m.contains("\n"), "one line: " + m);
        return m;
    }

    @Test
    void theFullFormIsReadAsWritten() throws Exception {
        Files.writeString(tmp.resolve("id"), "key");
        Topology t = parse("""
                pg = "local"

                [sut]
                host = "root@10.77.0.11"
                identity = "id"
                known_hosts = "kh"
                cpus = "0-1"

                [[load]]
                host = "bench@10.77.0.12:2222"
                cpus = "1"

                [[load]]
                host = "[fd00::13]"
                """);
        assertEquals(new Destination("root", "10.77.0.11", 0), t.sut().destination());
        assertEquals(tmp.resolve("id"), t.sut().identity());
        assertEquals(tmp.resolve("kh"), t.sut().knownHosts());
        assertEquals("0-1", t.sut().cpus());
        assertTrue(t.pg().isLocal() && t.stub().isLocal(), "pg and stub default to local");
        assertEquals(2, t.load().size());
        assertEquals(new Destination("bench", "10.77.0.12", 2222), t.load().get(0).destination());
        assertEquals("1", t.load().get(0).cpus());
        assertEquals(new Destination(null, "fd00::13", 0), t.load().get(1).destination());
        assertEquals("[fd00::13]", t.load().get(1).where());
        assertTrue(t.remote());
        assertEquals(List.of("sut", "pg", "stub", "load", "load"), t.all().stream().map(HostSpec::role).toList());
    }

    @Test
    void rolesGivenAsStringsAreTheirHostsAlone() throws Exception {
        Topology t = parse("""
                sut = "root@h1"
                pg = "local"
                stub = "root@h1"
                load = ["root@h2", "root@h3"]
                """);
        assertEquals("root@h1", t.sut().where());
        assertTrue(t.pg().isLocal());
        assertEquals("root@h1", t.stub().where());
        assertEquals(List.of("root@h2", "root@h3"), t.load().stream().map(HostSpec::where).toList());
        assertNull(t.sut().identity());
    }

    @Test
    void allLocalIsTheLabWithoutHosts() throws Exception {
        Topology t = parse("sut = \"local\"\n");
        assertFalse(t.remote());
        assertEquals(Topology.allLocal(), t);
    }

    @Test
    void anUnknownRoleIsRefused() {
        assertTrue(refusal("sut = \"local\"\ndb = \"local\"\n").contains("unknown role 'db'"));
    }

    @Test
    void aFileWithoutSutIsRefused() {
        assertTrue(refusal("load = \"root@h2\"\n").startsWith("no sut"));
        assertTrue(refusal("").startsWith("no sut"));
    }

    @Test
    void aLoadAgentWithoutDestinationIsRefused() {
        String m = refusal("""
                sut = "local"
                [[load]]
                host = "root@h2"
                [[load]]
                cpus = "1"
                """);
        assertTrue(m.startsWith("load agent 2 has no host"), m);
    }

    @Test
    void malformedDestinationsAreRefused() {
        for (String bad : List.of("root@", "@h1", "root@h1:", "root@h1:70000", "root@h1:22:22", "root h1", "root@-h1", "")) {
            String m = refusal("sut = \"" + bad + "\"\n");
            assertTrue(m.startsWith("sut: '" + bad + "'"), bad + " -> " + m);
        }
        assertTrue(refusal("sut = \"local\"\nload = [\"root@h2\", \"x@@y\"]\n").startsWith("load agent 2: 'x@@y'"));
    }

    /** pg and the stub on hosts of their own; jdk = "copy" on the roles that run a JVM (sut, stub), the default the same path. */
    @Test
    void tiersOnHostsAndTheJdkCopiedWhenAsked() throws Exception {
        Topology t = parse("""
                [sut]
                host = "root@10.77.0.11"
                jdk = "copy"

                [pg]
                host = "root@10.77.0.12"
                cpus = "1"

                [stub]
                host = "root@10.77.0.13"
                jdk = "same-path"
                """);
        assertTrue(t.sut().copyJdk());
        assertEquals(new Destination("root", "10.77.0.12", 0), t.pg().destination());
        assertEquals("1", t.pg().cpus());
        assertFalse(t.pg().copyJdk());
        assertEquals("root@10.77.0.13", t.stub().where());
        assertFalse(t.stub().copyJdk(), "same-path is the default, said out loud");
        assertTrue(parse("[stub]\nhost = \"h3\"\njdk = \"copy\"\n[sut]\nhost = \"h1\"\n").stub().copyJdk());

        assertEquals("sut: jdk = \"bundled\": give \"copy\" (copy the JDK to the host) or \"same-path\" (installed there at the same path)",
                refusal("[sut]\nhost = \"root@h1\"\njdk = \"bundled\"\n"));
        assertEquals("pg runs no JVM: jdk is for sut and stub", refusal("[sut]\nhost = \"h1\"\n[pg]\nhost = \"h2\"\njdk = \"copy\"\n"));
        assertEquals("load agent 1 runs no JVM: jdk is for sut and stub", refusal("sut = \"h1\"\n[[load]]\nhost = \"h2\"\njdk = \"copy\"\n"));
        assertTrue(refusal("[sut]\nhost = \"local\"\njdk = \"copy\"\n").startsWith("sut is local: identity, known_hosts and jdk = \"copy\" are for an SSH host"));
    }

    @Test
    void otherMistakesAreRefusedInOneLine() {
        assertTrue(refusal("[sut]\nhost = \"root@h1\"\nport = \"22\"\n").contains("unknown key 'port'"));
        assertTrue(refusal("[sut]\nhost = \"root@h1\"\ncpus = \"0-\"\n").contains("cpus '0-' is not a CPU list"));
        assertTrue(refusal("[sut]\nhost = \"root@h1\"\nidentity = \"nokey\"\n").contains("is not a readable file"));
        assertTrue(refusal("[sut]\nhost = \"local\"\nidentity = \"nokey\"\n").contains("sut is local"));
        assertTrue(refusal("sut = 3\n").startsWith("sut: give a host"));
        assertTrue(refusal("sut = \"local\"\nload = []\n").contains("names no agent"));
        assertTrue(refusal("[sut\nhost = 1\n").startsWith("not valid TOML"));
    }

    @Test
    void anUnreadableFileIsRefusedWithItsName() throws IOException {
        Path missing = tmp.resolve("nope.toml");
        UsageError e = assertThrows(UsageError.class, () -> Topology.read(missing));
        assertEquals("--hosts " + missing + ": cannot read it (no such file)", e.getMessage());
        Path dir = Files.createDirectories(tmp.resolve("adir"));
        assertTrue(assertThrows(UsageError.class, () -> Topology.read(dir)).getMessage().startsWith("--hosts " + dir + ": cannot read it"));
        Path bad = Files.writeString(tmp.resolve("bad.toml"), "sut = \"local\"\nclient = \"local\"\n");
        assertEquals("--hosts " + bad + ": unknown role 'client' (sut, pg, stub, load)",
                assertThrows(UsageError.class, () -> Topology.read(bad)).getMessage());
    }

    @Test
    void destinationsTellSshAndScpApart() throws UsageError {
        Destination v6 = Destination.parse("me@[fd00::1]:2200");
        assertEquals("me@fd00::1", v6.sshTarget());
        assertEquals("me@[fd00::1]", v6.scpTarget());
        assertEquals(2200, v6.port());
        assertEquals("me@[fd00::1]:2200", v6.toString());
        Destination alias = Destination.parse("bench-box");
        assertEquals("bench-box", alias.sshTarget());
        assertEquals(Destination.DEFAULT_PORT, alias.port());
    }
}
