package vtlab.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Findings;
import vtlab.data.RunKept;
import vtlab.data.StudyColumns;
import vtlab.data.StudySection;

import vtlab.data.Rows;
import vtlab.data.Grouping;
import vtlab.data.judge.Claim;
import vtlab.data.judge.Judge;
import vtlab.data.judge.Margin;
import vtlab.data.judge.Units;

/**
 * Statements in words at the top of the report, each with links to the rows that support it. Computed verdicts use
 * rows with status ok only: a flagged or failed row is listed under validity, never counted as evidence.
 */
public final class Verdicts {
    /** A widest gap is named only when it is this far above 1 (a pointer to a chart, not a claim: the claim is the judge's). */
    static final double SAME = 0.05;

    /** The rows' throughput, one value per fork (each row its own unit when it has no fork). */
    static double[] forkMeans(List<DataRow> rows) {
        return Units.means(rows.stream().map(r -> r.num(Columns.RPS)).toList(), rows.stream().map(r -> r.text(Columns.FORK)).toList());
    }

    /**
     * @param source   "finding" (the experiment's own statement), "measured" (computed here) or "validity"
     * @param evidence anchors in the report (row-N, a study row prefix-N such as jmh-N, or a section)
     */
    public record Verdict(String experiment, String source, String text, List<String> evidence) {}

    private final RunData data;
    private final ChartData charts;

    public Verdicts(RunData data) {
        this.data = data;
        this.charts = new ChartData(data);
    }

    public List<Verdict> all() {
        List<Verdict> out = new ArrayList<>();
        out.addAll(runStatus());
        for (String exp : data.experiments()) {
            out.addAll(findings(exp));
            out.addAll(sweeps(exp));
            out.addAll(bottleneck(exp));
            out.addAll(pinning(exp));
        }
        data.studies().keySet().forEach(s -> {
            if (StudySection.SCORES.equals(s.chart())) out.addAll(scores(s));
            else if (StudySection.THREAD_MEMORY.equals(s.chart())) out.addAll(threadMemory(s));
        });
        out.addAll(validity());
        return out;
    }

    /**
     * The experiment's own findings (findings.json), linked to its section and to the rows each stands on, as the
     * finding carries them (never read back from its words: "row 1, 97% app CPU" names one row).
     */
    List<Verdict> findings(String exp) {
        Findings.Entry e = data.findings().of(exp);
        if (e == null) return List.of();
        if (e.error() != null) return List.of(new Verdict(exp, "validity", exp + ": its findings could not be computed (" + e.error() + ")", List.of()));
        String section = data.rowsOf(exp).isEmpty() ? e.section() : Html.anchor("exp", exp);
        return e.findings().stream().map(f -> {
            List<String> evidence = new ArrayList<>(section == null ? List.of() : List.of(section));
            f.rows().forEach(n -> evidence.add("row-" + n));
            return new Verdict(exp, "finding", f.text(), evidence);
        }).toList();
    }

    /** Per panel of a concurrency sweep: virtual against each platform variant (or a ranking when there is no such pair). */
    List<Verdict> sweeps(String exp) {
        List<DataRow> rows = data.rowsOf(exp);
        if (ChartData.heroAxis(rows).equals(ChartData.POOL)) return List.of(); // a pool sweep: see bottleneck()
        boolean withStack = ChartData.varies(rows, Columns.STACK);
        List<Verdict> out = new ArrayList<>();
        ChartData.panels(rows, ChartData.CONCURRENCY, withStack).forEach((label, panel) -> {
            Map<String, Map<Double, List<DataRow>>> v = byVariantAndX(Rows.valid(panel), ChartData.CONCURRENCY, withStack);
            // paired by what runs the requests as the stack declares the mode, not by the mode's name (Jetty's virtual-pool)
            List<String> virtual = v.keySet().stream().filter(n -> firstRow(v.get(n)).threads().virtual()).toList();
            List<String> platform = v.keySet().stream().filter(n -> firstRow(v.get(n)).threads().platform()).toList();
            if (!virtual.isEmpty() && !platform.isEmpty()) {
                for (String vt : virtual)
                    for (String pt : platform) {
                        Verdict pair = pair(exp, label, vt, pt, v.get(vt), v.get(pt));
                        if (pair != null) out.add(pair);
                    }
            } else if (v.size() >= 2) {
                Verdict rank = ranking(exp, label, v);
                if (rank != null) out.add(rank);
            }
        });
        return out;
    }

