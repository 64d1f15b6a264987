package vtlab.tier.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.proc.Commands;

/** The hosts' command lines (ssh itself is exercised for real on namespace hosts by HostsIT) and the local host's paths. */
class HostTest {
    @TempDir
    Path tmp;

    static HostSpec spec(String dest, Path id, Path kh) throws Exception {
        return new HostSpec("sut", Destination.parse(dest), id, kh, null);
    }

    @Test
    void sshRunsTheUsersOwnClientWithoutPromptsAndTheWordsQuoted() throws Exception {
        SshHost h = new SshHost(spec("root@10.77.0.11:2222", Path.of("/k/id"), Path.of("/k/known")));
        assertEquals(List.of("ssh", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=accept-new", "-o", "ConnectTimeout=10",
                "-o", "ServerAliveInterval=2", "-o", "ServerAliveCountMax=3",
                "-o", "UserKnownHostsFile=/k/known", "-i", "/k/id", "-p", "2222", "root@10.77.0.11", "--",
                "cat -- /proc/1/stat 'a b' 'it'\\''s'"), withoutMux(h.command(List.of("cat", "--", "/proc/1/stat", "a b", "it's"))));
        SshHost plain = new SshHost(spec("bench-box", null, null));
        assertEquals(List.of("ssh", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=accept-new", "-o", "ConnectTimeout=10",
                "-o", "ServerAliveInterval=2", "-o", "ServerAliveCountMax=3",
                "bench-box", "--", "uname -r"), withoutMux(plain.command(List.of("uname", "-r"))));
        assertEquals("bench-box", plain.name());
        assertEquals("root@10.77.0.11:2222", h.name());
    }

    @Test
    void scpTakesThePortAsCapitalPAndAnIpv6AddressInBrackets() throws Exception {
        SshHost h = new SshHost(spec("me@[fd00::1]:2200", Path.of("/k/id"), null));
        assertEquals(List.of("scp", "-q", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=accept-new", "-o", "ConnectTimeout=10",
                "-o", "ServerAliveInterval=2", "-o", "ServerAliveCountMax=3",
                "-i", "/k/id", "-P", "2200", "/tmp/app.jar", "me@[fd00::1]:/opt/vtlab/app.jar"), withoutMux(h.scp("/tmp/app.jar", h.remote("/opt/vtlab/app.jar"))));
        assertEquals("me@fd00::1", h.command(List.of("true")).get(h.command(List.of("true")).size() - 3));
    }

