package vtlab.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.data.Findings;
import vtlab.data.StudySection;

import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;

/**
 * report.html of a run: verdicts first, then one section per experiment (charts, rows table, rows over time), the
 * rows that had a fault (panels per fault, the modes overlaid, and what each fault did), one per study data file (as findings.json describes it), pinning files, validity and environment. One file, no network: the chart library
 * and the data are inlined. Every string from the data goes through {@link Html}.
 */
public final class ReportPage {
    /** The matrix columns of the rows table, in order, with their headings; a column only shows when it has values. */
    static final List<Shown> ROW_COLUMNS = List.of(
            new Shown(Columns.THREAD_MODE, "mode"), new Shown(Columns.WORKLOAD, "workload"), new Shown(Columns.CONCURRENCY, "conc"),
            new Shown(Columns.HIKARI_POOL, "pool"), new Shown(Columns.CONN_MODE, "conn"), new Shown(Columns.PATH_MODE, "path"),
            new Shown(Columns.PARAMS, "params"), new Shown(Columns.JDK, "JDK"), new Shown(Columns.REP, "rep"),
            new Shown(Columns.RPS, "req/s"), new Shown(Columns.P50, "p50 ms"), new Shown(Columns.P99, "p99 ms"),
            new Shown(Columns.P999, "p99.9 ms"), new Shown(Columns.MAX_MS, "max ms"), new Shown(Columns.ERROR_RATE, "errors"),
            new Shown(Columns.APP_CPU, "app CPU %"), new Shown(Columns.LOAD_CPU, "load CPU %"), new Shown(Columns.PG_CPU, "pg CPU %"),
            new Shown(Columns.cpu("stub"), "stub CPU %"), new Shown(Columns.THREADS_MAX, "threads"), new Shown(Columns.RSS_MAX, "RSS MB"),
            new Shown(Columns.NMT_COMMITTED, "thread KB (NMT)"), new Shown(Columns.HIKARI_ACTIVE_MAX, "hikari active"),
            new Shown(Columns.HIKARI_PENDING_MAX, "hikari pending"), new Shown(Columns.PINNED, "pinned"),
            new Shown(Columns.BOUND_RPS, "bound req/s"), new Shown(Columns.BOUND_RATIO, "of bound"), new Shown(Columns.LITTLE_RATIO, "Little"),
            new Shown(Columns.FLAGS, "flags"), new Shown(Columns.NOTE, "note"));

    /** A column of the rows table with its heading. */
    record Shown(Column column, String heading) {}

    private final RunData data;
    private final ChartData charts;
    private final FaultCharts faults;
    private final Map<String, ChartSpec> specs = new LinkedHashMap<>();
    /** Charts that also go to charts/ as SVG and PNG. */
    private final List<ChartSpec> figures = new ArrayList<>();
    private final StringBuilder sb = new StringBuilder();

    /** summary.json of the run (derived from its rows when it has none). */
    private final RunSummary summary;

    /** Differential flame graphs by row number (FlameDiffs), linked beside each row's own. */
    private final Map<Integer, FlameDiffs.Diff> flameDiffs;

    public ReportPage(RunData data) {
        this(data, Map.of());
    }

    public ReportPage(RunData data, Map<Integer, FlameDiffs.Diff> flameDiffs) {
        this.data = data;
        this.flameDiffs = flameDiffs;
        this.charts = new ChartData(data);
        this.faults = new FaultCharts(data, charts);
        this.summary = RunSummary.of(data);
    }

    public List<ChartSpec> figures() {
        return figures;
    }

    public String render() {
        List<Verdicts.Verdict> verdicts = new Verdicts(data).all();
        JsonNode env = data.environment();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>vtlab report — ").append(Html.esc(data.name())).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        sb.append("<header><h1>vtlab report <span class=\"run\">").append(Html.esc(data.name())).append("</span></h1>\n<p class=\"meta\">");
        List<String> meta = new ArrayList<>();
        if (!env.path("status").asText("").isEmpty()) meta.add("status <b>" + Html.esc(env.path("status").asText()) + "</b>");
        if (env.hasNonNull("started")) meta.add("started " + Html.esc(env.path("started").asText()));
        if (env.hasNonNull("cpu_model")) meta.add(Html.esc(env.path("cpus").asText("?")) + " CPUs, " + Html.esc(env.path("cpu_model").asText()));
        if (env.hasNonNull("generator")) meta.add("generator " + Html.esc(env.path("generator_version").asText(env.path("generator").asText())));
        meta.add(data.rows().size() + " rows");
        sb.append(String.join(" · ", meta)).append("</p>\n");
        if (env.hasNonNull("command")) sb.append("<p class=\"meta\"><code>").append(Html.esc(env.path("command").asText())).append("</code></p>\n");
        sb.append("<nav><a href=\"#verdicts\">verdicts</a>");
        if (data.rows().stream().anyMatch(vtlab.data.RequestTime::has)) sb.append(" <a href=\"#request-time\">request time</a>");
        for (String exp : data.experiments()) {
            if (!data.rowsOf(exp).isEmpty()) sb.append(" <a href=\"#").append(Html.anchor("exp", exp)).append("\">").append(Html.esc(exp)).append("</a>");
        }
        if (!faults.byFault().isEmpty()) sb.append(" <a href=\"#faults\">faults</a>");
        for (StudySection s : data.studies().keySet()) {
            sb.append(" <a href=\"#").append(Html.esc(s.anchor())).append("\">").append(Html.esc(s.nav())).append("</a>");
        }
        if (!data.pinningText().isEmpty()) sb.append(" <a href=\"#pinning-files\">pinning</a>");
        if (!data.otherCsv().isEmpty()) sb.append(" <a href=\"#other-data\">other data</a>");
        sb.append(" <a href=\"#validity\">validity</a> <a href=\"#environment\">environment</a></nav>\n</header>\n<main>\n");

