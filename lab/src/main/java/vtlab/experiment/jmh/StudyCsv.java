package vtlab.experiment.jmh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import vtlab.data.Dataset;

/**
 * A study's own dataset file in the run folder (jmh.csv, thread-memory.csv): fixed columns, header written once, each
 * row appended as soon as it is measured, so studies of one run share a file and an interrupted run keeps its rows.
 * Values are formatted as in matrix.csv; {@link Dataset#read} reads them back.
 */
public final class StudyCsv {
    private final Path file;
    private final List<String> columns;

    public StudyCsv(Path file, List<String> columns) {
        this.file = file;
        this.columns = List.copyOf(columns);
    }

    public Path file() {
        return file;
    }

    public synchronized void append(Map<String, ?> row) throws IOException {
        StringBuilder sb = new StringBuilder();
        if (!Files.exists(file) || Files.size(file) == 0) sb.append(String.join(",", columns)).append('\n');
        List<String> cells = new ArrayList<>(columns.size());
        for (String c : columns) cells.add(quote(Dataset.format(row.get(c))));
        sb.append(String.join(",", cells)).append('\n');
        Files.writeString(file, sb, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    static String quote(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n")) return "\"" + s.replace("\"", "\"\"") + "\"";
        return s;
    }
}
