package vtlab.experiment;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Rows;
import vtlab.proc.CoreMap;

/** What the findings of the I/O and reactive experiments share: evidence rows only, means, params, percentages. */
public final class RowStats {
    private RowStats() {}

    /**
     * The line that says which rows were left out and why, e.g. "2 row(s) not used as evidence: failed 1; flagged 1
     * (littles-law 1)", or null when every row is usable.
     */
    public static String notUsed(List<DataRow> rows) {
        List<vtlab.data.DataRow> out = rows.stream().filter(r -> !r.ok()).toList();
        if (out.isEmpty()) return null;
        long failed = out.stream().filter(vtlab.data.DataRow::failed).count();
        Map<String, Long> flags = new java.util.TreeMap<>();
        out.stream().filter(vtlab.data.DataRow::flagged)
                .flatMap(r -> r.flags().stream())
                .filter(f -> !f.isEmpty() && vtlab.data.Rows.voids(f)).forEach(f -> flags.merge(f, 1L, Long::sum));
        List<String> parts = new java.util.ArrayList<>();
        if (failed > 0) parts.add("failed " + failed);
        long flagged = out.size() - failed;
        if (flagged > 0) {
            parts.add("flagged " + flagged + (flags.isEmpty() ? "" : " (" + String.join(", ",
                    flags.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList()) + ")"));
        }
        return out.size() + " row(s) not used as evidence: " + String.join("; ", parts)
                + (flags.containsKey("littles-law") ? "; littles-law: the generator's latencies do not account for its"
                + " connections (starved or unevenly served connections, or latency tails wrk's correction inflates)" : "");
    }

    public static double rps(List<DataRow> rows, Predicate<DataRow> which) {
        return Rows.mean(rows, which, Columns.RPS);
    }

    /**
     * a's throughput against b's in percent, over the values of {@code pairBy} (e.g. concurrency) where both have rows,
     * so a missing (flagged) row on one side does not tilt the comparison. NaN when no value is shared.
     */
    public static double pairedPct(List<DataRow> rows, Predicate<DataRow> a, Predicate<DataRow> b,
                            java.util.function.Function<DataRow, String> pairBy) {
        java.util.Set<String> shared = new java.util.LinkedHashSet<>(rows.stream().filter(a).map(pairBy).toList());
        shared.retainAll(rows.stream().filter(b).map(pairBy).toList());
        if (shared.isEmpty()) return Double.NaN;
        Predicate<DataRow> in = r -> shared.contains(pairBy.apply(r));
        return pct(rps(rows, a.and(in)), rps(rows, b.and(in)));
    }

    /** a against b in percent (+12 % = a is 12 % higher), NaN when either is missing. */
    public static double pct(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? Double.NaN : (a / b - 1) * 100;
    }

    public static String signedPct(double p) {
        return Double.isNaN(p) ? "n/a" : String.format(Locale.ROOT, "%+.0f %%", p);
    }

    public static String n0(double d) {
        return Double.isNaN(d) ? "n/a" : String.format(Locale.ROOT, "%,.0f", d);
    }

    /** CPUs the SUT ran on (the app_cpus column, a taskset list), or 0 when unknown. */
    public static int appCores(List<DataRow> rows) {
        for (DataRow r : rows) {
            String cpus = r.text(Columns.APP_CPUS);
            if (cpus.isBlank()) continue;
            try {
                return CoreMap.parse(cpus, Integer.MAX_VALUE).length;
            } catch (IllegalArgumentException e) {
                return 0;
            }
        }
        return 0;
    }

    /** 1024 -> "1 KB", 10 -> "10 B", 1048576 -> "1 MB" (binary units, as the sizes are given). */
    public static String size(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) return (bytes >> 20) + " MB";
        if (bytes >= 1024 && bytes % 1024 == 0) return (bytes >> 10) + " KB";
        return bytes + " B";
    }

    /** Sizes like 10, 1k, 100KB, 1m, 1MB as bytes (binary units). */
    public static long parseSize(String s) throws IllegalArgumentException {
        String v = s.trim().toLowerCase(Locale.ROOT).replace("_", "");
        long unit = 1;
        if (v.endsWith("b")) v = v.substring(0, v.length() - 1);
        if (v.endsWith("k")) {
            unit = 1024;
            v = v.substring(0, v.length() - 1);
        } else if (v.endsWith("m")) {
            unit = 1024 * 1024;
            v = v.substring(0, v.length() - 1);
        }
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is not a size like 10, 1k, 100KB or 1MB");
        }
        if (n < 1) throw new IllegalArgumentException("size must be positive, not '" + s + "'");
        return n * unit;
    }

    /**
     * The rows a finding may stand on (status ok); when there are none, says so in {@code out}, with why the rows
     * were left out, and returns an empty list.
     */
    public static List<DataRow> evidence(List<DataRow> rows, List<String> out) {
        List<DataRow> ok = Rows.valid(rows);
        if (ok.isEmpty() && !rows.isEmpty()) out.add("nothing to conclude: " + notUsed(rows));
        return ok;
    }
}
