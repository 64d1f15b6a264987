package vtlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.experiment.registry.RunFindings;
import vtlab.report.Report;

/** ./vtlab report RUN_DIR: recomputes the experiments' findings of a run (findings.json), then rewrites its report. */
public final class ReportCommand implements Command {
    @Override
    public String name() {
        return "report";
    }

    @Override
    public String help() {
        return """
                Usage: ./vtlab report RUN_DIR
                  (re)writes a run's findings.json, summary and report.html with its charts/ (every run does this at
                  its end); RUN_DIR is a run folder, or its name under results/ (e.g. latest).
                  Exit code 2 when RUN_DIR is no run folder.
                """;
    }

    @Override
    public int run(Options o, List<String> args, PrintStream out) throws IOException, UsageError {
        List<String> unknown = o.unknown(Main.withHelp(options()));
        if (!unknown.isEmpty()) throw new UsageError("option --" + unknown.getFirst() + " is not known to report (usage: ./vtlab report RUN_DIR)");
        if (args.size() != 1) throw new UsageError("usage: ./vtlab report RUN_DIR (a folder under results/, e.g. results/latest)");
        Path dir = runFolder(args.getFirst());
        vtlab.data.RunDir.existing(dir); // refuses a folder that is not a run's before anything is written into it
        // findings follow this build's experiments, as the report always did
        RunFindings.write(dir, RunFindings.experimentsOf(dir));
        // runs from before summary.json, or stopped before writing it; a run's own (with its thresholds) is kept
        if (!Files.exists(dir.resolve(vtlab.report.RunSummary.FILE))) vtlab.report.RunSummary.of(vtlab.report.RunData.load(dir)).write(dir);
        Report.Written w = Report.write(dir);
        out.println("vtlab: report " + w.html());
        if (!w.figures().isEmpty()) out.println("vtlab: figures " + w.html().resolveSibling("charts") + " (" + w.figures().size() + " files)");
        return 0;
    }

    /** A path as given, else a folder of that name under the lab's results/ (so "latest" works from anywhere). */
    static Path runFolder(String arg) throws UsageError {
        Path p = Path.of(arg);
        if (Files.isDirectory(p)) return p;
        Path underResults = vtlab.core.LabHome.get().resolve("results").resolve(arg);
        if (!p.isAbsolute() && Files.isDirectory(underResults)) return underResults;
        throw new UsageError(arg + " is not a run folder (no such directory)");
    }
}
