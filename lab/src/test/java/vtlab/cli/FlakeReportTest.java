package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The flake finder's table, from failsafe's XML reports as the launcher keeps them (DIR/1 .. DIR/N). */
class FlakeReportTest {
    @TempDir
    Path dir;

    void run(int i, long seconds, int exit, String... reports) throws Exception {
        Path d = Files.createDirectories(dir.resolve(Integer.toString(i)));
        Files.writeString(d.resolve("seconds"), seconds + "\n");
        Files.writeString(d.resolve("exit"), exit + "\n");
        for (int k = 0; k < reports.length; k++) Files.writeString(d.resolve("TEST-vtlab.it.R" + k + ".xml"), reports[k]);
    }

    static String suite(String cls, String cases) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuite name="vtlab.it.%s">%s</testsuite>
                """.formatted(cls, cases);
    }

    static String pass(String cls, String name, String time) {
        return "<testcase name=\"" + name + "\" classname=\"vtlab.it." + cls + "\" time=\"" + time + "\"/>";
    }

    @Test
    void eachTestsPassCountAndFirstFailureAndTheRunsThatNeverReported() throws Exception {
        String flaky = """
                <testcase name="recovers" classname="vtlab.it.DependencyFaultIT" time="92.5">
                  <error message="empty String" type="java.lang.NumberFormatException"><![CDATA[java.lang.NumberFormatException: empty String
                	at java.base/jdk.internal.math.FloatingDecimal.readJavaFormatString]]></error>
                </testcase>""";
        String failed = """
                <testcase name="holds" classname="vtlab.it.ServletRunIT" time="61">
                  <failure message="warm-up 18 s&#10;expected: &lt;true&gt; but was: &lt;false&gt;" type="org.opentest4j.AssertionFailedError"/>
                </testcase>""";
        run(1, 130, 1, suite("DependencyFaultIT", flaky), suite("ServletRunIT", failed + pass("ServletRunIT", "carries", "1.2")));
        // run 2: DependencyFaultIT passes; ServletRunIT's JVM was stopped (no report); Maven said so
        run(2, 95, 1, suite("DependencyFaultIT", pass("DependencyFaultIT", "recovers", "88.0")));
        run(3, 150, 0, suite("DependencyFaultIT", pass("DependencyFaultIT", "recovers", "90")),
                suite("ServletRunIT", pass("ServletRunIT", "holds", "60") + pass("ServletRunIT", "carries", "1")));
        List<FlakeReport.Run> runs = FlakeReport.read(dir, 3);
        List<FlakeReport.Line> table = FlakeReport.table(runs, List.of("ServletRunIT", "DependencyFaultIT", "CapacityRunIT"), dir);

        assertEquals(List.of("CapacityRunIT", "ServletRunIT#holds", "ServletRunIT#carries", "DependencyFaultIT#recovers"),
                table.stream().map(FlakeReport.Line::test).toList(), "the order asked; a class that never reported first");
        FlakeReport.Line never = table.get(0), holds = table.get(1), carries = table.get(2), recovers = table.get(3);
        assertEquals(0, never.passed());
        assertTrue(never.firstFailure().startsWith("run 1: no report (the test JVM was stopped or crashed"), never.firstFailure());
        assertEquals(1, holds.passed());
        assertEquals("run 1: warm-up 18 s", holds.firstFailure(), "the assertion message's first line");
        assertEquals(2, carries.passed());
        assertTrue(carries.firstFailure().startsWith("run 2: no report"), carries.firstFailure());
        assertEquals(2, recovers.passed());
        assertEquals("run 1: NumberFormatException: empty String", recovers.firstFailure(), "an error names its exception");
        assertEquals(88.0, recovers.minSeconds());
        assertEquals(92.5, recovers.maxSeconds());
        assertFalse(FlakeReport.green(runs, table));

        List<String> lines = FlakeReport.render(runs, table, dir);
        assertTrue(lines.stream().anyMatch(l -> l.matches("DependencyFaultIT#recovers +2/3 +88-93 +run 1: NumberFormatException: empty String")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.matches("ServletRunIT#holds +1/3 +60-61 +run 1: warm-up 18 s")), lines.toString());
        assertTrue(lines.contains("run 1: 2 min 10 s, 3 test(s), 2 not passed, Maven exit 1"), lines.toString());
        assertTrue(lines.contains("run 2: 1 min 35 s, 1 test(s), 0 not passed, Maven exit 1 with no failed test: see " + dir.resolve("2/maven.log")),
                lines.toString());
        assertEquals("not green: 3 test(s) failed some runs, 1 failed every run", lines.getLast());
    }

    @Test
    void greenOnlyWhenEveryTestPassedEveryRunAndMavenEndedWell() throws Exception {
        run(1, 40, 0, suite("PinControlJitIT", pass("PinControlJitIT", "pinsAfterC2CompiledIt(String)[1]", "20")
                + pass("PinControlJitIT", "pinsAfterC2CompiledIt(String)[2]", "19")));
        run(2, 41, 0, suite("PinControlJitIT", pass("PinControlJitIT", "pinsAfterC2CompiledIt(String)[1]", "21")
                + pass("PinControlJitIT", "pinsAfterC2CompiledIt(String)[2]", "19")));
        List<FlakeReport.Run> runs = FlakeReport.read(dir, 2);
        List<FlakeReport.Line> table = FlakeReport.table(runs, List.of("PinControlJitIT#pinsAfterC2CompiledIt"), dir);
        assertEquals(2, table.size(), "a parameterized method's cases each: " + table);
        assertTrue(table.stream().allMatch(FlakeReport.Line::always));
        assertTrue(FlakeReport.green(runs, table));
        assertEquals("every test passed 2 of 2", FlakeReport.render(runs, table, dir).getLast());

        // a skip is not a pass; a run without any report (Maven stopped before it) neither
        run(2, 3, 1, suite("PinControlJitIT", "<testcase name=\"pinsAfterC2CompiledIt(String)[1]\" classname=\"vtlab.it.PinControlJitIT\">"
                + "<skipped message=\"no JDK 21\"/></testcase>"));
        runs = FlakeReport.read(dir, 3);
        table = FlakeReport.table(runs, List.of("vtlab.it.PinControlJitIT"), dir);
        assertEquals("run 2: skipped: no JDK 21", table.getFirst().firstFailure());
        assertEquals("run 2: no report (the test JVM was stopped or crashed before the class ended; see " + dir.resolve("2/maven.log") + ")",
                table.get(1).firstFailure());
        assertEquals(-1, runs.get(2).exit(), "run 3 never started");
        assertFalse(FlakeReport.green(runs, table));
    }

    @Test
    void matchesAClassOrAMethodAsOnlyNamesThem() {
        SuiteReport.Case c = new SuiteReport.Case("end-to-end", "vtlab.it.AbIT", "aPost(SharedTiers)", "passed", "", "", 1);
        assertTrue(FlakeReport.matches(c, "AbIT"));
        assertTrue(FlakeReport.matches(c, "vtlab.it.AbIT#aPost"));
        assertFalse(FlakeReport.matches(c, "AbIT#aPos"));
        assertFalse(FlakeReport.matches(c, "bIT"));
        assertEquals("AbIT#aPost(SharedTiers)", c.test());
    }
}
