package vtlab.tier.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.proc.Commands;
import vtlab.tier.tool.Jdk;

/**
 * A jar on a host of its own (the SUT, the stub: {@link RemoteJava}): its command there, the jar's libraries with it,
 * and the JDK it needs there ({@link HostJdk}). What the SUT there is told: RemoteSutTest.
 */
class RemoteJavaTest {
    @Test
    void theJvmRunsPinnedOnTheHostsCpusWithTheStagedJar() {
        Jdk jdk = new Jdk(Path.of("/usr/lib/jvm/jdk-25"), 25, "25", "");
        assertEquals(List.of("taskset", "-c", "0", "/usr/lib/jvm/jdk-25/bin/java", "-Xmx1g", "-jar", "/tmp/vtlab-1/servlet-vtlab-servlet.jar", "--x"),
                RemoteJava.command(jdk, List.of("-Xmx1g"), "/tmp/vtlab-1/servlet-vtlab-servlet.jar", List.of("--x"), "0"));
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
        assertEquals(List.of("lib/a.jar", "lib/b.jar"), RemoteJava.classPath(app));
        HostRun run = new HostRun(Topology.allLocal());
        try {
            String there = RemoteJava.stageJar(run, new LocalHost(), app, "servlet");
            assertEquals(run.dir() + "/servlet/app.jar", there);
            assertEquals("b", java.nio.file.Files.readString(Path.of(run.dir(), "servlet/lib/b.jar")));
        } finally {
            run.finish();
        }
        assertEquals(List.of(), RemoteJava.classPath(jar(tmp.resolve("plain.jar"), null)));
        IOException e = assertThrows(IOException.class, () -> RemoteJava.classPath(jar(tmp.resolve("up.jar"), "../x.jar")));
        assertEquals(tmp.resolve("up.jar") + ": Class-Path entry ../x.jar is not a file beside the jar: it cannot be copied to a host", e.getMessage());
    }

    @Test
    void theRowsJdkMustBeOnTheHostAtItsPathUnlessItIsCopied() throws Exception {
        HostJdk.check(new LocalHost(), Jdk.current(), false, "sut");
        Jdk elsewhere = new Jdk(Path.of("/nonexistent/jdk-25"), 25, "25", "");
        IOException e = assertThrows(IOException.class, () -> HostJdk.check(new LocalHost(), elsewhere, false, "sut"));
        assertEquals("local (sut) has no /nonexistent/jdk-25/bin/java: install JDK 25 there at /nonexistent/jdk-25, or add jdk = \"copy\""
                + " to the sut entry to copy this machine's there", e.getMessage());
    }

    /** A fake JDK: bin/java answers -version (or fails), its release names the machine it is built for, a file links inside. */
    Path fakeJdk(String name, String arch, boolean runs) throws IOException {
        Path home = java.nio.file.Files.createDirectories(tmp.resolve(name).resolve("bin"));
        java.nio.file.Files.createDirectories(tmp.resolve(name).resolve("legal"));
        Path bin = java.nio.file.Files.writeString(home.resolve("java"), runs ? "#!/bin/sh\necho 'openjdk version \"25\"' >&2\n" : "#!/bin/sh\nexit 3\n");
        java.nio.file.Files.setPosixFilePermissions(bin, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        java.nio.file.Files.writeString(tmp.resolve(name).resolve("release"), "JAVA_VERSION=\"25\"\nOS_ARCH=\"" + arch + "\"\n");
        java.nio.file.Files.writeString(tmp.resolve(name).resolve("legal/LICENSE"), "license");
        java.nio.file.Files.createSymbolicLink(tmp.resolve(name).resolve("LICENSE"), Path.of("legal/LICENSE"));
        return tmp.resolve(name);
    }

    static String machine() throws Exception {
        return Commands.run(List.of("uname", "-m"), java.time.Duration.ofSeconds(5)).strip();
    }

    /**
     * jdk = "copy": the JDK's folder copied into the work folder (links as their files), run from there, once per run and
     * host however often asked; one built for another machine refused before anything is copied; one that does not
     * start there said so.
     */
    @Test
    void aJdkCopiedToTheHostRunsFromTheWorkFolderCopiedOncePerRun() throws Exception {
        Jdk jdk = new Jdk(fakeJdk("jdk-25", machine().equals("x86_64") ? "amd64" : machine(), true), 25, "25", "");
        HostJdk.check(new LocalHost(), jdk, true, "sut");
        HostRun run = new HostRun(Topology.allLocal());
        try {
            Jdk there = HostJdk.on(run, new LocalHost(), jdk, true);
            assertEquals(Path.of(run.dir()), there.home().getParent().getParent(), "in the work folder's jdks/: " + there.home());
            assertTrue(there.home().getFileName().toString().startsWith("jdk-25-"), there.home().toString());
            assertEquals(List.of("taskset", "-c", "0", there.home() + "/bin/java", "-jar", "app.jar"),
                    RemoteJava.command(there, List.of(), "app.jar", List.of(), "0"));
            assertEquals("license", java.nio.file.Files.readString(there.home().resolve("LICENSE")));
            assertFalse(java.nio.file.Files.isSymbolicLink(there.home().resolve("LICENSE")), "a link arrives as its file");
            java.nio.file.Files.writeString(jdk.home().resolve("added"), "after the copy");
            assertEquals(there, HostJdk.on(run, new LocalHost(), jdk, true));
            assertFalse(java.nio.file.Files.exists(there.home().resolve("added")), "copied once per run: the second ask copies nothing");

            Jdk broken = new Jdk(fakeJdk("broken", machine(), false), 25, "25", "");
            IOException e = assertThrows(IOException.class, () -> HostJdk.on(run, new LocalHost(), broken, true));
            assertTrue(e.getMessage().startsWith("local: the JDK copied to " + run.dir() + "/jdks/broken-") && e.getMessage().contains("does not start there (3)"),
                    e.getMessage());
        } finally {
            run.finish();
        }
        assertFalse(java.nio.file.Files.exists(Path.of(run.dir())), "the copy goes with the work folder");
        String other = machine().equals("aarch64") ? "x86_64" : "aarch64";
        Jdk foreign = new Jdk(fakeJdk("foreign", other, true), 25, "25", "");
        IOException e = assertThrows(IOException.class, () -> HostJdk.check(new LocalHost(), foreign, true, "stub"));
        assertEquals("JDK " + foreign.home() + " is built for " + other + ", local (stub) is " + machine() + ": a copy cannot run there;"
                + " install a JDK 25 for " + machine() + " there at " + foreign.home() + " instead", e.getMessage());
    }
}
