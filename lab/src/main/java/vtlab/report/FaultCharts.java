package vtlab.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Rows;

/**
 * The rows that had a fault in their hold (matrix.csv's fault column), by fault, and their over-time panels: one per
 * family of per-second series (answers and errors, latency, requests in flight, memory, threads, HikariCP), the modes
 * overlaid in their colours, the series of a family told apart by dash, and the fault's window as applied shaded. A
 * family no row of the fault has is left out, not drawn empty; an error kind is drawn for a row only where it occurred
 * (its zeros are in the table under the panels). The time axis is the per-row one: a point at x covers the second
 * (x - 1, x] of the hold, and the window is in the same seconds.
 */
final class FaultCharts {
    /** A series of a family: its name in series.jsonl, what a line of it is called, its axis and its dash. */
    record Part(String series, String what, String axis, String style, boolean onlyWhereNonZero) {
        static Part of(String series, String what, String style) {
            return new Part(series, what, "y", style, false);
        }
    }

    /** One panel: the series drawn together (same unit on each axis). */
    record Family(String key, String title, String yLabel, String y2Label, boolean logY, List<Part> parts) {}

    static final List<Family> FAMILIES = List.of(
            new Family("answers", "answers and errors per second", "answers per second", "errors per second", false, List.of(
                    Part.of("load_requests_rps", "answers/s", "solid"),
                    new Part("load_errors_timeout", "timeouts/s", "y2", "dashed", true),
                    new Part("load_errors_status", "status >= 400/s", "y2", "dotted", true),
                    new Part("load_errors_connect", "refused/s", "y2", "dashdot", true),
                    new Part("load_errors_io", "reset/s", "y2", "longdash", true))),
            new Family("latency", "p50 and p99 per second", "latency (ms)", null, true, List.of(
                    Part.of("load_p99_ms", "p99 ms", "solid"), Part.of("load_p50_ms", "p50 ms", "dashed"))),
            new Family("in-flight", "requests in flight", "requests", null, false, List.of(
                    Part.of("sut_in_flight", "in the SUT (each second's peak)", "solid"), Part.of("load_in_flight", "under way at the generator", "dashed"))),
            new Family("memory", "heap used and RSS", "MB", null, false, List.of(
                    Part.of("heap_used_mb", "heap used MB", "solid"), Part.of("rss_mb", "RSS MB", "dashed"))),
            new Family("threads", "threads and virtual threads", "threads", "virtual threads", false, List.of(
                    Part.of("jvm_threads_live", "live threads (JVM)", "solid"), Part.of("threads", "OS threads", "dashed"),
                    new Part("vt_mounted", "VTs mounted", "y2", "dotted", false),
                    new Part("vt_queued", "VTs queued", "y2", "dashdot", false))),
            new Family("hikari", "HikariCP connections", "connections", null, false, List.of(
                    Part.of("hikari_active", "active", "solid"), Part.of("hikari_pending", "pending", "dashed"))));

    private final RunData data;
    private final ChartData charts;

    FaultCharts(RunData data, ChartData charts) {
        this.data = data;
        this.charts = charts;
    }

    /** Rows with a fault, by fault in the order of the matrix (failed ones too: their table lists them). */
    Map<String, List<DataRow>> byFault() {
        return data.rows().stream().filter(r -> r.has(Columns.FAULT))
                .collect(Collectors.groupingBy(r -> r.text(Columns.FAULT), LinkedHashMap::new, Collectors.toList()));
    }

    /**
     * The window of a fault over its rows, as applied: from the earliest start to the latest end (the rows' own
     * times differ by the milliseconds it takes to apply it), labelled with what the fault does; empty when no row
     * says when.
     */
    static Optional<ChartSpec.Band> window(String fault, List<DataRow> rows) {
        double from = rows.stream().mapToDouble(r -> r.num(Columns.FAULT_FROM)).filter(d -> !Double.isNaN(d)).min().orElse(Double.NaN);
        double to = Rows.max(rows, Columns.FAULT_TO);
        if (Double.isNaN(from) || Double.isNaN(to) || !(to > from)) return Optional.empty();
        return Optional.of(new ChartSpec.Band(from, to, what(fault)));
    }

    /** A row's own window, for its per-row charts; empty when it had no fault or it was not applied. */
    static Optional<ChartSpec.Band> window(DataRow row) {
        String fault = row.text(Columns.FAULT);
        return fault.isBlank() ? Optional.empty() : window(fault, List.of(row));
    }

    /** "stub:latency=1900ms@10s-30s+db:lock@5s-8s" -> "stub:latency=1900ms + db:lock": the when is the band itself. */
    static String what(String fault) {
        return Arrays.stream(fault.split("\\+")).map(f -> f.contains("@") ? f.substring(0, f.indexOf('@')) : f).map(String::trim)
                .collect(Collectors.joining(" + "));
    }

    /** The panels of one fault: each family some row of it has, its rows overlaid, the window shaded. */
    List<ChartSpec> panels(String fault, List<DataRow> rows) {
        List<DataRow> drawn = rows.stream().filter(r -> !r.failed()).toList();
        List<ChartSpec.Band> bands = window(fault, drawn).stream().toList();
        List<ChartSpec> out = new ArrayList<>();
        for (Family f : FAMILIES) {
            boolean has = drawn.stream().anyMatch(r -> f.parts().stream().anyMatch(p -> !series(r, p.series()).isEmpty()));
            if (!has) continue;
            List<ChartSpec.Line> lines = new ArrayList<>();
            for (Part p : f.parts()) {
                for (DataRow r : drawn) {
                    List<double[]> pts = series(r, p.series());
                    if (pts.isEmpty() || (p.onlyWhereNonZero() && pts.stream().allMatch(x -> x[1] == 0))) continue;
                    lines.add(new ChartSpec.Line(label(r, drawn) + " " + p.what(), p.axis(), p.style(), charts.color(mode(r)),
                            pts.stream().map(x -> new ChartSpec.Point(x[0], x[1], null, List.of())).toList()));
                }
            }
            boolean y2 = lines.stream().anyMatch(l -> l.axis().equals("y2"));
            out.add(new ChartSpec(charts.id("fault-" + f.key()), "line", f.title() + " — " + fault, "second of the measured hold", f.yLabel(),
                    y2 ? f.y2Label() : null, false, List.of(), lines, f.logY(), List.of(), bands));
        }
        return out;
    }

    private List<double[]> series(DataRow r, String name) {
        List<double[]> pts = data.series(data.index(r)).get(name);
        return pts == null ? List.of() : pts;
    }

    static String mode(DataRow r) {
        String m = r.mode();
        return m.isEmpty() ? "?" : m;
    }

    /** The mode, with the row's number when the fault has several rows of that mode (reps, JDKs), and flagged ones said so. */
    private String label(DataRow r, List<DataRow> rows) {
        long same = rows.stream().filter(o -> mode(o).equals(mode(r))).count();
        return mode(r) + (same > 1 ? " row " + data.index(r) : "") + (r.flagged() ? " (flagged)" : "");
    }
}
