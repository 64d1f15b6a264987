package vtlab.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.HdrHistogram.Histogram;

import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Grouping;
import vtlab.data.LatencyHistogram;
import vtlab.data.Rows;
import vtlab.data.StudyColumns;
import vtlab.data.StudySection;

/**
 * Turns a run's rows into charts: sweeps (throughput and p99 vs concurrency, throughput vs pool), latency by
 * percentile and vs offered rate, memory, pinning, JMH scores and per-second series. Lines are made of rows with status
 * ok only (reps averaged; latency from their merged histograms where each has one); flagged rows are drawn apart,
 * muted, so they are seen but never read as a result.
 */
public final class ChartData {
    public static final Column CONCURRENCY = Columns.CONCURRENCY;
    public static final Column POOL = Columns.HIKARI_POOL;
    static final String MUTED = "#9a9a9a";
    static final String ERROR = "#d62728";
    static final String VIRTUAL = "#1f77b4", PLATFORM = "#ff7f0e";
    private static final List<String> PALETTE = List.of("#8c564b", "#2ca02c", "#9467bd", "#17becf", "#bcbd22", "#e377c2", "#7f7f7f");

    private final RunData data;
    private final Map<String, String> colors = new LinkedHashMap<>();
    private final Map<String, Integer> ids = new LinkedHashMap<>();

    public ChartData(RunData data) {
        this.data = data;
    }

    /**
     * virtual is blue; platform, and the first platform pool size seen (platform-200), orange; other variants (a second
     * pool size, reactive, ...) take the next free colour. The same variant keeps its colour on every chart.
     */
    public String color(String variant) {
        return colors.computeIfAbsent(variant, v -> {
            if (v.equals(Grouping.VIRTUAL) || v.endsWith(" " + Grouping.VIRTUAL)) return VIRTUAL;
            if (v.equals(Grouping.PLATFORM) || v.endsWith(" " + Grouping.PLATFORM)) return PLATFORM;
            if (v.matches("(.* )?platform-\\d+") && colors.keySet().stream().noneMatch(k -> k.matches("(.* )?platform-\\d+"))) return PLATFORM;
            Set<String> used = new LinkedHashSet<>(colors.values());
            for (String c : PALETTE) if (!used.contains(c)) return c;
            return PALETTE.get(colors.size() % PALETTE.size());
        });
    }

    static boolean varies(List<DataRow> rows, Column col) {
        return rows.stream().map(r -> r.text(col)).filter(v -> !v.isEmpty()).distinct().count() >= 2;
    }

    static boolean anyValue(List<DataRow> rows, Column col) {
        return rows.stream().anyMatch(r -> !Double.isNaN(r.num(col)));
    }

    /** Rows grouped into panels: same everything but xCol and the variant. */
    static Map<String, List<DataRow>> panels(List<DataRow> rows, Column xCol, boolean withStack) {
        return rows.stream().filter(r -> !r.failed())
                .collect(Collectors.groupingBy(r -> Grouping.panel(r, xCol, withStack), LinkedHashMap::new, Collectors.toList()));
    }

    /** The sweep axis of an experiment's hero chart: concurrency, unless only the pool varies. */
    static Column heroAxis(List<DataRow> rows) {
        return !varies(rows, CONCURRENCY) && varies(rows, POOL) ? POOL : CONCURRENCY;
    }

    /** Chart ids double as static figure file names: safe characters only, unique within a report. */
    String id(String prefix) {
        String p = prefix.replaceAll("[^A-Za-z0-9_-]", "_");
        return p + "-" + ids.merge(p, 1, Integer::sum);
    }

    /** Throughput (left axis) and p99 (right axis, dashed) against concurrency, one line per variant, per panel. */
    public List<ChartSpec> hero(String experiment) {
        List<DataRow> rows = data.rowsOf(experiment);
        if (!varies(rows, CONCURRENCY) && varies(rows, POOL)) return List.of(); // the bottleneck chart says it all
        return sweep(experiment, rows, CONCURRENCY, "concurrent connections", true, "hero-" + experiment);
    }

    /** Throughput against the HikariCP pool size, one line per variant, when the pool varies. */
    public List<ChartSpec> bottleneck(String experiment) {
        List<DataRow> rows = data.rowsOf(experiment);
        if (!varies(rows, POOL)) return List.of();
        return sweep(experiment, rows, POOL, "HikariCP pool size (connections)", false, "bottleneck-" + experiment);
    }

