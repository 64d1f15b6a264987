package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.RunKept;

class VerdictsTest {
    @TempDir
    Path dir;

    /**
     * Jetty's VirtualThreadPool mode is named virtual-pool: declared on virtual threads, it pairs with platform as
     * "virtual" does (a rule on the mode's name left it without a comparison).
     */
    @Test
    void aVirtualModeNamedOtherwisePairsByItsDeclaredThreads() throws Exception {
        RunFixture f = new RunFixture(dir);
        for (int rep = 1; rep <= 2; rep++) {
            jetty(f.row("jetty", "platform", 1000, null, rep, 1950, 520));
            jetty(f.row("jetty", "virtual-pool", 1000, null, rep, 1990, 505));
        }
        f.write();
        List<String> texts = new Verdicts(RunData.load(dir)).sweeps("jetty").stream().map(Verdicts.Verdict::text).toList();
        assertTrue(texts.stream().anyMatch(t -> t.contains("virtual-pool vs platform-200 at 1,000 connections")), texts.toString());
    }

    /** ab's variants carry their tuning after the mode, its service no stack.json: virtual read from the mode's name. */
    @Test
    void abVariantsPairAsTheirModesDo() throws Exception {
        RunFixture f = new RunFixture(dir);
        for (String mode : List.of("platform", "virtual")) {
            Map<String, Object> r = f.row("ab", mode, 1000, null, 1, 1900, 500);
            r.put("stack", "my-service");
            r.put("params", "tuning=as-shipped");
        }
        f.write();
        List<String> texts = new Verdicts(RunData.load(dir)).sweeps("ab").stream().map(Verdicts.Verdict::text).toList();
        assertTrue(texts.stream().anyMatch(t -> t.contains("virtual-as-shipped vs platform-as-shipped at 1,000 connections")), texts.toString());
    }

    /** webflux's virtual-netty is declared on its event loop: not a virtual mode, whatever its name says. */
    @Test
    void anEventLoopModeNamedVirtualDoesNotPair() throws Exception {
        RunFixture f = new RunFixture(dir);
        for (String mode : List.of("reactive", "virtual-netty")) {
            Map<String, Object> r = f.row("webflux", mode, 1000, null, 1, 1900, 500);
            r.put("stack", "webflux");
        }
        f.write();
        List<String> texts = new Verdicts(RunData.load(dir)).sweeps("webflux").stream().map(Verdicts.Verdict::text).toList();
        assertEquals(1, texts.size(), texts.toString());
        assertTrue(texts.getFirst().startsWith("webflux (") && !texts.getFirst().contains(" vs "), texts.toString());
    }

    private static void jetty(Map<String, Object> r) {
        r.put("stack", "jetty");
        r.put("params", "sleepMs=100;maxThreads=200");
    }

    @Test
    void sweepVerdictQuotesTheNumbersOfOkRowsAtTheHighestConcurrency() throws Exception {
        RunFixture.heroSweep(dir).write();
        RunData data = RunData.load(dir);
        List<Verdicts.Verdict> all = new Verdicts(data).all();
        Verdicts.Verdict pair = all.stream().filter(v -> v.text().contains("virtual vs platform-200")).findFirst().orElseThrow();
        // virtual 20,001 (rep 2 flagged, left out) vs platform mean 1,961.5 -> 10.2x
        assertTrue(pair.text().contains("at 2,500 connections: 10.2× throughput (20,001 vs 1,962 req/s)"), pair.text());
        assertTrue(pair.text().contains("platform-200 held at 98% of its 200-thread bound (2,000 req/s)"), pair.text());
        Set<String> okAnchors = data.rows().stream().filter(vtlab.data.DataRow::ok).map(data::anchor).collect(Collectors.toSet());
        for (Verdicts.Verdict v : all) {
            if (v.source().equals("measured")) assertTrue(okAnchors.containsAll(v.evidence()), v.text() + " cites " + v.evidence());
        }
        Verdicts.Verdict validity = all.stream().filter(v -> v.source().equals("validity")).findFirst().orElseThrow();
        assertEquals("2 of 17 rows are not evidence and no verdict above uses them: 1 flagged (generator-bound ×1), 1 failed", validity.text());
        assertEquals(List.of("row-16", "row-17"), validity.evidence());
    }

    /**
     * A finding links the rows it carries as data, never numbers read back from its words: "(row 1, 97% app CPU)"
     * names row 1 only, where reading the sentence linked rows 1 and 97.
     */
    @Test
    void aFindingLinksTheRowsItCarriesNotTheNumbersInItsWords() throws Exception {
        RunFixture.heroSweep(dir).write();
        String text = "bottleneck: the SUT's CPU was full for virtual (row 1, 97% app CPU): more threads cannot help there";
        new vtlab.data.Findings(List.of(new vtlab.data.Findings.Entry("servlet", "s", List.of(new vtlab.data.Finding(text, List.of(1)),
                vtlab.data.Finding.of("2 rows, 3 reps, throw 5")), null, null)), List.of()).write(dir);
        List<Verdicts.Verdict> findings = new Verdicts(RunData.load(dir)).findings("servlet");
        assertEquals(text, findings.getFirst().text());
        assertEquals(List.of("exp-servlet", "row-1"), findings.getFirst().evidence());
        assertEquals(List.of("exp-servlet"), findings.get(1).evidence(), "a finding that carries no row links its section only");
    }

