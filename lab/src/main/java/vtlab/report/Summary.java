package vtlab.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import vtlab.data.Grouping;
import vtlab.data.Rows;

/**
 * The end-of-run table, per experiment: one line per scenario and thread-mode variant, reps averaged (with their
 * spread; p50/p99 from the reps' merged latency histogram when each has one), speedup against the platform variant
 * of the same scenario, and every flag. Built from matrix.csv rows and raw/ so it can be regenerated from a finished run.
 */
public final class Summary {
    private Summary() {}

    /** Marks p50/p99 cells taken from the merged histogram rather than the mean of the reps' cells. */
    static final String MERGED = "*";

    public static String render(List<Map<String, String>> rows, Histograms histograms) {
        StringBuilder sb = new StringBuilder();
        boolean[] anyMerged = {false}, anyMean = {false};
        Map<String, List<Map<String, String>>> byExperiment = rows.stream()
                .collect(Collectors.groupingBy(r -> r.get("experiment"), LinkedHashMap::new, Collectors.toList()));
        byExperiment.forEach((exp, expRows) -> {
            sb.append("\n== ").append(exp).append(" ==\n");
            Map<String, List<Map<String, String>>> groups = expRows.stream().filter(r -> !Rows.failed(r))
                    .collect(Collectors.groupingBy(Grouping::comparison, LinkedHashMap::new, Collectors.toList()));
            // As wide as the longest scenario (28 to 48): sweeps over a knob (e.g. bytes=1048576) stay told apart.
            int width = Math.max(28, Math.min(48, groups.keySet().stream().mapToInt(g -> Grouping.comparisonLabel(g).length()).max().orElse(0)));
            String fmt = "%-" + width + "s %-18s %10s %6s %9s %9s %8s %9s %6s %8s  %s%n";
            sb.append(String.format(Locale.ROOT, fmt, "scenario", "mode", "req/s", "±%", "p50 ms", "p99 ms", "threads", "bound", "ratio", "vs plat", "flags"));
            groups.forEach((g, gRows) -> {
                Map<String, List<Map<String, String>>> variants = gRows.stream()
                        .collect(Collectors.groupingBy(Grouping::variant, LinkedHashMap::new, Collectors.toList()));
                double platformRps = variants.entrySet().stream().filter(e -> e.getKey().startsWith("platform"))
                        .findFirst().map(e -> Rows.mean(e.getValue(), Rows.RPS)).orElse(Double.NaN);
                String scenario = Grouping.comparisonLabel(g);
                variants.forEach((v, vRows) -> {
                    double rps = Rows.mean(vRows, Rows.RPS);
                    List<String> flags = vRows.stream().flatMap(r -> Rows.flags(r).stream()).distinct().toList();
                    boolean merged = histograms.merged(vRows) != null;
                    String mark = merged ? MERGED : "";
                    double p50 = histograms.ms(vRows, 50, Rows.P50), p99 = histograms.ms(vRows, 99, Rows.P99);
                    if (merged) anyMerged[0] = true;
                    else if (!Double.isNaN(p99)) anyMean[0] = true;
                    sb.append(String.format(Locale.ROOT, fmt, trim(scenario, width), v, num(rps, 0), num(Rows.spreadPct(vRows, Rows.RPS), 1),
                            num(p50, 1) + mark, num(p99, 1) + mark, num(Rows.mean(vRows, "jvm_threads_max"), 0),
                            num(Rows.mean(vRows, "bound_rps"), 0), num(Rows.mean(vRows, "bound_ratio"), 2),
                            Double.isNaN(platformRps) ? "" : num(rps / platformRps, 2) + "x", String.join(",", flags)));
                });
            });
            List<Map<String, String>> failed = expRows.stream().filter(r -> Rows.failed(r)).toList();
            for (Map<String, String> f : failed) {
                sb.append("FAILED ").append(f.get("scenario")).append(" rep ").append(f.get("rep")).append(": ").append(f.get("note")).append('\n');
            }
        });
        sb.append("\nreq/s: mean over reps; ±%: spread (max-min)/mean of reps; threads: SUT OS threads (max);")
                .append(" bound: closed-model ceiling; ratio: achieved/bound; vs plat: against the platform variant.\n");
        if (anyMerged[0]) sb.append("p50/p99 ").append(MERGED).append(": percentiles of the reps' merged latency histogram (raw/*.hlog)")
                .append(anyMean[0] ? "; unmarked: mean of the reps' own p50/p99 (a rep has no histogram).\n" : ".\n");
        else if (anyMean[0]) sb.append("p50/p99: mean of the reps' own p50/p99.\n");
        histograms.problems().forEach(p -> sb.append("not read: ").append(p).append('\n'));
        return sb.toString();
    }

    /** The table of a run's load rows, then each experiment's findings in words (as the experiments computed them). */
    public static String forRun(java.nio.file.Path matrix, vtlab.data.Findings findings) throws java.io.IOException {
        List<Map<String, String>> rows = java.nio.file.Files.exists(matrix) ? vtlab.data.Dataset.read(matrix) : List.of();
        return (rows.isEmpty() ? "" : render(rows, Histograms.of(matrix.toAbsolutePath().getParent()))) + findings(findings);
    }

    /** Each experiment's findings under its name; one that could not be computed says why. */
    public static String findings(vtlab.data.Findings findings) {
        StringBuilder sb = new StringBuilder();
        for (vtlab.data.Findings.Entry e : findings.experiments()) {
            List<String> f = e.error() == null ? e.lines() : List.of("its findings could not be computed (" + e.error() + ")");
            if (!f.isEmpty()) {
                sb.append("\nFindings, ").append(e.name()).append(":\n");
                f.forEach(line -> sb.append("  - ").append(line).append('\n'));
            }
        }
        return sb.toString();
    }

    static String num(double d, int decimals) {
        if (Double.isNaN(d)) return "";
        return String.format(Locale.ROOT, "%,." + decimals + "f", d);
    }

    static String trim(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }

    /** Scenario lines whose rows were flagged (as evidence they do not count). */
    public static List<String> flagged(List<Map<String, String>> rows) {
        List<String> out = new ArrayList<>();
        for (Map<String, String> r : rows) {
            if (Rows.flagged(r)) out.add(r.get("scenario") + " rep " + r.get("rep") + ": " + r.get("note"));
        }
        return out;
    }
}