    private List<ChartSpec> sweep(String experiment, List<DataRow> rows, Column xCol, String xLabel, boolean withP99,
                                  String prefix) {
        boolean withStack = varies(rows, Columns.STACK);
        List<ChartSpec> out = new ArrayList<>();
        panels(rows, xCol, withStack).forEach((label, panel) -> {
            if (!anyValue(panel, Columns.RPS)) return;
            TreeSet<Double> xs = xValues(panel, xCol);
            if (xs.isEmpty()) return;
            String title = experiment + ": throughput" + (withP99 ? " and p99" : "") + " vs "
                    + (xCol.equals(POOL) ? "pool size" : "concurrency") + " — " + label;
            Map<String, List<DataRow>> byVariant = byVariant(panel, withStack);
            List<ChartSpec.Line> lines = new ArrayList<>();
            boolean bars = xs.size() < 3;
            List<Double> xList = List.copyOf(xs);
            byVariant.forEach((v, vr) -> lines.add(new ChartSpec.Line(v + " req/s", "y", bars ? "bar" : "solid", color(v),
                    aggregate(Rows.valid(vr), xCol, Columns.RPS, bars ? xList : null))));
            // a bar is a mean: each fork's beside it shows the spread the judge's claim stands on
            if (bars) byVariant.forEach((v, vr) -> lines.add(new ChartSpec.Line(v + " forks req/s", "y", "forks", color(v), forks(Rows.valid(vr), xCol, xList))));
            if (withP99) {
                byVariant.forEach((v, vr) -> lines.add(new ChartSpec.Line(v + " p99 ms", "y2", bars ? "points" : "dashed", color(v),
                        aggregate(Rows.valid(vr), xCol, Columns.P99, bars ? xList : null, latency(99, Columns.P99)))));
            }
            flaggedLine(panel, xCol, Columns.RPS, 1, bars ? xList : null, "req/s").ifPresent(lines::add);
            out.add(new ChartSpec(id(prefix), bars ? "bar" : "line", title, xLabel, "throughput (req/s)",
                    withP99 ? "p99 latency (ms)" : null, !bars && logScale(xs),
                    bars ? xList.stream().map(x -> fmtInt(x)).toList() : List.of(), lines));
        });
        return out;
    }

    /**
     * The flagged rows of a panel (not evidence) as muted points of {@code y} times {@code factor}, each linking its
     * row: at its category's index when {@code categories} is given (a bar chart), else at its x. Empty when none is
     * flagged with a value.
     */
    private Optional<ChartSpec.Line> flaggedLine(List<DataRow> panel, Column xCol, Column y, double factor, List<Double> categories, String unit) {
        List<ChartSpec.Point> flagged = panel.stream().filter(DataRow::flagged)
                .filter(r -> !Double.isNaN(r.num(y)))
                .map(r -> new ChartSpec.Point(categories != null ? categories.indexOf(r.num(xCol)) : r.num(xCol),
                        r.num(y) * factor, null, List.of(data.anchor(r))))
                .toList();
        return flagged.isEmpty() ? Optional.empty() : Optional.of(new ChartSpec.Line("flagged rows (not evidence) " + unit, "y", "muted", MUTED, flagged));
    }

    /**
     * One point per fork (a fresh JVM: its iterations averaged, the unit the judge counts) of these ok rows, at its
     * category's index: the fork's throughput, its rows its evidence. A row without a fork is a fork of its own.
     */
    List<ChartSpec.Point> forks(List<DataRow> ok, Column xCol, List<Double> categories) {
        Map<String, List<DataRow>> byFork = new LinkedHashMap<>();
        for (DataRow r : ok) {
            if (Double.isNaN(r.num(Columns.RPS))) continue;
            String fork = Double.isNaN(r.num(Columns.FORK)) ? "row " + r.number() : "fork " + (long) r.num(Columns.FORK);
            byFork.computeIfAbsent(r.num(xCol) + " " + fork, k -> new ArrayList<>()).add(r);
        }
        List<ChartSpec.Point> out = new ArrayList<>();
        byFork.values().forEach(rows -> out.add(new ChartSpec.Point(categories.indexOf(rows.getFirst().num(xCol)),
                rows.stream().mapToDouble(r -> r.num(Columns.RPS)).average().orElseThrow(), null, rows.stream().map(data::anchor).toList())));
        return out;
    }