    /** A variant's first row: its rows share a stack and a mode. */
    private static DataRow firstRow(Map<Double, List<DataRow>> variant) {
        return variant.values().iterator().next().getFirst();
    }

    private Verdict pair(String exp, String label, String vt, String pt, Map<Double, List<DataRow>> vRows,
                         Map<Double, List<DataRow>> pRows) {
        List<Double> common = vRows.keySet().stream().filter(pRows::containsKey).sorted().toList();
        if (common.isEmpty()) return null;
        double x = common.getLast();
        List<DataRow> a = vRows.get(x), b = pRows.get(x);
        double ta = Rows.mean(a, Columns.RPS), tb = Rows.mean(b, Columns.RPS);
        if (Double.isNaN(ta) || Double.isNaN(tb) || tb <= 0) return null;
        double ratio = ta / tb;
        StringBuilder s = new StringBuilder(exp + " (" + label + "): ");
        s.append(vt).append(" vs ").append(pt).append(" at ").append(n0(x)).append(" connections: ");
        // the judge's answer over fork means, never a band around 1 taken as "no difference"
        Claim claim = Judge.ratio(vt + " / " + pt + " req/s", forkMeans(b), forkMeans(a), Margin.DEFAULT);
        s.append(String.format(Locale.ROOT, "%.1f× throughput (%s vs %s req/s%s)", ratio, n0(ta), n0(tb),
                claim.hasSet() ? "; " + claim.ratioWords() + ": " + claim.answerWords() : ""));
        double pa = p99(a), pb = p99(b);
        if (!Double.isNaN(pa) && !Double.isNaN(pb)) s.append(", p99 ").append(ms(pa)).append(" vs ").append(ms(pb));
        double bound = Rows.mean(b, Columns.BOUND_RATIO);
        String threads = b.getFirst().param(Rows.MAX_THREADS);
        if (!Double.isNaN(bound)) {
            s.append("; ").append(pt).append(" held at ").append(pct(bound)).append(" of its ")
                    .append(threads == null ? "" : n0(Double.parseDouble(threads)) + "-thread ").append("bound");
            double br = Rows.mean(b, Columns.BOUND_RPS);
            if (!Double.isNaN(br)) s.append(" (").append(n0(br)).append(" req/s)");
        }
        double vb = Rows.mean(a, Columns.BOUND_RATIO);
        if (!Double.isNaN(vb)) s.append("; ").append(vt).append(" at ").append(pct(vb)).append(" of its bound");
        List<String> evidence = new ArrayList<>(anchors(a));
        evidence.addAll(anchors(b));
        appendCpuBound(s, vt, a);
        appendCpuBound(s, pt, b);
        // the widest gap, when it is not at the highest concurrency
        double best = x, bestRatio = ratio;
        for (double c : common) {
            double r = Rows.mean(vRows.get(c), Columns.RPS) / Rows.mean(pRows.get(c), Columns.RPS);
            if (r > bestRatio) {
                bestRatio = r;
                best = c;
            }
        }
        if (best != x && bestRatio > 1 + SAME) {
            s.append(String.format(Locale.ROOT, "; widest gap %.1f× at %s connections", bestRatio, n0(best)));
            evidence.addAll(anchors(vRows.get(best)));
            evidence.addAll(anchors(pRows.get(best)));
        }
        s.append(reps(a, b));
        return new Verdict(exp, "measured", s.toString(), evidence);
    }

    private static void appendCpuBound(StringBuilder s, String variant, List<DataRow> rows) {
        if (rows.stream().anyMatch(r -> r.text(Columns.FLAGS).contains("app-cpu-bound"))) {
            double cpu = Rows.mean(rows, Columns.APP_CPU);
            s.append("; ").append(variant).append(" saturated the SUT's CPU").append(Double.isNaN(cpu) ? "" : " (" + n0(cpu) + "% of one core)");
        }
    }

