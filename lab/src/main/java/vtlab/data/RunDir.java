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
