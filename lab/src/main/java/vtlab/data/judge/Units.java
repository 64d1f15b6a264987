package vtlab.data.judge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The unit of a claim is the fork, a fresh JVM: the iterations one JVM ran share its JIT, heap layout and placement,
 * so they are one sample of the noise between JVMs, not several. Counted as independent they shrink the interval by
 * √iterations and make noise a claim (--iterations 3 tripled n). Here each unit's values are averaged into one.
 */
public final class Units {
    private Units() {}

    /**
     * One mean per unit, in the order units first appear; a value without a unit (blank or null key: a run before
     * forks) is a unit of its own. NaN values are left out, a unit with none is left out.
     */
    public static double[] means(List<Double> values, List<String> units) {
        Map<String, List<Double>> by = new LinkedHashMap<>();
        for (int i = 0; i < values.size(); i++) {
            String u = units.get(i);
            double v = values.get(i) == null ? Double.NaN : values.get(i);
            if (Double.isNaN(v)) continue;
            by.computeIfAbsent(u == null || u.isBlank() ? "#" + i : u, k -> new ArrayList<>()).add(v);
        }
        return by.values().stream().mapToDouble(l -> l.stream().mapToDouble(Double::doubleValue).average().orElseThrow()).toArray();
    }
}
