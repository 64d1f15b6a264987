package vtlab.check;

import java.util.ArrayList;
import java.util.List;

import vtlab.data.Rows;

import vtlab.data.Column;

/**
 * The checks every row carries, so no number is taken on faith: achieved vs theoretical bound, Little's law
 * (connections = throughput x mean latency in a closed model), and whether a tier (above all the generator) was
 * saturated.
 */
public final class Validity {
    /** A tier at or above this share of its cores is saturated. */
    public static final double SATURATED = 0.90;
    /** Little's law tolerance. */
    public static final double LITTLE_TOLERANCE = 0.10;

    public static final Column BOUND_RATIO = Column.number("bound_ratio", "ratio", "throughput over the theoretical bound (empty: no bound)");
    public static final Column LITTLE_RATIO = Column.number("littles_law_ratio", "ratio", "throughput x mean latency over connections (1 = closed model held)");
    public static final Column LITTLE_OK = Column.bool("littles_law_ok", "Little's law ratio within tolerance on the low side");
    public static final Column GENERATOR_BOUND = Column.bool("generator_bound", "the generator saturated its cores (empty: no CPU reading)");
    public static final Column FLAGS = Column.text("flags", "validity flags (generator-bound;littles-law;errors;...)");
    public static final Column STATUS = Column.text("status", "ok, flagged (a voiding flag) or failed (no numbers)");
    public static final Column NOTE = Column.text("note", "why a row is flagged or failed, and probe errors");

    /** The columns the checks fill. */
    public static final List<Column> COLUMNS = List.of(BOUND_RATIO, LITTLE_RATIO, LITTLE_OK, GENERATOR_BOUND, FLAGS, STATUS, NOTE);

    private Validity() {}

    public static Double boundRatio(double rps, Double boundRps) {
        return boundRps == null || boundRps <= 0 ? null : rps / boundRps;
    }

    /** In a closed model every connection always has one request outstanding: L = lambda x W. */
    public static double littlesLawRatio(int connections, double rps, double meanLatencyMs) {
        return connections == 0 ? 0 : rps * meanLatencyMs / 1000.0 / connections;
    }

    /**
     * In a closed model L = X x W cannot exceed the connections, so a ratio well below 1 means connections sat idle
     * (the generator did not keep the model closed): the row is void. A ratio above 1 is not a fault of the SUT:
     * wrk corrects its latency histogram for coordinated omission (stats_correct) before reporting, which raises
     * the mean it gives whenever there is a tail, most on microsecond workloads. So only the low side is checked.
     */
    public static boolean littlesLawOk(double ratio) {
        return ratio >= 1 - LITTLE_TOLERANCE;
    }

    /** cpuPct as top shows it (100 = one core) against the cores the tier is pinned to. */
    public static boolean saturated(Double cpuPct, int cores) {
        return cpuPct != null && cores > 0 && cpuPct >= SATURATED * 100 * cores;
    }

    /** Flags to attach to a finished row; an empty list means the row's numbers stand. */
    public static List<String> flags(Inputs in) {
        List<String> f = new ArrayList<>();
        if (saturated(in.loadCpuPct(), in.loadCores())) f.add("generator-bound");
        if (!littlesLawOk(in.littleRatio())) f.add("littles-law");
        if (in.errorRate() > 0.001) f.add("errors");
        if (in.maxConnections() != null && in.connections() > in.maxConnections()) f.add("over-max-connections");
        boolean appBound = saturated(in.appCpuPct(), in.appCores());
        if (appBound) f.add("app-cpu-bound");
        Double ratio = boundRatio(in.rps(), in.boundRps());
        if (ratio != null && ratio > 1.05) f.add("above-bound");
        if (ratio != null && ratio < 0.90 && !appBound) f.add("below-bound");
        return f;
    }

    /** Flags that void a row as evidence: the rule lives with the readers of rows (see {@link Rows#voids}). */
    public static boolean voids(String flag) {
        return Rows.voids(flag);
    }

    public record Inputs(int connections, double rps, double errorRate, double littleRatio, Double loadCpuPct,
                         int loadCores, Double appCpuPct, int appCores, Integer maxConnections, Double boundRps) {}
}
