package vtlab.experiment.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.core.LabHome;
import vtlab.core.UsageError;
import vtlab.plan.Row;
import vtlab.plan.VerificationFailed;
import vtlab.run.Verifier;
import vtlab.stack.Stack;
import vtlab.tier.tool.Jdk;
import vtlab.tier.StackVariants;

class LibrariesExperimentTest {
    /** The findings' sentences over rows numbered as a matrix's. */
    static List<String> findingsOf(List<Map<String, String>> rows) {
        return new LibrariesExperiment().findings(rows);
    }

    @TempDir
    static Path tmp;

    /** A JDK 21 folder as Jdk reads it (release file, executable bin/java): no JDK 21 needs to be installed to plan. */
    static String fakeJdk21() throws Exception {
        Path home = tmp.resolve("jdk-21");
        if (!Files.exists(home)) {
            Files.createDirectories(home.resolve("bin"));
            Files.writeString(home.resolve("release"), "JAVA_VERSION=\"21.0.8\"\nIMPLEMENTOR=\"test\"\n");
            Files.writeString(home.resolve("bin/java"), "#!/bin/sh\nexit 1\n");
            Files.setPosixFilePermissions(home.resolve("bin/java"), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return home.toString();
    }

    /** Planned on a JDK 21 and the lab's JDK, as the default plan is (--jdk given: nothing is installed). */
    static List<Row> plan(String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of("--jdk", fakeJdk21(), "--jdk", Jdk.current().home().toString()));
        a.addAll(List.of(args));
        return SpringExperimentsTest.plan(new LibrariesExperiment(), a.toArray(String[]::new));
    }

    static String build(Row r) {
        return r.params().get(Row.BUILD_PARAM);
    }

    @Test
    void everyCombinationOnEveryJdkOnVirtualThreadsAndOnePlatformBaselinePerJdk() throws Exception {
        List<Row> rows = plan();
        int current = Jdk.current().major();
        assertEquals(2 * (3 * 2 + 1), rows.size(), rows.stream().map(Row::label).collect(Collectors.joining("\n")));
        for (int jdk : List.of(21, current)) {
            List<Row> j = rows.stream().filter(r -> r.jdk().major() == jdk).toList();
            assertEquals(List.of("pgjdbc:42.5.6+hikari:7.0.2", "pgjdbc:42.5.6+hikari:7.1.0", "pgjdbc:42.7.8+hikari:7.0.2",
                    "pgjdbc:42.7.8+hikari:7.1.0", "pgjdbc:42.7.14+hikari:7.0.2", "pgjdbc:42.7.14+hikari:7.1.0", "pgjdbc:42.7.13+hikari:7.0.2"),
                    j.stream().map(LibrariesExperimentTest::build).toList());
            assertEquals(List.of("virtual", "virtual", "virtual", "virtual", "virtual", "virtual", "platform"), j.stream().map(Row::threadMode).toList());
        }
        for (Row r : rows) {
            assertEquals("libraries", r.experiment());
            assertEquals("order-summary", r.workload());
            assertEquals(200, r.concurrency());
            assertEquals(10, r.hikariPool());
            assertEquals("10", r.sutEnv().get("HIKARI_MAX_POOL"));
            assertEquals(Duration.ofSeconds(10), r.warmup());
            assertEquals(Duration.ofSeconds(15), r.hold());
            assertEquals(1, r.rep());
            assertEquals(r.jdk().major(), r.expectInfo().get("jdk_major"));
            // the versions the row's build must have loaded: runtime-info reads them from the classes
            StackVariants.Variant v = StackVariants.Variant.parse("spring-mvc", build(r));
            assertEquals(v.versions().get("pgjdbc"), r.expectInfo().get("pgjdbc_version"));
            assertEquals(v.versions().get("hikari"), r.expectInfo().get("hikari_version"));
            assertEquals(List.of("pg", "stub"), r.tiers());
        }
    }

    @Test
    void eachCombinationRunsItsOwnJarAndTheStacksVersionsItsNormalOne() throws Exception {
        Stack stack = Stack.load("spring-mvc");
        List<Row> rows = plan();
        Map<String, Path> jars = new LinkedHashMap<>();
        for (Row r : rows) jars.put(build(r), StackVariants.forRow(stack, build(r)).jar());
        assertEquals(7, jars.size());
        assertEquals(stack.jar(), jars.get("pgjdbc:42.7.13+hikari:7.0.2"), "the pom's defaults: the jar ./vtlab build made");
        assertEquals(LabHome.get().resolve(".vtlab/jars/spring-mvc-pgjdbc42.7.8-hikari7.1.0.jar"), jars.get("pgjdbc:42.7.8+hikari:7.1.0"));
        assertEquals(7, Set.copyOf(jars.values()).size(), "one jar per combination");
        // rows of different builds are different scenarios (and different SUT configurations: the runner keys on the jar)
        assertEquals(rows.size(), rows.stream().map(Row::scenario).distinct().count());
    }

    @Test
    void modesRepsAndVersionsNarrowThePlan() throws Exception {
        assertEquals(2 * 2, plan("--modes", "virtual", "--pgjdbc", "42.7.8").size());
        List<Row> platform = plan("--modes", "platform", "--reps", "2");
        assertEquals(2 * 2, platform.size());
        assertTrue(platform.stream().allMatch(r -> build(r).equals("pgjdbc:42.7.13+hikari:7.0.2") && r.threadMode().equals("platform")));
        assertEquals(List.of(1, 2), platform.stream().filter(r -> r.jdk().major() == 21).map(Row::rep).toList());
        List<Row> q = plan("--quick");
        assertEquals(2 * (1 * 2 + 1), q.size(), "--quick: pgjdbc 42.7.8 only");
        assertEquals(Duration.ofSeconds(5), q.getFirst().hold());
        assertEquals(2, plan("--modes", "virtual", "--pgjdbc", "42.7.8,42.7.8", "--hikari", "7.1.0").size(), "a version given twice runs once");
    }

    @Test
    void versionsThatDoNotReadAsVersionsAreRefusedInOneLineBeforeAnythingStarts() throws Exception {
        for (String[] bad : List.of(new String[] {"--pgjdbc", "42.7.x"}, new String[] {"--hikari", "7.1.0;touch /tmp/x"},
                new String[] {"--pgjdbc", "latest"}, new String[] {"--hikari", "7"})) {
            UsageError e = assertThrows(UsageError.class, () -> plan(bad), String.join(" ", bad));
            assertTrue(e.getMessage().startsWith("--" + bad[0].substring(2) + " takes versions like 42.7.8"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"));
        }
        assertEquals("--conc takes one concurrency here: every combination runs under the same load",
                assertThrows(UsageError.class, () -> plan("--conc", "100,200")).getMessage());
        assertThrows(UsageError.class, () -> plan("--modes", "virtual-as-shipped"));
    }

    @Test
    void aRowWhoseSutLoadedOtherVersionsFailsVerificationSayingWhich() throws Exception {
        Row r = plan("--modes", "virtual", "--pgjdbc", "42.7.8", "--hikari", "7.1.0").getFirst();
        Map<String, Object> info = new LinkedHashMap<>(r.expectInfo());
        ObjectMapper json = new ObjectMapper();
        assertTrue(Verifier.mismatches(json.valueToTree(info), r.expectInfo()).isEmpty());
        info.put("pgjdbc_version", "42.7.13"); // e.g. the stack's own jar ran instead of the variant
        VerificationFailed f = assertThrows(VerificationFailed.class, () -> new Verifier().verifyConfig(json.writeValueAsString(info), r));
        assertEquals("SUT configuration differs from the row: pgjdbc_version=42.7.13 (expected 42.7.8)", f.getMessage());
    }

    @Test
    void itsRowsRunWithThePinningTheSwitchesTheCpuAndThePool() {
        assertEquals(List.of("rss", "cpu", "jfr-pinning", "ctxsw", "hikari"), new LibrariesExperiment().probes(List.of("rss")));
    }

    // ---- findings on hand-made rows

    static Map<String, String> row(int jdk, String mode, String pg, String hk, double rps, double cpuPct, long reqs, long invol, long vol,
                                   long pins, String topFrame, int pending) {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("experiment", "libraries");
        r.put("thread_mode", mode);
        r.put("jdk", Integer.toString(jdk));
        r.put("params", "orderId=random;delayMs=100;build=pgjdbc:" + pg + "+hikari:" + hk);
        r.put("scenario", "libraries " + mode + " pgjdbc:" + pg + "+hikari:" + hk + " jdk" + jdk);
        r.put("status", "ok");
        r.put("throughput_rps", Double.toString(rps));
        r.put("app_cpu_pct", Double.toString(cpuPct));
        r.put("http_reqs", Long.toString(reqs));
        r.put("ctxsw_invol", Long.toString(invol));
        r.put("ctxsw_vol", Long.toString(vol));
        r.put("pinned_events", mode.equals("virtual") ? Long.toString(pins) : "");
        r.put("pinned_top_frame", topFrame);
        r.put("hikari_pending_max", Integer.toString(pending));
        r.put("p99_ms", "120");
        return r;
    }

    static List<Map<String, String>> run() {
        List<Map<String, String>> rows = new ArrayList<>();
        for (int jdk : List.of(21, 25)) {
            boolean old = jdk == 21;
            rows.add(row(jdk, "virtual", "42.5.6", "7.0.2", 1900, 60, 28500, 9000, 60000, old ? 28500 : 0,
                    old ? "org.postgresql.core.v3.QueryExecutorImpl.execute:356 (28500)" : "", 12));
            rows.add(row(jdk, "virtual", "42.5.6", "7.1.0", 1900, 55, 28500, 2000, 60000, old ? 28000 : 0,
                    old ? "org.postgresql.core.v3.QueryExecutorImpl.execute:356 (28000)" : "", 12));
            rows.add(row(jdk, "virtual", "42.7.8", "7.0.2", 2000, 60, 30000, 9000, 60000, 0, "", 12));
            rows.add(row(jdk, "virtual", "42.7.8", "7.1.0", 2000, 55, 30000, 2000, 60000, 0, "", 12));
            rows.add(row(jdk, "platform", "42.7.13", "7.0.2", 1800, 50, 27000, 500, 50000, 0, "", 3));
        }
        return rows;
    }

    @Test
    void findingsSayPerDriverVersionAndJdkHowOftenItPinnedAndWhereAgainstTheTable() {
        List<String> f = findingsOf(run());
        String old = f.stream().filter(l -> l.startsWith("pgjdbc 42.5.6")).findFirst().orElseThrow();
        assertEquals("pgjdbc 42.5.6 (virtual): on JDK 21 pins 991 times per 1,000 requests (56,500 events in 57,000 requests), most in"
                + " org.postgresql.core.v3.QueryExecutorImpl.execute:356; on JDK 25 no pin in 57,000 requests; known pins: JDK 21 pinned as the"
                + " table says, JDK 25 did not pin, as the table says", old);
        String lru = f.stream().filter(l -> l.startsWith("pgjdbc 42.7.8")).findFirst().orElseThrow();
        assertTrue(lru.contains("on JDK 21 no pin in 60,000 requests"), lru);
        assertTrue(lru.endsWith("known pins: JDK 21 did not pin although the table says it does (not reproduced here), JDK 25 did not pin, as the table says"), lru);
    }

    @Test
    void findingsPriceHikarisSpinInCpuAndInvoluntarySwitchesPerRequest() {
        List<String> f = findingsOf(run());
        String spin = f.stream().filter(l -> l.startsWith("HikariCP 7.0.2 on JDK 25")).findFirst().orElseThrow();
        // 60% of a core at 1,900 and 2,000 req/s against 55%: 315.8 and 300 µs against 289.5 and 275
        assertTrue(spin.startsWith("HikariCP 7.0.2 on JDK 25 (virtual, pgjdbc 42.5.6, 42.7.8): 25.7 µs CPU per request more than 7.1.0"
                + " (308 vs 282 µs, +9 %); involuntary switches per request 0.308 vs 0.068"), spin);
        assertTrue(spin.contains("one rep per combination: no spread to judge it by"), spin);
        assertTrue(spin.endsWith("up to 12 requests waited for a pooled connection"), spin);
        String base = f.stream().filter(l -> l.startsWith("JDK 25, platform (baseline)")).findFirst().orElseThrow();
        assertTrue(base.startsWith("JDK 25, platform (baseline), pgjdbc 42.7.13, HikariCP 7.0.2: 1,800 req/s, 278 µs CPU per request,"
                + " 0.019 involuntary and 1.85 voluntary context switches per request"), base);
        assertFalse(base.contains("pins per"), "platform rows have no pinning count: " + base);
        assertTrue(f.stream().anyMatch(l -> l.startsWith("known (vtlab.check.KnownLibraries): com.zaxxer:HikariCP:7.0.2: AFFECTED")), f.toString());
        assertTrue(f.stream().anyMatch(l -> l.startsWith("known (vtlab.check.KnownLibraries): com.zaxxer:HikariCP:7.1.0: not affected")), f.toString());
        assertTrue(f.stream().anyMatch(l -> l.startsWith("known (vtlab.check.KnownLibraries): org.postgresql:postgresql:42.7.8: AFFECTED")), f.toString());
    }

    @Test
    void noWaiterMeansTheSpinHadNoOccasionAndRepsGiveANoiseVerdict() {
        List<Map<String, String>> rows = new ArrayList<>();
        for (int rep = 1; rep <= 2; rep++) {
            rows.add(row(25, "virtual", "42.7.14", "7.0.2", 2000, 50 + rep, 30000, 100, 60000, 0, "", 0));
            rows.add(row(25, "virtual", "42.7.14", "7.1.0", 2000, 50 + rep, 30000, 100, 60000, 0, "", 0));
        }
        String spin = findingsOf(rows).stream().filter(l -> l.startsWith("HikariCP")).findFirst().orElseThrow();
        assertTrue(spin.contains("(within the reps' spread of 5.0 µs: not shown here)"), spin);
        assertTrue(spin.contains("no request waited for a pooled connection (hikari_pending_max 0)"), spin);
    }

    @Test
    void rowsThatAreNotOkAreLeftOutAndSaidSo() {
        List<Map<String, String>> rows = run();
        rows.forEach(r -> r.put("status", "failed"));
        List<String> f = findingsOf(rows);
        assertEquals("no row finished with status ok: nothing to conclude", f.getFirst());
        assertTrue(f.get(1).startsWith("10 row(s) not used as evidence: failed 10"), f.toString());
    }
}