    /**
     * The spectrum's x: 1/(1-p), so each further nine of the percentile takes the same width on a log axis; rounded,
     * so p99.99 is 10,000 and not 9,999.999999995.
     */
    static double percentileX(double percentile) {
        return Math.round(100 / (100 - percentile) * 1e6) / 1e6;
    }

    /** p50 -> p99.99 as x ticks labelled in percent (the maximum, p100, has no place on this axis). */
    static final List<ChartSpec.Tick> PERCENTILE_TICKS = LatencyHistogram.SPECTRUM.stream().filter(p -> p < 100)
            .map(p -> new ChartSpec.Tick(percentileX(p), java.math.BigDecimal.valueOf(p).stripTrailingZeros().toPlainString() + "%")).toList();

    /**
     * Latency by percentile, the HdrHistogram plot: per scenario (comparison key), each variant's reps merged into one
     * histogram, p50 -> p99.99 on a log "1/(1-p)" axis, latency on a log axis. Variants whose reps lack a histogram are
     * left out; flagged rows with histograms are drawn muted.
     */
    public List<ChartSpec> spectrum(String experiment) {
        List<DataRow> rows = data.rowsOf(experiment).stream().filter(r -> !r.failed()).toList();
        boolean withStack = varies(rows, Columns.STACK);
        List<ChartSpec> out = new ArrayList<>();
        rows.stream().collect(Collectors.groupingBy(Grouping::comparison, LinkedHashMap::new, Collectors.toList())).forEach((key, group) -> {
            List<ChartSpec.Line> lines = new ArrayList<>();
            byVariant(group, withStack).forEach((v, vr) -> {
                List<DataRow> ok = Rows.valid(vr), flagged = vr.stream().filter(DataRow::flagged).toList();
                spectrumLine(v, "solid", color(v), ok).ifPresent(lines::add);
                spectrumLine(v + " flagged (not evidence)", "muted", MUTED, flagged).ifPresent(lines::add);
            });
            if (lines.isEmpty()) return;
            out.add(new ChartSpec(id("spectrum-" + experiment), "line", experiment + ": latency by percentile — " + Grouping.comparisonLabel(key),
                    "percentile", "latency (ms)", null, true, List.of(), lines, true, PERCENTILE_TICKS));
        });
        return out;
    }

    private Optional<ChartSpec.Line> spectrumLine(String name, String style, String color, List<DataRow> rows) {
        Histogram h = data.histograms().merged(rows);
        if (h == null) return Optional.empty();
        List<ChartSpec.Point> pts = new ArrayList<>();
        LatencyHistogram.spectrum(h).forEach((p, ms) -> {
            if (p < 100 && ms > 0) pts.add(new ChartSpec.Point(percentileX(p), ms, null, anchors(rows)));
        });
        return Optional.of(new ChartSpec.Line(name, "y", style, color, pts));
    }

