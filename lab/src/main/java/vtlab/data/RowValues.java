package vtlab.data;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** One row's values keyed by declared column; a value of the wrong kind is refused when put. */
public final class RowValues {
    private final Map<Column, Object> values = new LinkedHashMap<>();

    public synchronized RowValues put(Column c, Object value) {
        if (!c.kind().accepts(value)) {
            throw new IllegalArgumentException("column " + c.name() + " takes " + c.kind() + ", not "
                    + value.getClass().getSimpleName() + " " + value);
        }
        values.put(c, value);
        return this;
    }

    public synchronized Object get(Column c) {
        return values.get(c);
    }

    /** The value of the column of that name, or null. */
    public synchronized Object get(String name) {
        for (Map.Entry<Column, Object> e : values.entrySet()) if (e.getKey().name().equals(name)) return e.getValue();
        return null;
    }

    public synchronized Double number(Column c) {
        return values.get(c) instanceof Number n ? n.doubleValue() : null;
    }

    public synchronized RowValues putAll(RowValues other) {
        other.asMap().forEach(this::put);
        return this;
    }

    /** The row as matrix.csv holds it (column name -> formatted value), as rows read back are. */
    public synchronized Map<String, String> asText() {
        Map<String, String> m = new LinkedHashMap<>();
        values.forEach((c, v) -> m.put(c.name(), Dataset.format(v)));
        return m;
    }

    public synchronized Map<Column, Object> asMap() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
