package vtlab.tier.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.proc.Commands;
import vtlab.proc.Env;

/**
 * A run's processes on a host, through this machine as the host (the same commands an ssh host runs): started under
 * a pid file in a session of their own, their variables from an env file, stopped by their group, and whatever is
 * left swept at the end with the work folder.
 */
class HostRunTest {
    @TempDir
    Path tmp;

    static HostRun run(String id) {
        return new HostRun(Topology.allLocal(), id);
    }

    @Test
    void theWrapperAndTheStopAreTheseCommands() {
        assertEquals(List.of("setsid", "-w", "sh", "-c", HostProcess.WRAPPER, "sh", "/tmp/vtlab-1", "sut.pid", "/tmp/vtlab-1/sut.env",
                "taskset", "-c", "0", "java", "-jar", "app.jar"),
                HostProcess.command("/tmp/vtlab-1", "sut", List.of("taskset", "-c", "0", "java", "-jar", "app.jar"), "/tmp/vtlab-1/sut.env"));
        assertEquals("", HostProcess.command("/d", "a", List.of("true"), null).get(8), "no env file: an empty word");
        assertEquals(List.of("sh", "-c", HostProcess.STOP, "sh", "/d/a.pid"), HostProcess.stopCommand("/d/a.pid"));
    }

    @Test
    void aProcessRunsUnderItsPidFileWithItsVariablesAndItsGroupIsStopped() throws Exception {
        HostRun run = run("vtlab-test-" + ProcessHandle.current().pid() + "-a");
        try {
            Host h = run.host(HostSpec.local("sut"));
            String env = run.envFile(h, "t.env", new Env(Map.of("GREETING", "it's \"quoted\" $HOME", "N", "2")));
            Path out = tmp.resolve("out.txt");
            // the process starts a child of its own: the group goes, not only the process
            HostProcess p = run.start(h, "t", List.of("sh", "-c", "echo \"$GREETING|$N\"; sleep 300 & wait"), env, out);
            long pid = p.pid();
            ProcessHandle there = ProcessHandle.of(pid).orElseThrow();
            assertEquals(pid, Long.parseLong(Files.readString(Path.of(run.dir(), "t.pid")).strip()));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (System.nanoTime() < deadline && there.descendants().findAny().isEmpty()) Thread.sleep(20);
            ProcessHandle child = there.descendants().findFirst().orElseThrow();
            assertEquals("it's \"quoted\" $HOME|2\n", Files.readString(out));
            assertTrue(p.alive());
            // the stop through the host alone (here the client is the process itself, which a local stop would end too)
            assertEquals(0, h.run(HostProcess.stopCommand(run.dir() + "/t.pid"), Duration.ofSeconds(20)).code());
            assertTrue(there.onExit().get(5, TimeUnit.SECONDS) != null && !there.isAlive());
            child.onExit().get(5, TimeUnit.SECONDS);
            assertFalse(child.isAlive(), "the group's other process went too");
            assertFalse(Files.exists(Path.of(run.dir(), "t.pid")), "the pid file goes with it");
            assertTrue(p.client().waitFor(5, TimeUnit.SECONDS));
            run.stop(p); // a group already gone: no error
            run.stop(p);
        } finally {
            assertEquals(List.of(), run.finish());
        }
        assertFalse(Files.exists(Path.of(run.dir())), "the work folder is removed");
    }

    /** What a stop never reached (its client gone, the lab killed): the end names it, kills it and removes the folder. */
    @Test
    void theEndSweepsAGroupLeftBehind() throws Exception {
        HostRun run = run("vtlab-test-" + ProcessHandle.current().pid() + "-b");
        Host h = run.host(HostSpec.local("load"));
        HostProcess left = HostProcess.start(h, run.files(h), run.dir(h), "stray", List.of("sleep", "300"), null, tmp.resolve("stray.txt"));
        ProcessHandle there = ProcessHandle.of(left.pid()).orElseThrow();
        List<String> swept = run.finish();
        assertEquals(List.of("local: " + run.dir() + "/stray.pid"), swept);
        there.onExit().get(5, TimeUnit.SECONDS);
        assertFalse(Files.exists(Path.of(run.dir())));
        assertEquals(List.of(), run.finish(), "once");
    }

