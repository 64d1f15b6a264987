package vtlab.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.data.Column;
import vtlab.data.RowValues;

/**
 * What probes report for one row: values of their declared columns and per-second series for the report's
 * over-time charts.
 */
public final class Measurements {
    private final RowValues columns = new RowValues();
    private final Map<String, List<double[]>> series = new LinkedHashMap<>();

    public synchronized void put(Column column, Object value) {
        columns.put(column, value);
    }

    /** Keeps the largest value seen for a column (as a long for integer columns). */
    public synchronized void max(Column column, double value) {
        if (columns.get(column) instanceof Number n && n.doubleValue() >= value) return;
        columns.put(column, column.kind() == Column.Kind.INTEGER ? (Object) Math.round(value) : (Object) value);
    }

    public synchronized void point(String series, double second, double value) {
        this.series.computeIfAbsent(series, k -> new ArrayList<>()).add(new double[] {second, value});
    }

    public synchronized RowValues columns() {
        return new RowValues().putAll(columns);
    }

    /** A copy, lists too: a probe's reader thread appends points while the row (or a test) reads them. */
    public synchronized Map<String, List<double[]>> series() {
        Map<String, List<double[]>> out = new LinkedHashMap<>();
        series.forEach((k, v) -> out.put(k, List.copyOf(v)));
        return out;
    }
}
