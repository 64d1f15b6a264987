package vtlab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The claims of a run as people read them: one line per claim of the judge's (findings.json's claims, as
 * vtlab.data.judge.Claim#asMap wrote them), its ratio a point, its set a line (a ray to the edge of the plot, with an
 * arrow, where the set is unbounded), drawn over the margin's band around 1.0, and the answer in words beside it.
 * Static SVG, drawn with {@link StaticChart}'s pen on a log axis (a ratio of 2 and one of 0.5 are as far from 1). It
 * draws what the claims hold and computes none: the bounds are the judge's.
 */
final class ForestPlot {
    private ForestPlot() {}

    static final int W = 960, ROW = 28, TOP = 46, BOTTOM = 44;
    /** Where the ratio axis runs: right of the claims' names, left of their answers. */
    static final double LEFT = 300, RIGHT = 660;
    /** What of an answer fits right of the axis; the whole sentence is the verdict's, above the plot. */
    static final int ANSWER_CHARS = 42;
    static final String BAND = "#e3f1e3", POINT = "#1f77b4", SET = "#222222";

    /** One claim as drawn, read from its map: NaN where the judge wrote null (an unbounded side, no estimate). */
    record Line(String what, String shape, double estimate, double low, double high, double margin, String answer, String words) {
        static Line of(Map<String, Object> c) {
            return new Line(String.valueOf(c.get("what")), String.valueOf(c.get("set")), num(c.get("estimate")), num(c.get("low")), num(c.get("high")),
                    num(c.get("margin")), String.valueOf(c.get("answer")), c.get("words") == null ? "" : String.valueOf(c.get("words")));
        }

        /** The answer as the claim's words end it: "better: at least 1.11×", "equivalent within ±5%", "undetermined: ...". */
        String answerWords() {
            int i = words.indexOf(": " + answer);
            return i >= 0 ? words.substring(i + 2) : answer;
        }
    }

    static double num(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** The plot of these claims as SVG, or "" when there is none. */
    static String svg(List<Map<String, Object>> claims) {
        List<Line> lines = claims.stream().map(Line::of).toList();
        if (lines.isEmpty()) return "";
        int h = TOP + ROW * lines.size() + BOTTOM;
        StaticChart.SvgPen pen = new StaticChart.SvgPen(W, h);
        draw(lines, pen, h);
        return pen.finish();
    }

    static void draw(List<Line> lines, StaticChart.Pen pen, int h) {
        StaticChart.Scale x = axis(lines);
        double bottom = h - BOTTOM;
        pen.text("The judge's claims: ratio (better above 1) with its set, against the margin's band around 1.0", W / 2.0, 20, 14, "middle", true, 0, "#222");
        for (double t : ticks(x)) {
            double px = x.at(t);
            pen.line(px, TOP - 6, px, bottom, t == 1 ? "#444" : "#e6e6e6", t == 1 ? 1.5 : 1, StaticChart.SOLID);
            pen.text(StaticChart.num(t) + "×", px, bottom + 16, 12, "middle", false, 0, "#444");
        }
        pen.text("ratio (log scale); a line to the edge with an arrow: the set is unbounded that way", (LEFT + RIGHT) / 2, bottom + 34, 12, "middle", false, 0, "#444");
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            double cy = TOP + ROW * i + ROW / 2.0;
            // the band in which this claim would be "equivalent": [1/(1+M), 1+M]
            if (l.margin() > 0) {
                double b0 = x.at(Math.max(x.lo, 1 / (1 + l.margin()))), b1 = x.at(Math.min(x.hi, 1 + l.margin()));
                pen.rect(b0, cy - ROW / 2.0 + 3, b1 - b0, ROW - 6, BAND);
            }
            pen.text(StaticChart.shorten(l.what(), 44), LEFT - 10, cy + 4, 12, "end", false, 0, "#222");
            pen.text(StaticChart.shorten(l.answerWords(), ANSWER_CHARS), RIGHT + 10, cy + 4, 12, "start", l.answer().equals("better") || l.answer().equals("worse"), 0, "#222");
            set(l, x, cy, pen);
            if (l.estimate() > 0) pen.circle(clamp(x, l.estimate()), cy, 5, POINT, SET);
        }
    }

