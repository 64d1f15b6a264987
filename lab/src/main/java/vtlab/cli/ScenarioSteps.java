package vtlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import vtlab.core.Options;
import vtlab.data.DataRow;
import vtlab.data.RunDir;
import vtlab.experiment.scenario.Scenario;
import vtlab.experiment.scenario.ScenarioExperiment;
import vtlab.experiment.scenario.ScenarioReport;
import vtlab.experiment.scenario.Threshold;

/**
 * A scenario file's steps after the run as the scenario experiment ({@link ScenarioRun#steps}), after any run,
 * interrupted ones too: the file that repeats the run saved, the thresholds evaluated (exit code 99 where one is
 * breached and the run was otherwise ok), a JUnit report with --junit, a Markdown summary.
 */
final class ScenarioSteps {
    private ScenarioSteps() {}

    /** scenario.toml and its CSV files in the run folder: the file that repeats the run. */
    static final class Save extends AfterRun {
        private final Scenario scenario;
        private final Options given;

        Save(Scenario scenario, Options given) {
            super(List.of("the scenario file and its CSV files"), List.of("scenario.toml", "its CSV files"), true);
            this.scenario = scenario;
            this.given = given;
        }

        @Override
        void run(AfterRun.State s) throws IOException {
            ScenarioRun.save(scenario, given, s.dir().dir());
        }
    }

    /** Each threshold evaluated over the rows, a replay's fidelity to its access log added to them. */
    static final class Thresholds extends AfterRun {
        private final Scenario scenario;

        Thresholds(Scenario scenario) {
            super(List.of(RunDir.MATRIX, RunDir.KEPT, "raw/", "summary.json"), List.of("summary.json (scenario_fidelity)", "out", "rows", "outcomes", "code"), true);
            this.scenario = scenario;
        }

        @Override
        void run(AfterRun.State s) throws IOException {
            Path dir = s.dir().dir();
            List<DataRow> rows = s.dir().rows();
            s.rows = ScenarioRun.withFidelity(dir, rows);
            List<Threshold.Outcome> outcomes = new ArrayList<>();
            for (Threshold t : scenario.thresholds()) outcomes.add(t.evaluate(s.rows, dir.resolve("raw")));
            s.outcomes = List.copyOf(outcomes);
            if (outcomes.stream().anyMatch(x -> !x.passed()) && s.code == ExitCodes.OK) s.code = ExitCodes.THRESHOLDS;
            for (Threshold.Outcome x : outcomes) {
                s.out().println("vtlab: threshold " + x.threshold().text() + ": " + (x.passed() ? "passed" : "FAILED") + " (" + x.detail() + ")");
            }
        }
    }

    /** The thresholds as a JUnit report, with --junit (null: none). */
    static final class Junit extends AfterRun {
        private final Scenario scenario;
        private final Path file;

        Junit(Scenario scenario, Path file) {
            super(List.of("outcomes"), List.of("the --junit file"), true);
            this.scenario = scenario;
            this.file = file;
        }

        @Override
        boolean runsAfter(AfterRun.State s) {
            return file != null;
        }

        @Override
        void run(AfterRun.State s) throws IOException {
            if (file.getParent() != null) Files.createDirectories(file.getParent());
            Files.writeString(file, ScenarioReport.junit(scenario.name(), s.outcomes));
        }
    }

    /** The Markdown summary, in the run folder and, when GITHUB_STEP_SUMMARY is set, appended there; how to run it again. */
    static final class StepSummary extends AfterRun {
        private final Scenario scenario;

        StepSummary(Scenario scenario) {
            super(List.of("outcomes", "rows", "code", RunDir.KEPT, "raw/ (the requests sent)"), List.of("scenario-summary.md", "$GITHUB_STEP_SUMMARY", "out"), true);
            this.scenario = scenario;
        }

        @Override
        void run(AfterRun.State s) throws IOException {
            Path dir = s.dir().dir();
            String md = ScenarioReport.markdown(scenario.name(), s.code, s.outcomes, s.rows, ScenarioExperiment.requests(dir));
            Files.writeString(dir.resolve("scenario-summary.md"), md);
            String step = System.getenv("GITHUB_STEP_SUMMARY");
            if (step != null && !step.isBlank()) {
                Files.writeString(Path.of(step), md + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            s.out().println("vtlab: the run again: ./vtlab run " + dir.resolve("scenario.toml"));
            if (s.code == ExitCodes.THRESHOLDS) s.out().println("vtlab: scenario thresholds breached: exit code 99");
        }
    }
}
