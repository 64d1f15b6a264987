package vtlab.experiment.capacity;

import java.util.List;
import java.util.Map;

/** The search's own rules, for the end-to-end test in another package (they stay package-private in the lab). */
public final class CapacitySearchAccess {
    private CapacitySearchAccess() {}

    /** The rate the search asks for after these rows, from and capped as the test's run was. */
    public static Double next(List<Map<String, String>> rows, double from, double maxRate) {
        return CapacitySearch.nextRate(vtlab.data.DataRow.numbered(rows), from, maxRate);
    }

    public static boolean passes(Map<String, String> r) {
        return CapacitySearch.passes(vtlab.data.DataRow.of(r));
    }
}
