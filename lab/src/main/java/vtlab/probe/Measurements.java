package vtlab.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What probes report for one row: dataset columns (by column name) and per-second series for the report's
 * over-time charts.
 */
public final class Measurements {
    private final Map<String, Object> columns = new LinkedHashMap<>();
    private final Map<String, List<double[]>> series = new LinkedHashMap<>();

    public synchronized void put(String column, Object value) {
        columns.put(column, value);
    }

    /** Keeps the largest value seen for a column. */
    public synchronized void max(String column, double value) {
        Object old = columns.get(column);
        if (!(old instanceof Number n) || n.doubleValue() < value) columns.put(column, value);
    }

    public synchronized void point(String series, double second, double value) {
        this.series.computeIfAbsent(series, k -> new ArrayList<>()).add(new double[] {second, value});
    }

    public synchronized Map<String, Object> columns() {
        return new LinkedHashMap<>(columns);
    }

    public synchronized Map<String, List<double[]>> series() {
        return new LinkedHashMap<>(series);
    }
}
