package vtlab.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.core.UsageError;

import vtlab.data.judge.Answer;
import vtlab.data.judge.Claim;
import vtlab.data.judge.Judge;
import vtlab.data.judge.Margin;

/**
 * ./vtlab compare RUN_A RUN_B: the same scenarios and variants of two runs (two machines, two JDKs, two versions)
 * side by side with deltas, in the terminal and as compare.html. Means over rows with status ok; a side with no such
 * row shows why (flagged, failed, absent) instead of a number.
 */
public final class Compare {
    private Compare() {}

    /**
     * One side of a comparison line, from its summary.json line: means over its ok rows (p50/p99 of their merged
     * histograms where they have them), each fork's mean throughput and p99 for the noise (a fork, one JVM, is the
     * unit: its iterations are one sample of the noise between JVMs, not several). flaggedRps, flaggedP99: means over
     * flagged rows, shown in brackets when a side has no ok row, never in a delta.
     */
    public record Side(int ok, int rows, double rps, double p50, double p99, double appCpu, double threads, double rss,
                       String status, List<Integer> rowNumbers, double flaggedRps, double flaggedP99, double[] rpsReps, double[] p99Reps) {
        static final Side ABSENT = new Side(0, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, "absent", List.of(),
                Double.NaN, Double.NaN, new double[0], new double[0]);

        String rpsText() {
            return usable() ? Summary.num(rps, 0) : Double.isNaN(flaggedRps) ? "" : "[" + Summary.num(flaggedRps, 0) + "]";
        }

        String p99Text() {
            return usable() ? Summary.num(p99, 1) : Double.isNaN(flaggedP99) ? "" : "[" + Summary.num(flaggedP99, 1) + "]";
        }

        boolean usable() {
            return ok > 0;
        }
    }

    public record Line(String scenario, String variant, Side a, Side b) {
        public double rpsDelta() {
            return delta(a.rps(), b.rps());
        }

        public double p99Delta() {
            return delta(a.p99(), b.p99());
        }

        public double p50Delta() {
            return delta(a.p50(), b.p50());
        }

        /** B's throughput against A's, judged on fork means (better above 1), at the default margin. */
        public Claim rpsClaim() {
            return rpsClaim(Margin.DEFAULT);
        }

        public Claim rpsClaim(Margin m) {
            return Judge.ratio("B / A req/s", a.rpsReps(), b.rpsReps(), m);
        }

        /** B's p99 against A's: A's over B's, so that better is above 1 as for the throughput. */
        public Claim p99Claim(Margin m) {
            return Judge.ratio("A / B p99", b.p99Reps(), a.p99Reps(), m);
        }

        /** Whether B's throughput differs from A's beyond the forks' noise: the judge says better or worse. */
        public boolean rpsBeyondNoise() {
            return a.usable() && b.usable() && rpsClaim().answer().difference();
        }

        /** The same for the forks' own p99s. */
        public boolean p99BeyondNoise() {
            return a.usable() && b.usable() && p99Claim(Margin.DEFAULT).answer().difference();
        }

        /** The noise in words: the judge's answers ("req/s worse, p99 undetermined"), or why there is none. */
        public String noise() {
            return noise(Margin.DEFAULT);
        }

        public String noise(Margin m) {
            if (!a.usable() || !b.usable()) return "";
            if (a.rpsReps().length < 2 || b.rpsReps().length < 2) return "noise unknown (1 fork)";
            Claim r = rpsClaim(m), p = p99Claim(m);
            return "req/s " + answer(r) + ", p99 " + answer(p);
        }

        private static String answer(Claim c) {
            return c.answer() == Answer.EQUIVALENT ? "equivalent within " + c.margin().words() : c.answer().word;
        }

        /**
         * B slower than A by more than maxPct and beyond the noise: throughput down, or p99 up, by more than that,
         * with the judge's answer "worse" over the forks (the whole interval below 1). Null when not.
         */
        public String regression(double maxPct) {
            if (!a.usable() || !b.usable()) return null;
            List<String> what = new ArrayList<>();
            if (rpsDelta() < -maxPct && rpsClaim().answer() == Answer.WORSE) what.add("req/s " + pct(rpsDelta()));
            if (p99Delta() > maxPct && p99Claim(Margin.DEFAULT).answer() == Answer.WORSE) what.add("p99 " + pct(p99Delta()));
            return what.isEmpty() ? null : scenario + " " + variant + ": " + String.join(", ", what);
        }
    }

