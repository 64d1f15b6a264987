package vtlab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;

import vtlab.core.UsageError;
import vtlab.data.DataRow;
import vtlab.data.Dataset;
import vtlab.data.Findings;
import vtlab.data.RunDir;
import vtlab.data.RunKept;
import vtlab.data.StudySection;

/**
 * A finished (or interrupted) run folder read back: matrix.csv rows numbered as the runner wrote them, the per-second
 * series and the latency histogram (raw/, .hlog) of each row, environment.json (shown to people: the page's
 * environment, compare's), kept.json (what the verdicts decide from: how the run ended), findings.json (the
 * experiments' findings and the studies' sections, written by the CLI), the studies' data files and pinning files.
 * Every file but the folder itself may be missing or partial.
 */
public final class RunData {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final List<DataRow> rows;
    private final Map<Integer, Map<String, List<double[]>>> series;
    private final JsonNode environment;
    private final RunKept kept;
    private final String summary;
    private final Findings findings;
    /** Each study section with its data file's rows, in findings.json's order; files that are absent are left out. */
    private final Map<StudySection, List<DataRow>> studies = new LinkedHashMap<>();
    private final Map<String, List<DataRow>> otherCsv;
    private final Map<String, String> pinningText;
    private final List<String> problems = new ArrayList<>();
    private final Map<DataRow, Integer> indexes = new java.util.IdentityHashMap<>();
    private final Histograms histograms;

