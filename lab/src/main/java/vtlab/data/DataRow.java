package vtlab.data;

import java.util.List;
import java.util.Map;

/** One read-back row with the {@link Rows} readers as methods, for code that walks rows one by one. */
public record DataRow(Map<String, String> cells) {
    public static List<DataRow> of(List<Map<String, String>> rows) {
        return rows.stream().map(DataRow::new).toList();
    }

    public String text(String col) {
        return Rows.text(cells, col);
    }

    public double num(String col) {
        return Rows.num(cells, col);
    }

    public String param(String key) {
        return Rows.param(cells, key);
    }

    public boolean ok() {
        return Rows.ok(cells);
    }

    public List<String> flags() {
        return Rows.flags(cells);
    }
}
