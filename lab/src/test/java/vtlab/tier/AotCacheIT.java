package vtlab.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.proc.Env;
import vtlab.stack.Stack;
import vtlab.tier.tool.Jdk;

/**
 * The lab's own WebFlux jar (a Spring Boot jar, so extracted first) trained once into an AOT cache and started from
 * it: the JVM's class-loading log shows the service's classes come from the cache, not from the jar; the row's
 * sut_launch says so. A jar whose training start never answers leaves its rows on the jar as shipped, saying why, and
 * is not trained again. (Not named Test*: surefire would take it for a unit test.)
 */
class AotCacheIT {
    @TempDir
    Path tmp;

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void aSpringBootJarStartsFromItsTrainedCache() throws Exception {
        Jdk jdk = Jdk.current();
        org.junit.jupiter.api.Assumptions.assumeTrue(jdk.major() >= AotCache.MIN_JDK, "the lab runs on JDK " + jdk.major());
        Stack webflux = Stack.load("webflux");
        assertTrue(webflux.launch().aotCache(), "stack.json's launch.aotCache");
        assertTrue(AotCache.applies(webflux, jdk));
        Path classes = tmp.resolve("classes.log");
        try (SutProcess sut = SutProcess.start(webflux, jdk, List.of("-Xlog:class+load=info:file=" + classes), List.of(), Env.NONE,
                "1", freePort(), tmp.resolve("webflux.sut.log"))) {
            sut.awaitReady(Duration.ofSeconds(90));
            assertEquals("aot-cache", sut.launch(), Files.readString(tmp.resolve("webflux.sut.log")));
        }
        assertTrue(Files.isRegularFile(AotCache.dir(webflux, jdk, List.of()).resolve("app.aot")));
        List<String> own = Files.readAllLines(classes).stream().filter(l -> l.contains(" vtlab.sut.webflux.")).toList();
        assertFalse(own.isEmpty(), "the service's classes were loaded");
        assertTrue(own.stream().allMatch(l -> l.contains("source: shared objects file")), "every class of the service from the cache: " + own);
        // a row that records (the profile's JFR options) takes the same cache: no training of its own, its classes shared
        Path recorded = tmp.resolve("classes-jfr.log");
        List<String> jfr = List.of("-XX:StartFlightRecording=filename=" + tmp.resolve("x.jfr"), "-Xlog:class+load=info:file=" + recorded);
        assertEquals(AotCache.dir(webflux, jdk, List.of()), AotCache.dir(webflux, jdk, jfr), "one cache with JFR and without");
        try (SutProcess sut = SutProcess.start(webflux, jdk, jfr, List.of(), Env.NONE, "1", freePort(), tmp.resolve("webflux-jfr.sut.log"))) {
            sut.awaitReady(Duration.ofSeconds(90));
            String log = Files.readString(tmp.resolve("webflux-jfr.sut.log"));
            assertEquals("aot-cache", sut.launch(), log);
            assertEquals(null, AotCache.refusal(tmp.resolve("webflux-jfr.sut.log")), log);
        }
        assertFalse(Files.exists(tmp.resolve("webflux-jfr.sut.aot-training.log")), "not trained again for JFR");
        List<String> ownJfr = Files.readAllLines(recorded).stream().filter(l -> l.contains(" vtlab.sut.webflux.")).toList();
        assertFalse(ownJfr.isEmpty(), "the service's classes were loaded");
        assertTrue(ownJfr.stream().allMatch(l -> l.contains("source: shared objects file")), "with JFR too, every class of the service from the cache: " + ownJfr);
    }

    @Test
    void aJarWhoseTrainingNeverAnswersRunsAsShippedAndSaysWhy() throws Exception {
        Jdk jdk = Jdk.current();
        org.junit.jupiter.api.Assumptions.assumeTrue(jdk.major() >= AotCache.MIN_JDK, "the lab runs on JDK " + jdk.major());
        Path jar = Files.list(vtlab.core.LabHome.get().resolve("stacks/pin-control/target")).filter(p -> p.toString().endsWith(".jar")).findFirst().orElseThrow();
        Stack s = Stack.load("servlet").withJar(jar);
        Stack noMain = new Stack("aot-no-main", "a jar without Main-Class", s.dir(), jar, s.runtimeInfoPath(), s.settings(), s.tiers(), s.expect(),
                s.workloads(), s.data(), s.launch().withAotCache(true));
        AotCache.Use first = AotCache.forStart(noMain, jdk, List.of(), List.of(), Env.NONE, "1", freePort(), tmp.resolve("a.sut.log"));
        assertEquals(List.of("-jar", jar.toString()), first.javaArgs());
        assertTrue(first.launch().startsWith("jar (no AOT cache: the training start did not answer"), first.launch());
        AotCache.Use again = AotCache.forStart(noMain, jdk, List.of(), List.of(), Env.NONE, "1", freePort(), tmp.resolve("b.sut.log"));
        assertEquals(first, again);
        assertFalse(Files.exists(tmp.resolve("b.sut.aot-training.log")), "not trained again in this run");
    }
}
