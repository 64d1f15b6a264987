package vtlab.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** results/<UTC timestamp>-<experiments>/ with matrix.csv, environment.json, raw/; results/latest points at it. */
public record RunDir(Path dir) {
    /** Every file and folder of a run folder with what it holds, in the order the help lists them. */
    public static final List<java.util.Map.Entry<String, String>> FILES = List.of(
            java.util.Map.entry("matrix.csv", "one line per row, written as each row finishes: the seed rig's 23 columns, then vtlab's (./vtlab list columns)"),
            java.util.Map.entry("environment.json", "CPU model and count, core map, kernel, JDKs, vtlab commit, generator, every option, run status"),
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

    public Path matrix() {
        return dir.resolve("matrix.csv");
    }

    public Path environment() {
        return dir.resolve("environment.json");
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
