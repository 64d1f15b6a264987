package vtlab.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

import vtlab.core.UsageError;

/**
 * results/&lt;UTC timestamp&gt;-&lt;experiments&gt;/ with matrix.csv, environment.json, kept.json, raw/; results/latest
 * points at it. The one reader of matrix.csv ({@link #rows}): every consumer reads the rows here, so an absent, empty
 * or torn file means the same to the summary, the report, compare, the findings and the commands.
 */
public record RunDir(Path dir) {
    /** The rows' file name: its path is {@link #matrix} (the runner's, which writes it), its rows {@link #rows}. */
    public static final String MATRIX = "matrix.csv";
    /** The machine, the tools and the run described for people and tools: the lab decides nothing from it. */
    public static final String ENVIRONMENT = "environment.json";
    /** What the lab keeps of the run for its own later decisions ({@link RunKept}, its one reader). */
    public static final String KEPT = "kept.json";

    /** Every file and folder of a run folder with what it holds, in the order the help lists them. */
    public static final List<java.util.Map.Entry<String, String>> FILES = List.of(
            java.util.Map.entry(MATRIX, "one line per row, written as each row finishes: the seed rig's 23 columns, then vtlab's (./vtlab list columns)"),
            java.util.Map.entry(ENVIRONMENT, "CPU model and count, core map, kernel, JDKs, vtlab commit, generator, every option, run status"),
            java.util.Map.entry(KEPT, "what the lab reads back: each experiment's entry, the rows' exact JDK versions, how the run ended"),
            java.util.Map.entry("summary.txt", "the table printed at the end (per scenario and mode: req/s, p50, p99, bound, flags), then the findings"),
            java.util.Map.entry("summary.json", "the summary as data: per scenario and mode mean, 95% CI and reps, merged p50/p99, bound, flags, breaches"),
            java.util.Map.entry("findings.json", "each experiment's findings in words and each study's report section"),
            java.util.Map.entry("series.jsonl", "per row, per second of the hold: the generator's requests, errors, p50/p99 (oha, k6) and each tier's CPU, RSS, threads, GC pauses"),
            java.util.Map.entry("report.html", "the report: verdicts, charts, the rows, each row over time, validity, environment (one file, offline)"),
            java.util.Map.entry("charts/", "the report's figures as SVG and PNG"),
            java.util.Map.entry("claims.md, claims.csv", "run seeds only: every seed claim, the seed's number, this machine's, a verdict"),
            java.util.Map.entry("raw/", "per row: generator output and command, latency histogram (*.hlog, *.hgrm), SUT log, runtime-info, gc log, NMT"));

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    public static RunDir create(Path resultsRoot, List<String> experiments) throws IOException {
        Files.createDirectories(resultsRoot);
        String base = STAMP.format(Instant.now()) + "-" + String.join("+", experiments);
        Path dir = resultsRoot.resolve(base);
        for (int i = 2; Files.exists(dir); i++) dir = resultsRoot.resolve(base + "-" + i);
        Files.createDirectories(dir.resolve("raw"));
        Path latest = resultsRoot.resolve("latest");
        Files.deleteIfExists(latest);
        Files.createSymbolicLink(latest, dir.getFileName());
        return new RunDir(dir);
    }

    /** Where the runner writes the rows; a reader reads them through {@link #rows}. */
    public Path matrix() {
        return dir.resolve(MATRIX);
    }

    /**
     * The run's rows read back typed, numbered from 1 as the runner wrote them (raw/ file names, the report's row-k
     * anchors); none when the run has no matrix.csv (a run of studies only, one stopped before its first row). A torn
     * record is refused as {@link Dataset#read} says.
     */
    public List<DataRow> rows() throws IOException {
        return Files.exists(matrix()) ? Dataset.rows(matrix()) : List.of();
    }

    /**
     * A folder to read back (report, compare): refused (UsageError, on one line) when it is not a run folder, or its
     * matrix.csv cannot be read or is not one, before anything is written into it: a report of a corrupt matrix would
     * look like a result.
     */
    public static RunDir existing(Path dir) throws UsageError {
        if (!Files.isDirectory(dir)) throw new UsageError(dir + " is not a run folder (no such directory)");
        RunDir run = new RunDir(dir);
        Path matrix = run.matrix();
        if (!Files.exists(matrix) && !Files.exists(run.environmentJson())) {
            throw new UsageError(dir + " is not a run folder (no matrix.csv or environment.json in it)");
        }
        if (!Files.exists(matrix)) return run; // a run of studies only, or one stopped before its first row
        List<String> header;
        try {
            if (Files.size(matrix) == 0) return run;
            List<DataRow> rows = run.rows();
            header = rows.isEmpty() ? Dataset.header(matrix) : rows.getFirst().names();
        } catch (IOException | RuntimeException e) {
            throw new UsageError(matrix + " cannot be read: " + (e.getMessage() == null ? e.toString() : e.getMessage()).replace('\n', ' '));
        }
        if (!header.contains(Columns.EXPERIMENT.name()) || !header.contains(Columns.STATUS.name())) {
            throw new UsageError(matrix + " is not a vtlab matrix.csv (its header has no experiment or status column)");
        }
        return run;
    }

    /**
     * Where the runner writes environment.json. Named apart from the other environments (a process's, the report's)
     * so that a scan of the sources finds each class that opens the file: the lab reads no decision from it.
     */
    public Path environmentJson() {
        return dir.resolve(ENVIRONMENT);
    }

    /** Where the runner writes kept.json; a reader reads it through {@link RunKept#read}. */
    public Path kept() {
        return dir.resolve(KEPT);
    }

    public Path raw() {
        return dir.resolve("raw");
    }

    public Path series() {
        return dir.resolve("series.jsonl");
    }

    public Path summary() {
        return dir.resolve("summary.txt");
    }
}