    /** The command without the options of the shared connection (asserted on their own below). */
    static List<String> withoutMux(List<String> cmd) {
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < cmd.size(); i++) {
            if (cmd.get(i).equals("-o") && cmd.get(i + 1).matches("Control(Master|Path|Persist)=.*")) i++;
            else out.add(cmd.get(i));
        }
        return out;
    }

    static String option(List<String> cmd, String name) {
        for (int i = 0; i + 1 < cmd.size(); i++) {
            if (cmd.get(i).equals("-o") && cmd.get(i + 1).startsWith(name + "=")) return cmd.get(i + 1).substring(name.length() + 1);
        }
        return null;
    }

    /**
     * Every command to a host rides one connection (ControlMaster), named by the destination, the key and the known
     * hosts, in a folder of this JVM's own: another key never rides on a connection it did not open.
     */
    @Test
    void commandsToAHostShareOneConnectionPerKey() throws Exception {
        SshHost a = new SshHost(spec("root@10.77.0.11", Path.of("/k/id"), Path.of("/k/known")));
        SshHost again = new SshHost(spec("root@10.77.0.11", Path.of("/k/id"), Path.of("/k/known")));
        SshHost stranger = new SshHost(spec("root@10.77.0.11", Path.of("/k/other"), Path.of("/k/known")));
        SshHost port = new SshHost(spec("root@10.77.0.11:2222", Path.of("/k/id"), Path.of("/k/known")));
        List<String> cmd = a.command(List.of("true"));
        assertEquals("auto", option(cmd, "ControlMaster"));
        assertEquals("15", option(cmd, "ControlPersist"));
        String path = option(cmd, "ControlPath");
        assertTrue(path.matches("/tmp/vtlab-ssh-" + ProcessHandle.current().pid() + "/[0-9a-f]{24}"), path);
        assertTrue(java.nio.file.Files.isDirectory(Path.of(path).getParent()), "the sockets' folder is made");
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(Path.of(path).getParent())));
        assertEquals(path, option(again.command(List.of("uname")), "ControlPath"), "one connection per host and key");
        assertEquals(path, option(a.scp("/tmp/x", a.remote("/tmp/y")), "ControlPath"), "scp rides it too");
        assertFalse(path.equals(option(stranger.command(List.of("true")), "ControlPath")), "another key opens its own");
        assertFalse(path.equals(option(port.command(List.of("true")), "ControlPath")), "another port is another host");
    }

    /** What the remote shell does with ssh's command string, done by this machine's sh: the same words come back. */
    @Test
    void aShellReadsTheQuotedWordsBackUnchanged() throws Exception {
        List<String> words = List.of("plain", "two words", "it's", "$HOME", "`id`", "a\"b", "", "*", "x;y", "new\nline");
        String line = String.join(" ", words.stream().map(SshHost::quote).toList());
        String out = Commands.run(List.of("sh", "-c", "for w in " + line + "; do printf '[%s]' \"$w\"; done"), Duration.ofSeconds(10));
        assertEquals(String.join("", words.stream().map(w -> "[" + w + "]").toList()), out);
        assertEquals("/proc/1/stat", SshHost.quote("/proc/1/stat"));
    }

    @Test
    void aLocalSpecHasNoSshHost() {
        assertThrows(IllegalArgumentException.class, () -> new SshHost(HostSpec.local("sut")));
        assertTrue(Host.of(HostSpec.local("pg")) instanceof LocalHost);
    }

    @Test
    void theLocalHostRunsCopiesAndReadsDirectly() throws Exception {
        Host h = new LocalHost();
        assertEquals(List.of("uname", "-r"), h.command(List.of("uname", "-r")));
        assertEquals("a b\n", h.output(List.of("echo", "a b"), Duration.ofSeconds(10)));
        IOException e = assertThrows(IOException.class, () -> h.output(List.of("sh", "-c", "echo nope; exit 3"), Duration.ofSeconds(10)));
        assertTrue(e.getMessage().startsWith("local: sh -c echo nope; exit 3 failed (3): nope"), e.getMessage());
        Path src = Files.writeString(tmp.resolve("a.txt"), "jar bytes"), back = tmp.resolve("c.txt");
        h.copyTo(src, tmp.resolve("b.txt").toString(), Duration.ofSeconds(5));
        h.copyFrom(tmp.resolve("b.txt").toString(), back, Duration.ofSeconds(5));
        assertEquals("jar bytes", Files.readString(back));
        assertTrue(h.read("/proc/self/status").contains("Pid:"));
    }

    @Test
    void aHostSaysWhichToolsItLacks() throws Exception {
        assertEquals(List.of("no-such-tool-vtlab"), new LocalHost().missing(List.of("sh", "no-such-tool-vtlab", "taskset")));
        assertEquals(List.of(), new LocalHost().missing(List.of("sh")));
    }

    @Test
    void theFactsAreThoseOfThisMachine() throws Exception {
        HostFacts f = new LocalHost().facts();
        long processors = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("processor")).count();
        assertEquals(processors, f.cpus());
        assertEquals(Commands.run(List.of("uname", "-r"), Duration.ofSeconds(5)).strip(), f.kernel());
        assertTrue(f.cpus() >= 1);
        assertEquals(Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip(), f.bootId());
    }

    @Test
    void factsAreReadFromCpuinfo() {
        String cpuinfo = """
                processor\t: 0
                model name\t: AMD EPYC 7B13
                flags\t\t: fpu

                processor\t: 1
                model name\t: AMD EPYC 7B13
                """;
        assertEquals(new HostFacts(2, "AMD EPYC 7B13", "6.1.0", null, "b1"), HostFacts.of(cpuinfo, "6.1.0", null, "b1"));
        assertEquals(new HostFacts(1, null, "6.1.0", null, "b1"), HostFacts.of("processor : 0\nBogoMIPS : 50.00\n", "6.1.0", null, "b1"));
    }

    /** This machine against itself: no offset beyond the exchange's own uncertainty (and a few ms of scheduling). */
    @Test
    void theLocalClockOffsetIsNearZero() throws Exception {
        ClockOffset o = new LocalHost().clockOffset(5);
        assertTrue(o.uncertaintyMs() > 0 && o.uncertaintyMs() < 100, o.toString());
        assertTrue(Math.abs(o.offsetMs()) <= o.uncertaintyMs() + 5, o.toString());
    }

    @Test
    void anOffsetIsTheRemoteClockAgainstTheMidpoint() throws Exception {
        ClockOffset o = ClockOffset.of(1_000_000_000L, 1_503_000_000L, 1_004_000_000L);
        assertEquals(501.0, o.offsetMs(), 1e-9);
        assertEquals(2.0, o.uncertaintyMs(), 1e-9);
        assertEquals(1_700_000_000_123_456_789L, Host.parseEpochNanos("1700000000.123456789"));
        assertThrows(IOException.class, () -> Host.parseEpochNanos("1700000000.N"));
    }
}
