package vtlab.plan;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.proc.CoreMap;

/**
 * An experiment that is not a load against a SUT (JMH benchmarks, thread memory): it measures in JVMs of its own
 * and writes its own dataset file (e.g. jmh.csv) into the run folder. Its plan() returns no rows; the runner calls
 * {@link #execute} after the load rows of the same run.
 */
public interface Study extends Experiment {

    @Override
    default List<Row> plan(Options options, PlanContext ctx) {
        return List.of();
    }

    /**
     * Parses and checks the options (UsageError before anything starts): what the runner executes later, with the
     * spec parsed here, and an estimate of its run time.
     */
    Prepared prepare(Options options, PlanContext ctx) throws UsageError;

    /** A study with its options parsed. */
    record Prepared(Study study, long seconds, Execution execution) {}

    interface Execution {
        void run(Context ctx) throws Exception;
    }

    /** The dataset file this study writes into the run folder (e.g. jmh.csv); the report shows it in its section. */
    String dataFile();

    /** How the report shows {@link #dataFile()}: by default as a table under its name. */
    default vtlab.data.StudySection section() {
        return vtlab.data.StudySection.table(dataFile());
    }

    /** Statements from a study's file: read failures become the one statement, so the report still renders. */
    interface FileFindings {
        List<String> from(Path file) throws java.io.IOException;
    }

    static List<String> findingsFrom(Path runDir, String file, FileFindings f) {
        Path p = runDir.resolve(file);
        try {
            return f.from(p);
        } catch (java.io.IOException e) {
            return List.of("could not read " + p + ": " + e.getMessage());
        }
    }

    /**
     * @param runDir   the run folder (matrix.csv, environment.json, kept.json, raw/ are the load rows'; a study adds its own files)
     * @param progress one line per step, e.g. "thread-memory platform 4000: 1/8"
     */
    record Context(PlanContext plan, Path runDir, Path raw, CoreMap cores, PrintStream out,
                   java.util.function.Consumer<String> progress) {}
}
