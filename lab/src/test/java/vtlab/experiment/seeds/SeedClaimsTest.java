package vtlab.experiment.seeds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.experiment.registry.Experiments;
import vtlab.experiment.seeds.SeedClaims.Checked;
import vtlab.experiment.seeds.SeedClaims.Verdict;

/**
 * The claims checked on a real run's rows: resources/seeds/quick-run holds the rows of `./vtlab run EXPERIMENT
 * --quick` for each seed experiment on this 2-core machine (runs 20261123T1337-1357Z, one matrix.csv; thread-cost's
 * jmh.csv and thread-memory.csv as written).
 */
class SeedClaimsTest {
    @TempDir
    Path dir;

    Path quickRun() throws Exception {
        for (String f : List.of("matrix.csv", "jmh.csv", "thread-memory.csv")) {
            Files.copy(Path.of(getClass().getResource("/seeds/quick-run/" + f).toURI()), dir.resolve(f));
        }
        return dir;
    }

    Map<String, SeedClaims.Measured> checked() throws Exception {
        return SeedClaims.check(SeedClaims.Evidence.of(quickRun())).stream()
                .collect(Collectors.toMap(c -> c.claim().claim(), SeedClaims.Checked::measured));
    }

    static SeedClaims.Measured find(Map<String, SeedClaims.Measured> m, String start) {
        return m.entrySet().stream().filter(e -> e.getKey().startsWith(start)).findFirst().orElseThrow().getValue();
    }

    @Test
    void ratioVerdictsHoldInShapeOrNot() {
        assertEquals(Verdict.HOLDS, SeedClaims.ofRatio(5.2, 6.1, 0.85, 1.2), "5.2 of 6.1 is 85%");
        assertEquals(Verdict.SHAPE, SeedClaims.ofRatio(5.1, 6.1, 0.85, 1.2));
        assertEquals(Verdict.SHAPE, SeedClaims.ofRatio(1.2, 6.1, 0.85, 1.2));
        assertEquals(Verdict.NOT, SeedClaims.ofRatio(1.19, 6.1, 0.85, 1.2));
        assertEquals(Verdict.HOLDS, SeedClaims.ofRatio(9, 6.1, 0.85, 1.2), "more than the seed's effect still holds");
        assertEquals(Verdict.NO_DATA, SeedClaims.ofRatio(Double.NaN, 6.1, 0.85, 1.2));
        assertEquals(Verdict.SHAPE, SeedClaims.ofRatio(2, Double.NaN, 1, 1.5), "no seed ratio: shape only");
        assertEquals(Verdict.HOLDS, SeedClaims.ofNumber(3842, 3968, 0.05));
        assertEquals(Verdict.NOT, SeedClaims.ofNumber(3700, 3968, 0.05));
    }

    @Test
    void theQuickRunsRowsGiveEachClaimItsNumberAndVerdict() throws Exception {
        Map<String, SeedClaims.Measured> m = checked();
        // platform sleep at 400 and 1,000: 3,842 and 3,890 req/s, 2.6% under the article's 3,968
        SeedClaims.Measured wall = find(m, "Thread.sleep(50) servlet: the 200-thread pool");
        assertEquals(Verdict.HOLDS, wall.verdict(), wall.toString());
        assertTrue(wall.here().startsWith("3,866"), wall.here());
        // virtual at 1,000: 15,504 req/s, not the article's 19,673, but 3.99x the pool: the shape, the SUT's core the why
        SeedClaims.Measured v1000 = find(m, "Thread.sleep(50) servlet, virtual threads at 1,000");
        assertEquals(Verdict.SHAPE, v1000.verdict(), v1000.toString());
        assertTrue(v1000.here().contains("(3.99×)"), v1000.here());
        // hello at 400: virtual 43,792 vs platform 44,365 req/s: not the article's +10%
        assertEquals(Verdict.NOT, find(m, "HelloWorld").verdict());
        assertTrue(find(m, "HelloWorld").why().contains("SUT's CPU was full here (1 CPU"), find(m, "HelloWorld").why());
        // JEP 491: JDK 25 synchronized 0 events, its control 1,120; JDK 21 synchronized 248
        SeedClaims.Measured pin = find(m, "JEP 491");
        assertEquals(Verdict.HOLDS, pin.verdict(), pin.toString());
        assertTrue(pin.here().contains("synchronized 0 pinned events (control 1,120)"), pin.here());
        // 10,000 parked platform threads: 10,291,094 KB reserved
        SeedClaims.Measured mem = find(m, "10,000 platform threads");
        assertEquals(Verdict.HOLDS, mem.verdict());
        assertTrue(mem.here().startsWith("9.8 GB"), mem.here());
        // thread-cost: main 1.71, platform 43.8, virtual 8.06 us/op: 6.6x the overhead, not 11.7x
        assertEquals(Verdict.SHAPE, find(m, "virtual thread creation").verdict());
        // the quick run has no 2,500 or 10,000 connections: not measured, and says why
        SeedClaims.Measured six = find(m, "virtual threads ~6×");
        assertEquals(Verdict.NO_DATA, six.verdict());
        assertTrue(six.why().contains("no order-summary rows"), six.why());
    }

