package vtlab.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;


/**
 * The end-of-run table, per experiment: one line per scenario and thread-mode variant, reps averaged (with their
 * spread; p50/p99 from the reps' merged latency histogram when each has one), speedup against the platform variant
 * of the same scenario, and every flag; rendered from summary.json's model ({@link RunSummary}).
 */
public final class Summary {
    private Summary() {}

    /** Marks p50/p99 cells taken from the merged histogram rather than the mean of the reps' cells. */
    static final String MERGED = "*";

    public static String render(List<vtlab.data.DataRow> rows, Histograms histograms) {
        return render(RunSummary.of(rows, histograms, null, null, Map.of()));
    }

    /** summary.txt's table, from summary.json's model. */
    public static String render(RunSummary summary) {
        StringBuilder sb = new StringBuilder();
        boolean anyMerged = false, anyMean = false;
        Map<String, List<RunSummary.Entry>> byExperiment = new LinkedHashMap<>();
        for (RunSummary.Entry e : summary.entries()) if (e.measured()) byExperiment.computeIfAbsent(e.experiment(), k -> new ArrayList<>()).add(e);
        for (RunSummary.Failed f : summary.failed()) byExperiment.computeIfAbsent(f.experiment(), k -> new ArrayList<>());
        for (var ex : byExperiment.entrySet()) {
            String exp = ex.getKey();
            List<RunSummary.Entry> entries = ex.getValue();
            sb.append("\n== ").append(exp).append(" ==\n");
            // As wide as the longest scenario (28 to 48): sweeps over a knob (e.g. bytes=1048576) stay told apart.
            int width = Math.max(28, Math.min(48, entries.stream().mapToInt(e -> e.scenario().length()).max().orElse(0)));
            String fmt = "%-" + width + "s %-18s %10s %7s %6s %9s %9s %8s %9s %6s %8s  %s%n";
            sb.append(String.format(Locale.ROOT, fmt, "scenario", "mode", "req/s", "95%CI±", "±%", "p50 ms", "p99 ms", "threads", "bound", "ratio", "vs plat", "flags"));
            for (RunSummary.Entry e : entries) {
                String mark = e.p99().merged() ? MERGED : "";
                if (e.p99().merged()) anyMerged = true;
                else if (!Double.isNaN(e.p99().ms())) anyMean = true;
                List<String> flags = new ArrayList<>(e.flags());
                if (!e.breached().isEmpty()) flags.add("THRESHOLD");
                sb.append(String.format(Locale.ROOT, fmt, trim(e.scenario(), width), e.variant(), num(e.throughput().mean(), 0),
                        pct(e.throughput().ciPct()), num(e.throughput().spreadPct(), 1), num(e.p50().ms(), 1) + mark, num(e.p99().ms(), 1) + mark,
                        num(e.threadsMax(), 0), num(e.boundRps(), 0), num(e.boundRatio(), 2),
                        Double.isNaN(e.vsPlatform()) ? "" : num(e.vsPlatform(), 2) + "x", String.join(",", flags)));
            }
            for (RunSummary.Failed f : summary.failed()) {
                if (f.experiment().equals(exp)) sb.append("FAILED ").append(f.scenario()).append(" rep ").append(f.rep()).append(": ").append(f.note()).append('\n');
            }
        }
        sb.append("\nreq/s: mean over the reps with status ok (the flagged ones when none is ok), each fork's iterations as one; 95%CI±: half the 95% confidence")
                .append(" interval of that mean (Student's t over the fork means: a fork is one JVM), in % of it; ±%: spread (max-min)/mean of those;")
                .append(" threads: SUT OS threads (max); bound: closed-model ceiling; ratio: achieved/bound; vs plat: against the platform variant.\n");
        if (anyMerged) sb.append("p50/p99 ").append(MERGED).append(": percentiles of the reps' merged latency histogram (raw/*.hlog)")
                .append(anyMean ? "; unmarked: mean of the reps' own p50/p99 (a rep has no histogram).\n" : ".\n");
        else if (anyMean) sb.append("p50/p99: mean of the reps' own p50/p99.\n");
        summary.notes().forEach(p -> sb.append("not read: ").append(p).append('\n'));
        if (summary.failOn() != null) {
            sb.append("\nThresholds (--fail-on ").append(summary.failOn()).append("): ");
            if (!summary.breached()) sb.append("no row breached them.\n");
            else {
                sb.append(summary.breaches().size()).append(" row(s) breached them (THRESHOLD):\n");
                for (RunSummary.Breach b : summary.breaches()) {
                    sb.append("BREACHED row ").append(b.row()).append(' ').append(b.scenario()).append(" rep ").append(b.rep()).append(": ")
                            .append(String.join(", ", b.terms())).append('\n');
                }
            }
        }
        return sb.toString();
    }

    private static String pct(double d) {
        return Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.1f%%", d);
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
    public static List<String> flagged(List<vtlab.data.DataRow> rows) {
        List<String> out = new ArrayList<>();
        for (vtlab.data.DataRow r : rows) {
            if (r.flagged()) out.add(r.text(vtlab.data.Columns.SCENARIO) + " rep " + r.text(vtlab.data.Columns.REP) + ": " + r.text(vtlab.data.Columns.NOTE));
        }
        return out;
    }
}