    @Test
    void aProcessThatEndsAtOnceSaysSoInsteadOfAPid() throws Exception {
        HostRun run = run("vtlab-test-" + ProcessHandle.current().pid() + "-c");
        try {
            Host h = run.host(HostSpec.local("sut"));
            Path out = tmp.resolve("out.txt");
            HostProcess p = run.start(h, "gone", List.of("no-such-command-vtlab"), null, out);
            long pid;
            try {
                pid = p.pid(); // it may write its pid before exec fails
            } catch (IOException e) {
                assertTrue(e.getMessage().startsWith("local: gone ended ("), e.getMessage());
                return;
            }
            assertTrue(p.client().waitFor(5, TimeUnit.SECONDS));
            assertTrue(ProcessHandle.of(pid).isEmpty() || !ProcessHandle.of(pid).get().isAlive());
            assertTrue(Files.readString(out).contains("no-such-command-vtlab"), Files.readString(out));
        } finally {
            run.finish();
        }
    }

    @Test
    void filesAreStagedOncePerContentAndEnvFilesRefuseWhatIsNoVariable() throws Exception {
        HostRun run = run("vtlab-test-" + ProcessHandle.current().pid() + "-d");
        try {
            Host h = run.host(HostSpec.local("sut"));
            Path jar = Files.writeString(tmp.resolve("app.jar"), "jar");
            String there = run.stage(h, jar, "app.jar");
            assertEquals(run.dir() + "/app.jar", there);
            Files.writeString(Path.of(there), "changed there");
            run.stage(h, jar, "app.jar");
            assertEquals("changed there", Files.readString(Path.of(there)), "the same content is not copied again");
            Files.writeString(jar, "new jar");
            run.stage(h, jar, "app.jar");
            assertEquals("new jar", Files.readString(Path.of(there)), "new content is");
            assertTrue(run.stageContent(h, jar, ".jar").matches(run.dir() + "/[0-9a-f]{16}\\.jar"));
            assertThrows(IOException.class, () -> HostRun.envText(Env.NONE.with("A-B", "x")));
            Env env = Env.NONE.with("A", "plain").with("B", "two words");
            assertEquals("A=plain\nB='two words'\n", HostRun.envText(env));
            assertEquals(0, Commands.attempt(List.of("sh", "-c", "set -a; . \"$1\"; [ \"$B\" = 'two words' ]", "sh",
                    run.envFile(h, "x.env", env)), Duration.ofSeconds(10)).code());
        } finally {
            run.finish();
        }
    }

    /** A run whose sut is a host the test can cut off (everything else here). */
    static HostRun cutRun(String id, CutHost cut) throws Exception {
        return new HostRun(Topology.parse("sut = \"root@cut\"\n", null), id, s -> s.isLocal() ? new LocalHost() : cut);
    }

    /**
     * A host lost under a process (its client ended with ssh's own failure, and a new session does not get through):
     * the process says so, its stop does not wait on the host, the run names the host with its role; once the host
     * answers again, the group left there is stopped.
     */
    @Test
    void aProcessWhoseHostIsLostIsStoppedThereOnceTheHostAnswersAgain() throws Exception {
        CutHost cut = new CutHost();
        HostRun run = cutRun("vtlab-test-" + ProcessHandle.current().pid() + "-f", cut);
        try {
            Host h = run.host(Topology.parse("sut = \"root@cut\"\n", null).sut());
            Path out = tmp.resolve("agent.txt"), child = tmp.resolve("child.pid");
            // what a client sees when ssh gives the host up: its message, exit 255; the group there lives on (a sleep)
            HostProcess p = run.start(h, "agent", List.of("sh", "-c", "sleep 300 & echo $! > " + child
                    + "; echo 'Timeout, server cut not responding.' >&2; exit 255"), null, out);
            p.pid();
            cut.state = CutHost.State.REFUSED;
            assertTrue(p.client().waitFor(5, TimeUnit.SECONDS));
            assertEquals("host unreachable: Timeout, server cut not responding. (a new session: " + CutHost.NO_ROUTE + ")", p.lost());
            ProcessHandle sleep = ProcessHandle.of(Long.parseLong(Files.readString(child).strip())).orElseThrow();

            IOException notThere = assertThrows(IOException.class, () -> run.stop(p));
            assertTrue(notThere.getMessage().startsWith("root@cut: agent not stopped there: host unreachable: "), notThere.getMessage());
            assertEquals("root@cut (sut) does not answer: " + CutHost.NO_ROUTE, run.unreachable());
            assertTrue(sleep.isAlive(), "left there while the host is lost");

            cut.state = CutHost.State.UP;
            assertNull(run.unreachable(), "the host answers again");
            sleep.onExit().get(5, TimeUnit.SECONDS);
            assertFalse(sleep.isAlive(), "stopped there once it answered");
            assertFalse(Files.exists(Path.of(run.dir(), "agent.pid")));
        } finally {
            assertEquals(List.of(), run.finish());
            assertEquals(List.of(), run.notReached());
        }
        assertFalse(Files.exists(Path.of(run.dir())));
    }

