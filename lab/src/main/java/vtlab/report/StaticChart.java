package vtlab.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import javax.imageio.ImageIO;

/**
 * Draws a {@link ChartSpec} as a static figure for slides and posts: SVG written as text and PNG through Java2D
 * (headless), from one layout so both look the same. Labelled axes with units, a legend, a title.
 */
public final class StaticChart {
    static final int W = 960, H = 560;
    static final String FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif";

    private StaticChart() {}

    /** No dash: a solid stroke. */
    static final double[] SOLID = new double[0];
    /** A band's fill (light, opaque: grid lines and data are drawn over it) and its label's colour. */
    static final String BAND_FILL = "#fbe3d6", BAND_TEXT = "#9c4a1a";

    /** The drawing operations both outputs implement. Coordinates in pixels, origin top left. */
    interface Pen {
        /** dash: on, off, ... lengths in pixels; empty for a solid stroke. */
        void line(double x1, double y1, double x2, double y2, String color, double width, double[] dash);

        void polyline(List<double[]> pts, String color, double width, double[] dash);

        void rect(double x, double y, double w, double h, String fill);

        /** stroke: outline colour, or null for none. */
        void circle(double cx, double cy, double r, String fill, String stroke);

        /** anchor: "start", "middle" or "end"; rotate: degrees (-90 for a vertical axis label). */
        void text(String s, double x, double y, int size, String anchor, boolean bold, double rotate, String color);
    }

    public static String svg(ChartSpec c) {
        SvgPen pen = new SvgPen();
        draw(c, pen);
        return pen.finish();
    }