    /** JEP 491's claim is a change from JDK 21 to 25: a run with no JDK 21 row has not measured it, whatever JDK 25 shows. */
    @Test
    void jep491IsNotMeasuredWithoutAJdk21Row() throws Exception {
        SeedClaims.Evidence all = SeedClaims.Evidence.of(quickRun());
        SeedClaims.Evidence no21 = new SeedClaims.Evidence(all.rows().stream().filter(r -> !"21".equals(r.text(vtlab.data.Columns.JDK))).toList(),
                all.jmh(), all.threadMemory());
        assertTrue(no21.rows().size() < all.rows().size(), "the quick run has JDK 21 rows to drop");
        SeedClaims.Measured pin = SeedClaims.jep491(no21);
        assertEquals(Verdict.NO_DATA, pin.verdict(), pin.toString());
        assertTrue(pin.why().contains("no JDK 21"), pin.why());
        assertEquals(Verdict.HOLDS, SeedClaims.jep491(all).verdict());
    }

    @Test
    void flaggedRowsAreNotEvidence() throws Exception {
        // quick reactive: WebFlux's row is flagged littles-law (3 s warm-up), so MVC-virtual vs WebFlux has no valid pair
        SeedClaims.Measured webflux = find(checked(), "Spring MVC on virtual threads within");
        assertEquals(Verdict.NO_DATA, webflux.verdict(), webflux.toString());
    }

    /**
     * An experiment whose claims are declared here states them in its findings by these verdict lines, computed from
     * its own rows (reactive and response-size); no findings line judges such a claim in words of its own.
     */
    @Test
    void anExperimentsFindingsCarryTheVerdictLinesOfItsClaims() throws Exception {
        List<Checked> all = SeedClaims.check(SeedClaims.Evidence.of(quickRun()));
        List<vtlab.data.DataRow> rows = SeedClaims.Evidence.of(dir).rows();
        for (String name : List.of("reactive", "response-size")) {
            List<vtlab.data.DataRow> own = vtlab.data.Rows.ofExperiment(rows, name);
            List<String> lines = SeedClaims.linesFor(name, own);
            assertEquals(all.stream().filter(c -> c.claim().experiment().equals(name)).map(SeedClaims::line).toList(), lines,
                    "the claims naming " + name + ", in the table's order, checked on its rows alone");
            assertTrue(!lines.isEmpty(), name);
            List<String> findings = Experiments.byName(name).findings(own.stream().map(vtlab.data.DataRow::cells).toList());
            assertTrue(findings.containsAll(lines), name + "'s findings carry its claims' lines: " + findings);
        }
        assertTrue(SeedClaims.linesFor("reactive", rows).getFirst().startsWith("[not measured] Spring MVC on virtual threads within ~5% of WebFlux"),
                "the quick run's WebFlux row is flagged");
        assertTrue(SeedClaims.linesFor("response-size", rows).getFirst().startsWith("[holds] bigger responses, smaller difference"));
        assertEquals(List.of(), SeedClaims.linesFor("servlet-io", rows), "no claim names servlet-io");
    }