    /** A host still lost at the end: not waited for, named with what is left there; a process that merely failed is no lost host. */
    @Test
    void aHostStillLostAtTheEndIsNamedWithWhatIsLeftThere() throws Exception {
        CutHost cut = new CutHost();
        HostRun run = cutRun("vtlab-test-" + ProcessHandle.current().pid() + "-g", cut);
        Path child = tmp.resolve("child.pid");
        try {
            Host h = run.host(Topology.parse("sut = \"root@cut\"\n", null).sut());
            HostProcess failed = run.start(h, "failed", List.of("sh", "-c", "exit 255"), null, tmp.resolve("failed.txt"));
            assertTrue(failed.client().waitFor(5, TimeUnit.SECONDS));
            assertNull(failed.lost(), "its host answers: the process failed, the host is not lost");
            run.stop(failed);

            HostProcess p = run.start(h, "agent", List.of("sh", "-c", "sleep 300 & echo $! > " + child + "; exit 255"), null, tmp.resolve("a.txt"));
            p.pid();
            cut.state = CutHost.State.REFUSED;
            assertTrue(p.client().waitFor(5, TimeUnit.SECONDS));
            assertEquals("host unreachable: " + CutHost.NO_ROUTE, p.lost(), "no words of ssh's own: the new session's");
            long t0 = System.nanoTime();
            assertEquals(List.of(), run.finish(), "nothing was found and killed");
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L);
            assertEquals(List.of("root@cut (" + CutHost.NO_ROUTE + "): " + run.dir() + " left there, with any process its pid files name"), run.notReached());
        } finally {
            ProcessHandle.of(Long.parseLong(Files.readString(child).strip())).ifPresent(ProcessHandle::destroyForcibly);
            cut.state = CutHost.State.UP;
            new LocalHost().run(List.of("rm", "-rf", "--", run.dir()), Duration.ofSeconds(10));
        }
    }

    @Test
    void theServerAddressIsTheThirdWordOfSshConnection() throws Exception {
        assertEquals("10.77.0.11", HostRun.serverAddress("10.77.0.1 51234 10.77.0.11 22"));
        assertEquals("fd00::11", HostRun.serverAddress("fd00::1 51234 fd00::11 22\n"));
        assertNull(HostRun.serverAddress(""));
        HostRun run = run("vtlab-test-e");
        assertEquals("127.0.0.1", run.address(new LocalHost()));
        assertEquals(List.of(), run.finish());
    }

    /** A tier's port on a host: none that ss lists there as listening (IPv4, IPv6, any address). */
    @Test
    void aPortForATierOnAHostIsNoneItsSocketsListenOn() throws Exception {
        String ss = """
                LISTEN 0      4096       127.0.0.1:5432       0.0.0.0:*
                LISTEN 0      128          0.0.0.0:22         0.0.0.0:*
                LISTEN 0      4096            [::]:30000         [::]:*
                LISTEN 0      50                 *:8080             *:*
                """;
        assertEquals(java.util.Set.of(5432, 22, 30000, 8080), HostRun.listening(ss));
        java.util.Set<Integer> taken = new java.util.HashSet<>();
        for (int p = 20_000; p < 60_000; p++) if (p != 45_678) taken.add(p);
        assertEquals(45_678, HostRun.freePort(taken, new java.util.Random(1)), "the one port left free");
        int p = new HostRun(Topology.allLocal(), "vtlab-test-port").freePort(new LocalHost());
        assertTrue(p >= 20_000 && p < 60_000, Integer.toString(p));
        assertEquals("127.0.0.1", new HostRun(Topology.allLocal(), "vtlab-test-client").clientAddress(new LocalHost()));
    }
}