    /** The set as a line: an interval end to end, a ray to the plot's edge with an arrow, everything edge to edge. */
    static void set(Line l, StaticChart.Scale x, double cy, StaticChart.Pen pen) {
        switch (l.shape()) {
            case "interval" -> segment(x, l.low(), l.high(), cy, pen, false, false);
            case "at_least" -> segment(x, l.low(), x.hi, cy, pen, false, true);
            case "two_rays" -> {
                segment(x, x.lo, l.low(), cy, pen, true, false);
                segment(x, l.high(), x.hi, cy, pen, false, true);
            }
            case "everything" -> segment(x, x.lo, x.hi, cy, pen, true, true);
            default -> {} // none: one fork a side, or refused: no set, the answer says why
        }
    }

    /** from..to on the axis, each end an arrow when the set goes on past the plot there (or past it anyway: clamped). */
    static void segment(StaticChart.Scale x, double from, double to, double cy, StaticChart.Pen pen, boolean arrowLeft, boolean arrowRight) {
        // a bound past the axis (a set reaching down to 0 is past any log axis) is drawn to the edge as a ray is
        boolean offLeft = arrowLeft || !(from >= x.lo), offRight = arrowRight || !(to <= x.hi);
        double p0 = clamp(x, from), p1 = clamp(x, to);
        pen.line(p0, cy, p1, cy, SET, 2, StaticChart.SOLID);
        if (offLeft) arrow(pen, p0, cy, -1);
        else pen.line(p0, cy - 5, p0, cy + 5, SET, 2, StaticChart.SOLID);
        if (offRight) arrow(pen, p1, cy, 1);
        else pen.line(p1, cy - 5, p1, cy + 5, SET, 2, StaticChart.SOLID);
    }

    static void arrow(StaticChart.Pen pen, double px, double cy, int dir) {
        pen.line(px, cy, px - dir * 8, cy - 5, SET, 2, StaticChart.SOLID);
        pen.line(px, cy, px - dir * 8, cy + 5, SET, 2, StaticChart.SOLID);
    }

    static double clamp(StaticChart.Scale x, double v) {
        return x.at(v > x.lo ? Math.min(x.hi, v) : x.lo);
    }

    /**
     * The axis: from the least to the most of every finite bound, estimate and band edge, with room; within 1/20 and
     * 20 (a set that reaches further is drawn to the edge with an arrow, as a ray is).
     */
    static StaticChart.Scale axis(List<Line> lines) {
        double lo = 1, hi = 1;
        for (Line l : lines) {
            for (double v : new double[] {l.estimate(), l.low(), l.high(), l.margin() > 0 ? 1 + l.margin() : 1, l.margin() > 0 ? 1 / (1 + l.margin()) : 1}) {
                if (v > 0 && Double.isFinite(v)) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        return new StaticChart.Scale(Math.max(0.05, lo / 1.15), Math.min(20, hi * 1.15), true, LEFT, RIGHT);
    }

    /** Ticks at 1 and the round ratios within the axis, each at least a label's width from those kept before it (1 first). */
    static List<Double> ticks(StaticChart.Scale x) {
        List<Double> out = new ArrayList<>(List.of(1.0));
        for (double t : new double[] {2, 0.5, 1.5, 0.8, 1.2, 0.9, 1.1, 3, 5, 10, 20, 0.2, 0.1, 0.05}) {
            if (t >= x.lo && t <= x.hi && out.stream().allMatch(k -> Math.abs(x.at(k) - x.at(t)) >= 40)) out.add(t);
        }
        return out;
    }
}