    private Verdict ranking(String exp, String label, Map<String, Map<Double, List<DataRow>>> v) {
        Map<Double, Integer> count = new TreeMap<>();
        v.values().forEach(m -> m.keySet().forEach(x -> count.merge(x, 1, Integer::sum)));
        double x = count.entrySet().stream().filter(e -> e.getValue() >= 2).map(Map.Entry::getKey).reduce((p, q) -> q).orElse(Double.NaN);
        if (Double.isNaN(x)) return null;
        List<String> evidence = new ArrayList<>();
        List<String> parts = v.entrySet().stream().filter(e -> e.getValue().containsKey(x))
                .sorted(Comparator.comparingDouble(e -> -Rows.mean(e.getValue().get(x), Columns.RPS)))
                .map(e -> {
                    List<DataRow> r = e.getValue().get(x);
                    evidence.addAll(anchors(r));
                    double p99 = p99(r);
                    return e.getKey() + " " + n0(Rows.mean(r, Columns.RPS)) + " req/s" + (Double.isNaN(p99) ? "" : " (p99 " + ms(p99) + ")");
                }).toList();
        return new Verdict(exp, "measured", exp + " (" + label + ") at " + n0(x) + " connections: " + String.join(", ", parts), evidence);
    }

    /** Whether throughput follows the HikariCP pool, per variant, and where it stops. */
    List<Verdict> bottleneck(String exp) {
        List<DataRow> rows = data.rowsOf(exp);
        if (!ChartData.varies(rows, ChartData.POOL)) return List.of();
        boolean withStack = ChartData.varies(rows, Columns.STACK);
        List<Verdict> out = new ArrayList<>();
        ChartData.panels(rows, ChartData.POOL, withStack).forEach((label, panel) -> {
            byVariantAndX(Rows.valid(panel), ChartData.POOL, withStack).forEach((variant, byPool) -> {
                if (byPool.size() < 2) return;
                List<Double> pools = List.copyOf(byPool.keySet());
                List<Double> rps = pools.stream().map(p -> Rows.mean(byPool.get(p), Columns.RPS)).toList();
                int j = 0;
                while (j + 1 < pools.size() && rps.get(j + 1) / rps.get(j) - 1 >= 0.5 * (pools.get(j + 1) / pools.get(j) - 1)) j++;
                int last = pools.size() - 1;
                StringBuilder s = new StringBuilder(exp + " (" + label + "): " + variant + " throughput ");
                if (j == last) {
                    s.append("follows the HikariCP pool over the whole range: ").append(n0(rps.getFirst())).append(" → ")
                            .append(n0(rps.get(last))).append(" req/s as the pool goes ").append(n0(pools.getFirst())).append(" → ")
                            .append(n0(pools.get(last))).append(String.format(Locale.ROOT, " (%.1f× for %.1f× the pool)",
                                    rps.get(last) / rps.getFirst(), pools.get(last) / pools.getFirst()));
                } else if (j == 0) {
                    s.append("does not follow the pool: ").append(n0(rps.getFirst())).append(" → ").append(n0(rps.get(last)))
                            .append(" req/s over pools ").append(n0(pools.getFirst())).append(" → ").append(n0(pools.get(last)));
                } else {
                    s.append("follows the HikariCP pool up to pool ").append(n0(pools.get(j))).append(" (").append(n0(rps.getFirst()))
                            .append(" → ").append(n0(rps.get(j))).append(" req/s), then levels off (").append(n0(rps.get(last)))
                            .append(" req/s at pool ").append(n0(pools.get(last))).append(")");
                }
                List<DataRow> top = byPool.get(pools.get(last));
                String threads = top.getFirst().param(Rows.MAX_THREADS);
                if (j < last && threads != null) s.append("; ").append(variant).append(" has ").append(threads).append(" request threads");
                appendCpuBound(s, variant, top);
                List<String> evidence = byPool.values().stream().flatMap(r -> anchors(r).stream()).toList();
                out.add(new Verdict(exp, "measured", s.toString(), evidence));
            });
        });
        return out;
    }

    /** Pinned events per JDK, variant and path, over ok rows that measured them. */
    List<Verdict> pinning(String exp) {
        List<DataRow> rows = Rows.valid(data.rowsOf(exp)).stream()
                .filter(r -> !Double.isNaN(r.num(Columns.PINNED))).toList();
        if (rows.isEmpty()) return List.of();
        boolean withStack = ChartData.varies(rows, Columns.STACK);
        Map<String, List<DataRow>> groups = rows.stream().collect(Collectors.groupingBy(
                r -> "JDK " + r.text(Columns.JDK, "?") + " " + Grouping.variant(r, withStack)
                        + (r.text(Columns.PATH_MODE).isEmpty() ? "" : " " + r.text(Columns.PATH_MODE)),
                LinkedHashMap::new, Collectors.toList()));
        double total = rows.stream().mapToDouble(r -> r.num(Columns.PINNED)).sum();
        List<String> parts = new ArrayList<>();
        groups.forEach((g, gr) -> parts.add(g + ": " + n0(gr.stream().mapToDouble(r -> r.num(Columns.PINNED)).sum())
                + " in " + gr.size() + (gr.size() == 1 ? " row" : " rows")));
        String head = total == 0 ? "no pinning measured (0 pinned events)" : "pinned events (JFR jdk.VirtualThreadPinned)";
        return List.of(new Verdict(exp, "measured", exp + ": " + head + " — " + String.join("; ", parts), anchors(rows)));
    }

