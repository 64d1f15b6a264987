package vtlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

import vtlab.check.Slo;
import vtlab.data.DataRow;
import vtlab.data.Findings;
import vtlab.data.RunDir;
import vtlab.experiment.scenario.Threshold;
import vtlab.run.Runner;

/**
 * One step after a run's rows (findings, summary, report, the experiments' own, the exit code; a scenario's file,
 * thresholds, JUnit XML and step summary): a small class that says what it reads and writes, run in order from a
 * list ({@link #runAll}), so what a run does after its rows is that list and nothing besides.
 */
abstract class AfterRun {
    private final List<String> reads, writes;
    private final boolean afterAnyRun;

    /**
     * @param reads       what it reads: files of the run folder, or what an earlier step left in the {@link State} ("findings")
     * @param writes      what it writes: files of the run folder (or elsewhere), the terminal ("out"), or a field of the {@link State}
     * @param afterAnyRun whether it runs after an interrupted run too (otherwise only after one that ended by itself)
     */
    AfterRun(List<String> reads, List<String> writes, boolean afterAnyRun) {
        this.reads = List.copyOf(reads);
        this.writes = List.copyOf(writes);
        this.afterAnyRun = afterAnyRun;
    }

    List<String> reads() {
        return reads;
    }

    List<String> writes() {
        return writes;
    }

    /** Whether it runs after this run. */
    boolean runsAfter(State s) {
        return afterAnyRun || s.done().complete();
    }

    abstract void run(State s) throws IOException;

    /** Each step that runs after this run, in order; the exit code they leave. */
    static int runAll(List<AfterRun> steps, State s) throws IOException {
        for (AfterRun step : steps) if (step.runsAfter(s)) step.run(s);
        return s.code;
    }

    /** What every run does after its rows (a scenario adds its own steps after these: {@link ScenarioRun#steps}). */
    static List<AfterRun> ofRun() {
        return List.of(new RunSteps.WriteFindings(), new RunSteps.WriteSummary(), new RunSteps.WriteReport(), new RunSteps.ExperimentsAfterRun(),
                new RunSteps.ExitCode());
    }

    /**
     * What the steps after a run share: the run, and what each step leaves for the ones after it.
     *
     * @param failOn thresholds every row is held against (--fail-on), null without
     */
    static final class State {
        private final Runner.Outcome done;
        private final List<String> experiments;
        private final Slo failOn;
        private final PrintStream out;
        /** findings.json's, once written. */
        Findings findings;
        /** Whether a row breached --fail-on. */
        boolean breached;
        /** The run's exit code so far (ExitCodes). */
        int code;
        /** The rows of matrix.csv as the thresholds read them (a replay's fidelity added), once read. */
        List<DataRow> rows = List.of();
        /** A scenario's thresholds, each evaluated, once they are. */
        List<Threshold.Outcome> outcomes = List.of();

        State(Runner.Outcome done, List<String> experiments, Slo failOn, PrintStream out) {
            this.done = done;
            this.experiments = experiments;
            this.failOn = failOn;
            this.out = out;
        }

        Runner.Outcome done() {
            return done;
        }

        RunDir dir() {
            return done.dir();
        }

        List<String> experiments() {
            return experiments;
        }

        Slo failOn() {
            return failOn;
        }

        PrintStream out() {
            return out;
        }
    }
}
