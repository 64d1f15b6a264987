package vtlab.report;

import java.util.List;

/**
 * One chart, independent of how it is drawn: the page hands it to Chart.js, {@link StaticChart} draws it as SVG and
 * PNG. Line charts have a numeric x (log when it spans a decade or more); bar charts have categories, x being the
 * category's index.
 *
 * @param kind       "line" or "bar"
 * @param categories bar charts: the label of each x index
 * @param y2Label    right axis label, or null when no line uses it
 * @param logY       latency over orders of magnitude (a tail, a queue): both y axes log-scaled
 * @param xTicks     line charts: the x ticks and their labels (a percentile axis), empty for ticks from the data
 * @param bands      line charts: stretches of x shaded behind the lines (a fault's window), each with its label
 */
public record ChartSpec(String id, String kind, String title, String xLabel, String yLabel, String y2Label, boolean logX,
                        List<String> categories, List<Line> lines, boolean logY, List<Tick> xTicks, List<Band> bands) {

    /** A chart without bands. */
    public ChartSpec(String id, String kind, String title, String xLabel, String yLabel, String y2Label, boolean logX,
                     List<String> categories, List<Line> lines, boolean logY, List<Tick> xTicks) {
        this(id, kind, title, xLabel, yLabel, y2Label, logX, categories, lines, logY, xTicks, List.of());
    }

    /** A chart with a linear y axis and x ticks from its data. */
    public ChartSpec(String id, String kind, String title, String xLabel, String yLabel, String y2Label, boolean logX,
                     List<String> categories, List<Line> lines) {
        this(id, kind, title, xLabel, yLabel, y2Label, logX, categories, lines, false, List.of());
    }

    /** An x tick at value, shown as label. */
    public record Tick(double value, String label) {}

    /** x from {@code from} to {@code to} shaded over the chart's height, its label at the top: a span of time, not data. */
    public record Band(double from, double to, String label) {}

    /** The same chart with these bands. */
    public ChartSpec withBands(List<Band> more) {
        return new ChartSpec(id, kind, title, xLabel, yLabel, y2Label, logX, categories, lines, logY, xTicks, List.copyOf(more));
    }

    /**
     * The dash pattern of a joined line style (on, off, ... in pixels), empty for solid, null for a style that is not
     * a joined line (points, bars). Several series of one variant in a chart share its colour and differ in dash.
     */
    public static double[] dash(String style) {
        return switch (style) {
            case "solid" -> new double[0];
            case "dashed" -> new double[] {7, 5};
            case "dotted" -> new double[] {2, 4};
            case "dashdot" -> new double[] {9, 4, 2, 4};
            case "longdash" -> new double[] {16, 6};
            default -> null;
        };
    }

    /**
     * @param axis   "y" (left) or "y2" (right)
     * @param style  "solid", "dashed" (right-axis companions such as p99), "dotted", "dashdot", "longdash" (more
     *               series of one variant: see {@link #dash}), "points" (markers only), "muted" (rows that are not
     *               evidence: flagged), "bar", "forks" (a bar chart's fork means: small dots beside their variant's bar)
     * @param color  CSS colour; the same variant keeps its colour across charts
     */
    public record Line(String name, String axis, String style, String color, List<Point> points) {}

    /**
     * @param err  half-width of an error bar, or null
     * @param rows anchors of the rows this point is made of (its evidence)
     */
    public record Point(double x, double y, Double err, List<String> rows) {}

    public boolean isEmpty() {
        return lines.stream().allMatch(l -> l.points().isEmpty());
    }
}