    /** A scores study (JMH): thread modes of the same benchmark side by side, with their errors. */
    List<Verdict> scores(StudySection section) {
        List<DataRow> all = data.studyRows(section);
        boolean withJdk = ChartData.severalJdks(all);
        List<DataRow> rows = all.stream().filter(r -> !Double.isNaN(r.num(StudyColumns.SCORE))).toList();
        Map<String, List<DataRow>> byBench = rows.stream()
                .collect(Collectors.groupingBy(r -> ChartData.jmhCategory(r, withJdk), LinkedHashMap::new, Collectors.toList()));
        List<Verdict> out = new ArrayList<>();
        byBench.forEach((bench, br) -> {
            if (br.size() < 2) return;
            List<DataRow> sorted = br.stream().sorted(Comparator.comparingDouble(r -> -r.num(StudyColumns.SCORE))).toList();
            DataRow hi = sorted.getFirst(), lo = sorted.getLast();
            String unit = hi.text(StudyColumns.UNIT);
            double a = hi.num(StudyColumns.SCORE), b = lo.num(StudyColumns.SCORE), ea = hi.num(StudyColumns.ERROR), eb = lo.num(StudyColumns.ERROR);
            boolean overlap = !Double.isNaN(ea) && !Double.isNaN(eb) && a - ea <= b + eb;
            String s = String.format(Locale.ROOT, "%s %s: %s %s vs %s %s %s (%s)", section.title(), bench, mode(hi), pm(a, ea), mode(lo), pm(b, eb), unit,
                    overlap ? "within error" : String.format(Locale.ROOT, "%.2f×", b == 0 ? Double.NaN : a / b));
            if (unit.contains("/op") && !overlap) s += "; lower is better for " + unit;
            out.add(new Verdict(section.anchor(), "measured", s, br.stream().map(r -> section.rowPrefix() + "-" + r.number()).toList()));
        });
        return out;
    }

    private static String mode(DataRow r) {
        String m = r.cell(Columns.THREAD_MODE.name(), r.text(StudyColumns.MODE));
        return m.isEmpty() ? r.text(StudyColumns.BENCHMARK) : m;
    }

    /** A thread-memory study's file: at the largest thread count, what each mode cost. */
    List<Verdict> threadMemory(StudySection section) {
        List<DataRow> rows = data.studyRows(section);
        boolean jdks = ChartData.severalJdks(rows);
        if (rows.isEmpty()) return List.of();
        double top = Rows.max(rows, StudyColumns.THREADS);
        if (Double.isNaN(top)) return List.of();
        List<String> parts = new ArrayList<>();
        List<String> evidence = new ArrayList<>();
        for (DataRow r : rows) {
            if (r.num(StudyColumns.THREADS) != top) continue;
            evidence.add(section.rowPrefix() + "-" + r.number());
            List<String> what = new ArrayList<>();
            double res = r.num(Columns.NMT_RESERVED), com = r.num(Columns.NMT_COMMITTED), rss = r.num(StudyColumns.RSS_MB);
            if (!Double.isNaN(res)) what.add(n0(res / 1024) + " MB reserved");
            if (!Double.isNaN(com)) what.add(n0(com / 1024) + " MB committed for threads (NMT)");
            if (!Double.isNaN(rss)) what.add("RSS " + n0(rss) + " MB");
            parts.add(ChartData.memoryMode(r, jdks) + " " + String.join(", ", what));
        }
        return List.of(new Verdict(section.anchor(), "measured", "memory at " + n0(top) + " threads: " + String.join("; ", parts), evidence));
    }

