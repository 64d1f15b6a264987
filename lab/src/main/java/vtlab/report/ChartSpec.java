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
 */
public record ChartSpec(String id, String kind, String title, String xLabel, String yLabel, String y2Label, boolean logX,
                        List<String> categories, List<Line> lines, boolean logY, List<Tick> xTicks) {

    /** A chart with a linear y axis and x ticks from its data. */
    public ChartSpec(String id, String kind, String title, String xLabel, String yLabel, String y2Label, boolean logX,
                     List<String> categories, List<Line> lines) {
        this(id, kind, title, xLabel, yLabel, y2Label, logX, categories, lines, false, List.of());
    }

    /** An x tick at value, shown as label. */
    public record Tick(double value, String label) {}

    /**
     * @param axis   "y" (left) or "y2" (right)
     * @param style  "solid", "dashed" (right-axis companions such as p99), "points" (markers only), "muted" (rows
     *               that are not evidence: flagged)
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
