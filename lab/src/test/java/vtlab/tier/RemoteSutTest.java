package vtlab.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.tier.host.LocalHost;

/** A SUT on a host of its own: its command there, what it is told to listen on, and the JDK it needs there. */
class RemoteSutTest {
    @Test
    void theJvmRunsPinnedOnTheHostsCpusWithTheStagedJar() {
        Jdk jdk = new Jdk(Path.of("/usr/lib/jvm/jdk-25"), 25, "25", "");
        assertEquals(List.of("taskset", "-c", "0", "/usr/lib/jvm/jdk-25/bin/java", "-Xmx1g", "-jar", "/tmp/vtlab-1/servlet-vtlab-servlet.jar", "--x"),
                RemoteSut.command(jdk, List.of("-Xmx1g"), "/tmp/vtlab-1/servlet-vtlab-servlet.jar", List.of("--x"), "0"));
    }

    /** It listens on the host's address (the lab and the agents reach it there), and is told no parent pid of this machine. */
    @Test
    void itIsToldItsPortAndTheHostsAddressButNoParentPid() {
        Map<String, String> env = RemoteSut.environment(Map.of("THREAD_MODE", "platform"), "10.77.0.11", 18080);
        assertEquals(Map.of("THREAD_MODE", "platform", "PORT", "18080", "SERVER_PORT", "18080", "ADDRESS", "10.77.0.11",
                "SERVER_ADDRESS", "10.77.0.11"), env);
        assertFalse(env.containsKey("VTLAB_PARENT_PID"));
    }

    @org.junit.jupiter.api.io.TempDir
    Path tmp;

    static Path jar(Path file, String classPath) throws IOException {
        java.util.jar.Manifest m = new java.util.jar.Manifest();
        m.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        if (classPath != null) m.getMainAttributes().put(java.util.jar.Attributes.Name.CLASS_PATH, classPath);
        try (var out = new java.util.jar.JarOutputStream(java.nio.file.Files.newOutputStream(file), m)) {
            return file;
        }
    }

    /** The lab's stacks keep their libraries in lib/ beside the jar (its Class-Path): they go to the host with it, laid out alike. */
    @Test
    void theJarGoesWithTheLibrariesItsManifestNames() throws Exception {
        java.nio.file.Files.createDirectories(tmp.resolve("lib"));
        java.nio.file.Files.writeString(tmp.resolve("lib/a.jar"), "a");
        java.nio.file.Files.writeString(tmp.resolve("lib/b.jar"), "b");
        Path app = jar(tmp.resolve("app.jar"), "lib/a.jar lib/b.jar");
        assertEquals(List.of("lib/a.jar", "lib/b.jar"), RemoteSut.classPath(app));
        vtlab.tier.host.HostRun run = new vtlab.tier.host.HostRun(vtlab.tier.host.Topology.allLocal());
        try {
            String there = RemoteSut.stageJar(run, new LocalHost(), app, "servlet");
            assertEquals(run.dir() + "/servlet/app.jar", there);
            assertEquals("b", java.nio.file.Files.readString(Path.of(run.dir(), "servlet/lib/b.jar")));
        } finally {
            run.finish();
        }
        assertEquals(List.of(), RemoteSut.classPath(jar(tmp.resolve("plain.jar"), null)));
        IOException e = assertThrows(IOException.class, () -> RemoteSut.classPath(jar(tmp.resolve("up.jar"), "../x.jar")));
        assertEquals(tmp.resolve("up.jar") + ": Class-Path entry ../x.jar is not a file beside the jar: it cannot be copied to a host", e.getMessage());
    }

    @Test
    void theRowsJdkMustBeOnTheHostAtItsPath() throws Exception {
        RemoteSut.requireJava(new LocalHost(), Jdk.current());
        Jdk elsewhere = new Jdk(Path.of("/nonexistent/jdk-25"), 25, "25", "");
        IOException e = assertThrows(IOException.class, () -> RemoteSut.requireJava(new LocalHost(), elsewhere));
        assertEquals("local has no /nonexistent/jdk-25/bin/java: install JDK 25 there at /nonexistent/jdk-25 (copying a JDK to a host is not built yet)",
                e.getMessage());
    }
}