    /**
     * The hockey stick: p50 and p99 against the offered rate of open rows, one line each per variant, where a panel has
     * two rates or more. Overloaded rows (offered above the bound; still evidence: the queue is the finding) are marked
     * in red; flagged rows (rate-not-held, ...) are drawn muted at their own p99.
     */
    public List<ChartSpec> latencyVsRate(String experiment) {
        List<DataRow> rows = data.rowsOf(experiment).stream().filter(DataRow::open).toList();
        boolean withStack = varies(rows, Columns.STACK);
        List<ChartSpec> out = new ArrayList<>();
        panels(rows, Columns.TARGET_RPS, withStack).forEach((label, panel) -> {
            TreeSet<Double> xs = xValues(panel, Columns.TARGET_RPS);
            if (xs.size() < 2) return;
            List<ChartSpec.Line> lines = new ArrayList<>();
            List<ChartSpec.Point> overloaded = new ArrayList<>();
            byVariant(panel, withStack).forEach((v, vr) -> {
                List<DataRow> ok = Rows.valid(vr);
                lines.add(new ChartSpec.Line(v + " p99 ms", "y", "solid", color(v), aggregate(ok, Columns.TARGET_RPS, Columns.P99, null, latency(99, Columns.P99))));
                lines.add(new ChartSpec.Line(v + " p50 ms", "y", "dashed", color(v), aggregate(ok, Columns.TARGET_RPS, Columns.P50, null, latency(50, Columns.P50))));
                overloaded.addAll(aggregate(ok.stream().filter(r -> r.flags().contains("overloaded")).toList(), Columns.TARGET_RPS, Columns.P99, null,
                        latency(99, Columns.P99)));
            });
            if (!overloaded.isEmpty()) lines.add(new ChartSpec.Line("overloaded: offered above the bound (p99)", "y", "points", ERROR, overloaded));
            List<DataRow> flagged = panel.stream().filter(DataRow::flagged).filter(r -> r.num(Columns.P99) > 0).toList();
            if (!flagged.isEmpty()) {
                String why = flagged.stream().flatMap(r -> r.flags().stream()).filter(Rows::voids).distinct().collect(Collectors.joining(", "));
                lines.add(new ChartSpec.Line("flagged rows (not evidence: " + why + ") p99 ms", "y", "muted", MUTED, flagged.stream()
                        .map(r -> new ChartSpec.Point(r.num(Columns.TARGET_RPS), r.num(Columns.P99), null, List.of(data.anchor(r)))).toList()));
            }
            if (lines.stream().allMatch(l -> l.points().isEmpty())) return;
            out.add(new ChartSpec(id("rate-" + experiment), "line", experiment + ": p50 and p99 vs offered rate — " + label,
                    "offered rate (target req/s)", "latency (ms)", null, logScale(xs), List.of(), lines, true, List.of()));
        });
        return out;
    }

    /** RSS (bars) and OS threads (points, right axis) of the SUT per variant along the sweep. */
    public List<ChartSpec> memory(String experiment) {
        List<DataRow> rows = data.rowsOf(experiment);
        if (!anyValue(rows, Columns.RSS_MAX) && !anyValue(rows, Columns.NMT_COMMITTED)) return List.of();
        Column xCol = heroAxis(rows);
        boolean withStack = varies(rows, Columns.STACK);
        boolean nmt = anyValue(rows, Columns.NMT_COMMITTED);
        List<ChartSpec> out = new ArrayList<>();
        panels(rows, xCol, withStack).forEach((label, panel) -> {
            List<Double> xs = List.copyOf(xValues(panel, xCol));
            if (xs.isEmpty()) return;
            Map<String, List<DataRow>> byVariant = byVariant(panel, withStack);
            List<ChartSpec.Line> lines = new ArrayList<>();
            Column yCol = nmt ? Columns.NMT_COMMITTED : Columns.RSS_MAX;
            byVariant.forEach((v, vr) -> lines.add(new ChartSpec.Line(v + (nmt ? " thread stacks MB" : " RSS MB"), "y", "bar",
                    color(v), scale(aggregate(Rows.valid(vr), xCol, yCol, xs), nmt ? 1 / 1024.0 : 1))));
            if (nmt && anyValue(panel, Columns.RSS_MAX)) {
                byVariant.forEach((v, vr) -> lines.add(new ChartSpec.Line(v + " RSS MB", "y2", "points", color(v),
                        aggregate(Rows.valid(vr), xCol, Columns.RSS_MAX, xs))));
            } else if (anyValue(panel, Columns.THREADS_MAX)) {
                byVariant.forEach((v, vr) -> lines.add(new ChartSpec.Line(v + " OS threads", "y2", "points", color(v),
                        aggregate(Rows.valid(vr), xCol, Columns.THREADS_MAX, xs))));
            }
            // a busy machine flags every row: its memory is still drawn, muted, as the throughput is
            flaggedLine(panel, xCol, yCol, nmt ? 1 / 1024.0 : 1, xs, nmt ? "thread stacks MB" : "RSS MB").ifPresent(lines::add);
            if (lines.stream().allMatch(l -> l.points().isEmpty())) return;
            String y2 = nmt && anyValue(panel, Columns.RSS_MAX) ? "RSS (MB)" : anyValue(panel, Columns.THREADS_MAX) ? "OS threads of the SUT" : null;
            out.add(new ChartSpec(id("memory-" + experiment), "bar", experiment + ": " + (nmt ? "thread stacks committed (NMT)" : "SUT resident memory")
                    + " — " + label, xCol.equals(POOL) ? "HikariCP pool size" : "concurrent connections",
                    nmt ? "committed thread memory (MB)" : "RSS, max (MB)", y2, false, xs.stream().map(ChartData::fmtInt).toList(), lines));
        });
        return out;
    }