    /** (b - a) / a in %, NaN when either side is missing or a is 0. */
    public static double delta(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b) || a == 0) return Double.NaN;
        return (b - a) / a * 100;
    }

    /**
     * Lines for every scenario/variant in either run, A's order first, from each run's summary.json (derived from
     * matrix.csv for runs without one). The JDK is part of the key only when a run holds several JDKs: comparing a
     * JDK 21 run with a JDK 25 run matches their rows.
     */
    public static List<Line> lines(RunData a, RunData b) {
        return lines(RunSummary.of(a), RunSummary.of(b));
    }

    static List<Line> lines(RunSummary a, RunSummary b) {
        boolean keyJdk = jdks(a) > 1 || jdks(b) > 1;
        Map<String, RunSummary.Entry> ga = group(a, keyJdk), gb = group(b, keyJdk);
        Set<String> keys = new LinkedHashSet<>(ga.keySet());
        keys.addAll(gb.keySet());
        List<Line> out = new ArrayList<>();
        for (String k : keys) {
            int bar = k.lastIndexOf('|');
            out.add(new Line(k.substring(0, bar), k.substring(bar + 1), side(ga.get(k)), side(gb.get(k))));
        }
        return out;
    }

    private static long jdks(RunSummary s) {
        return s.entries().stream().map(RunSummary.Entry::jdk).distinct().count();
    }

    private static Map<String, RunSummary.Entry> group(RunSummary s, boolean keyJdk) {
        Map<String, Set<String>> stacks = new LinkedHashMap<>();
        for (RunSummary.Entry e : s.entries()) stacks.computeIfAbsent(e.experiment(), k -> new LinkedHashSet<>()).add(e.stack());
        Map<String, RunSummary.Entry> out = new LinkedHashMap<>();
        for (RunSummary.Entry e : s.entries()) {
            boolean multiStack = stacks.get(e.experiment()).size() > 1;
            out.putIfAbsent(e.compareKey() + (keyJdk ? " jdk" + e.jdk() : "") + "|" + (multiStack ? e.stack() + " " : "") + e.variant(), e);
        }
        return out;
    }

    static Side side(RunSummary.Entry e) {
        if (e == null) return Side.ABSENT;
        int rows = e.ok() + e.flagged() + e.failed();
        List<String> st = new ArrayList<>();
        if (e.flagged() > 0) st.add("flagged");
        if (e.failed() > 0) st.add("failed");
        String status = e.evidence() ? e.ok() + "/" + rows + " ok" : String.join("/", st);
        // per fork: a fork's iterations averaged into its one value, the judge's unit
        double[] rps = e.throughput().forkValues(), p99 = e.p99().forkValues();
        if (!e.evidence()) {
            return new Side(0, rows, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, status, e.rows(),
                    e.throughput().mean(), e.p99().ms(), rps, p99);
        }
        return new Side(e.ok(), rows, e.throughput().mean(), e.p50().ms(), e.p99().ms(), e.appCpuPct(), e.threadsMax(), e.rssMb(), status,
                e.rows(), Double.NaN, Double.NaN, rps, p99);
    }

    /** The terminal table, at the default margin. */
    public static String terminal(RunData a, RunData b, List<Line> lines) {
        return terminal(a, b, lines, Margin.DEFAULT);
    }

    /** The terminal table; equivalence judged within the margin given. */
    public static String terminal(RunData a, RunData b, List<Line> lines, Margin margin) {
        StringBuilder sb = new StringBuilder();
        sb.append("A: ").append(a.dir()).append("  ").append(describe(a.environment())).append('\n');
        sb.append("B: ").append(b.dir()).append("  ").append(describe(b.environment())).append('\n');
        int w = Math.max(24, lines.stream().mapToInt(l -> l.scenario().length()).max().orElse(24));
        w = Math.min(w, 48);
        String fmt = "%-" + w + "s %-13s %9s %9s %8s %9s %9s %8s  %s%n";
        sb.append(String.format(Locale.ROOT, fmt, "scenario", "variant", "A req/s", "B req/s", "Δ", "A p99 ms", "B p99 ms", "Δ", "notes"));
        for (Line l : lines) {
            List<String> notes = new ArrayList<>();
            if (!l.noise(margin).isEmpty()) notes.add(l.noise(margin));
            if (!l.a().usable()) notes.add("A " + l.a().status());
            if (!l.b().usable()) notes.add("B " + l.b().status());
            sb.append(String.format(Locale.ROOT, fmt, Summary.trim(l.scenario(), w), Summary.trim(l.variant(), 13), l.a().rpsText(),
                    l.b().rpsText(), pct(l.rpsDelta()), l.a().p99Text(), l.b().p99Text(), pct(l.p99Delta()), String.join(", ", notes)));
        }
        sb.append("Δ: (B - A) / A; means over rows with status ok. [brackets]: flagged rows, shown but not compared.\n")
                .append("notes: the judge's answer on fork means (a fork's iterations averaged: one JVM is one sample): better/worse when B's 95% interval")
                .append(" against A lies wholly above/below 1, equivalent when inside ").append(margin.words())
                .append(", else undetermined; with one fork a side the noise is unknown.\n");
        return sb.toString();
    }

    static String pct(double d) {
        return Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%+.1f%%", d);
    }

    private static String describe(JsonNode env) {
        List<String> p = new ArrayList<>();
        if (env.hasNonNull("cpus")) p.add(env.path("cpus").asText() + " CPUs");
        JsonNode jdks = env.path("jdks");
        if (jdks.isArray()) for (JsonNode j : jdks) p.add("JDK " + j.path("version").asText(j.path("major").asText()));
        if (env.hasNonNull("vtlab_commit")) p.add("vtlab " + env.path("vtlab_commit").asText());
        if (env.hasNonNull("status")) p.add(env.path("status").asText());
        return String.join(", ", p);
    }

    /** compare.html: both environments, the table with deltas, and throughput A vs B as a chart. */
    public static String html(RunData a, RunData b, List<Line> lines) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>vtlab compare — ").append(Html.esc(a.name()))
                .append(" vs ").append(Html.esc(b.name())).append("</title>\n<style>\n").append(ReportPage.CSS)
                .append("td.better { color: #1b7f2a; font-weight: 600; } td.worse { color: #c62828; font-weight: 600; } td.flagged { color: #999; }\n</style>\n</head>\n<body>\n");
        sb.append("<header><h1>vtlab compare</h1><p class=\"meta\">A = <b>").append(Html.esc(a.name())).append("</b> · B = <b>")
                .append(Html.esc(b.name())).append("</b> · Δ = (B − A) / A · means over rows with status ok</p></header>\n<main>\n");

        sb.append("<section id=\"environments\"><h2>Environments</h2>\n<table class=\"kv\"><thead><tr><th></th><th>A</th><th>B</th></tr></thead><tbody>\n");
        sb.append("<tr><th>folder</th><td>").append(Html.esc(a.dir())).append("</td><td>").append(Html.esc(b.dir())).append("</td></tr>\n");
        for (String k : List.of("status", "started", "command", "vtlab_commit", "cpu_model", "cpus", "memory_total_kb", "kernel", "os", "lab_jdk",
                "generator_version", "core_map", "jdks")) {
            JsonNode va = a.environment().path(k), vb = b.environment().path(k);
            if (va.isMissingNode() && vb.isMissingNode()) continue;
            sb.append("<tr><th>").append(Html.esc(k)).append("</th><td>").append(Html.esc(text(va))).append("</td><td")
                    .append(text(va).equals(text(vb)) ? "" : " class=\"bad\"").append(">").append(Html.esc(text(vb))).append("</td></tr>\n");
        }
        sb.append("</tbody></table></section>\n");

        List<ChartSpec.Line> bars = new ArrayList<>();
        List<String> cats = new ArrayList<>();
        List<ChartSpec.Point> pa = new ArrayList<>(), pb = new ArrayList<>();
        for (Line l : lines) {
            if (!l.a().usable() && !l.b().usable()) continue;
            int i = cats.size();
            cats.add(l.scenario() + " · " + l.variant());
            if (l.a().usable()) pa.add(new ChartSpec.Point(i, l.a().rps(), null, List.of("cmp-" + (lines.indexOf(l) + 1))));
            if (l.b().usable()) pb.add(new ChartSpec.Point(i, l.b().rps(), null, List.of("cmp-" + (lines.indexOf(l) + 1))));
        }
        bars.add(new ChartSpec.Line("A " + a.name(), "y", "bar", "#ff7f0e", pa));
        bars.add(new ChartSpec.Line("B " + b.name(), "y", "bar", "#1f77b4", pb));
        ChartSpec chart = new ChartSpec("compare-1", "bar", "Throughput, A vs B", "scenario · variant", "throughput (req/s)", null, false, cats, bars);
        Map<String, Object> charts = new LinkedHashMap<>();
        if (!cats.isEmpty()) {
            charts.put(chart.id(), chart);
            sb.append("<section id=\"chart\"><h2>Throughput</h2><div class=\"chart\"><canvas id=\"c-compare-1\" data-chart=\"compare-1\" role=\"img\" aria-label=\"Throughput, A vs B\"></canvas></div></section>\n");
        }

        sb.append("<section id=\"rows\"><h2>Side by side</h2>\n<p class=\"hint\">Click a heading to sort. Green: B better; red: B worse "
                + "(the judge's answer: B's 95% interval against A over fork means wholly above or below 1; p50 is shown, not judged). [Grey in brackets]: flagged rows, not compared. Row numbers link to each run's report.</p>\n<div class=\"scroll\"><table class=\"sortable\"><thead><tr>")
                .append("<th>#</th><th>scenario</th><th>variant</th><th>A req/s</th><th>B req/s</th><th>Δ req/s</th><th>A p50 ms</th><th>B p50 ms</th>")
                .append("<th>Δ p50</th><th>A p99 ms</th><th>B p99 ms</th><th>Δ p99</th><th>A app CPU %</th><th>B app CPU %</th><th>A threads</th>")
                .append("<th>B threads</th><th>A RSS MB</th><th>B RSS MB</th><th>A rows</th><th>B rows</th><th>noise</th></tr></thead>\n<tbody>\n");
        int n = 0;
        for (Line l : lines) {
            n++;
            sb.append("<tr id=\"cmp-").append(n).append("\"><td data-v=\"").append(n).append("\">").append(n).append("</td><td>")
                    .append(Html.esc(l.scenario())).append("</td><td>").append(Html.esc(l.variant())).append("</td>");
            side(sb, l.a().rps(), l.a().flaggedRps(), 0);
            side(sb, l.b().rps(), l.b().flaggedRps(), 0);
            deltaCell(sb, l.rpsDelta(), l.a().usable() && l.b().usable() ? l.rpsClaim().answer() : Answer.UNDETERMINED);
            num(sb, l.a().p50(), 1);
            num(sb, l.b().p50(), 1);
            deltaCell(sb, l.p50Delta(), Answer.UNDETERMINED); // no per-fork p50 is kept: shown, not judged
            side(sb, l.a().p99(), l.a().flaggedP99(), 1);
            side(sb, l.b().p99(), l.b().flaggedP99(), 1);
            deltaCell(sb, l.p99Delta(), l.a().usable() && l.b().usable() ? l.p99Claim(Margin.DEFAULT).answer() : Answer.UNDETERMINED);
            num(sb, l.a().appCpu(), 0);
            num(sb, l.b().appCpu(), 0);
            num(sb, l.a().threads(), 0);
            num(sb, l.b().threads(), 0);
            num(sb, l.a().rss(), 0);
            num(sb, l.b().rss(), 0);
            rowsCell(sb, a, l.a());
            rowsCell(sb, b, l.b());
            sb.append("<td>").append(Html.esc(l.noise())).append("</td></tr>\n");
        }
        sb.append("</tbody></table></div></section>\n</main>\n<footer>Generated by vtlab compare.</footer>\n");
        sb.append("<script id=\"vtlab-data\" type=\"application/json\">").append(Html.scriptJson(Map.of("charts", charts))).append("</script>\n");
        String lib = ReportPage.ChartLibrary.script();
        if (lib != null) sb.append("<script>\n").append(lib).append("\n</script>\n");
        sb.append("<script>\n").append(lib == null ? "" : ReportPage.ChartLibrary.resource("report.js")).append("\n</script>\n</body>\n</html>\n");
        return sb.toString();
    }

    private static String text(JsonNode v) {
        return v.isMissingNode() || v.isNull() ? "" : v.isValueNode() ? v.asText() : v.toString();
    }

    private static void num(StringBuilder sb, double v, int decimals) {
        sb.append("<td data-v=\"").append(Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v)).append("\">")
                .append(Html.esc(Summary.num(v, decimals))).append("</td>");
    }

    /** An ok mean, or the flagged rows' mean in brackets and grey: visible, not evidence. */
    private static void side(StringBuilder sb, double ok, double flagged, int decimals) {
        if (!Double.isNaN(ok) || Double.isNaN(flagged)) {
            num(sb, ok, decimals);
            return;
        }
        sb.append("<td data-v=\"\" class=\"flagged\" title=\"flagged rows: not evidence\">[").append(Html.esc(Summary.num(flagged, decimals)))
                .append("]</td>");
    }

    /** A delta coloured by the judge's answer (B better or worse over fork means), never by its size alone. */
    private static void deltaCell(StringBuilder sb, double d, Answer answer) {
        String cls = answer == Answer.BETTER ? " class=\"better\"" : answer == Answer.WORSE ? " class=\"worse\"" : "";
        sb.append("<td data-v=\"").append(Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.3f", d)).append("\"").append(cls).append(">")
                .append(Html.esc(pct(d))).append("</td>");
    }

    private static void rowsCell(StringBuilder sb, RunData d, Side s) {
        sb.append("<td>");
        if (s.rowNumbers().isEmpty()) sb.append("absent");
        else {
            sb.append(Html.esc(s.status())).append(':');
            Path report = d.dir().resolve("report.html");
            for (int k : s.rowNumbers()) {
                sb.append(" <a href=\"").append(Html.esc(report.toUri().toString())).append("#row-").append(k).append("\">").append(k).append("</a>");
            }
        }
        sb.append("</td>");
    }
}
