package vtlab.experiment.scenario;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where each key of a TOML file is: its line, by its path ("load.conc", "requests[2].weight", "values.id"), so a
 * refusal names the file, the line and the key. Jackson's TOML reader (the one the topology file is read with) gives
 * a tree without positions; this reads the lines for the tables ([t], [[t]]) and the keys (k = ...) the lab's files
 * use. A key inside an inline table or a multi-line array is at the line of the key that holds it.
 */
final class TomlLines {
    private static final Pattern TABLE = Pattern.compile("^\\s*\\[\\s*([A-Za-z0-9_.\"-]+)\\s*]\\s*(#.*)?$");
    private static final Pattern ARRAY_TABLE = Pattern.compile("^\\s*\\[\\[\\s*([A-Za-z0-9_.\"-]+)\\s*]]\\s*(#.*)?$");
    private static final Pattern KEY = Pattern.compile("^\\s*(\"[^\"]*\"|[A-Za-z0-9_-]+)\\s*=");
    private final Map<String, Integer> lines = new HashMap<>();
    private final List<String> text;

    TomlLines(String text) {
        this.text = text.lines().toList();
        Map<String, Integer> arrays = new HashMap<>();
        String table = "";
        for (int i = 0; i < this.text.size(); i++) {
            String l = this.text.get(i);
            Matcher m;
            if ((m = ARRAY_TABLE.matcher(l)).matches()) {
                String name = unquote(m.group(1));
                int n = arrays.merge(name, 1, Integer::sum);
                table = name + "[" + n + "]";
                lines.putIfAbsent(table, i + 1);
            } else if ((m = TABLE.matcher(l)).matches()) {
                table = unquote(m.group(1));
                lines.putIfAbsent(table, i + 1);
            } else if ((m = KEY.matcher(l)).find()) {
                lines.putIfAbsent((table.isEmpty() ? "" : table + ".") + unquote(m.group(1)), i + 1);
            }
        }
    }

    private static String unquote(String s) {
        return s.replace("\"", "");
    }

    /** The line of a key (1-based): its own, else its table's, else 1 (a key the reader did not find). */
    int line(String path) {
        String p = path;
        while (true) {
            Integer n = lines.get(p);
            if (n != null) return n;
            int dot = Math.max(p.lastIndexOf('.'), -1);
            if (dot < 0) return 1;
            p = p.substring(0, dot);
        }
    }

    /** The first line from the key's own line on that holds the text (an array element of a multi-line array). */
    int lineOf(String path, String literal) {
        int from = line(path);
        for (int i = from - 1; i < text.size(); i++) if (text.get(i).contains(literal)) return i + 1;
        return from;
    }
}
