package vtlab.experiment.capacity;

import java.util.List;
import java.util.Map;

/** The search's own rules, for the end-to-end test in another package (they stay package-private in the lab). */
public final class CapacitySearchAccess {
    private CapacitySearchAccess() {}

    /** The rate the search asks for after these rows (the test's --from 50 and --max-rate 400). */
    public static Double next(List<Map<String, String>> rows) {
        return CapacitySearch.nextRate(rows, 50, 400);
    }

    public static boolean passes(Map<String, String> r) {
        return CapacitySearch.passes(r);
    }
}