    public static BufferedImage png(ChartSpec c) {
        System.setProperty("java.awt.headless", "true");
        BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, W, H);
            draw(c, new G2Pen(g));
        } finally {
            g.dispose();
        }
        return img;
    }

    /** Writes name.svg and name.png into dir; returns the files written (the PNG is skipped when Java2D cannot draw text). */
    public static List<Path> write(ChartSpec c, Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        Path svg = dir.resolve(name + ".svg");
        Files.writeString(svg, svg(c));
        out.add(svg);
        Path png = dir.resolve(name + ".png");
        try {
            ImageIO.write(png(c), "png", png.toFile());
            out.add(png);
        } catch (RuntimeException | Error e) { // no fonts or no AWT on a minimal machine: the SVG stands alone
            Files.deleteIfExists(png);
        }
        return out;
    }

    // ---- layout ----

    static final class Scale {
        final double lo, hi;
        final boolean log;
        final double p0, p1;

        Scale(double lo, double hi, boolean log, double p0, double p1) {
            this.lo = lo;
            this.hi = hi;
            this.log = log;
            this.p0 = p0;
            this.p1 = p1;
        }

        double at(double v) {
            double t = log ? (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) : (v - lo) / (hi - lo);
            return p0 + t * (p1 - p0);
        }
    }

    /** Round tick steps (1, 2, 5 x 10^n) from 0 to a little above max. */
    static List<Double> niceTicks(double max) {
        if (!(max > 0)) max = 1;
        double raw = max / 5;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
        List<Double> t = new ArrayList<>();
        for (int i = 0; ; i++) { // up to the first tick at or above max
            double v = Math.round(i * step / mag * 1000) / 1000.0 * mag;
            t.add(v);
            if (v >= max - step * 1e-9) break;
        }
        return t;
    }

    static void draw(ChartSpec c, Pen pen) {
        boolean hasY2 = c.y2Label() != null && c.lines().stream().anyMatch(l -> l.axis().equals("y2") && !l.points().isEmpty());
        double left = 90, right = W - (hasY2 ? 90 : 30), top = 60;
        // a long title breaks at its " — " into a title and a smaller second line
        String title = c.title(), subtitle = null;
        if (title.length() * 9.5 > W - 40 && title.contains(" — ")) {
            subtitle = title.substring(title.indexOf(" — ") + 3);
            title = title.substring(0, title.indexOf(" — "));
            top = 74;
        }
        List<List<ChartSpec.Line>> legendRows = legendRows(c.lines().stream().filter(l -> !l.points().isEmpty()).toList(), right - left);
        double bottom = H - 76 - 20 * legendRows.size();

        pen.text(shorten(title, (int) ((W - 40) / 9.5)), W / 2.0, 28, 16, "middle", true, 0, "#222");
        if (subtitle != null) pen.text(shorten(subtitle, (int) ((W - 40) / 7.5)), W / 2.0, 50, 13, "middle", false, 0, "#444");
        if (c.isEmpty()) {
            pen.text("no rows with status ok to draw", W / 2.0, H / 2.0, 14, "middle", false, 0, "#777");
            return;
        }
        List<Double> yTicks = ticks(c, "y"), y2Ticks = ticks(c, "y2");
        Scale y = new Scale(yTicks.getFirst(), yTicks.getLast(), c.logY(), bottom, top);
        Scale y2 = hasY2 ? new Scale(y2Ticks.getFirst(), y2Ticks.getLast(), c.logY(), bottom, top) : null;
        boolean bar = c.kind().equals("bar");
        int nCat = Math.max(1, c.categories().size());
        Scale x;
        if (bar) {
            x = new Scale(-0.5, nCat - 0.5, false, left, right);
        } else {
            double lo = c.lines().stream().flatMap(l -> l.points().stream()).mapToDouble(ChartSpec.Point::x).min().orElse(0);
            double hi = c.lines().stream().flatMap(l -> l.points().stream()).mapToDouble(ChartSpec.Point::x).max().orElse(1);
            if (c.logX() && lo > 0) {
                x = new Scale(lo / 1.3, hi * 1.3, true, left, right);
            } else {
                double pad = hi == lo ? Math.max(1, Math.abs(hi) * 0.1) : (hi - lo) * 0.05;
                x = new Scale(lo - pad, hi + pad, false, left, right);
            }
        }

        // bands under everything else, clipped to the plot
        if (!bar) {
            for (ChartSpec.Band b : c.bands()) {
                double from = Math.max(b.from(), x.lo), to = Math.min(b.to(), x.hi);
                if (!(to > from) || (x.log && from <= 0)) continue;
                double px0 = x.at(from), px1 = x.at(to);
                pen.rect(px0, top, px1 - px0, bottom - top, BAND_FILL);
                if (b.label() != null && !b.label().isEmpty()) {
                    pen.text(shorten(b.label(), (int) Math.max(4, (px1 - px0) / 6.5)), (px0 + px1) / 2, top + 14, 11, "middle", false, 0, BAND_TEXT);
                }
            }
        }

        // grid and y ticks
        for (double t : yTicks) {
            double py = y.at(t);
            pen.line(left, py, right, py, "#e6e6e6", 1, SOLID);
            pen.text(num(t), left - 8, py + 4, 12, "end", false, 0, "#444");
        }
        if (y2 != null) {
            for (double t : y2Ticks) {
                pen.text(num(t), right + 8, y2.at(t) + 4, 12, "start", false, 0, "#444");
            }
        }
        // x ticks
        if (bar) {
            for (int i = 0; i < c.categories().size(); i++) {
                pen.text(shorten(c.categories().get(i), (int) Math.max(6, (right - left) / nCat / 7)), x.at(i), bottom + 18, 12, "middle", false, 0, "#444");
            }
        } else {
            List<ChartSpec.Tick> ticks = c.xTicks().isEmpty() ? xTicks(c, x).stream().map(t -> new ChartSpec.Tick(t, num(t))).toList() : c.xTicks();
            for (ChartSpec.Tick t : ticks) {
                if (t.value() < Math.min(x.lo, x.hi) || t.value() > Math.max(x.lo, x.hi)) continue;
                double px = x.at(t.value());
                pen.line(px, bottom, px, bottom + 5, "#444", 1, SOLID);
                pen.text(t.label(), px, bottom + 18, 12, "middle", false, 0, "#444");
            }
        }
        pen.line(left, bottom, right, bottom, "#444", 1, SOLID);
        pen.line(left, top, left, bottom, "#444", 1, SOLID);
        if (y2 != null) pen.line(right, top, right, bottom, "#444", 1, SOLID);
        pen.text(c.xLabel() + (c.logX() ? " (log scale)" : ""), (left + right) / 2, bottom + 38, 13, "middle", false, 0, "#222");
        String logY = c.logY() ? " (log scale)" : "";
        pen.text(c.yLabel() + logY, 22, (top + bottom) / 2, 13, "middle", false, -90, "#222");
        if (y2 != null) pen.text(c.y2Label() + logY, W - 18, (top + bottom) / 2, 13, "middle", false, 90, "#222");

        // data: bars first, lines and points over them
        List<ChartSpec.Line> bars = c.lines().stream().filter(l -> l.style().equals("bar")).toList();
        double band = (right - left) / nCat * 0.8;
        double bw = bars.isEmpty() ? 0 : band / bars.size();
        for (int b = 0; b < bars.size(); b++) {
            ChartSpec.Line l = bars.get(b);
            Scale ys = l.axis().equals("y2") && y2 != null ? y2 : y;
            for (ChartSpec.Point p : l.points()) {
                if (Double.isNaN(p.y())) continue;
                double px = x.at(p.x()) - band / 2 + b * bw;
                double py = ys.at(p.y());
                pen.rect(px + 1, py, bw - 2, ys.at(ys.lo) - py, l.color()); // a log axis has no 0: bars stand on its bottom
                if (p.err() != null && p.err() > 0) {
                    double cx = px + bw / 2, hi = ys.at(p.y() + p.err()), lo = ys.at(Math.max(0, p.y() - p.err()));
                    pen.line(cx, hi, cx, lo, "#222", 1.5, SOLID);
                    pen.line(cx - 5, hi, cx + 5, hi, "#222", 1.5, SOLID);
                    pen.line(cx - 5, lo, cx + 5, lo, "#222", 1.5, SOLID);
                }
            }
        }
        for (ChartSpec.Line l : c.lines()) {
            if (l.style().equals("bar")) continue;
            Scale ys = l.axis().equals("y2") && y2 != null ? y2 : y;
            // markers in a bar chart sit over the bar of the same variant (same colour)
            int slot = bars.stream().map(ChartSpec.Line::color).toList().indexOf(l.color());
            double dx = bar && slot >= 0 ? -band / 2 + (slot + 0.5) * bw : 0;
            List<double[]> pts = l.points().stream().filter(p -> !Double.isNaN(p.y()) && (!ys.log || p.y() > 0))
                    .map(p -> new double[] {x.at(p.x()) + dx, ys.at(p.y())}).toList();
            double[] dash = ChartSpec.dash(l.style());
            if (dash != null && pts.size() > 1) pen.polyline(pts, l.color(), 2.5, dash);
            for (double[] p : pts) {
                if (l.style().equals("forks")) {
                    // beside the bar's middle (where its p99 marker sits), ringed in white: seen over its bar and off it
                    pen.circle(p[0] + Math.min(bw / 3, 24), p[1], 3.5, l.color(), "#ffffff");
                } else if (l.style().equals("muted")) {
                    pen.line(p[0] - 5, p[1] - 5, p[0] + 5, p[1] + 5, l.color(), 2, SOLID);
                    pen.line(p[0] - 5, p[1] + 5, p[0] + 5, p[1] - 5, l.color(), 2, SOLID);
                } else if (pts.size() <= 60) {
                    boolean marker = l.style().equals("points");
                    pen.circle(p[0], p[1], marker ? 6 : 3.5, l.color(), marker ? "#222222" : null);
                }
            }
        }

        // legend
        double ly = bottom + 66;
        for (List<ChartSpec.Line> row : legendRows) {
            double lx = left;
            for (ChartSpec.Line l : row) {
                switch (l.style()) {
                    case "bar" -> pen.rect(lx, ly - 9, 18, 10, l.color());
                    case "points" -> pen.circle(lx + 9, ly - 4, 6, l.color(), "#222222");
                    case "forks" -> pen.circle(lx + 9, ly - 4, 3.5, l.color(), "#ffffff");
                    case "muted" -> {
                        pen.line(lx + 4, ly - 9, lx + 14, ly + 1, l.color(), 2, SOLID);
                        pen.line(lx + 4, ly + 1, lx + 14, ly - 9, l.color(), 2, SOLID);
                    }
                    default -> pen.line(lx, ly - 4, lx + 18, ly - 4, l.color(), 2.5, dashOrSolid(l.style()));
                }
                String label = l.name() + (l.axis().equals("y2") && y2 != null ? " (right axis)" : "");
                pen.text(label, lx + 24, ly, 12, "start", false, 0, "#222");
                lx += legendWidth(label);
            }
            ly += 20;
        }
    }

    private static double[] dashOrSolid(String style) {
        double[] d = ChartSpec.dash(style);
        return d == null ? SOLID : d;
    }

    private static List<List<ChartSpec.Line>> legendRows(List<ChartSpec.Line> lines, double width) {
        List<List<ChartSpec.Line>> rows = new ArrayList<>();
        List<ChartSpec.Line> row = new ArrayList<>();
        double used = 0;
        for (ChartSpec.Line l : lines) {
            double w = legendWidth(l.name() + (l.axis().equals("y2") ? " (right axis)" : ""));
            if (!row.isEmpty() && used + w > width) {
                rows.add(row);
                row = new ArrayList<>();
                used = 0;
            }
            row.add(l);
            used += w;
        }
        if (!row.isEmpty()) rows.add(row);
        if (rows.isEmpty()) rows.add(List.of());
        return rows;
    }

    private static double legendWidth(String label) {
        return 24 + label.length() * 7.0 + 22;
    }

    /**
     * The axis' ticks from 0 to a round value just above its largest point (error bars included); on a log axis, 1-2-5
     * steps from just below its smallest point to just above its largest.
     */
    private static List<Double> ticks(ChartSpec c, String axis) {
        List<ChartSpec.Point> pts = c.lines().stream().filter(l -> l.axis().equals(axis)).flatMap(l -> l.points().stream()).toList();
        if (c.logY()) {
            var ys = pts.stream().mapToDouble(ChartSpec.Point::y).filter(d -> d > 0).summaryStatistics();
            return ys.getCount() == 0 ? logTicks(1, 10) : logTicks(ys.getMin(), ys.getMax());
        }
        double m = pts.stream().mapToDouble(p -> p.y() + (p.err() == null ? 0 : p.err())).filter(d -> !Double.isNaN(d)).max().orElse(1);
        return niceTicks(m <= 0 ? 1 : m * 1.05);
    }

    /** 1, 2, 5 x 10^n from the last at or below min to the first at or above max (two at least). */
    static List<Double> logTicks(double min, double max) {
        List<Double> steps = new ArrayList<>();
        for (int e = (int) Math.floor(Math.log10(min)) - 1; e <= (int) Math.ceil(Math.log10(max)) + 1; e++)
            for (int m : new int[] {1, 2, 5}) steps.add(m * Math.pow(10, e));
        int lo = 0, hi = steps.size() - 1;
        while (lo + 1 < steps.size() && steps.get(lo + 1) <= min * (1 + 1e-9)) lo++;
        while (hi - 1 >= 0 && steps.get(hi - 1) >= max * (1 - 1e-9)) hi--;
        return List.copyOf(steps.subList(lo, Math.max(hi, lo + 1) + 1));
    }

    /** The data's own x values when there are few (a sweep's concurrency levels), else round ticks. */
    private static List<Double> xTicks(ChartSpec c, Scale x) {
        List<Double> xs = c.lines().stream().flatMap(l -> l.points().stream()).map(ChartSpec.Point::x).distinct().sorted().toList();
        if (xs.size() <= 10) return xs;
        if (x.log) {
            List<Double> t = new ArrayList<>();
            for (double d = Math.pow(10, Math.floor(Math.log10(x.lo))); d <= x.hi; d *= 10)
                for (double m : new double[] {1, 2, 5}) if (d * m >= x.lo && d * m <= x.hi) t.add(d * m);
            return t;
        }
        List<Double> t = new ArrayList<>();
        List<Double> nice = niceTicks(x.hi - Math.max(0, x.lo));
        double step = nice.size() > 1 ? nice.get(1) : 1;
        for (double v = Math.ceil(x.lo / step) * step; v <= x.hi; v += step) t.add(v + 0.0); // + 0.0: no "-0" tick
        return t;
    }

    static String num(double v) {
        double a = Math.abs(v);
        if (a >= 1000) return String.format(Locale.ROOT, "%,.0f", v);
        if (a >= 10 || v == Math.rint(v)) return String.format(Locale.ROOT, "%.0f", v);
        if (a >= 1) return String.format(Locale.ROOT, "%.1f", v);
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String shorten(String s, int n) {
        return s.length() <= n ? s : s.substring(0, Math.max(1, n - 1)) + "…";
    }

    // ---- outputs ----

    static final class SvgPen implements Pen {
        private final StringBuilder sb = new StringBuilder();

        SvgPen() {
            this(W, H);
        }

        /** A drawing of its own size (the forest plot: a line per claim). */
        SvgPen(int w, int h) {
            sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(w).append("\" height=\"").append(h)
                    .append("\" viewBox=\"0 0 ").append(w).append(' ').append(h).append("\" font-family=\"").append(FONT).append("\">\n")
                    .append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
        }

        private static String f(double d) {
            return String.format(Locale.ROOT, "%.1f", d);
        }

        private static String dashArray(double[] dash) {
            if (dash == null || dash.length == 0) return "";
            StringBuilder d = new StringBuilder(" stroke-dasharray=\"");
            for (int i = 0; i < dash.length; i++) d.append(i == 0 ? "" : " ").append(num(dash[i]));
            return d.append('"').toString();
        }

        @Override
        public void line(double x1, double y1, double x2, double y2, String color, double width, double[] dash) {
            sb.append("<line x1=\"").append(f(x1)).append("\" y1=\"").append(f(y1)).append("\" x2=\"").append(f(x2)).append("\" y2=\"")
                    .append(f(y2)).append("\" stroke=\"").append(Html.esc(color)).append("\" stroke-width=\"").append(f(width)).append('"')
                    .append(dashArray(dash)).append("/>\n");
        }

        @Override
        public void polyline(List<double[]> pts, String color, double width, double[] dash) {
            sb.append("<polyline fill=\"none\" stroke=\"").append(Html.esc(color)).append("\" stroke-width=\"").append(f(width)).append('"')
                    .append(dashArray(dash)).append(" points=\"");
            for (double[] p : pts) sb.append(f(p[0])).append(',').append(f(p[1])).append(' ');
            sb.append("\"/>\n");
        }

        @Override
        public void rect(double x, double y, double w, double h, String fill) {
            sb.append("<rect x=\"").append(f(x)).append("\" y=\"").append(f(y)).append("\" width=\"").append(f(Math.max(0, w)))
                    .append("\" height=\"").append(f(Math.max(0, h))).append("\" fill=\"").append(Html.esc(fill)).append("\"/>\n");
        }

        @Override
        public void circle(double cx, double cy, double r, String fill, String stroke) {
            sb.append("<circle cx=\"").append(f(cx)).append("\" cy=\"").append(f(cy)).append("\" r=\"").append(f(r))
                    .append("\" fill=\"").append(Html.esc(fill)).append('"')
                    .append(stroke == null ? "" : " stroke=\"" + Html.esc(stroke) + "\" stroke-width=\"2\"").append("/>\n");
        }

        @Override
        public void text(String s, double x, double y, int size, String anchor, boolean bold, double rotate, String color) {
            sb.append("<text x=\"").append(f(x)).append("\" y=\"").append(f(y)).append("\" font-size=\"").append(size)
                    .append("\" text-anchor=\"").append(anchor).append("\" fill=\"").append(Html.esc(color)).append('"')
                    .append(bold ? " font-weight=\"bold\"" : "")
                    .append(rotate != 0 ? " transform=\"rotate(" + f(rotate) + " " + f(x) + " " + f(y) + ")\"" : "").append('>')
                    .append(Html.esc(s)).append("</text>\n");
        }

        String finish() {
            return sb.append("</svg>\n").toString();
        }
    }

    static final class G2Pen implements Pen {
        private final Graphics2D g;

        G2Pen(Graphics2D g) {
            this.g = g;
        }

        private static Color color(String css) {
            try {
                return Color.decode(css);
            } catch (NumberFormatException e) {
                return Color.DARK_GRAY;
            }
        }

        private void stroke(String color, double width, double[] dash) {
            g.setColor(color(color));
            float[] pattern = new float[dash == null ? 0 : dash.length];
            for (int i = 0; i < pattern.length; i++) pattern[i] = (float) dash[i];
            g.setStroke(pattern.length > 0 ? new BasicStroke((float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10, pattern, 0)
                    : new BasicStroke((float) width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        }

        @Override
        public void line(double x1, double y1, double x2, double y2, String color, double width, double[] dash) {
            stroke(color, width, dash);
            g.draw(new Line2D.Double(x1, y1, x2, y2));
        }

        @Override
        public void polyline(List<double[]> pts, String color, double width, double[] dash) {
            stroke(color, width, dash);
            Path2D.Double p = new Path2D.Double();
            p.moveTo(pts.getFirst()[0], pts.getFirst()[1]);
            for (double[] q : pts.subList(1, pts.size())) p.lineTo(q[0], q[1]);
            g.draw(p);
        }

        @Override
        public void rect(double x, double y, double w, double h, String fill) {
            g.setColor(color(fill));
            g.fill(new Rectangle2D.Double(x, y, Math.max(0, w), Math.max(0, h)));
        }

        @Override
        public void circle(double cx, double cy, double r, String fill, String stroke) {
            Ellipse2D.Double e = new Ellipse2D.Double(cx - r, cy - r, 2 * r, 2 * r);
            g.setColor(color(fill));
            g.fill(e);
            if (stroke != null) {
                stroke(stroke, 2, SOLID);
                g.draw(e);
            }
        }

        @Override
        public void text(String s, double x, double y, int size, String anchor, boolean bold, double rotate, String color) {
            g.setColor(color(color));
            g.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, size));
            double w = g.getFontMetrics().stringWidth(s);
            double dx = anchor.equals("middle") ? -w / 2 : anchor.equals("end") ? -w : 0;
            AffineTransform saved = g.getTransform();
            g.translate(x, y);
            if (rotate != 0) g.rotate(Math.toRadians(rotate));
            g.drawString(s, (float) dx, 0f);
            g.setTransform(saved);
        }
    }
}
