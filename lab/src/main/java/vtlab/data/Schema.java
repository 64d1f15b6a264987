package vtlab.data;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The columns of a dataset in header order; a name has one declaration. */
public final class Schema {
    private final Map<String, Column> byName = new LinkedHashMap<>();

    private Schema(Collection<Column> columns) {
        for (Column c : columns) {
            Column old = byName.putIfAbsent(c.name(), c);
            // the same declaration may come twice (every generator shares LoadResult's); two different ones may not
            if (old != null && !old.equals(c)) throw new IllegalArgumentException("column " + c.name() + " is declared twice");
        }
    }

    public static Schema of(Collection<Column> columns) {
        return new Schema(columns);
    }

    /** The columns named in {@code first} (all must be declared) in that order, then the rest in declaration order. */
    public static Schema ordered(List<String> first, Collection<Column> columns) {
        Schema all = new Schema(columns);
        List<Column> out = new ArrayList<>();
        for (String n : first) out.add(all.column(n));
        all.byName.values().stream().filter(c -> !first.contains(c.name())).forEach(out::add);
        return new Schema(out);
    }

    public List<Column> columns() {
        return List.copyOf(byName.values());
    }

    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    public boolean declares(String name) {
        return byName.containsKey(name);
    }

    /** The declared column of that name; an undeclared name is a programming error, not a value to drop. */
    public Column column(String name) {
        Column c = byName.get(name);
        if (c == null) throw new IllegalArgumentException("column " + name + " is not declared");
        return c;
    }

    public int size() {
        return byName.size();
    }
}