        verdicts(verdicts);
        requestTime();
        for (String exp : data.experiments()) experiment(exp);
        faults();
        data.studies().keySet().forEach(this::study);
        pinningFiles();
        otherCsv();
        validity();
        environment();

        sb.append("</main>\n<footer>Generated by vtlab from ").append(Html.esc(data.dir().toString()))
                .append(". Charts: Chart.js ").append(Html.esc(ChartLibrary.version())).append(" (MIT), inlined. ")
                .append("Points are means over repetitions of rows with status ok (p50 and p99 from the reps' merged latency histograms ")
                .append("where every rep has one); × marks flagged rows, which are not evidence. ")
                .append("Click a point to jump to its rows.</footer>\n");
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("charts", specs);
        sb.append("<script id=\"vtlab-data\" type=\"application/json\">").append(Html.scriptJson(json)).append("</script>\n");
        String lib = ChartLibrary.script();
        if (lib == null) {
            sb.append("<p class=\"bad\">The chart library (org.webjars.npm:chart.js) was not on the classpath: interactive charts are missing; "
                    + "the static figures are in charts/.</p>\n");
        } else {
            sb.append("<script>\n").append(lib).append("\n</script>\n<script>\n").append(ChartLibrary.resource("report.js")).append("\n</script>\n");
        }
        sb.append("</body>\n</html>\n");
        return sb.toString();
    }

    private void verdicts(List<Verdicts.Verdict> verdicts) {
        sb.append("<section id=\"verdicts\"><h2>Verdicts</h2>\n");
        if (verdicts.isEmpty()) {
            sb.append("<p>No verdict: the run has no row with status ok yet.</p>\n");
        } else {
            sb.append("<ul class=\"verdicts\">\n");
            for (Verdicts.Verdict v : verdicts) {
                sb.append("<li class=\"v-").append(Html.esc(v.source())).append("\"><span class=\"tag\">")
                        .append(Html.esc(v.source().equals("finding") ? "finding" : v.source().equals("validity") ? "validity" : "measured"))
                        .append("</span> ").append(Html.esc(v.text()));
                evidence(v.evidence());
                sb.append("</li>\n");
            }
            sb.append("</ul>\n");
        }
        forest();
        sb.append("</section>\n");
    }

    /** The judge's claims of findings.json, a line each ({@link ForestPlot}), under the verdicts that say them. */
    private void forest() {
        List<Map<String, Object>> claims = data.findings().experiments().stream().flatMap(e -> e.findings().stream())
                .flatMap(f -> f.claims().stream()).toList();
        String svg = ForestPlot.svg(claims);
        if (svg.isEmpty()) return;
        sb.append("<figure class=\"forest\" id=\"claims\">").append(svg).append("<figcaption>Each claim of the verdicts above: its ratio (a point) and ")
                .append("its confidence set (a line; an arrow where it is unbounded), over the band within which it would be called equivalent. ")
                .append("Better or worse only when the whole set is on one side of 1.</figcaption></figure>\n");
    }

    /**
     * Where each row's request time went (the profile probe): a stacked bar per row, the rows of one scenario together
     * (platform beside virtual), each with its largest cause and links to its rows and its profile in raw/.
     */
    private void requestTime() {
        Map<String, List<DataRow>> scenarios = new LinkedHashMap<>();
        for (DataRow r : data.rows()) {
            if (vtlab.data.RequestTime.has(r)) scenarios.computeIfAbsent(vtlab.data.Grouping.comparison(r), k -> new ArrayList<>()).add(r);
        }
        if (scenarios.isEmpty()) return;
        sb.append("<section id=\"request-time\"><h2>Where request time goes</h2>\n<p class=\"hint\">Each bar is one row's request time "
                + "(throughput × mean latency × hold) by cause, from the profile probe (docs/design.md, \"Where each request's time goes\"), in a "
                + "<b>profiled hold of its own after the measured one</b>: no number of the row is taken while the profiler runs. Beside each bar, "
                + "what that hold cost against the measured one. Time no source saw is \"other\" and never named as a cause.</p>\n<p class=\"legend\">");
        for (vtlab.data.RequestTime.Cause c : vtlab.data.RequestTime.Cause.values()) {
            sb.append("<span class=\"key\"><i style=\"background:").append(c.color).append("\"></i>").append(Html.esc(c.label)).append("</span> ");
        }
        sb.append("</p>\n");
        scenarios.forEach((key, rows) -> {
            sb.append("<h3>").append(Html.esc(rows.getFirst().experiment() + " · " + vtlab.data.Grouping.comparisonLabel(key))).append("</h3>\n");
            for (DataRow r : rows) {
                int k = data.index(r);
                sb.append("<div class=\"tbar-row\" id=\"why-").append(k).append("\"><span class=\"tlabel\"><a href=\"#row-").append(k).append("\">row ")
                        .append(k).append("</a> ").append(Html.esc(vtlab.data.Grouping.variant(r))).append("</span><span class=\"tbar\">");
                vtlab.data.RequestTime.shares(r).forEach((c, v) -> {
                    if (v <= 0) return;
                    sb.append("<i class=\"seg-").append(c.key).append("\" style=\"width:").append(String.format(Locale.ROOT, "%.2f", Math.min(100, v)))
                            .append("%;background:").append(c.color).append("\" title=\"").append(Html.esc(String.format(Locale.ROOT, "%s %.1f%%", c.label, v)))
                            .append("\"></i>");
                });
                sb.append("</span><span class=\"twhy\">").append(Html.esc(vtlab.data.RequestTime.line(r)));
                String cost = vtlab.data.RequestTime.profiledCost(r);
                if (cost != null) sb.append(" · <span class=\"pcost\">").append(Html.esc(cost)).append("</span>");
                String tail = r.text(Columns.TIME_TAIL);
                if (!tail.isBlank()) sb.append("<br><span class=\"ttail\">").append(Html.esc(tail)).append("</span>");
                String jfr = r.text(Columns.PROFILE_JFR);
                if (!jfr.isEmpty()) {
                    sb.append(" · <a href=\"raw/").append(Html.esc(jfr.replace(".jfr", ".txt"))).append("\">breakdown</a> · <a href=\"raw/")
                            .append(Html.esc(jfr)).append("\">JFR</a>");
                }
                String flame = r.text(Columns.PROFILE_FLAME);
                if (!flame.isEmpty()) sb.append(" · <a class=\"flame\" href=\"raw/").append(Html.esc(flame)).append("\">flame graph</a>");
                FlameDiffs.Diff diff = flameDiffs.get(k);
                if (diff != null) {
                    sb.append(" · <a class=\"flame-diff\" href=\"charts/").append(Html.esc(diff.file())).append("\" title=\"this row's flame graph coloured against row ")
                            .append(diff.baseline()).append("'s: red frames took more of the samples, blue fewer\">what changed against row ").append(diff.baseline()).append("</a>");
                }
                sb.append("</span></div>\n");
            }
        });
        sb.append("</section>\n");
    }

    private void evidence(List<String> anchors) {
        if (anchors.isEmpty()) return;
        sb.append(" <span class=\"ev\">evidence:");
        List<String> distinct = anchors.stream().distinct().toList();
        for (String a : distinct.subList(0, Math.min(24, distinct.size()))) {
            String label = a.startsWith("row-") ? "row " + a.substring(4) : a.startsWith("exp-") ? "section" : a.replace('-', ' ');
            sb.append(" <a href=\"#").append(Html.esc(a)).append("\">").append(Html.esc(label)).append("</a>");
        }
        if (distinct.size() > 24) sb.append(" and ").append(distinct.size() - 24).append(" more");
        sb.append("</span>");
    }

    private void experiment(String exp) {
        List<DataRow> rows = data.rowsOf(exp);
        if (rows.isEmpty()) return;
        sb.append("<section id=\"").append(Html.anchor("exp", exp)).append("\"><h2>").append(Html.esc(exp)).append("</h2>\n");
        Findings.Entry e = data.findings().of(exp);
        // an experiment findings.json does not describe (this build does not know it): its rows still show
        if (e != null && e.summary() != null) sb.append("<p class=\"summary\">").append(Html.esc(e.summary())).append("</p>\n");
        chartGroup("Throughput and p99 latency vs concurrency, platform vs virtual", charts.hero(exp), true);
        chartGroup("Bottleneck: throughput vs HikariCP pool size", charts.bottleneck(exp), true);
        chartGroup("Latency vs offered rate (open model), platform vs virtual", charts.latencyVsRate(exp), true);
        chartGroup("Latency by percentile (reps' histograms merged), platform vs virtual", charts.spectrum(exp), true);
        chartGroup("Memory and threads", charts.memory(exp), true);
        chartGroup("Pinning", charts.pinning(exp), false);
        summaryTable(exp);
        rowsTable(rows);
        overTime(rows);
        sb.append("</section>\n");
    }

    private void chartGroup(String heading, List<ChartSpec> list, boolean figure) {
        if (list.stream().allMatch(ChartSpec::isEmpty)) return;
        sb.append("<h3>").append(Html.esc(heading)).append("</h3>\n");
        chartGrid(list, figure);
    }

    /** The charts that have points, in a grid; figures also go to charts/ as SVG and PNG. */
    private void chartGrid(List<ChartSpec> list, boolean figure) {
        List<ChartSpec> drawn = list.stream().filter(c -> !c.isEmpty()).toList();
        if (drawn.isEmpty()) return;
        sb.append("<div class=\"charts\">\n");
        for (ChartSpec c : drawn) {
            specs.put(c.id(), c);
            if (figure) figures.add(c);
            sb.append("<figure><div class=\"chart\"><canvas id=\"c-").append(Html.esc(c.id())).append("\" data-chart=\"")
                    .append(Html.esc(c.id())).append("\" role=\"img\" aria-label=\"").append(Html.esc(c.title())).append("\"></canvas></div>");
            if (figure) {
                sb.append("<figcaption>static figure: <a href=\"charts/").append(Html.esc(c.id())).append(".svg\">SVG</a> · <a href=\"charts/")
                        .append(Html.esc(c.id())).append(".png\">PNG</a></figcaption>");
            }
            sb.append("</figure>\n");
        }
        sb.append("</div>\n");
    }

    /**
     * The rows that had a fault in their hold, whatever their experiment: per fault, its panels over time (the modes
     * overlaid, the window shaded) and a table of what it did to each mode (the row's fault verdict columns).
     */
    private void faults() {
        Map<String, List<DataRow>> byFault = faults.byFault();
        if (byFault.isEmpty()) return;
        sb.append("<section id=\"faults\"><h2>Faults</h2>\n<p class=\"hint\">Rows whose measured hold had a fault, per fault: each second of ")
                .append("the hold, the modes overlaid in their colours, the series of a panel told apart by dash; the shaded band is the fault's ")
                .append("window as applied (a point at second x covers the second before it). An error kind is drawn only where it occurred. ")
                .append("Under the panels, what the fault did to each row: p99 before, during and after the window, recovery (p99 back within ")
                .append("10% of before for 3 s), the most requests in flight and heap from the fault's start on, errors by kind from then on.</p>\n");
        for (var e : byFault.entrySet()) {
            sb.append("<h3 id=\"").append(Html.anchor("fault", e.getKey())).append("\">").append(Html.esc(e.getKey())).append("</h3>\n");
            chartGrid(faults.panels(e.getKey(), e.getValue()), true);
            faultTable(e.getValue());
        }
        sb.append("</section>\n");
    }

    /** The fault verdict columns of a fault's rows, one line each, its sentence under it. */
    private void faultTable(List<DataRow> rows) {
        String[][] heads = {{"mode", null}, {"row", null}, {"applied", "seconds into the hold"}, {"p99 before ms", null}, {"p99 during ms", null},
                {"p99 after ms", null}, {"recovery", "p99 back within 10% of before, and staying 3 s"},
                {"peak in flight (SUT)", "most requests in the SUT from the fault's start on"},
                {"peak in flight (generator)", "most requests under way at the generator from the fault's start on"}, {"heap before MB", null},
                {"peak heap MB", "from the fault's start on"}, {"timeouts", null}, {"status >= 400", null}, {"refused", "connections refused or not made"},
                {"reset", "connections reset or cut"}, {"failed", "share of the requests ending from the fault's start on that failed"},
                {"never answered", "requests of the whole hold never answered: timeouts, connection errors, dropped"}};
        sb.append("<div class=\"scroll\"><table class=\"faults\"><thead><tr>");
        for (String[] h : heads) {
            sb.append("<th").append(h[1] == null ? "" : " title=\"" + Html.esc(h[1]) + "\"").append(">").append(Html.esc(h[0])).append("</th>");
        }
        sb.append("</tr></thead>\n<tbody>\n");
        for (DataRow r : rows) {
            int k = data.index(r);
            String status = r.status();
            String flags = r.flagged() ? " (flagged: " + String.join(", ", r.flags()) + ")" : "";
            sb.append("<tr class=\"st-").append(Html.esc(status)).append("\"><td>").append(Html.esc(FaultCharts.mode(r) + flags))
                    .append("</td><td><a href=\"#row-").append(k).append("\">").append(k).append("</a></td>");
            if (r.failed()) {
                sb.append("<td colspan=\"").append(heads.length - 2).append("\" class=\"bad\">failed: ").append(Html.esc(r.text(Columns.NOTE))).append("</td></tr>\n");
                continue;
            }
            double from = r.num(Columns.FAULT_FROM), to = r.num(Columns.FAULT_TO);
            sb.append("<td>").append(Double.isNaN(from) || Double.isNaN(to) ? "" : String.format(Locale.ROOT, "%.1f–%.1f s", from, to)).append("</td>");
            for (Column col : List.of(Columns.P99_BEFORE, Columns.P99_DURING, Columns.P99_AFTER)) numCell(r.num(col), StaticChart.num(r.num(col)));
            double recovery = r.num(Columns.RECOVERY_S);
            if (!Double.isNaN(recovery)) {
                numCell(recovery, StaticChart.num(recovery) + " s");
            } else if (!Double.isNaN(r.num(Columns.P99_BEFORE))) {
                sb.append("<td class=\"bad\">did not recover within the hold</td>");
            } else {
                sb.append("<td>").append(r.text(Columns.FAULT_VERDICT).isBlank() ? "" : "no p99 before the fault").append("</td>");
            }
            for (Column col : List.of(Columns.PEAK_IN_FLIGHT, Columns.PEAK_LOAD_IN_FLIGHT, Columns.HEAP_BEFORE, Columns.PEAK_HEAP,
                    Columns.FAULT_ERRORS_TIMEOUT, Columns.FAULT_ERRORS_STATUS, Columns.FAULT_ERRORS_CONNECT, Columns.FAULT_ERRORS_IO)) {
                numCell(r.num(col), StaticChart.num(r.num(col)));
            }
            double shed = r.num(Columns.FAULT_SHED_PCT);
            numCell(shed, String.format(Locale.ROOT, "%.1f%%", shed));
            numCell(r.num(Columns.NEVER_ANSWERED), StaticChart.num(r.num(Columns.NEVER_ANSWERED)));
            sb.append("</tr>\n");
            String verdict = r.text(Columns.FAULT_VERDICT);
            if (!verdict.isBlank()) {
                sb.append("<tr class=\"sentence st-").append(Html.esc(status)).append("\"><td></td><td colspan=\"").append(heads.length - 1)
                        .append("\">").append(Html.esc(verdict)).append("</td></tr>\n");
            }
        }
        sb.append("</tbody></table></div>\n");
    }

    /** summary.json's lines of an experiment: mean, 95% CI and reps per scenario and mode, with threshold breaches. */
    private void summaryTable(String exp) {
        List<RunSummary.Entry> lines = summary.entries().stream().filter(e -> e.experiment().equals(exp) && e.measured()).toList();
        if (lines.isEmpty()) return;
        sb.append("<h3>Summary</h3>\n<p class=\"hint\">From summary.json: per scenario and mode, the mean over the ok reps with its 95% ")
                .append("confidence interval (Student's t); p50/p99 of the reps' merged histograms where they have them.")
                .append(summary.failOn() == null ? "" : " Thresholds: --fail-on " + Html.esc(summary.failOn()) + ".").append("</p>\n")
                .append("<div class=\"scroll\"><table class=\"sortable summary\"><thead><tr><th>scenario</th><th>mode</th><th>reps ok</th>")
                .append("<th>req/s</th><th>95% CI</th><th>p50 ms</th><th>p99 ms</th><th>bound</th><th>of bound</th><th>vs platform</th>")
                .append("<th>flags</th><th>rows</th></tr></thead>\n<tbody>\n");
        for (RunSummary.Entry e : lines) {
            RunSummary.Stat t = e.throughput();
            sb.append("<tr").append(e.breached().isEmpty() ? "" : " class=\"st-flagged\"").append("><td>").append(Html.esc(e.scenario()))
                    .append("</td><td>").append(Html.esc(e.variant())).append("</td><td>").append(e.ok()).append('/').append(e.ok() + e.flagged() + e.failed())
                    .append("</td>");
            numCell(t.mean(), StaticChart.num(t.mean()));
            sb.append("<td>").append(Double.isNaN(t.low()) ? "" : Html.esc(StaticChart.num(t.low()) + " – " + StaticChart.num(t.high()))).append("</td>");
            numCell(e.p50().ms(), StaticChart.num(e.p50().ms()));
            numCell(e.p99().ms(), StaticChart.num(e.p99().ms()));
            numCell(e.boundRps(), StaticChart.num(e.boundRps()));
            numCell(e.boundRatio(), Double.isNaN(e.boundRatio()) ? "" : String.format(Locale.ROOT, "%.0f%%", e.boundRatio() * 100));
            numCell(e.vsPlatform(), Double.isNaN(e.vsPlatform()) ? "" : String.format(Locale.ROOT, "%.2f×", e.vsPlatform()));
            List<String> flags = new ArrayList<>(e.flags());
            e.breached().forEach(b -> flags.add("breached: " + b));
            sb.append("<td>").append(Html.esc(String.join(", ", flags))).append("</td><td>");
            for (int k : e.rows()) sb.append("<a href=\"#row-").append(k).append("\">").append(k).append("</a> ");
            sb.append("</td></tr>\n");
        }
        sb.append("</tbody></table></div>\n");
    }

    private void numCell(double v, String shown) {
        sb.append("<td data-v=\"").append(Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v)).append("\">").append(Double.isNaN(v) ? "" : Html.esc(shown)).append("</td>");
    }

    private void rowsTable(List<DataRow> rows) {
        List<Shown> cols = ROW_COLUMNS.stream().filter(c -> rows.stream().anyMatch(r -> !r.text(c.column()).isEmpty())).toList();
        sb.append("<h3>Rows</h3>\n<p class=\"hint\">Click a heading to sort. Yellow: flagged (not evidence); red: failed.</p>\n")
                .append("<div class=\"scroll\"><table class=\"sortable rows\"><thead><tr><th>#</th><th>status</th>");
        for (Shown c : cols) sb.append("<th>").append(Html.esc(c.heading())).append("</th>");
        sb.append("<th>raw</th></tr></thead>\n<tbody>\n");
        for (DataRow r : rows) {
            int k = data.index(r);
            String status = r.status();
            sb.append("<tr id=\"row-").append(k).append("\" class=\"st-").append(Html.esc(status)).append("\"><td data-v=\"").append(k)
                    .append("\"><a href=\"#time-").append(k).append("\">").append(k).append("</a></td><td>").append(Html.esc(status)).append("</td>");
            for (Shown c : cols) cell(r, c.column());
            String raw = r.text(Columns.RAW);
            sb.append("<td>");
            if (raw.matches("[A-Za-z0-9._-]+")) sb.append("<a href=\"raw/").append(Html.esc(raw)).append("\">").append(Html.esc(raw)).append("</a>");
            sb.append("</td></tr>\n");
        }
        sb.append("</tbody></table></div>\n");
    }

    /** Text columns of the rows table that can run long (notes are sentences): clipped to one line. */
    static final java.util.Set<Column> CLIPPED = java.util.Set.of(Columns.NOTE, Columns.PARAMS, Columns.FLAGS);

    private void cell(DataRow r, Column col) {
        String v = r.text(col);
        double d = r.num(col);
        if (Double.isNaN(d)) {
            // long text stays on one line, cut with an ellipsis; the whole of it is the cell's tooltip
            boolean clip = CLIPPED.contains(col) && !v.isEmpty();
            sb.append("<td").append(clip ? " class=\"clip" + (col.equals(Columns.NOTE) ? " note" : "") + "\" title=\"" + Html.esc(v) + "\"" : "")
                    .append(">").append(Html.esc(v)).append("</td>");
            return;
        }
        String shown = col.equals(Columns.ERROR_RATE) ? String.format(Locale.ROOT, "%.2f%%", d * 100)
                : col.equals(Columns.BOUND_RATIO) ? String.format(Locale.ROOT, "%.0f%%", d * 100)
                : col.equals(Columns.LITTLE_RATIO) ? String.format(Locale.ROOT, "%.2f", d)
                : StaticChart.num(d);
        boolean bad = col.equals(Columns.ERROR_RATE) && d > 0;
        sb.append("<td data-v=\"").append(Html.esc(v)).append("\"").append(bad ? " class=\"bad\"" : "").append(">").append(Html.esc(shown)).append("</td>");
    }

    /** Per row: each probe's per-second series as a small chart; errors and failures in red. */
    private void overTime(List<DataRow> rows) {
        boolean any = rows.stream().anyMatch(r -> !data.series(data.index(r)).isEmpty() || r.failed());
        if (!any) return;
        sb.append("<h3>Over time, per row</h3>\n<p class=\"hint\">Sampled each second during the measured hold, so warm-up effects, stalls and "
                + "timeouts show instead of being averaged away. Rows with errors or timeouts are marked in red.</p>\n");
        for (DataRow r : rows) {
            int k = data.index(r);
            List<ChartSpec> small = charts.overTime(k);
            String errors = errorsText(r);
            boolean failed = r.failed();
            if (small.isEmpty() && !failed && errors.isEmpty()) continue;
            sb.append("<div class=\"timeline").append(failed || !errors.isEmpty() ? " has-errors" : "").append("\" id=\"time-").append(k).append("\">")
                    .append("<h4><a href=\"#row-").append(k).append("\">row ").append(k).append("</a> ").append(Html.esc(r.text(Columns.SCENARIO)))
                    .append(" rep ").append(Html.esc(r.text(Columns.REP))).append(" — ").append(Html.esc(r.status())).append("</h4>");
            if (failed) sb.append("<p class=\"bad\">failed: ").append(Html.esc(r.text(Columns.NOTE))).append("</p>");
            if (!errors.isEmpty()) sb.append("<p class=\"bad\">").append(Html.esc(errors)).append("</p>");
            if (!small.isEmpty()) {
                sb.append("<div class=\"charts small\">");
                for (ChartSpec c : small) {
                    specs.put(c.id(), c);
                    sb.append("<figure><figcaption>").append(Html.esc(c.title())).append(" (").append(Html.esc(c.yLabel())).append(")</figcaption>")
                            .append("<div class=\"chart\"><canvas id=\"c-").append(Html.esc(c.id())).append("\" data-chart=\"").append(Html.esc(c.id()))
                            .append("\" role=\"img\" aria-label=\"").append(Html.esc(c.title())).append("\"></canvas></div></figure>");
                }
                sb.append("</div>");
            }
            sb.append("</div>\n");
        }
    }

    /** "errors: 12 timeouts, 3 non-2xx answers (0.31%)", or empty. */
    static String errorsText(DataRow r) {
        List<String> parts = new ArrayList<>();
        List<Shown> kinds = List.of(new Shown(Columns.ERRORS_TIMEOUT, "timeouts"), new Shown(Columns.ERRORS_STATUS, "non-2xx answers"),
                new Shown(Columns.ERRORS_CONNECT, "connect errors"), new Shown(Columns.ERRORS_READ, "read errors"), new Shown(Columns.ERRORS_WRITE, "write errors"));
        for (Shown k : kinds) {
            double n = r.num(k.column());
            if (n > 0) parts.add(StaticChart.num(n) + " " + k.heading());
        }
        double rate = r.num(Columns.ERROR_RATE);
        if (parts.isEmpty() && !(rate > 0)) return "";
        return "errors: " + (parts.isEmpty() ? "" : String.join(", ", parts) + " ") + (rate > 0 ? String.format(Locale.ROOT, "(%.2f%% of requests)", rate * 100) : "");
    }

    /** A study's data file: its charts (by the kind the study names), then the file as a table. */
    private void study(StudySection s) {
        sb.append("<section id=\"").append(Html.esc(s.anchor())).append("\"><h2>").append(Html.esc(s.title())).append("</h2>\n");
        List<ChartSpec> drawn = StudySection.SCORES.equals(s.chart()) ? charts.scores(s)
                : StudySection.THREAD_MEMORY.equals(s.chart()) ? charts.threadMemory(s) : List.of();
        if (s.chartHeading() != null) chartGroup(s.chartHeading(), drawn, true);
        table(data.studyRows(s), s.rowPrefix(), s.dataFile());
        sb.append("</section>\n");
    }

    private void pinningFiles() {
        if (data.pinningText().isEmpty()) return;
        sb.append("<section id=\"pinning-files\"><h2>Pinning: events and stacks</h2>\n");
        data.pinningText().forEach((name, text) -> {
            String shown = text.length() > 200_000 ? text.substring(0, 200_000) + "\n… (cut; the whole file is " + name + ")" : text;
            sb.append("<details open><summary>").append(Html.esc(name)).append("</summary><pre>").append(Html.esc(shown)).append("</pre></details>\n");
        });
        sb.append("</section>\n");
    }

    private void otherCsv() {
        if (data.otherCsv().isEmpty()) return;
        sb.append("<section id=\"other-data\"><h2>Other data files</h2>\n");
        int i = 0;
        for (var e : data.otherCsv().entrySet()) table(e.getValue(), "f" + (++i), e.getKey());
        sb.append("</section>\n");
    }

    /** A CSV file as a sortable table; row n gets the anchor prefix-n. */
    private void table(List<DataRow> rows, String prefix, String title) {
        sb.append("<h3>").append(Html.esc(title)).append("</h3>\n");
        if (rows.isEmpty()) {
            sb.append("<p>empty</p>\n");
            return;
        }
        List<String> cols = rows.getFirst().names();
        sb.append("<div class=\"scroll\"><table class=\"sortable\"><thead><tr><th>#</th>");
        for (String c : cols) sb.append("<th>").append(Html.esc(c)).append("</th>");
        sb.append("</tr></thead>\n<tbody>\n");
        int n = 0;
        for (DataRow r : rows) {
            n++;
            if (n > 2000) break;
            sb.append("<tr id=\"").append(prefix).append('-').append(n).append("\"><td data-v=\"").append(n).append("\">").append(n).append("</td>");
            for (String c : cols) {
                sb.append("<td>").append(Html.esc(r.cell(c))).append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</tbody></table></div>\n");
        if (rows.size() > 2000) sb.append("<p class=\"hint\">first 2,000 of ").append(rows.size()).append(" lines</p>\n");
    }

    private void validity() {
        sb.append("<section id=\"validity\"><h2>Validity</h2>\n<p class=\"hint\">Every row is checked before its numbers count: achieved "
                + "throughput against the closed-model bound, Little's law (connections = throughput × mean latency, within 10%), whether the "
                + "generator's cores were saturated, and errors. Flagged and failed rows are never used as evidence.</p>\n");
        List<DataRow> rows = data.rows();
        if (rows.isEmpty()) {
            sb.append("<p>No load rows in this run.</p>\n");
        } else {
            sb.append("<div class=\"scroll\"><table class=\"sortable\"><thead><tr><th>#</th><th>scenario</th><th>rep</th><th>status</th>")
                    .append("<th>bound req/s</th><th>of bound</th><th>bound</th><th>Little L/(λW)</th><th>Little ok</th><th>generator-bound</th>")
                    .append("<th>load CPU %</th><th>errors</th><th>flags</th><th>note</th></tr></thead>\n<tbody>\n");
            for (DataRow r : rows) {
                int k = data.index(r);
                sb.append("<tr id=\"val-").append(k).append("\" class=\"st-").append(Html.esc(r.status())).append("\">")
                        .append("<td data-v=\"").append(k).append("\"><a href=\"#row-").append(k).append("\">").append(k).append("</a></td><td>")
                        .append(Html.esc(r.text(Columns.SCENARIO))).append("</td>");
                cell(r, Columns.REP);
                sb.append("<td>").append(Html.esc(r.status())).append("</td>");
                cell(r, Columns.BOUND_RPS);
                cell(r, Columns.BOUND_RATIO);
                cell(r, Columns.BOUND_NOTE);
                cell(r, Columns.LITTLE_RATIO);
                boolean littleBad = "false".equals(r.text(Columns.LITTLE_OK));
                sb.append("<td").append(littleBad ? " class=\"bad\"" : "").append(">").append(Html.esc(r.text(Columns.LITTLE_OK))).append("</td>");
                boolean genBad = "true".equals(r.text(Columns.GENERATOR_BOUND));
                sb.append("<td").append(genBad ? " class=\"bad\"" : "").append(">").append(Html.esc(r.text(Columns.GENERATOR_BOUND))).append("</td>");
                cell(r, Columns.LOAD_CPU);
                String err = errorsText(r);
                sb.append("<td").append(err.isEmpty() ? "" : " class=\"bad\"").append(">").append(Html.esc(err)).append("</td>");
                cell(r, Columns.FLAGS);
                cell(r, Columns.NOTE);
                sb.append("</tr>\n");
            }
            sb.append("</tbody></table></div>\n");
            List<DataRow> failed = rows.stream().filter(DataRow::failed).toList();
            if (!failed.isEmpty()) {
                sb.append("<h3>Failed rows</h3>\n<ul>\n");
                for (DataRow r : failed) {
                    sb.append("<li><a href=\"#row-").append(data.index(r)).append("\">row ").append(data.index(r)).append("</a> ")
                            .append(Html.esc(r.text(Columns.SCENARIO))).append(": <span class=\"bad\">").append(Html.esc(r.text(Columns.NOTE)))
                            .append("</span></li>\n");
                }
                sb.append("</ul>\n");
            }
        }
        if (!data.problems().isEmpty()) {
            sb.append("<h3>Files that could not be read</h3>\n<ul>\n");
            data.problems().forEach(p -> sb.append("<li class=\"bad\">").append(Html.esc(p)).append("</li>\n"));
            sb.append("</ul>\n");
        }
        sb.append("</section>\n");
    }

    private void environment() {
        JsonNode env = data.environment();
        sb.append("<section id=\"environment\"><h2>Environment</h2>\n");
        if (env.isObject()) {
            JsonNode cores = env.path("core_map");
            if (cores.isObject() && !cores.isEmpty()) {
                sb.append("<h3>Core map</h3>\n<table><thead><tr><th>tier</th><th>CPUs (taskset)</th></tr></thead><tbody>\n");
                cores.properties().forEach(e -> sb.append("<tr><td>").append(Html.esc(e.getKey())).append("</td><td>")
                        .append(Html.esc(e.getValue().asText())).append("</td></tr>\n"));
                sb.append("</tbody></table>\n");
            }
            JsonNode jdks = env.path("jdks");
            if (jdks.isArray() && !jdks.isEmpty()) {
                sb.append("<h3>JDKs</h3>\n<table><thead><tr><th>major</th><th>version</th><th>vendor</th><th>home</th></tr></thead><tbody>\n");
                for (JsonNode j : jdks) {
                    sb.append("<tr><td>").append(Html.esc(j.path("major").asText())).append("</td><td>").append(Html.esc(j.path("version").asText()))
                            .append("</td><td>").append(Html.esc(j.path("vendor").asText())).append("</td><td>").append(Html.esc(j.path("home").asText()))
                            .append("</td></tr>\n");
                }
                sb.append("</tbody></table>\n");
            }
            sb.append("<h3>environment.json</h3>\n<table class=\"kv\"><tbody>\n");
            env.properties().forEach(e -> {
                if (e.getKey().equals("core_map") || e.getKey().equals("jdks")) return;
                JsonNode v = e.getValue();
                sb.append("<tr><th>").append(Html.esc(e.getKey())).append("</th><td>");
                if (v.isValueNode()) sb.append(Html.esc(v.asText()));
                else sb.append("<code>").append(Html.esc(v.toString())).append("</code>");
                sb.append("</td></tr>\n");
            });
            sb.append("</tbody></table>\n");
        } else {
            sb.append("<p>No environment.json in this run folder.</p>\n");
        }
        if (!data.summary().isBlank()) {
            sb.append("<details><summary>summary.txt</summary><pre>").append(Html.esc(data.summary())).append("</pre></details>\n");
        }
        sb.append("</section>\n");
    }

    /** The inlined chart library and the page's own script, both read from the classpath. */
    static final class ChartLibrary {
        private static final String POM = "META-INF/maven/org.webjars.npm/chart.js/pom.properties";

        private ChartLibrary() {}

        static String version() {
            try (InputStream in = ReportPage.class.getClassLoader().getResourceAsStream(POM)) {
                if (in == null) return "?";
                Properties p = new Properties();
                p.load(in);
                return p.getProperty("version", "?");
            } catch (IOException e) {
                return "?";
            }
        }

        /** Chart.js's UMD build, safe to put between script tags, or null when the WebJar is missing. */
        static String script() {
            String v = version();
            for (String file : List.of("chart.umd.min.js", "chart.umd.js")) {
                String js = read("META-INF/resources/webjars/chart.js/" + v + "/dist/" + file);
                if (js != null) {
                    return js.replaceAll("(?m)^//# sourceMappingURL=.*$", "").replaceAll("(?i)</script", "<\\\\/script");
                }
            }
            return null;
        }

        static String resource(String name) {
            String s = read("vtlab/report/" + name);
            if (s == null) throw new IllegalStateException("vtlab/report/" + name + " missing from the classpath");
            return s;
        }

        private static String read(String path) {
            try (InputStream in = ReportPage.class.getClassLoader().getResourceAsStream(path)) {
                return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return null;
            }
        }
    }

    static final String CSS = """
            :root { --fg: #1d1d1f; --muted: #666; --line: #ddd; --bad: #c62828; --warn: #fff4d6; --failbg: #fde8e8; }
            * { box-sizing: border-box; }
            body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--fg); margin: 0; background: #fafafa; }
            header, main, footer { max-width: 1280px; margin: 0 auto; padding: 0 20px; }
            header { padding-top: 16px; }
            h1 { font-size: 24px; margin: 8px 0; } h1 .run { font-weight: normal; color: var(--muted); font-size: 18px; }
            h2 { font-size: 20px; border-bottom: 2px solid var(--line); padding-bottom: 4px; margin-top: 32px; }
            h3 { font-size: 16px; margin: 22px 0 8px; } h4 { font-size: 13px; margin: 4px 0; }
            .meta { color: var(--muted); margin: 2px 0; } code { font-size: 12px; word-break: break-all; }
            nav { margin: 10px 0; } nav a { margin-right: 12px; }
            section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 4px 18px 16px; margin: 18px 0; }
            ul.verdicts { padding-left: 0; list-style: none; } ul.verdicts li { margin: 8px 0; padding: 6px 10px; border-left: 4px solid #1f77b4; background: #f5f9fd; }
            ul.verdicts li.v-finding { border-left-color: #2ca02c; background: #f4fbf4; }
            ul.verdicts li.v-validity { border-left-color: #e0a000; background: #fffaf0; }
            .tag { font-size: 11px; text-transform: uppercase; color: var(--muted); margin-right: 4px; }
            .ev { color: var(--muted); font-size: 12px; } .ev a { margin-left: 4px; }
            .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(560px, 1fr)); gap: 14px; }
            .charts figure { margin: 0; } .chart { position: relative; height: 380px; }
            .charts.small { grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 8px; }
            .charts.small .chart { height: 140px; } .charts.small figcaption { font-size: 12px; color: var(--muted); }
            figcaption { font-size: 12px; color: var(--muted); }
            figure.forest { margin: 12px 0; } figure.forest svg { max-width: 100%; height: auto; }
            .timeline { border: 1px solid var(--line); border-radius: 4px; padding: 6px 10px; margin: 8px 0; }
            .timeline.has-errors { border-color: var(--bad); border-width: 2px; }
            .bad { color: var(--bad); font-weight: 600; }
            .scroll { overflow-x: auto; }
            table { border-collapse: collapse; font-size: 12px; }
            th, td { border: 1px solid var(--line); padding: 3px 6px; text-align: left; vertical-align: top; }
            table.sortable th { cursor: pointer; background: #f0f0f0; white-space: nowrap; }
            table.sortable th[data-dir=asc]::after { content: " ▲"; } table.sortable th[data-dir=desc]::after { content: " ▼"; }
            td[data-v] { text-align: right; font-variant-numeric: tabular-nums; }
            td.note { max-width: 420px; }
            table.faults tr.sentence td { color: var(--muted); border-top: none; }
            /* the rows table: one line per row (a row several lines tall hides its neighbours); long text is cut and
               kept whole in its tooltip; the row number stays in view while the table scrolls sideways in its box */
            table.rows td, table.rows th { white-space: nowrap; }
            table.rows td.clip { max-width: 16em; overflow: hidden; text-overflow: ellipsis; }
            table.rows td.clip.note { max-width: 28em; }
            table.rows tr > :first-child { position: sticky; left: 0; background: #fff; z-index: 1; }
            table.rows thead tr > :first-child { background: #f0f0f0; }
            table.rows tr.st-flagged > :first-child { background: var(--warn); } table.rows tr.st-failed > :first-child { background: var(--failbg); }
            tr.st-flagged td { background: var(--warn); } tr.st-failed td { background: var(--failbg); }
            tr:target td, div:target { outline: 2px solid #1f77b4; }
            table.kv th { background: #f6f6f6; width: 200px; }
            pre { background: #f6f6f6; padding: 8px; overflow-x: auto; font-size: 12px; max-height: 480px; }
            .hint { color: var(--muted); font-size: 12px; margin: 2px 0 6px; }
            footer { color: var(--muted); font-size: 12px; padding: 10px 20px 30px; }
            .legend .key { margin-right: 10px; font-size: 12px; white-space: nowrap; } .legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
            .tbar-row { display: flex; align-items: center; gap: 8px; margin: 3px 0; font-size: 12px; }
            .tlabel { width: 170px; flex: none; } .tbar { display: flex; width: 420px; height: 16px; flex: none; background: #eee; }
            .tbar i { display: block; height: 100%; } .twhy { color: var(--muted); }
            """;
}