    @Test
    void bottleneckVerdictSaysWhereThroughputStopsFollowingThePool() throws Exception {
        RunFixture f = new RunFixture(dir);
        for (int pool : new int[] {50, 100, 200, 400, 800}) {
            f.row("pool-bottleneck", "virtual", 2000, pool, 1, Math.min(pool, 400) * 9.5, 200);
            f.row("pool-bottleneck", "platform", 2000, pool, 1, Math.min(pool, 200) * 9.5, 900);
        }
        f.write();
        List<Verdicts.Verdict> v = new Verdicts(RunData.load(dir)).bottleneck("pool-bottleneck");
        String virtual = v.stream().map(Verdicts.Verdict::text).filter(t -> t.contains(": virtual")).findFirst().orElseThrow();
        String platform = v.stream().map(Verdicts.Verdict::text).filter(t -> t.contains(": platform")).findFirst().orElseThrow();
        assertTrue(virtual.contains("follows the HikariCP pool up to pool 400 (475 → 3,800 req/s), then levels off (3,800 req/s at pool 800)"), virtual);
        assertTrue(platform.contains("up to pool 200") && platform.contains("platform-200 has 200 request threads"), platform);
        assertEquals(5, v.getFirst().evidence().size());
    }

    @Test
    void pinningAndJmhAndThreadMemoryVerdicts() throws Exception {
        RunFixture f = new RunFixture(dir);
        Map<String, Object> a = f.row("pinning", "virtual", 100, null, 1, 900, 120);
        a.put("path_mode", "synchronized");
        a.put("pinned_events", 0);
        Map<String, Object> b = f.row("pinning", "virtual", 100, null, 2, 910, 121);
        b.put("path_mode", "synchronized");
        b.put("pinned_events", 0);
        f.write().studies(RunFixture.JMH, RunFixture.TM);
        f.file("jmh.csv", "benchmark,thread_mode,workers,score,error,unit\nx.Sleep.run,platform,1000,10,1,ops/s\nx.Sleep.run,virtual,1000,40,2,ops/s\n");
        f.file("thread-memory.csv", "mode,threads,nmt_thread_reserved_kb,nmt_thread_committed_kb,rss_mb\nplatform,1000,1048576,40960,300\n"
                + "virtual,1000,2048,1024,120\nplatform,10,10240,400,60\n");
        Verdicts verdicts = new Verdicts(RunData.load(dir));
        String pin = verdicts.pinning("pinning").getFirst().text();
        assertEquals("pinning: no pinning measured (0 pinned events) — JDK 25 virtual synchronized: 0 in 2 rows", pin);
        String jmh = verdicts.scores(RunFixture.JMH).getFirst().text();
        assertEquals("JMH Sleep.run ×1000: virtual 40.00 ± 2.00 vs platform 10.00 ± 1.00 ops/s (4.00×)", jmh);
        String tm = verdicts.threadMemory(RunFixture.TM).getFirst().text();
        assertEquals("memory at 1,000 threads: platform 1,024 MB reserved, 40 MB committed for threads (NMT), RSS 300 MB; "
                + "virtual 2 MB reserved, 1 MB committed for threads (NMT), RSS 120 MB", tm);
    }

    @Test
    void anInterruptedRunSaysSo() throws Exception {
        RunFixture f = new RunFixture(dir);
        f.status = RunKept.Status.STARTED.studyFailed("jmh", "java.io.IOException: fork failed").ended(RunKept.Status.INCOMPLETE);
        f.env.put("status", "complete"); // the people's copy: the verdicts read what the lab kept
        f.row("servlet", "virtual", 100, null, 1, 900, 120);
        f.write();
        List<String> texts = new Verdicts(RunData.load(dir)).all().stream().map(Verdicts.Verdict::text).toList();
        assertTrue(texts.contains("the run is incomplete (incomplete): only the 1 rows that finished are shown"), texts.toString());
        assertTrue(texts.contains("jmh failed: java.io.IOException: fork failed"), texts.toString());
    }

    @Test
    void aStoppedRunSaysWhyAndHowManyRowsWereNotRun() throws Exception {
        RunFixture f = new RunFixture(dir);
        f.status = RunKept.Status.STARTED.stoppedEarly("root@10.77.0.13 (load) does not answer", 2).ended(RunKept.Status.STOPPED);
        f.row("servlet", "virtual", 100, null, 1, 900, 120);
        f.write();
        List<String> texts = new Verdicts(RunData.load(dir)).all().stream().map(Verdicts.Verdict::text).toList();
        assertTrue(texts.contains("the run stopped early: root@10.77.0.13 (load) does not answer (2 rows not run)"), texts.toString());
    }

    /** A run folder written before kept.json: the verdicts read how it ended from its environment.json, as then. */
    @Test
    void aFolderBeforeKeptJsonSaysHowItEnded() throws Exception {
        RunFixture f = new RunFixture(dir);
        f.status = null;
        f.env.put("status", "incomplete");
        f.env.put("failed_jmh", "java.io.IOException: fork failed");
        f.row("servlet", "virtual", 100, null, 1, 900, 120);
        f.write();
        List<String> texts = new Verdicts(RunData.load(dir)).all().stream().map(Verdicts.Verdict::text).toList();
        assertTrue(texts.contains("the run is incomplete (incomplete): only the 1 rows that finished are shown"), texts.toString());
        assertTrue(texts.contains("jmh failed: java.io.IOException: fork failed"), texts.toString());
    }
}
