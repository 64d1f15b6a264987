package vtlab.experiment.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.Dataset;
import vtlab.tier.tool.Jdk;

/** Real JMH results -> jmh.csv -> read back -> findings: what a run's pipeline does after JMH has exited. */
class JmhCsvTest {
    @TempDir
    Path dir;

    static final Jdk JDK = new Jdk(Path.of("/jdk"), 25, "25.0.3", "test");

    @Test
    void bothStudiesShareOneFileWithOneHeaderAndRowsReadBackAsWritten() throws Exception {
        Path file = dir.resolve(JmhStudy.FILE);
        StudyCsv csv = new StudyCsv(file, JmhStudy.COLUMNS);
        ThreadCostStudy cost = new ThreadCostStudy();
        ThreadLocalStudy tl = new ThreadLocalStudy();
        List<JmhResult> costResults = JmhResult.parse(JmhResultTest.resource("thread-cost.json"));
        List<JmhResult> tlResults = JmhResult.parse(JmhResultTest.resource("threadlocal.json"));
        for (JmhResult r : costResults) csv.append(cost.row(r, JDK, "a.json"));
        for (JmhResult r : tlResults) csv.append(tl.row(r, JDK, "b.json"));

        List<String> lines = Files.readAllLines(file);
        assertEquals(String.join(",", JmhStudy.COLUMNS), lines.getFirst());
        assertEquals(1, lines.stream().filter(l -> l.startsWith("benchmark,")).count());
        List<Map<String, String>> rows = Dataset.read(file);
        assertEquals(costResults.size() + tlResults.size(), rows.size());
        List<String> firstSix = JmhStudy.COLUMNS.subList(0, 6);
        assertEquals(List.of("benchmark", "thread_mode", "workers", "score", "error", "unit"), firstSix);

        Map<String, String> virtual = rows.stream().filter(r -> "computeInVirtualThread".equals(r.get("method"))).findFirst().orElseThrow();
        JmhResult v = costResults.stream().filter(r -> r.method().equals("computeInVirtualThread")).findFirst().orElseThrow();
        assertEquals("thread-cost", virtual.get("study"));
        assertEquals("virtual", virtual.get("thread_mode"));
        assertEquals("", virtual.get("workers"));
        assertEquals(v.score(), Double.parseDouble(virtual.get("score")), 0.0005);
        assertEquals(v.error(), Double.parseDouble(virtual.get("error")), 0.0005);
        assertEquals("us/op", virtual.get("unit"));
        assertEquals("25", virtual.get("jdk"));

        Map<String, String> tl64 = rows.stream().filter(r -> "threadlocal".equals(r.get("study")) && "64".equals(r.get("workers"))
                && "virtual".equals(r.get("thread_mode")) && "newObject".equals(r.get("method"))).findFirst().orElseThrow();
        assertTrue(tl64.get("params").contains("workers=64") && tl64.get("params").contains("mode=virtual"), tl64.get("params"));
    }

    @Test
    void aMissingErrorIsAnEmptyCellAndTheFindingsSaySo() throws Exception {
        Path file = dir.resolve(JmhStudy.FILE);
        StudyCsv csv = new StudyCsv(file, JmhStudy.COLUMNS);
        ThreadCostStudy cost = new ThreadCostStudy();
        for (JmhResult r : JmhResult.parse(JmhResultTest.resource("thread-cost-2iterations.json"))) csv.append(cost.row(r, JDK, "a.json"));
        assertTrue(Dataset.read(file).stream().allMatch(r -> r.get("error").isEmpty()));
        String findings = String.join("\n", cost.findingsFrom(file));
        assertTrue(findings.contains("no error bar"), findings);
    }

    @Test
    void findingsStateScoresWithErrorsAndTheVirtualToPlatformRatio() throws Exception {
        Path file = dir.resolve(JmhStudy.FILE);
        StudyCsv csv = new StudyCsv(file, JmhStudy.COLUMNS);
        ThreadCostStudy cost = new ThreadCostStudy();
        ThreadLocalStudy tl = new ThreadLocalStudy();
        List<JmhResult> costResults = JmhResult.parse(JmhResultTest.resource("thread-cost.json"));
        for (JmhResult r : costResults) csv.append(cost.row(r, JDK, "a.json"));
        for (JmhResult r : JmhResult.parse(JmhResultTest.resource("threadlocal.json"))) csv.append(tl.row(r, JDK, "b.json"));

        List<String> costFindings = cost.findingsFrom(file);
        double p = costResults.stream().filter(r -> r.threadMode().equals("platform")).findFirst().orElseThrow().score();
        double v = costResults.stream().filter(r -> r.threadMode().equals("virtual")).findFirst().orElseThrow().score();
        String first = costFindings.getFirst();
        assertTrue(first.startsWith("a virtual thread starts (and joins) " + JmhStudy.ratio(Math.max(p, v) / Math.min(p, v))), first);
        assertTrue(first.contains(JmhStudy.fmt(v) + " ± ") && first.contains(JmhStudy.fmt(p) + " ± "), first);
        assertTrue(first.contains("us/op"), first);
        // a study's findings come from its own rows only
        assertTrue(costFindings.stream().noneMatch(s -> s.contains("SynchronizedStack")));

        List<String> tlFindings = tl.findingsFrom(file);
        for (String alt : ThreadLocalStudy.ALTERNATIVES) {
            assertTrue(tlFindings.stream().anyMatch(s -> s.startsWith(alt + ": virtual/platform") && s.contains("8 workers") && s.contains("64 workers")),
                    alt + " in " + tlFindings);
        }
        assertTrue(tlFindings.stream().anyMatch(s -> s.startsWith("fastest on platform threads")), tlFindings.toString());
        assertTrue(tlFindings.stream().anyMatch(s -> s.contains("ThreadLocal should be slower than new Object")), tlFindings.toString());
    }
}
