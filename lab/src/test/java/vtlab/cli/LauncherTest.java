package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's staleness rule (./vtlab: stale, build, test), run as a user runs it: the real script in a copy of
 * the project whose Maven wrapper only records what it was asked to do.
 */
class LauncherTest {
    @TempDir
    Path home;
    Path source;
    int lastExit;

    @BeforeEach
    void project() throws IOException {
        Path script = Path.of(System.getProperty("vtlab.home", "..")).resolve("vtlab");
        Files.copy(script, home.resolve("vtlab"));
        // records each call; exits $FAKE_RC; "saves" $FAKE_TOUCH while it builds, as an editor would
        Files.writeString(home.resolve("mvnw"), """
                #!/bin/sh
                echo "$*" >> "$VTLAB_HOME/mvnw.log"
                [ -n "$FAKE_TOUCH" ] && sleep 0.05 && touch "$FAKE_TOUCH"
                echo "[INFO] BUILD SUCCESS"
                exit "${FAKE_RC:-0}"
                """);
        for (String f : List.of("vtlab", "mvnw")) {
            Files.setPosixFilePermissions(home.resolve(f), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.writeString(home.resolve("pom.xml"), "<project/>");
        source = home.resolve("lab/src/main/java/vtlab/A.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "class A {}");
        for (Path p : List.of(source, home.resolve("pom.xml"))) Files.setLastModifiedTime(p, FileTime.from(Instant.now().minusSeconds(3600)));
    }

    /** Runs ./vtlab with these words; returns the Maven calls it made (the lab's CLI itself is not built here and fails). */
    List<String> vtlab(Map<String, String> env, String... words) throws Exception {
        Path log = home.resolve("mvnw.log");
        Files.deleteIfExists(log);
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", home.resolve("vtlab").toString()));
        cmd.addAll(List.of(words));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(home.resolve("out.log").toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("VTLAB_NO_BUILD");
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "launcher did not finish");
        lastExit = p.exitValue();
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /** The source saved just after the last build (newer than its stamp, older than any later one). */
    void saveSource() throws IOException {
        Path stamp = home.resolve("lab/target/.vtlab-built");
        Files.setLastModifiedTime(source, FileTime.fromMillis(Files.getLastModifiedTime(stamp).toMillis() + 10));
    }

    static boolean built(List<String> calls) {
        return calls.stream().anyMatch(c -> c.contains(" package"));
    }

    @Test
    void aGreenTestSuiteLeavesTheBuildFresh() throws Exception {
        List<String> test = vtlab(Map.of(), "test");
        assertTrue(test.stream().anyMatch(c -> c.contains(" verify")), test.toString());
        assertEquals(List.of(), vtlab(Map.of(), "list"), "the run after ./vtlab test built everything again");
        // a source saved since: the next run builds
        saveSource();
        assertTrue(built(vtlab(Map.of(), "list")));
        assertEquals(List.of(), vtlab(Map.of(), "list"), "built once, fresh after");
    }

    @Test
    void aFailedOrPartialTestSuiteLeavesItStale() throws Exception {
        vtlab(Map.of("FAKE_RC", "1"), "test");
        assertTrue(built(vtlab(Map.of(), "list")), "a red suite proves no build");
        // stale: ./vtlab test builds the whole lab first (its setup runs from it), so -pl lab then changes nothing
        saveSource();
        List<String> partial = vtlab(Map.of(), "test", "-pl", "lab");
        assertTrue(built(partial) && partial.getLast().contains("verify -pl lab"), partial.toString());
        assertEquals(List.of(), vtlab(Map.of(), "list"));
        // a red partial suite on a fresh build leaves it as it was
        vtlab(Map.of("FAKE_RC", "1"), "test", "-pl", "lab");
        assertEquals(List.of(), vtlab(Map.of(), "list"), "-pl lab failing proves nothing about the build it did not make");
    }

    @Test
    void aSourceSavedDuringTheBuildIsStillStale() throws Exception {
        assertTrue(built(vtlab(Map.of("FAKE_TOUCH", source.toString()), "build")));
        assertFalse(Files.exists(home.resolve("lab/target/.vtlab-built.new")));
        assertTrue(built(vtlab(Map.of(), "list")), "the edit made while Maven ran was taken as built");
    }

    /**
     * A build never replaces the jars under a running lab (nor takes its CPUs mid-measurement): while a run holds the
     * lock, ./vtlab build and ./vtlab test refuse in one line (exit 2), and a run whose sources changed uses the build
     * as it is; once the run has ended, they build.
     */
    @Test
    void noBuildWhileAnotherVtlabRunsFromIt() throws Exception {
        Path lock = home.resolve(".vtlab/run.lock");
        Files.createDirectories(lock.getParent());
        // a running lab: holds the lock shared, as the launcher's exec'd JVM does
        Process run = new ProcessBuilder("flock", "-s", "-o", lock.toString(), "sleep", "30").start();
        try {
            Thread.sleep(300);
            assertEquals(List.of(), vtlab(Map.of(), "build"));
            assertEquals(2, lastExit);
            assertTrue(Files.readString(home.resolve("out.log")).contains("another vtlab is running from this build"));
            assertEquals(List.of(), vtlab(Map.of(), "test"));
            assertEquals(2, lastExit);
            assertEquals(List.of(), vtlab(Map.of(), "list"), "a stale run next to a running one does not build");
            assertTrue(Files.readString(home.resolve("out.log")).contains("using the build as it is"));
        } finally {
            run.descendants().forEach(ProcessHandle::destroy);
            run.destroy();
            run.waitFor();
        }
        assertTrue(built(vtlab(Map.of(), "build")));
        assertEquals(0, lastExit);
    }

    /**
     * Tools before the end-to-end tests' clock: ./vtlab test builds the lab if it is stale, runs its setup (every tool
     * installed) beside the unit tests (Maven's verify without the end-to-end tests), then the end-to-end tests once
     * setup is done, then the closing lines from the reports. A JDK whose java records its calls shows the order.
     */
    @Test
    void testRunsSetupBeforeMavenAndTheClosingLinesAfter() throws Exception {
        Path jdk = home.resolve("fake-jdk");
        Files.createDirectories(jdk.resolve("bin"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
        for (String b : List.of("java", "javac")) {
            Files.writeString(jdk.resolve("bin/" + b), "#!/bin/sh\necho \"java $*\" >> \"$VTLAB_HOME/mvnw.log\"\n");
            Files.setPosixFilePermissions(jdk.resolve("bin/" + b), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        List<String> calls = vtlab(Map.of("JAVA_HOME", jdk.toString()), "test");
        assertEquals(0, lastExit, Files.readString(home.resolve("out.log")));
        // setup runs beside the unit tests and the end-to-end tests (when it starts among them is the scheduler's): one
        // Maven run of every end-to-end class, those that need oha last (failsafe's orderer), then the closing lines
        int build = indexOf(calls, " package"), setup = indexOf(calls, "vtlab.cli.Main setup"), units = indexOf(calls, " verify -DskipITs"),
                e2e = indexOf(calls, " verify -Dtest=NONE"), report = indexOf(calls, "vtlab.cli.SuiteReport");
        assertTrue(build >= 0 && build < setup && build < units && units < e2e && e2e < report, calls.toString());
        assertEquals(1, calls.stream().filter(c -> c.contains(" verify -Dtest=NONE")).count(), "one end-to-end run: " + calls);
        assertFalse(calls.get(e2e).contains("groups=oha"), "no split by tag: " + calls.get(e2e));
        // fresh now: the next suite goes straight to setup (seconds when all is there) and Maven
        List<String> again = vtlab(Map.of("JAVA_HOME", jdk.toString()), "test");
        assertEquals(-1, indexOf(again, " package"), again.toString());
        assertTrue(indexOf(again, "vtlab.cli.Main setup") >= 0 && indexOf(again, " verify -Dtest=NONE") >= 0, again.toString());
    }

    /** A JDK whose java and javac only record their calls, so the launcher's order shows. */
    Path fakeJdk() throws IOException {
        Path jdk = home.resolve("fake-jdk");
        Files.createDirectories(jdk.resolve("bin"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
        for (String b : List.of("java", "javac")) {
            Files.writeString(jdk.resolve("bin/" + b), "#!/bin/sh\necho \"java $*\" >> \"$VTLAB_HOME/mvnw.log\"\n");
            Files.setPosixFilePermissions(jdk.resolve("bin/" + b), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return jdk;
    }

    /**
     * The flake finder: the lab built once (no unit test), setup, then failsafe N times on the classes asked for with
     * no unit test run, each run's reports kept, then the table; its exit code is the command's.
     */
    @Test
    void testRepeatBuildsOnceThenRunsTheEndToEndTestsNTimesThenTheTable() throws Exception {
        Path it = Files.createDirectories(home.resolve("lab/src/test/java/vtlab/it"));
        Files.writeString(it.resolve("FooIT.java"), "class FooIT { @Test void holds() {} }");
        Files.writeString(it.resolve("BarIT.java"), "class BarIT { @Test\n  void recovers() {} }");
        Files.writeString(it.resolve("Lab.java"), "class Lab {}");
        Map<String, String> jdk = Map.of("JAVA_HOME", fakeJdk().toString());
        List<String> calls = vtlab(jdk, "test", "--repeat", "3", "--only", "FooIT,BarIT#recovers");
        assertEquals(0, lastExit, Files.readString(home.resolve("out.log")));
        int build = indexOf(calls, " package"), setup = indexOf(calls, "vtlab.cli.Main setup"), table = indexOf(calls, "vtlab.cli.FlakeReport");
        List<String> verify = calls.stream().filter(c -> c.contains(" verify")).toList();
        assertEquals(3, verify.size(), calls.toString());
        for (String v : verify) {
            assertTrue(v.contains("-pl lab -am verify -Dtest=NONE ") && v.endsWith(" -Dit.test=FooIT,BarIT#recovers"), v);
        }
        assertTrue(build >= 0 && build < setup && setup < calls.indexOf(verify.getFirst()) && calls.indexOf(verify.getLast()) < table, calls.toString());
        assertTrue(calls.get(table).endsWith("vtlab.cli.FlakeReport " + home.resolve("lab/target/flake") + " 3 FooIT BarIT#recovers"), calls.get(table));
        for (int i = 1; i <= 3; i++) {
            assertEquals("0", Files.readString(home.resolve("lab/target/flake/" + i + "/exit")).strip(), "run " + i + "'s Maven exit code kept");
            assertTrue(Files.exists(home.resolve("lab/target/flake/" + i + "/maven.log")));
        }
        assertEquals(-1, indexOf(calls, "vtlab.cli.SuiteReport"), "the table, not the suite's closing lines");
        // without --only: every end-to-end test class, no filter
        calls = vtlab(jdk, "test", "--repeat", "1");
        assertEquals(-1, indexOf(calls, "-Dit.test"), calls.toString());
        assertTrue(calls.getLast().endsWith(" 1 BarIT FooIT"), calls.toString());
        // the table's exit code is the command's
        Files.writeString(home.resolve("fake-jdk/bin/java"), "#!/bin/sh\ncase \"$*\" in *FlakeReport*) exit 1;; esac\n");
        vtlab(jdk, "test", "--only", "FooIT");
        assertEquals(1, lastExit);
    }

    /** Bad input to the flake finder: one line, exit 2, before anything starts (no build, no Maven). */
    @Test
    void testRepeatRefusesBadInputInOneLine() throws Exception {
        Path it = Files.createDirectories(home.resolve("lab/src/test/java/vtlab/it"));
        Files.writeString(it.resolve("FooIT.java"), "class FooIT { @Test void holds() {} }");
        Map<String, String> jdk = Map.of("JAVA_HOME", fakeJdk().toString());
        Map<List<String>, String> refused = Map.of(
                List.of("--repeat", "0"), "vtlab: --repeat takes a positive whole number (at most 9999), not '0'",
                List.of("--repeat", "two"), "vtlab: --repeat takes a positive whole number (at most 9999), not 'two'",
                List.of("--repeat", "2", "--only", "NoSuchIT"), "vtlab: --only: no end-to-end test class 'NoSuchIT' (lab/src/test/java/vtlab/it has: FooIT)",
                List.of("--repeat", "2", "--only", "FooIT#nope"), "vtlab: --only: FooIT has no test method 'nope'",
                List.of("--repeat", "2", "--only"), "vtlab: --only takes end-to-end test classes, e.g. --only CoordinatedOmissionIT or --only ServletRunIT#methodName",
                List.of("--repeat", "2", "-pl", "lab"), "vtlab: test --repeat N [--only CLASS[#METHOD]...] takes no other option: '-pl'");
        for (var e : refused.entrySet()) {
            List<String> words = new java.util.ArrayList<>(List.of("test"));
            words.addAll(e.getKey());
            assertEquals(List.of(), vtlab(jdk, words.toArray(String[]::new)), "nothing started: " + e.getKey());
            assertEquals(2, lastExit, e.getKey().toString());
            assertEquals(e.getValue(), Files.readString(home.resolve("out.log")).strip(), e.getKey().toString());
        }
    }

    private static int indexOf(List<String> calls, String part) {
        for (int i = 0; i < calls.size(); i++) if (calls.get(i).contains(part)) return i;
        return -1;
    }
}
