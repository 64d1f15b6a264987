package vtlab.data;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * matrix.csv of a run. Each row is appended and flushed (and forced to disk) as soon as it is finished, so an
 * interrupted run keeps every finished row whole. The header is the schema's; a value for a column the schema does
 * not declare is refused (it would otherwise never reach the file).
 */
public final class Dataset implements AutoCloseable {
    private final Path file;
    private final Writer out;
    private final Schema schema;

    public Dataset(Path file, Schema schema) throws IOException {
        this.file = file;
        this.schema = schema;
        boolean fresh = !Files.exists(file) || Files.size(file) == 0;
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (fresh) {
            out.write(String.join(",", schema.names()) + "\n");
            out.flush();
        }
    }

    public Path file() {
        return file;
    }

    public Schema schema() {
        return schema;
    }

    public synchronized void append(RowValues row) throws IOException {
        for (Column c : row.asMap().keySet()) {
            if (!schema.declares(c.name())) throw new IllegalArgumentException("column " + c.name() + " is not in this dataset's schema");
        }
        List<String> cells = new ArrayList<>(schema.size());
        for (Column c : schema.columns()) cells.add(csv(format(row.get(c.name()))));
        out.write(String.join(",", cells) + "\n");
        out.flush();
    }

    /** A row by column name (fixtures, tools); every name must be declared and every value of its column's kind. */
    public void append(Map<String, Object> row) throws IOException {
        RowValues v = new RowValues();
        row.forEach((name, value) -> v.put(schema.column(name), value));
        append(v);
    }

    /** Numbers without a needless ".0", doubles to 3 decimals at most; empty for absent values. */
    public static String format(Object v) {
        if (v == null) return "";
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) return "";
            if (d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString((long) d);
            return String.format(java.util.Locale.ROOT, "%.3f", d).replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return v.toString();
    }

    /** A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. */
    public static String csv(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n")) return "\"" + s.replace("\"", "\"\"") + "\"";
        return s;
    }

    /**
     * Reads a matrix.csv back (for the summary, report and compare). A record with more fields than the header, or
     * with fewer anywhere but at the end (a row torn by a crash mid-write), is refused: the cells would land under the
     * wrong columns.
     */
    public static List<Map<String, String>> read(Path file) throws IOException {
        List<Map<String, String>> rows = new ArrayList<>();
        List<List<String>> records = parse(Files.readString(file));
        if (records.isEmpty()) return rows;
        List<String> header = records.getFirst();
        for (int k = 1; k < records.size(); k++) {
            int n = records.get(k).size();
            if (n > header.size() || (n < header.size() && k < records.size() - 1)) {
                throw new IOException(file.getFileName() + ": record " + k + " has " + n + " fields, the header " + header.size());
            }
        }
        for (List<String> r : records.subList(1, records.size())) {
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) m.put(header.get(i), i < r.size() ? r.get(i) : "");
            rows.add(m);
        }
        return rows;
    }

    /** The column names of a dataset's header, empty when the file is empty. */
    public static List<String> header(Path file) throws IOException {
        List<List<String>> records = parse(Files.readString(file));
        return records.isEmpty() ? List.of() : List.copyOf(records.getFirst());
    }

    /** A dataset read back as typed rows, numbered from 1 in file order (see {@link #read} for what is refused). */
    public static List<DataRow> rows(Path file) throws IOException {
        return DataRow.numbered(read(file));
    }

    /** RFC 4180 parsing: quoted fields may hold commas, quotes and newlines. */
    static List<List<String>> parse(String text) {
        List<List<String>> out = new ArrayList<>();
        List<String> rec = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false, any = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    f.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    f.append(c);
                }
            } else if (c == '"') {
                quoted = true;
                any = true;
            } else if (c == ',') {
                rec.add(f.toString());
                f.setLength(0);
                any = true;
            } else if (c == '\n') {
                rec.add(f.toString());
                out.add(rec);
                rec = new ArrayList<>();
                f.setLength(0);
                any = false;
            } else if (c != '\r') {
                f.append(c);
                any = true;
            }
        }
        if (any || f.length() > 0) {
            rec.add(f.toString());
            out.add(rec);
        }
        return out;
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
