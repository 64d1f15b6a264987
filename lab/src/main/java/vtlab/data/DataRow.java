package vtlab.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.stack.Stack;
import vtlab.stack.ThreadMode;

/**
 * One row read back from a dataset (matrix.csv, a study's CSV), read through its columns' declarations
 * ({@link Columns}): {@code row.num(Columns.RPS)}, {@code row.mode()}. An empty or malformed cell means the same
 * everywhere: "" as text, NaN as a number. The row knows its number in its file (1-based: the runner's k-th row, as
 * in raw/ file names and the report's "row-k" anchors), so findings carry their evidence as numbers, not prose.
 */
public final class DataRow {
    private final int number;
    private final Map<String, String> cells;

    /** @param number the row's 1-based place in its file, 0 when it was not read from one */
    public DataRow(int number, Map<String, String> cells) {
        this.number = number;
        this.cells = Collections.unmodifiableMap(new LinkedHashMap<>(cells));
    }

    /** A row not read from a file (tests, a row built in memory): number 0. */
    public static DataRow of(Map<String, String> cells) {
        return new DataRow(0, cells);
    }

    /** Rows numbered 1.. in the list's order, as a file's. */
    public static List<DataRow> numbered(List<? extends Map<String, String>> rows) {
        List<DataRow> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) out.add(new DataRow(i + 1, rows.get(i)));
        return out;
    }

    /** 1-based place in its file (0: not read from one). */
    public int number() {
        return number;
    }

    /** The cell as text, "" when absent. */
    public String text(Column c) {
        return cell(c.name());
    }

    /** The cell as text, {@code absent} when the row has no such column (a file written before it existed). */
    public String text(Column c, String absent) {
        return cell(c.name(), absent);
    }

    /** The cell as a number, NaN when absent, empty or not a number. */
    public double num(Column c) {
        return parse(cells.get(c.name()));
    }

    /** Whether the cell holds anything. */
    public boolean has(Column c) {
        return !text(c).isBlank();
    }

    /**
     * A cell of a column known only at run time by its name (a metric the user names on the command line, a study
     * file's own columns, a chart's axis): "" when absent.
     */
    public String cell(String name) {
        String v = cells.get(name);
        return v == null ? "" : v;
    }

    /** A cell of a column known only by its name, or {@code absent} when the row has no such column (a study file's own). */
    public String cell(String name, String absent) {
        String v = cells.get(name);
        return v == null ? absent : v;
    }

    /** A numeric cell of a column known only by its name: NaN when absent, empty or not a number. */
    public double num(String name) {
        return parse(cells.get(name));
    }

    /** The row as its file has it: column name to cell. */
    public Map<String, String> cells() {
        return cells;
    }

    /** The columns its file has, in order. */
    public List<String> names() {
        return List.copyOf(cells.keySet());
    }

    public String experiment() {
        return text(Columns.EXPERIMENT);
    }

    /** Its thread mode: platform, virtual, reactive, ... */
    public String mode() {
        return text(Columns.THREAD_MODE);
    }

    /** What runs its requests, as its stack declares its mode (Jetty's virtual-pool: virtual; webflux's virtual-netty: an event loop). */
    public ThreadMode.Threads threads() {
        return Stack.threadsOf(text(Columns.STACK), mode());
    }

    public String status() {
        return text(Columns.STATUS);
    }

    /** Status ok: the only rows usable as evidence (flags that do not void a row are kept). */
    public boolean ok() {
        return "ok".equals(status());
    }

    public boolean failed() {
        return "failed".equals(status());
    }

    public boolean flagged() {
        return "flagged".equals(status());
    }

    /** Open model (a rate offered) rather than closed. */
    public boolean open() {
        return "open".equals(text(Columns.LOAD_MODEL));
    }

    /** The flags cell split (";"), empty entries dropped. */
    public List<String> flags() {
        return flags(text(Columns.FLAGS));
    }

    /** A value of the params cell ("sleepMs=50;maxThreads=200"), or null when the row has no such key. */
    public String param(String key) {
        return pairs(text(Columns.PARAMS)).get(key);
    }

    /** A "name=value;name=value" cell (a mix's by-request columns) as a map in its order; empty when blank. */
    public Map<String, String> byName(Column c) {
        return pairs(text(c));
    }

    /** A flags cell split (";"), empty entries dropped. */
    static List<String> flags(String cell) {
        return Arrays.stream(cell.split(";")).filter(f -> !f.isEmpty()).toList();
    }

    /** A "k=v;k2=v2" cell (params, a by-request column) as a map in its order, the first of a repeated key kept; empty when blank. */
    public static Map<String, String> pairs(String cell) {
        Map<String, String> out = new LinkedHashMap<>();
        if (cell == null) return out;
        for (String kv : cell.split(";")) {
            int eq = kv.indexOf('=');
            if (eq > 0) out.putIfAbsent(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return out;
    }

    static double parse(String v) {
        if (v == null || v.isBlank()) return Double.NaN;
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    @Override
    public String toString() {
        return "row " + number + " " + cells;
    }
}
