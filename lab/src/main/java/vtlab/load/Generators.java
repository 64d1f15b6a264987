package vtlab.load;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import vtlab.core.UsageError;

/** The generators selectable with --generator NAME. */
public final class Generators {
    private static final Map<String, Supplier<Generator>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("wrk", WrkGenerator::new);
        ALL.put("hey", HeyGenerator::new);
        ALL.put("oha", OhaGenerator::new);
    }

    private Generators() {}

    public static Map<String, Supplier<Generator>> all() {
        return ALL;
    }

    public static Generator byName(String name) throws UsageError {
        Supplier<Generator> g = ALL.get(name);
        if (g == null) throw new UsageError("unknown generator '" + name + "' (known: " + String.join(", ", ALL.keySet()) + ")");
        return g.get();
    }
}
