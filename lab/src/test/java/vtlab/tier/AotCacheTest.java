package vtlab.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

import vtlab.stack.Request;
import vtlab.stack.Stack;

/** What keys a cache, and a refusal read from the JVM's own words (a real JDK 25 log). */
class AotCacheTest {
    @TempDir
    Path tmp;

    @Test
    void optionsThatChangeTheModuleGraphKeyTheCacheAndSizesDoNot() {
        assertEquals(AotCache.shape(List.of("-XX:FlightRecorderOptions:stackdepth=512")),
                AotCache.shape(List.of("-Xms2g", "-Xmx2g", "-XX:FlightRecorderOptions:stackdepth=512", "-Djdk.virtualThreadScheduler.parallelism=2", "-Xlog:gc")));
        assertEquals("", AotCache.shape(List.of("-Xmx256m", "-Xss512k")));
        // measured on JDK 25: every cached start and its training add jdk.jfr to the graph (AotCache.JFR_MODULE), so a
        // JFR option, which adds jdk.jfr, is no graph of its own; NMT, C1 only or another GC never were
        assertEquals("", AotCache.shape(List.of("-XX:FlightRecorderOptions:stackdepth=512", "-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints")));
        assertEquals("", AotCache.shape(List.of("-XX:StartFlightRecording=filename=x.jfr", "-XX:NativeMemoryTracking=summary",
                "-XX:TieredStopAtLevel=1", "-XX:+UseParallelGC")), "JFR or not: one graph, jdk.jfr in it either way");
        assertNotEquals(AotCache.shape(List.of()), AotCache.shape(List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED")));
        assertNotEquals(AotCache.shape(List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED")), AotCache.shape(List.of("--add-opens", "java.base/java.io=ALL-UNNAMED")));
        assertEquals(AotCache.shape(List.of("--add-opens=java.base/java.lang=ALL-UNNAMED")), "--add-opens=java.base/java.lang=ALL-UNNAMED");
        assertNotEquals("", AotCache.shape(List.of("-Djdk.module.addmods=jdk.jfr")), "a system property of the module graph is the graph");
    }

    /** A cache folder as a training leaves it: source.txt with the jar and its build. */
    private static Path cache(Path aot, String name, String jar, String build) throws Exception {
        Path d = Files.createDirectories(aot.resolve(name));
        Files.writeString(d.resolve(AotCache.SOURCE), jar + "\n" + build + "\n");
        Files.write(d.resolve("app.aot"), new byte[4096]);
        return d;
    }

    @Test
    void aNewBuildsTrainingRemovesTheCachesOfThatJarsEarlierBuildsOnly() throws Exception {
        Path jar = Files.writeString(tmp.resolve("app.jar"), "build 2");
        Path other = Files.writeString(Files.createDirectories(tmp.resolve("elsewhere")).resolve("app.jar"), "another app of the same name");
        String self = "jar=" + jar.toAbsolutePath(), now = "build=" + AotCache.build(jar);
        Path aot = Files.createDirectories(tmp.resolve("aot"));
        Path older = cache(aot, "app-jdk25-0a1b", self, "build=1|1");
        Path beforeSource = Files.createDirectories(aot.resolve("app-jdk25-0a1e")); // a lab before source.txt: its keys are never taken
        Path otherOptions = cache(aot, "app-jdk25-0a1c", self, now); // this build with other module options
        Path elsewhere = cache(aot, "app-jdk25-0a1d", "jar=" + other.toAbsolutePath(), "build=1|1");
        Path otherJdk = cache(aot, "app-jdk21-0a1f", self, "build=1|1");
        Path otherName = cache(aot, "app-tools-jdk25-0a20", "jar=" + tmp.resolve("app-tools.jar"), "build=1|1");
        Path running = cache(aot, "app-jdk25-0a21", self, "build=1|1"); // an earlier build a JVM still runs from
        Path dir = aot.resolve("app-jdk25-0b00");
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(running.resolve("app.aot"), java.nio.file.StandardOpenOption.READ)) {
            java.nio.MappedByteBuffer mapped = ch.map(java.nio.channels.FileChannel.MapMode.READ_ONLY, 0, 4096);
            assertEquals(0, mapped.get(0));
            assertEquals(java.util.Set.of(older, beforeSource), java.util.Set.copyOf(AotCache.prune(dir, jar)));
            for (Path kept : List.of(otherOptions, elsewhere, otherJdk, otherName, running)) assertTrue(Files.isDirectory(kept), kept + " kept");
            assertEquals(List.of(self, now), Files.readAllLines(dir.resolve(AotCache.SOURCE)), "what the new folder is for");
            assertEquals(List.of(), AotCache.prune(dir, jar), "nothing left to remove for this build");
            // held to here: a buffer the collector frees unmaps its file, and the earlier build's cache then goes (the
            // last prune removed it once, the buffer collected after the try)
            java.lang.ref.Reference.reachabilityFence(mapped);
        }
    }

    /** A training on every CPU the lab may use, told the row's count; on the row's own where that is not more. */
    @Test
    void aTrainingRunsOnEveryCpuToldTheRowsProcessorCount() {
        String all = vtlab.proc.LabAffinity.originalCpuList();
        org.junit.jupiter.api.Assumptions.assumeTrue(vtlab.proc.CoreMap.parse(all, vtlab.proc.LabAffinity.machineCpus()).length >= 2,
                "one CPU here (" + all + "): nothing more to train on");
        String first = Integer.toString(vtlab.proc.CoreMap.parse(all, vtlab.proc.LabAffinity.machineCpus())[0]);
        List<String> training = new java.util.ArrayList<>(List.of("-XX:AOTCacheOutput=x"));
        assertEquals(all, AotCache.trainingCpus(first, List.of("-Xmx256m"), training));
        assertEquals(List.of("-XX:AOTCacheOutput=x", "-XX:ActiveProcessorCount=1"), training);
        // the service's own count is the one the row starts with: trained on the row's CPUs, nothing added
        List<String> own = new java.util.ArrayList<>(List.of("-XX:ActiveProcessorCount=4"));
        assertEquals(first, AotCache.trainingCpus(first, List.of("-XX:ActiveProcessorCount=4"), own));
        assertEquals(List.of("-XX:ActiveProcessorCount=4"), own);
        // a row on every CPU already, or on a list the lab cannot read: where the row runs
        List<String> none = new java.util.ArrayList<>();
        assertEquals(all, AotCache.trainingCpus(all, List.of(), none));
        assertEquals("x", AotCache.trainingCpus("x", List.of(), none));
        assertEquals(List.of(), none);
    }

    @Test
    void aForeignJarIsTrainedOnItsOwnReadsAndTheLabsOnItsRuntimeInfo() throws Exception {
        Stack own = Stack.load("servlet");
        assertEquals(new AotCache.Training(List.of(own.runtimeInfoPath()), AotCache.TRAINING_LOAD, AotCache.OWN_TRAINING_REQUESTS), AotCache.training(own));
        Map<String, Stack.Workload> workloads = new LinkedHashMap<>();
        for (var w : List.of(read("/owners?lastName="), read("/api/{id}"), read("/vets"), read("/owners?lastName="))) workloads.put(w.name() + workloads.size(), w);
        workloads.put("post", new Stack.Workload("post", "/owners", 2, "", null, Request.of("POST"), null, List.of()));
        Stack foreign = new Stack("app", "a jar", own.dir(), own.jar(), null, own.settings(), List.of(), Map.of(), workloads, own.data(), own.launch());
        AotCache.Training t = AotCache.training(foreign);
        assertEquals(List.of("/owners?lastName=", "/vets"), t.paths(), "literal GETs once each; a placeholder's and a write's are the A/B's");
        assertEquals(Long.MAX_VALUE, t.requests(), "a foreign jar is trained for a time, not a count");

        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        server.createContext("/", x -> {
            seen.computeIfAbsent(x.getRequestURI().toString(), k -> new AtomicInteger()).incrementAndGet();
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        server.start();
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            long answered = AotCache.exercise(base, new AotCache.Training(t.paths(), Duration.ofSeconds(30), 40));
            assertEquals(40, answered, "the count ends a training before its time");
            assertEquals(Set.of("/owners?lastName=", "/vets"), seen.keySet());
            assertEquals(40, seen.values().stream().mapToInt(AtomicInteger::get).sum());
        } finally {
            server.stop(0);
        }
    }

    private static Stack.Workload read(String path) {
        return new Stack.Workload(path, path, 2, "", null, Request.of("GET"), null, List.of());
    }

    @Test
    void aCommandIsStartedByItsCommandNotByTheLabsJavaArguments() throws Exception {
        vtlab.stack.Stack s = vtlab.stack.Stack.load("servlet");
        vtlab.stack.Stack cmd = new vtlab.stack.Stack("cmd", "a command", s.dir(), null, null, s.settings(), s.tiers(), s.expect(), s.workloads(),
                s.data(), new vtlab.stack.Stack.Launch("java -jar x.jar", List.of(), java.time.Duration.ofSeconds(5)));
        AotCache.Use use = AotCache.forStart(cmd, vtlab.tier.tool.Jdk.current(), List.of(), List.of(), vtlab.proc.Env.NONE, "0", 1, tmp.resolve("c.sut.log"));
        assertEquals(new AotCache.Use(List.of(), "command"), use);
    }

    /**
     * A cache folder that cannot be written (here a file where .vtlab/aot should be: root passes every permission check)
     * is said in one line and the fork starts from the jar; nothing is trained, nothing is lost.
     */
    @Test
    void aCacheFolderThatCannotBeWrittenStartsTheJarAsShippedAndSaysWhy() throws Exception {
        assertNull(AotCache.unwritable(tmp.resolve("fine").resolve("x")));
        Files.writeString(tmp.resolve("blocked"), "a file, not a folder");
        String why = AotCache.unwritable(tmp.resolve("blocked").resolve("servlet-jdk25-1"));
        assertTrue(why != null && why.matches("the AOT cache folder .*/blocked/servlet-jdk25-1 cannot be written: (Not a directory|a file is in its way.*)"), why);

        Stack cached = Stack.load("spring-mvc"); // a stack started from a cache; loaded before the home moves: the stacks are the checkout's
        Path home = Files.createDirectories(tmp.resolve("home").resolve(".vtlab"));
        Files.writeString(home.resolve("aot"), "a file where the caches go");
        String before = System.getProperty("vtlab.home");
        System.setProperty("vtlab.home", home.getParent().toString());
        try {
            AotCache.Use use = AotCache.forStart(cached, vtlab.tier.tool.Jdk.current(), List.of(), List.of(), vtlab.proc.Env.NONE, "0", 1,
                    tmp.resolve("s.sut.log"));
            assertEquals(List.of("-jar", cached.jar().toString()), use.javaArgs());
            assertTrue(use.launch().startsWith("jar (no AOT cache: the AOT cache folder ") && use.launch().contains("cannot be written"), use.launch());
            assertFalse(Files.exists(tmp.resolve("s.sut.log")), "no training started");
        } finally {
            if (before == null) System.clearProperty("vtlab.home");
            else System.setProperty("vtlab.home", before);
        }
    }

    @Test
    void aCacheTheJvmRefusedIsReadFromItsLog() throws Exception {
        Path log = Files.writeString(tmp.resolve("sut.log"), """
                # taskset -c 0 java -XX:AOTCache=/x/app.aot -jar /x/app/app.jar
                [0.113s][error][aot] An error has occurred while processing the AOT cache. Run with -Xlog:aot for details.
                [0.113s][error][aot] Mismatched values for property jdk.module.addmods: jdk.jfr specified during runtime but not during dump time
                [0.116s][error][aot] Unable to map shared spaces
                """);
        assertEquals("Mismatched values for property jdk.module.addmods: jdk.jfr specified during runtime but not during dump time", AotCache.refusal(log));
        assertNull(AotCache.refusal(Files.writeString(tmp.resolve("ok.log"), "# java -XX:AOTCache=/x/app.aot\nStarted in 2.1 s\n")));
    }
}