    /** pinned_events per row (mean over reps) per variant, one bar group per scenario, when the column is filled. */
    public List<ChartSpec> pinning(String experiment) {
        List<DataRow> rows = data.rowsOf(experiment).stream().filter(r -> !Double.isNaN(r.num(Columns.PINNED))).toList();
        // all zero: the verdict says "no pinning" with its rows; a chart of empty bars adds nothing
        if (Rows.valid(rows).stream().allMatch(r -> r.num(Columns.PINNED) == 0)) return List.of();
        boolean withStack = varies(rows, Columns.STACK);
        Column xCol = heroAxis(rows);
        List<String> cats = new ArrayList<>();
        Map<String, Map<String, List<DataRow>>> byVariant = new LinkedHashMap<>();
        for (DataRow r : Rows.valid(rows)) {
            String cat = Grouping.panel(r, xCol, withStack) + " · " + (xCol.equals(POOL) ? "pool " : "c=") + r.text(xCol);
            if (!cats.contains(cat)) cats.add(cat);
            byVariant.computeIfAbsent(Grouping.variant(r, withStack), k -> new LinkedHashMap<>()).computeIfAbsent(cat, k -> new ArrayList<>()).add(r);
        }
        if (cats.isEmpty()) return List.of();
        List<ChartSpec.Line> lines = new ArrayList<>();
        byVariant.forEach((v, byCat) -> {
            List<ChartSpec.Point> pts = new ArrayList<>();
            byCat.forEach((cat, cr) -> pts.add(new ChartSpec.Point(cats.indexOf(cat), Rows.mean(cr, Columns.PINNED), null,
                    anchors(cr))));
            lines.add(new ChartSpec.Line(v, "y", "bar", color(v), pts));
        });
        return List.of(new ChartSpec(id("pinning-" + experiment), "bar", experiment + ": virtual-thread pinning events (JFR jdk.VirtualThreadPinned)",
                "scenario", "pinned events per row", null, false, cats, lines));
    }

    /** A study's scores ± error (JMH), one chart per unit, bars per thread mode. */
    public List<ChartSpec> scores(StudySection section) {
        List<DataRow> all = data.studyRows(section);
        boolean withJdk = severalJdks(all);
        List<DataRow> rows = all.stream().filter(r -> !Double.isNaN(r.num(StudyColumns.SCORE))).toList();
        List<ChartSpec> out = new ArrayList<>();
        Map<String, List<DataRow>> byUnit = rows.stream()
                .collect(Collectors.groupingBy(r -> r.text(StudyColumns.UNIT), LinkedHashMap::new, Collectors.toList()));
        byUnit.forEach((unit, ur) -> {
            List<String> cats = new ArrayList<>();
            Map<String, Map<String, List<DataRow>>> byMode = new LinkedHashMap<>();
            for (DataRow r : ur) {
                String cat = jmhCategory(r, withJdk);
                if (!cats.contains(cat)) cats.add(cat);
                String mode = r.cell(Columns.THREAD_MODE.name(), r.text(StudyColumns.MODE));
                byMode.computeIfAbsent(mode.isEmpty() ? "score" : mode, k -> new LinkedHashMap<>()).computeIfAbsent(cat, k -> new ArrayList<>()).add(r);
            }
            List<ChartSpec.Line> lines = new ArrayList<>();
            byMode.forEach((mode, byCat) -> {
                List<ChartSpec.Point> pts = new ArrayList<>();
                byCat.forEach((cat, cr) -> {
                    double err = Rows.mean(cr, StudyColumns.ERROR);
                    pts.add(new ChartSpec.Point(cats.indexOf(cat), Rows.mean(cr, StudyColumns.SCORE), Double.isNaN(err) ? null : err,
                            cr.stream().map(r -> section.rowPrefix() + "-" + r.number()).toList()));
                });
                lines.add(new ChartSpec.Line(mode, "y", "bar", color(mode), pts));
            });
            out.add(new ChartSpec(id(section.anchor()), "bar", section.title() + ": score ± error" + (unit.isEmpty() ? "" : " (" + unit + ")"), "benchmark",
                    unit.isEmpty() ? "score" : "score (" + unit + ")", null, false, cats, lines));
        });
        return out;
    }

