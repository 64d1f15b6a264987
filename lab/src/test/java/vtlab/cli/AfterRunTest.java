package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.RunDir;
import vtlab.run.Runner;

/** What a run does after its rows is a list of steps, each saying what it reads and writes, run in order. */
class AfterRunTest {
    /** What a step may leave for the ones after it (AfterRun.State's fields). */
    static final Set<String> STATE = Set.of("findings", "breached", "code", "rows", "outcomes");

    static List<AfterRun> every() {
        List<AfterRun> steps = new ArrayList<>(AfterRun.ofRun());
        steps.addAll(List.of(new ScenarioSteps.Save(null, null), new ScenarioSteps.Thresholds(null), new ScenarioSteps.Junit(null, null),
                new ScenarioSteps.StepSummary(null)));
        return steps;
    }

    /** A step reads what the run folder holds or what a step before it wrote, never what only a later one does. */
    @Test
    void eachStepReadsWhatAStepBeforeItWrote() {
        Set<String> written = new HashSet<>();
        for (AfterRun step : every()) {
            String name = step.getClass().getSimpleName();
            assertFalse(step.reads().isEmpty() || step.writes().isEmpty(), name + " says what it reads and writes");
            for (String r : step.reads()) {
                if (STATE.contains(r)) assertTrue(written.contains(r), name + " reads " + r + " before a step writes it");
            }
            written.addAll(step.writes());
        }
    }

    @Test
    void theRunsStepsInOrder() {
        assertEquals(List.of("WriteFindings", "WriteSummary", "WriteReport", "ExperimentsAfterRun", "ExitCode"),
                AfterRun.ofRun().stream().map(s -> s.getClass().getSimpleName()).toList());
    }

    /** A run's steps after an empty run folder, ended by itself or not, with failed rows: its exit code and what it said. */
    record After(RunDir dir, int code, String said) {
        static After of(Path tmp, boolean complete, int failed) throws Exception {
            RunDir dir = RunDir.create(tmp, List.of("servlet"));
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            AfterRun.State s = new AfterRun.State(new Runner.Outcome(dir, complete, failed, 0, null), List.of("servlet"), null, new PrintStream(buf, true));
            int code = AfterRun.runAll(AfterRun.ofRun(), s);
            return new After(dir, code, buf.toString());
        }

        boolean wrote(Path file) {
            return Files.exists(file);
        }
    }

    /** An interrupted run writes no findings, summary or report: only where its rows are and its exit code. */
    @Test
    void anInterruptedRunGetsItsExitCodeOnly(@TempDir Path tmp) throws Exception {
        After a = After.of(tmp, false, 0);
        assertEquals(ExitCodes.INTERRUPTED, a.code());
        assertFalse(a.wrote(a.dir().dir().resolve("findings.json")) || a.wrote(a.dir().summary()), "nothing after an interrupted run's rows");
        assertTrue(a.said().startsWith("vtlab: results in " + a.dir().dir()), a.said());
    }

    /** A finished run with a failed row: its findings and summary written, exit code 1 said. */
    @Test
    void aFinishedRunWritesItsResultsThenItsExitCode(@TempDir Path tmp) throws Exception {
        After a = After.of(tmp, true, 1);
        assertEquals(ExitCodes.ROWS_FAILED, a.code());
        assertTrue(a.wrote(a.dir().dir().resolve("findings.json")) && a.wrote(a.dir().summary()), "findings and summary written");
        assertTrue(a.said().contains("vtlab: 1 row(s) failed: exit code 1"), a.said());
    }
}
