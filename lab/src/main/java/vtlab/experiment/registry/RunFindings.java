package vtlab.experiment.registry;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import vtlab.core.UsageError;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.data.Findings;
import vtlab.data.Rows;
import vtlab.data.RunDir;
import vtlab.data.StudySection;
import vtlab.plan.Experiment;
import vtlab.plan.Study;

/**
 * The experiments' findings about a run folder, handed to the summary and the report as data (findings.json): the
 * report does not know the experiments, so they are computed here, after a run and again on ./vtlab report.
 */
public final class RunFindings {
    private RunFindings() {}

    /**
     * The experiments of a run folder: those named in its matrix.csv, then those in the folder's name
     * (&lt;time&gt;-a+b[-N]) for studies that add no matrix row. Only registered names are kept from the folder name.
     */
    public static List<String> experimentsOf(Path runDir) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        for (DataRow r : new RunDir(runDir).rows()) if (!r.experiment().isEmpty()) out.add(r.experiment());
        Path name = runDir.toAbsolutePath().normalize().getFileName();
        String n = name == null ? "" : name.toString();
        int dash = n.indexOf('-');
        if (dash > 0) {
            for (String part : n.substring(dash + 1).split("\\+")) {
                String p = part.replaceFirst("-\\d+$", "");
                if (Experiments.all().containsKey(p)) out.add(p);
            }
        }
        return List.copyOf(out);
    }

    /**
     * Each named experiment's findings over its rows of runDir/matrix.csv (a study reads its own file), and the
     * sections of the run's studies. Names this build does not know are left out; an experiment whose findings throw
     * gets the error instead, so one broken statement does not cost the run its summary or report.
     */
    public static Findings compute(Path runDir, List<String> experiments) throws IOException {
        List<DataRow> rows = new RunDir(runDir).rows();
        List<Findings.Entry> entries = new ArrayList<>();
        Map<String, StudySection> sections = new LinkedHashMap<>();
        for (String name : withSuiteParts(experiments)) {
            Experiment e;
            try {
                e = Experiments.byName(name);
            } catch (UsageError ex) {
                continue;
            }
            StudySection section = e instanceof Study s ? s.section() : e instanceof vtlab.plan.Suite s ? s.section() : null;
            if (section != null) sections.putIfAbsent(section.dataFile(), section); // studies sharing a file share its section
            List<DataRow> own = Rows.ofExperiment(rows, name);
            // findings written for closed rows (plateaus at N connections, Little's law) would misread open ones:
            // those speak through the summary's rows and the report's latency-vs-rate chart
            if (!e.readsOpenRows()) own = own.stream().filter(r -> !r.open()).toList();
            List<Finding> lines = List.of();
            String error = null;
            try {
                lines = e.findings(runDir, own);
                // where each request's time went (the profile probe), for every experiment but ab, whose verdict says it
                if (!name.equals(vtlab.experiment.ab.AbExperiment.NAME)) {
                    List<Finding> time = vtlab.data.RequestTime.findings(own, vtlab.data.Grouping::variant);
                    if (!time.isEmpty()) {
                        lines = new ArrayList<>(lines);
                        lines.addAll(time);
                    }
                }
            } catch (RuntimeException ex) {
                error = ex.toString();
            }
            entries.add(new Findings.Entry(name, e.summary(), lines, error, section == null ? null : section.anchor()));
        }
        return new Findings(entries, List.copyOf(sections.values()));
    }

    /** After a run that finished: each experiment's {@link Experiment#afterRun} over its own rows. */
    public static void afterRun(Path runDir, List<String> experiments, java.io.PrintStream out) throws IOException {
        List<DataRow> rows = new RunDir(runDir).rows();
        for (String name : withSuiteParts(experiments)) {
            Experiment e;
            try {
                e = Experiments.byName(name);
            } catch (UsageError ex) {
                continue;
            }
            e.afterRun(runDir, Rows.ofExperiment(rows, name), out);
        }
    }

    /** A suite's parts before the suite itself (its findings read theirs' rows), each name once. */
    static List<String> withSuiteParts(List<String> experiments) {
        Set<String> out = new LinkedHashSet<>();
        for (String name : experiments) {
            if (Experiments.all().get(name) instanceof vtlab.plan.Suite s) s.parts().forEach(p -> out.add(p.experiment()));
        }
        out.addAll(experiments);
        List<String> ordered = new ArrayList<>(out);
        // the suites last: their findings speak about every part
        ordered.sort(java.util.Comparator.comparing(n -> Experiments.all().get(n) instanceof vtlab.plan.Suite ? 1 : 0));
        return ordered;
    }

    /** Computes the findings and writes runDir/findings.json; returns them. */
    public static Findings write(Path runDir, List<String> experiments) throws IOException {
        Findings f = compute(runDir, experiments);
        f.write(runDir);
        return f;
    }
}