    /** Whether a study's file holds rows of several JDKs (then its labels name the JDK). */
    static boolean severalJdks(List<DataRow> rows) {
        return rows.stream().map(x -> x.text(Columns.JDK)).distinct().count() > 1;
    }

    /** Class.method, the workers, other @Params, and the JDK when the file holds several. */

    static String jmhCategory(DataRow r, boolean withJdk) {
        String b = r.text(StudyColumns.BENCHMARK);
        String shortName = b.contains(".") ? b.substring(b.lastIndexOf('.', b.lastIndexOf('.') - 1) + 1) : b;
        String w = r.text(StudyColumns.WORKERS);
        String params = java.util.Arrays.stream(r.text(Columns.PARAMS).split("[;,]"))
                .filter(kv -> !kv.isBlank() && !kv.startsWith("workers=") && !kv.startsWith("mode=") && !kv.startsWith("threadMode="))
                .collect(Collectors.joining(" "));
        String jdk = r.text(Columns.JDK);
        return shortName + (w.isEmpty() ? "" : " ×" + w) + (params.isEmpty() ? "" : " " + params) + (withJdk && !jdk.isEmpty() ? " JDK " + jdk : "");
    }

    /** A thread-memory row's mode, with the JDK when the file holds several. */
    static String memoryMode(DataRow r, boolean jdks) {
        String m = r.cell(StudyColumns.MODE.name(), r.text(Columns.THREAD_MODE));
        return m + (jdks ? " JDK " + r.text(Columns.JDK) : "");
    }

    /** A thread-memory study's file: committed thread memory (NMT) per thread count and mode, RSS as points on the right. */
    public List<ChartSpec> threadMemory(StudySection section) {
        List<DataRow> rows = data.studyRows(section);
        boolean jdks = severalJdks(rows);
        if (rows.isEmpty()) return List.of();
        List<Double> xs = List.copyOf(xValues(rows, StudyColumns.THREADS));
        if (xs.isEmpty()) return List.of();
        Map<String, List<DataRow>> byMode = rows.stream()
                .collect(Collectors.groupingBy(r -> memoryMode(r, jdks), LinkedHashMap::new, Collectors.toList()));
        boolean nmt = anyValue(rows, Columns.NMT_COMMITTED);
        Column yCol = nmt ? Columns.NMT_COMMITTED : StudyColumns.RSS_MB;
        List<ChartSpec.Line> lines = new ArrayList<>();
        byMode.forEach((m, mr) -> lines.add(new ChartSpec.Line(m + (nmt ? " thread memory committed MB" : " RSS MB"), "y", "bar", color(m),
                scale(aggregateTm(mr, section, yCol, xs), nmt ? 1 / 1024.0 : 1))));
        boolean rss = nmt && anyValue(rows, StudyColumns.RSS_MB);
        if (rss) byMode.forEach((m, mr) -> lines.add(new ChartSpec.Line(m + " RSS MB", "y2", "points", color(m), aggregateTm(mr, section, StudyColumns.RSS_MB, xs))));
        return List.of(new ChartSpec(id(section.anchor()), "bar", "Memory per thread count: " + (nmt ? "thread stacks committed (NMT)" : "RSS"),
                "threads started", nmt ? "committed thread memory (MB)" : "RSS (MB)", rss ? "RSS (MB)" : null, false,
                xs.stream().map(ChartData::fmtInt).toList(), lines));
    }

    private List<ChartSpec.Point> aggregateTm(List<DataRow> rows, StudySection section, Column col, List<Double> xs) {
        Map<Double, List<DataRow>> byX = new TreeMap<>();
        for (DataRow r : rows) {
            double x = r.num(StudyColumns.THREADS);
            if (!Double.isNaN(x) && !Double.isNaN(r.num(col))) byX.computeIfAbsent(x, k -> new ArrayList<>()).add(r);
        }
        List<ChartSpec.Point> pts = new ArrayList<>();
        byX.forEach((x, xr) -> pts.add(new ChartSpec.Point(xs.indexOf(x), Rows.mean(xr, col), null,
                xr.stream().map(r -> section.rowPrefix() + "-" + r.number()).toList())));
        return pts;
    }

