package vtlab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.data.DataRow;
import vtlab.data.RunDir;
import vtlab.experiment.registry.RunFindings;
import vtlab.report.Histograms;
import vtlab.report.Report;
import vtlab.report.RunData;
import vtlab.report.RunSummary;
import vtlab.report.Summary;
import vtlab.run.Runner;

/** The steps after every run's rows, in the order {@link AfterRun#ofRun} runs them. */
final class RunSteps {
    private RunSteps() {}

    /** The experiments' findings, which the summary and the report read as data. */
    static final class WriteFindings extends AfterRun {
        WriteFindings() {
            super(List.of(RunDir.MATRIX, RunDir.KEPT), List.of("findings.json", "findings"), false);
        }

        @Override
        void run(AfterRun.State s) throws IOException {
            s.findings = RunFindings.write(s.dir().dir(), s.experiments());
        }
    }

    /** The summary, with each row held against --fail-on (environment.json copied into summary.json for tools); to the terminal too. */
    static final class WriteSummary extends AfterRun {
        WriteSummary() {
            super(List.of(RunDir.MATRIX, RunDir.ENVIRONMENT, "raw/", "findings"), List.of("summary.json", "summary.txt", "out", "breached"), false);
        }

        @Override
        void run(AfterRun.State s) throws IOException {
            RunDir dir = s.dir();
            List<DataRow> rows = dir.rows();
            Map<Integer, List<String>> breaches = new LinkedHashMap<>();
            if (s.failOn() != null) for (int i = 0; i < rows.size(); i++) breaches.put(i + 1, s.failOn().breached(rows.get(i)));
            RunSummary summary = RunSummary.of(rows, Histograms.of(dir.dir()), RunData.environmentCopy(dir.dir()), s.failOn() == null ? null : s.failOn().text(),
                    breaches);
            summary.write(dir.dir());
            String text = (rows.isEmpty() ? "" : Summary.render(summary)) + Summary.findings(s.findings);
            Files.writeString(dir.summary(), text);
            s.out().print(text);
            s.breached = summary.breached();
        }
    }

    /** report.html from the run folder; a report that cannot be written does not fail the run. */
    static final class WriteReport extends AfterRun {
        WriteReport() {
            super(List.of(RunDir.MATRIX, "findings.json", "summary.json", RunDir.ENVIRONMENT, RunDir.KEPT, "raw/"), List.of("report.html", "charts/", "out"), false);
        }

        @Override
        void run(AfterRun.State s) {
            Report.afterRun(s.dir().dir(), s.out());
        }
    }

    /** Each experiment's own step over its rows (ab's verdict). */
    static final class ExperimentsAfterRun extends AfterRun {
        ExperimentsAfterRun() {
            super(List.of(RunDir.MATRIX), List.of("what each experiment writes (Experiment.afterRun)", "out"), false);
        }

        @Override
        void run(AfterRun.State s) throws IOException {
            RunFindings.afterRun(s.dir().dir(), s.experiments(), s.out());
        }
    }

    /** Where the results are, and the exit code the run earned: after any run, interrupted ones too. */
    static final class ExitCode extends AfterRun {
        ExitCode() {
            super(List.of("breached"), List.of("out", "code"), true);
        }

        @Override
        void run(AfterRun.State s) {
            Runner.Outcome done = s.done();
            s.out().println("vtlab: results in " + done.dir().dir() + " (matrix.csv, summary.txt, summary.json, environment.json, kept.json, raw/)");
            s.code = ExitCodes.ofRun(done.complete(), done.failed(), s.breached);
            if (s.code == ExitCodes.ROWS_FAILED) {
                s.out().println("vtlab: " + done.failed() + " row(s) failed" + (done.stopped() == null ? "" : ", " + done.notRun() + " not run (the run stopped)") + ": exit code 1");
            } else if (s.code == ExitCodes.THRESHOLDS) {
                s.out().println("vtlab: thresholds breached (--fail-on " + s.failOn().text() + "): exit code 99");
            }
        }
    }
}