    private RunData(Path dir) {
        this.dir = dir;
        this.rows = matrixRows(new RunDir(dir));
        this.series = readSeries(dir.resolve("series.jsonl"));
        this.environment = readJson(new RunDir(dir).environmentJson());
        this.kept = RunKept.read(new RunDir(dir));
        this.summary = text(dir.resolve("summary.txt"));
        this.findings = readFindings(dir);
        this.histograms = new Histograms(dir.resolve("raw"), problems);
        // files with a section of their own; other CSV files are shown as plain tables
        Set<String> known = new java.util.HashSet<>(Set.of(RunDir.MATRIX));
        for (StudySection s : findings.sections()) {
            if (!known.add(s.dataFile())) continue;
            List<DataRow> r = csv(dir.resolve(s.dataFile()));
            if (!r.isEmpty()) studies.put(s, r);
        }
        this.otherCsv = new LinkedHashMap<>();
        this.pinningText = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                String n = f.getFileName().toString();
                if (!Files.isRegularFile(f) || known.contains(n) || n.equals(Findings.FILE)) continue;
                if (n.endsWith(".csv")) otherCsv.put(n, csv(f));
                else if (n.toLowerCase(java.util.Locale.ROOT).contains("pinn") && Files.size(f) < 4_000_000) pinningText.put(n, text(f));
            }
        } catch (IOException e) {
            problems.add("could not list " + dir + ": " + e.getMessage());
        }
    }

    /** Reads a run folder; refuses (UsageError) a path that is not one, or a corrupt matrix.csv ({@link RunDir#existing}). */
    public static RunData load(Path dir) throws UsageError {
        RunDir.existing(dir);
        return new RunData(dir.toAbsolutePath().normalize());
    }

    public Path dir() {
        return dir;
    }

    public String name() {
        return dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
    }

    /** matrix.csv rows; row k (1-based) is the runner's k-th row, as in its raw file names. */
    public List<DataRow> rows() {
        return rows;
    }

    /** 1-based number of a matrix row (its anchor in the report is "row-N"). */
    public int index(DataRow row) {
        if (indexes.isEmpty()) for (int i = 0; i < rows.size(); i++) indexes.put(rows.get(i), i + 1);
        return indexes.getOrDefault(row, -1);
    }

    /** Anchor of a matrix row in the report. */
    public String anchor(DataRow row) {
        return "row-" + index(row);
    }

    /** Per-second series of matrix row k, empty when none was recorded. */
    public Map<String, List<double[]>> series(int k) {
        return series.getOrDefault(k, Map.of());
    }

    /** environment.json, for people: the page's environment section, compare's, summary.json's copy. */
    public JsonNode environment() {
        return environment;
    }

    /**
     * A run folder's environment.json as summary.json copies it for tools, null without one; the lab decides nothing
     * from it (what it reads back is {@link #kept}).
     */
    public static JsonNode environmentCopy(Path dir) throws IOException {
        Path f = new RunDir(dir).environmentJson();
        return Files.exists(f) ? JSON.readTree(f.toFile()) : null;
    }

    /** What the lab kept of the run for its own reading (kept.json, or an older folder's environment.json). */
    public RunKept kept() {
        return kept;
    }

    public String summary() {
        return summary;
    }

    /** The rows' latency histograms in raw/, merged per scenario (an unreadable one is listed in {@link #problems}). */
    public Histograms histograms() {
        return histograms;
    }

    /** What the experiments said about the run (findings.json). */
    public Findings findings() {
        return findings;
    }

    /** The studies' sections with their data files' rows (only files that have rows). */
    public Map<StudySection, List<DataRow>> studies() {
        return studies;
    }

    /** The rows of a study section's data file, empty when it has none. */
    public List<DataRow> studyRows(StudySection s) {
        return studies.getOrDefault(s, List.of());
    }

    public Map<String, List<DataRow>> otherCsv() {
        return otherCsv;
    }

    public Map<String, String> pinningText() {
        return pinningText;
    }

    /** Files that could not be read, shown in the report instead of failing it. */
    public List<String> problems() {
        return problems;
    }

    /** The experiments of the run: those named in matrix.csv, then those findings.json names (studies add no matrix row). */
    public List<String> experiments() {
        Set<String> out = new LinkedHashSet<>();
        for (DataRow r : rows) if (!r.experiment().isEmpty()) out.add(r.experiment());
        out.addAll(findings.names());
        return List.copyOf(out);
    }

    public List<DataRow> rowsOf(String experiment) {
        return rows.stream().filter(r -> experiment.equals(r.experiment())).toList();
    }

    private List<DataRow> matrixRows(RunDir run) {
        try {
            return run.rows();
        } catch (IOException | RuntimeException e) {
            problems.add(RunDir.MATRIX + ": " + e.getMessage());
            return List.of();
        }
    }

    private List<DataRow> csv(Path f) {
        if (!Files.exists(f)) return List.of();
        try {
            return Dataset.rows(f);
        } catch (IOException | RuntimeException e) {
            problems.add(f.getFileName() + ": " + e.getMessage());
            return List.of();
        }
    }

    private Findings readFindings(Path dir) {
        try {
            return Findings.read(dir);
        } catch (IOException | RuntimeException e) {
            problems.add(Findings.FILE + ": " + e.getMessage());
            return Findings.none();
        }
    }

    private String text(Path f) {
        if (!Files.exists(f)) return "";
        try {
            return Files.readString(f);
        } catch (IOException e) {
            problems.add(f.getFileName() + ": " + e.getMessage());
            return "";
        }
    }

    private JsonNode readJson(Path f) {
        if (!Files.exists(f)) return NullNode.getInstance();
        try {
            return JSON.readTree(f.toFile());
        } catch (IOException e) {
            problems.add(f.getFileName() + ": " + e.getMessage());
            return NullNode.getInstance();
        }
    }

    /**
     * series.jsonl: one line per finished row, {"row": "NNN-...", "series": {name: [[second, value], ...]}}; the
     * leading number of the stem is the row's number in matrix.csv. A torn last line is skipped.
     */
    private Map<Integer, Map<String, List<double[]>>> readSeries(Path f) {
        Map<Integer, Map<String, List<double[]>>> out = new LinkedHashMap<>();
        if (!Files.exists(f)) return out;
        List<String> lines;
        try {
            lines = Files.readAllLines(f);
        } catch (IOException e) {
            problems.add(f.getFileName() + ": " + e.getMessage());
            return out;
        }
        for (String line : lines) {
            if (line.isBlank()) continue;
            try {
                JsonNode n = JSON.readTree(line);
                String stem = n.path("row").asText("");
                int k = leadingNumber(stem);
                if (k <= 0) continue;
                Map<String, List<double[]>> named = out.computeIfAbsent(k, x -> new LinkedHashMap<>());
                for (Iterator<Map.Entry<String, JsonNode>> it = n.path("series").fields(); it.hasNext(); ) {
                    var e = it.next();
                    List<double[]> pts = new ArrayList<>();
                    for (JsonNode p : e.getValue()) {
                        if (p.isArray() && p.size() >= 2 && p.get(0).isNumber() && p.get(1).isNumber()) {
                            pts.add(new double[] {p.get(0).asDouble(), p.get(1).asDouble()});
                        }
                    }
                    named.put(e.getKey(), pts);
                }
            } catch (IOException | RuntimeException e) {
                problems.add("series.jsonl: a line could not be read (" + e.getMessage() + ")");
            }
        }
        return out;
    }

    static int leadingNumber(String stem) {
        int i = 0;
        while (i < stem.length() && Character.isDigit(stem.charAt(i))) i++;
        return i == 0 ? -1 : Integer.parseInt(stem.substring(0, Math.min(i, 9)));
    }

}