    /** Each per-second series of matrix row k as a small chart; error and timeout series in red; a fault's window shaded. */
    public List<ChartSpec> overTime(int k) {
        List<ChartSpec> out = new ArrayList<>();
        List<ChartSpec.Band> bands = k >= 1 && k <= data.rows().size() ? FaultCharts.window(data.rows().get(k - 1)).stream().toList() : List.of();
        data.series(k).forEach((name, pts) -> {
            if (pts.isEmpty()) return;
            boolean bad = isErrorSeries(name);
            List<ChartSpec.Point> points = pts.stream().map(p -> new ChartSpec.Point(p[0], p[1], null, List.of())).toList();
            out.add(new ChartSpec(id("time"), "line", name, "second of the measured hold", unitOf(name), null, false, List.of(),
                    List.of(new ChartSpec.Line(name, "y", "solid", bad ? ERROR : "#1f77b4", points))).withBands(bands));
        });
        return out;
    }

    static boolean isErrorSeries(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.contains("error") || n.contains("timeout") || n.contains("fail");
    }

    static String unitOf(String series) {
        if (series.endsWith("_pct")) return "% (100 = one core)";
        if (series.endsWith("_mb")) return "MB";
        if (series.endsWith("_kb")) return "KB";
        if (series.endsWith("_ms")) return "ms";
        if (series.endsWith("_rps")) return "req/s";
        if (series.endsWith("_errors")) return "errors per second";
        if (series.contains("thread")) return "threads";
        if (series.startsWith("hikari")) return "connections";
        return series;
    }

    Map<String, List<DataRow>> byVariant(List<DataRow> rows, boolean withStack) {
        Map<String, List<DataRow>> m = rows.stream()
                .collect(Collectors.groupingBy(r -> Grouping.variant(r, withStack), LinkedHashMap::new, Collectors.toList()));
        // platform first, so it is drawn under virtual and listed first in legends
        Map<String, List<DataRow>> sorted = new LinkedHashMap<>();
        m.keySet().stream().sorted(Comparator.comparing((String v) -> v.contains(Grouping.VIRTUAL) ? 1 : 0)).forEach(v -> sorted.put(v, m.get(v)));
        sorted.keySet().forEach(this::color);
        return sorted;
    }

    static TreeSet<Double> xValues(List<DataRow> rows, Column xCol) {
        return rows.stream().map(r -> r.num(xCol)).filter(x -> !Double.isNaN(x)).collect(Collectors.toCollection(TreeSet::new));
    }

    static boolean logScale(TreeSet<Double> xs) {
        return xs.first() > 0 && xs.last() / xs.first() >= 10;
    }

    /**
     * Mean of yCol per x value over the given rows; with categories, x is the index of the value in them.
     * Rows without a value in yCol are left out.
     */
    List<ChartSpec.Point> aggregate(List<DataRow> rows, Column xCol, Column yCol, List<Double> categories) {
        return aggregate(rows, xCol, yCol, categories, xr -> Rows.mean(xr, yCol));
    }

    /** A latency percentile of the reps: from their merged histogram, else the mean of col. */
    Function<List<DataRow>, Double> latency(double percentile, Column col) {
        return xr -> data.histograms().ms(xr, percentile, col);
    }

    /** As {@link #aggregate(List, Column, Column, List)}, each x's rows reduced to y by combine. */
    List<ChartSpec.Point> aggregate(List<DataRow> rows, Column xCol, Column yCol, List<Double> categories,
                                    Function<List<DataRow>, Double> combine) {
        Map<Double, List<DataRow>> byX = new TreeMap<>();
        for (DataRow r : rows) {
            double x = r.num(xCol), y = r.num(yCol);
            if (!Double.isNaN(x) && !Double.isNaN(y)) byX.computeIfAbsent(x, k -> new ArrayList<>()).add(r);
        }
        List<ChartSpec.Point> pts = new ArrayList<>();
        byX.forEach((x, xr) -> pts.add(new ChartSpec.Point(categories == null ? x : categories.indexOf(x),
                combine.apply(xr), null, anchors(xr))));
        return pts;
    }

    List<String> anchors(List<DataRow> rows) {
        return rows.stream().map(data::anchor).toList();
    }

    static List<ChartSpec.Point> scale(List<ChartSpec.Point> pts, double factor) {
        return pts.stream().map(p -> new ChartSpec.Point(p.x(), p.y() * factor, p.err() == null ? null : p.err() * factor, p.rows())).toList();
    }

    static String fmtInt(double d) {
        return Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%,d", Math.round(d));
    }
}
