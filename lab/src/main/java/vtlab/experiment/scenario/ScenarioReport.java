package vtlab.experiment.scenario;

import java.util.List;

import vtlab.data.Columns;
import vtlab.probe.PathsProbe;

/**
 * A scenario run's outputs for CI: the thresholds as a JUnit XML report (each a test case, a breach a failure whose
 * message holds the measured values) and a Markdown summary (GitHub's job summary: GITHUB_STEP_SUMMARY).
 */
public final class ScenarioReport {
    private ScenarioReport() {}

    /** The JUnit XML of the thresholds' outcomes: one test suite, a test case per threshold. */
    public static String junit(String scenario, List<Threshold.Outcome> outcomes) {
        long failures = outcomes.stream().filter(o -> !o.passed()).count();
        StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        x.append("<testsuites name=\"vtlab\" tests=\"").append(outcomes.size()).append("\" failures=\"").append(failures).append("\">\n");
        x.append("  <testsuite name=\"vtlab scenario ").append(xml(scenario)).append("\" tests=\"").append(outcomes.size())
                .append("\" failures=\"").append(failures).append("\" errors=\"0\" skipped=\"0\">\n");
        for (Threshold.Outcome o : outcomes) {
            x.append("    <testcase classname=\"vtlab.scenario.").append(xml(scenario)).append("\" name=\"").append(xml(o.threshold().text())).append("\"");
            if (o.passed()) {
                x.append(">\n      <system-out>").append(xml(o.detail())).append("</system-out>\n    </testcase>\n");
            } else {
                x.append(">\n      <failure type=\"threshold\" message=\"").append(xml(o.threshold().text() + ": " + o.detail())).append("\">")
                        .append(xml(o.detail())).append("</failure>\n    </testcase>\n");
            }
        }
        return x.append("  </testsuite>\n</testsuites>\n").toString();
    }

    /** The Markdown summary: the verdict, each threshold with what was measured, each row with the mix at the SUT. */
    public static String markdown(String scenario, int exitCode, List<Threshold.Outcome> outcomes, List<vtlab.data.DataRow> rows,
                                  List<ScenarioExperiment.Named> requests) {
        boolean passed = outcomes.stream().allMatch(Threshold.Outcome::passed);
        StringBuilder md = new StringBuilder("## vtlab scenario ").append(scenario).append(": ")
                .append(exitCode == 0 ? "passed" : exitCode == 99 ? "thresholds breached" : "rows failed").append(" (exit code ").append(exitCode).append(")\n\n");
        if (!outcomes.isEmpty()) {
            md.append("| threshold | result | measured |\n|---|---|---|\n");
            for (Threshold.Outcome o : outcomes) {
                md.append("| `").append(o.threshold().text().replace("|", "\\|")).append("` | ").append(o.passed() ? "passed" : "**failed**")
                        .append(" | ").append(o.detail().replace("|", "\\|")).append(" |\n");
            }
            md.append('\n');
        } else if (passed) {
            md.append("No thresholds.\n\n");
        }
        md.append("| mode | load | rep | status | req/s | p99 ms | error rate | requests at the SUT |\n|---|---|---|---|---|---|---|---|\n");
        for (vtlab.data.DataRow r : rows) {
            md.append("| ").append(r.mode()).append(" | ").append(Threshold.point(r)).append(" | ").append(r.text(Columns.REP))
                    .append(" | ").append(r.status()).append(" | ").append(r.text(Columns.RPS))
                    .append(" | ").append(r.text(Columns.P99)).append(" | ").append(r.text(Columns.ERROR_RATE))
                    .append(" | ").append(ScenarioExperiment.shares(requests, r.cells().get(PathsProbe.BY_PATH.name())).replace("|", "\\|")).append(" |\n");
        }
        // a replay's fidelity to its access log, where the rows have it (Replayed's columns)
        if (rows.stream().anyMatch(r -> !r.cell(Fidelity.MIX_PP.name()).isBlank())) {
            md.append("\nFidelity to the access log (docs/scenarios.md, \"Fidelity\"):\n\n| mode | load | rep |");
            for (vtlab.data.Column c : Fidelity.COLUMNS) md.append(' ').append(c.name()).append(" |");
            md.append("\n|---|---|---|").append("---|".repeat(Fidelity.COLUMNS.size())).append('\n');
            for (vtlab.data.DataRow r : rows) {
                md.append("| ").append(r.mode()).append(" | ").append(Threshold.point(r)).append(" | ").append(r.text(Columns.REP)).append(" |");
                for (vtlab.data.Column c : Fidelity.COLUMNS) md.append(' ').append(r.cell(c.name())).append(" |");
                md.append('\n');
            }
        }
        return md.toString();
    }

    static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