    /** A ratio with no valid row on one side says why from that side: a variant the run left out is not a failed row. */
    @Test
    void aVariantTheRunLeftOutIsNotCalledFailed() {
        List<Map<String, String>> rows = List.of(row("virtual", "sleepMs=100", 7600, "ok", ""), row("reactive", "sleepMs=100", 8000, "ok", ""));
        List<String> lines = SeedClaims.linesFor("reactive", vtlab.data.DataRow.numbered(rows));
        assertTrue(lines.getFirst().startsWith("[holds] Spring MVC on virtual threads within ~5% of WebFlux"), lines.getFirst());
        assertTrue(lines.getLast().startsWith("[not measured] WebFlux ~40% faster") && lines.getLast().endsWith("; the run has no reactive rows for it"),
                lines.getLast());
        List<Map<String, String>> flagged = List.of(rows.get(0), rows.get(1), row("platform", "sleepMs=100;maxThreads=2000", 5000, "flagged", "littles-law"));
        List<String> withFlagged = SeedClaims.linesFor("reactive", vtlab.data.DataRow.numbered(flagged));
        assertTrue(withFlagged.getLast().endsWith("; its reactive rows are not valid evidence (littles-law)"), withFlagged.getLast());
        assertEquals(List.of(1, 2), SeedClaims.findingsFor("reactive", vtlab.data.DataRow.numbered(rows)).getFirst().rows(),
                "a verdict carries the rows it was computed from");
    }

    static Map<String, String> row(String mode, String params, double rps, String status, String flags) {
        return Map.of("experiment", "reactive", "thread_mode", mode, "workload", "sleep", "concurrency", "2000", "params", params,
                "throughput_rps", Double.toString(rps), "status", status, "flags", flags);
    }

    @Test
    void everyClaimIsCheckedByAPartOfTheSeedsSuite() {
        SeedsSuite suite = (SeedsSuite) Experiments.all().get("seeds");
        List<String> parts = suite.parts().stream().map(p -> p.experiment()).toList();
        for (SeedClaims.Claim c : SeedClaims.ALL) {
            assertTrue(parts.contains(c.experiment()), c.claim() + " is checked by " + c.experiment() + ", not run by seeds");
        }
        for (String p : parts) assertTrue(Experiments.all().containsKey(p), p);
    }

    @Test
    void theSuiteWritesTheClaimsTableAsMarkdown() throws Exception {
        List<String> lines = vtlab.data.Finding.texts(new SeedsSuite().findings(quickRun(), List.of()));
        assertEquals(SeedClaims.ALL.size(), lines.size());
        String md = Files.readString(dir.resolve(SeedsSuite.CLAIMS_FILE));
        assertEquals(SeedClaims.ALL.size() + 2, md.lines().count(), md);
        assertTrue(md.contains("| **holds** |") || md.contains("| **holds**:"), md);
        assertTrue(md.lines().skip(2).allMatch(l -> l.split("(?<!\\\\)\\|", -1).length == 7), "five cells a line:\n" + md);
    }

    @Test
    void aSeedsRunsFindingsHoldEveryPartsThenTheClaimsAndTheReportDrawsTheTable() throws Exception {
        Path run = quickRun();
        vtlab.data.Findings f = vtlab.experiment.registry.RunFindings.write(run, List.of("seeds"));
        List<String> names = f.experiments().stream().map(vtlab.data.Findings.Entry::name).toList();
        assertEquals("seeds", names.getLast(), "the claims come after the parts' own findings: " + names);
        assertTrue(names.containsAll(List.of("servlet", "order-summary", "pinning", "thread-memory")), names.toString());
        assertEquals(List.of("jmh.csv", "thread-memory.csv", SeedsSuite.CLAIMS_CSV),
                f.sections().stream().map(vtlab.data.StudySection::dataFile).toList(), "the studies' sections, then the claims'");
        String html = Files.readString(vtlab.report.Report.write(run).html());
        int at = html.indexOf("<section id=\"seed-claims\">");
        assertTrue(at > 0, "the report has the claims section");
        String section = html.substring(at, html.indexOf("</section>", at));
        assertEquals(SeedClaims.ALL.size(), section.split("<tr id=").length - 1, "one table row per claim");
        assertTrue(section.contains("does not hold here"), section);
    }
}
