package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The suite's closing lines name every skip and failure and whether the watched tests ran, from surefire's XML. */
class SuiteReportTest {
    @TempDir
    Path home;

    @Test
    void skipsAndFailuresAreNamedAndTheWatchedTestsOutcomeIsSaid() throws Exception {
        Path unit = Files.createDirectories(home.resolve("lab/target/surefire-reports"));
        Files.writeString(unit.resolve("TEST-vtlab.load.generator.K6GeneratorTest.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuite name="vtlab.load.generator.K6GeneratorTest" tests="3" skipped="1" failures="1">
                  <testcase name="k6AcceptsTheScripts" classname="vtlab.load.generator.K6GeneratorTest"><skipped type="org.opentest4j.TestAbortedException"><![CDATA[org.opentest4j.TestAbortedException: Assumption failed: k6 v1.8.1 is not installed (AGPL-3.0, opt-in: ./vtlab setup k6 installs it)
                	at org.junit.jupiter.api.Assumptions.throwAssumptionFailed(Assumptions.java:340)
                ]]></skipped></testcase>
                  <testcase name="closedScriptHoldsConstantVus" classname="vtlab.load.generator.K6GeneratorTest"/>
                  <testcase name="broken" classname="vtlab.load.generator.K6GeneratorTest"><failure message="expected 1&#10;but 2"/></testcase>
                </testsuite>
                """);
        Path it = Files.createDirectories(home.resolve("lab/target/failsafe-reports"));
        Files.writeString(it.resolve("TEST-vtlab.it.ServletRunIT.xml"), """
                <testsuite name="vtlab.it.ServletRunIT"><testcase name="runs" classname="vtlab.it.ServletRunIT"/></testsuite>
                """);
        List<String> lines = SuiteReport.lines(SuiteReport.read(home, 0), "605");
        assertEquals("unit tests: 3 run, 1 failed, 1 skipped", lines.get(0));
        assertEquals("end-to-end tests: 1 run, 0 failed, 0 skipped", lines.get(1));
        assertTrue(lines.contains("skipped: vtlab.load.generator.K6GeneratorTest#k6AcceptsTheScripts (k6 v1.8.1 is not installed (AGPL-3.0, opt-in: ./vtlab setup k6 installs it))"), lines.toString());
        assertTrue(lines.contains("failed: vtlab.load.generator.K6GeneratorTest#broken (expected 1)"), lines.toString());
        assertTrue(lines.contains("vtlab.load.generator.K6GeneratorTest#k6AcceptsTheScripts: skipped (k6 v1.8.1 is not installed (AGPL-3.0, opt-in: ./vtlab setup k6 installs it))"), lines.toString());
        assertEquals("took 10 min 5 s", lines.getLast());
        // reports older than the suite's start are another run's
        assertTrue(SuiteReport.read(home, System.currentTimeMillis() + 60_000).isEmpty());
    }

    static SuiteReport.Case it(String name, String outcome, String message) {
        return new SuiteReport.Case("end-to-end", "vtlab.it.NextStepIT", name, outcome, message, "", 1);
    }

    /**
     * Controls skipped because their claim is missing are counted apart from other skips (a tool not installed, a
     * machine too small), and more than MAX_SKIPPED_CONTROLS of them fail the suite.
     */
    @Test
    void moreThanTwoSkippedControlsFailTheSuiteOtherSkipsDoNot() {
        String why = SuiteReport.CONTROL_SKIPPED + "pool control: row 4 flagged (busy-machine)";
        List<SuiteReport.Case> two = List.of(it("a", "skipped", why), it("b", "skipped", why), it("c", "skipped", "a SUT of two CPUs needs a machine of two"),
                it("d", "passed", ""));
        assertEquals(2, SuiteReport.MAX_SKIPPED_CONTROLS);
        assertEquals(2, SuiteReport.skippedControls(two).size());
        org.junit.jupiter.api.Assertions.assertFalse(SuiteReport.tooManySkippedControls(two), "two skipped controls: the machine's noise");
        assertTrue(SuiteReport.lines(two, null).contains("2 controls skipped, the claim not judged on this machine (more than 2 fails the suite)"),
                SuiteReport.lines(two, null).toString());
        List<SuiteReport.Case> three = new java.util.ArrayList<>(two);
        three.add(it("e", "skipped", why));
        assertTrue(SuiteReport.tooManySkippedControls(three));
        assertTrue(SuiteReport.lines(three, null).contains("3 controls skipped, the claim not judged on this machine (more than 2 fails the suite): the suite FAILED"),
                SuiteReport.lines(three, null).toString());
        assertTrue(SuiteReport.lines(three, null).contains("skipped: vtlab.it.NextStepIT#e (" + why + ")"), "each named with its reason");
    }
}