    /** What is not evidence, and why: flagged and failed rows, an interrupted run. */
    List<Verdict> validity() {
        List<DataRow> rows = data.rows();
        if (rows.isEmpty()) return List.of();
        List<DataRow> flagged = rows.stream().filter(DataRow::flagged).toList();
        List<DataRow> failed = rows.stream().filter(DataRow::failed).toList();
        if (flagged.isEmpty() && failed.isEmpty()) {
            return List.of(new Verdict("", "validity", "all " + rows.size() + " rows passed the validity checks (bound, Little's law, "
                    + "generator CPU, errors) and count as evidence", List.of("validity")));
        }
        Map<String, Long> why = flagged.stream().flatMap(r -> java.util.Arrays.stream(r.text(Columns.FLAGS).split(";")))
                .filter(f -> !f.isEmpty() && vtlab.data.Rows.voids(f))
                .collect(Collectors.groupingBy(f -> f, LinkedHashMap::new, Collectors.counting()));
        StringBuilder s = new StringBuilder((flagged.size() + failed.size()) + " of " + rows.size() + " rows are not evidence and no verdict above uses them: ");
        List<String> parts = new ArrayList<>();
        if (!flagged.isEmpty()) parts.add(flagged.size() + " flagged (" + why.entrySet().stream().map(e -> e.getKey() + " ×" + e.getValue())
                .collect(Collectors.joining(", ")) + ")");
        if (!failed.isEmpty()) parts.add(failed.size() + " failed");
        s.append(String.join(", ", parts));
        List<String> evidence = new ArrayList<>(anchors(flagged));
        evidence.addAll(anchors(failed));
        return List.of(new Verdict("", "validity", s.toString(), evidence));
    }

    /** How the run ended, as it kept it (kept.json); the evidence is the page's environment section, which shows the same lines. */
    List<Verdict> runStatus() {
        List<Verdict> out = new ArrayList<>();
        RunKept.Status status = data.kept().status();
        if (status.unfinished()) {
            out.add(new Verdict("", "validity", "the run is incomplete (" + status.state() + "): only the " + data.rows().size()
                    + " rows that finished are shown", List.of("environment")));
        }
        if (status.state().equals(RunKept.Status.STOPPED)) {
            out.add(new Verdict("", "validity", "the run stopped early: " + (status.stopped() == null ? "" : status.stopped())
                    + " (" + status.rowsNotRun() + " rows not run)", List.of("environment")));
        }
        status.failed().forEach((study, why) -> out.add(new Verdict(study, "validity", study + " failed: " + why, List.of("environment"))));
        return out;
    }

    private Map<String, Map<Double, List<DataRow>>> byVariantAndX(List<DataRow> rows, Column xCol, boolean withStack) {
        Map<String, Map<Double, List<DataRow>>> out = new LinkedHashMap<>();
        for (DataRow r : rows) {
            double x = r.num(xCol);
            if (Double.isNaN(x) || Double.isNaN(r.num(Columns.RPS))) continue;
            out.computeIfAbsent(Grouping.variant(r, withStack), k -> new TreeMap<>()).computeIfAbsent(x, k -> new ArrayList<>()).add(r);
        }
        return out;
    }

    /** p99 of the reps: of their merged histogram, else the mean of their p99s. */
    private double p99(List<DataRow> reps) {
        return data.histograms().ms(reps, 99, Columns.P99);
    }

    private List<String> anchors(List<DataRow> rows) {
        return rows.stream().map(data::anchor).toList();
    }

    private String reps(List<DataRow> a, List<DataRow> b) {
        if (a.size() <= 1 && b.size() <= 1) return "";
        boolean merged = data.histograms().merged(a) != null && data.histograms().merged(b) != null;
        return " (means of " + a.size() + " and " + b.size() + " reps" + (merged ? ", p99 of their merged histograms" : "") + ")";
    }

    static String n0(double d) {
        return String.format(Locale.ROOT, "%,.0f", d);
    }

    static String ms(double d) {
        return d >= 10 ? n0(d) + " ms" : String.format(Locale.ROOT, "%.1f ms", d);
    }

    static String pct(double ratio) {
        return String.format(Locale.ROOT, "%.0f%%", ratio * 100);
    }

    static String pm(double v, double err) {
        String f = Math.abs(v) >= 100 ? "%,.0f" : Math.abs(v) >= 1 ? "%.2f" : "%.4f";
        return String.format(Locale.ROOT, f, v) + (Double.isNaN(err) ? "" : " ± " + String.format(Locale.ROOT, f, err));
    }
}
