package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.Finding;
import vtlab.data.Findings;
import vtlab.data.judge.Claim;
import vtlab.data.judge.Judge;
import vtlab.data.judge.Margin;

/**
 * The forest plot draws each claim of findings.json as people read one: a line per claim, its set's bounds where the
 * judge put them, a ray to the edge with an arrow where the set is unbounded, the margin's band, the answer in words.
 */
class ForestPlotTest {
    @TempDir
    Path dir;

    static final Claim BETTER = Judge.ratio("virtual as shipped / platform req/s", new double[] {1000, 1040, 980}, new double[] {1800, 1850, 1770}, Margin.DEFAULT);
    static final Claim UNDETERMINED = Judge.ratio("virtual tuned / virtual as shipped req/s", new double[] {1000, 1040, 990}, new double[] {1010, 1100, 960}, Margin.DEFAULT);
    static final Claim ONE_FORK = Judge.ratio("JDK 25 / virtual as shipped req/s", new double[] {500}, new double[] {1500}, Margin.DEFAULT);
    /** The denominator's forks far apart: a ray upward, "at least". */
    static final Claim RAY = Judge.ratio("pool 20 / virtual as shipped req/s", new double[] {100, 1900}, new double[] {2000, 2100}, Margin.DEFAULT);

    /** The x of every horizontal line drawn at y (a claim's row), as pairs {x1, x2}. */
    static List<double[]> horizontals(String svg, double y) {
        List<double[]> out = new ArrayList<>();
        Matcher m = Pattern.compile("<line x1=\"([\\d.]+)\" y1=\"([\\d.]+)\" x2=\"([\\d.]+)\" y2=\"([\\d.]+)\"").matcher(svg);
        while (m.find()) {
            if (Math.abs(Double.parseDouble(m.group(2)) - y) < 0.06 && Math.abs(Double.parseDouble(m.group(4)) - y) < 0.06) {
                out.add(new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(3))});
            }
        }
        return out;
    }

    static double rowY(int i) {
        return ForestPlot.TOP + ForestPlot.ROW * i + ForestPlot.ROW / 2.0;
    }

    @Test
    void aLinePerClaimWithItsBoundsARayToTheEdgeAndTheAnswer() {
        assertEquals("better", BETTER.answer().word);
        assertEquals("at_least", RAY.asMap().get("set"), RAY.toString());
        List<Map<String, Object>> claims = List.of(BETTER.asMap(), UNDETERMINED.asMap(), ONE_FORK.asMap(), RAY.asMap());
        String svg = ForestPlot.svg(claims);
        StaticChart.Scale x = ForestPlot.axis(claims.stream().map(ForestPlot.Line::of).toList());
        // an interval from its low to its high bound, where the judge put them
        for (int i : new int[] {0, 1}) {
            Claim c = i == 0 ? BETTER : UNDETERMINED;
            List<double[]> h = horizontals(svg, rowY(i));
            assertEquals(1, h.size(), "one line for the set of " + c.what() + ": " + svg);
            assertEquals(x.at(c.set().low()), h.getFirst()[0], 0.06, c.ratioWords());
            assertEquals(x.at(c.set().high()), h.getFirst()[1], 0.06, c.ratioWords());
            // its estimate a point on it
            assertTrue(svg.contains(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\"", x.at(c.estimate()), rowY(i))), c.ratioWords());
        }
        // one fork a side: a point, no line
        assertEquals(0, horizontals(svg, rowY(2)).size());
        assertTrue(svg.contains(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\"", x.at(3), rowY(2))));
        // a ray: from its bound to the right edge, with an arrow's two strokes there
        List<double[]> ray = horizontals(svg, rowY(3));
        assertEquals(1, ray.size(), svg);
        assertEquals(x.at(RAY.set().low()), ray.getFirst()[0], 0.06);
        assertEquals(ForestPlot.RIGHT, ray.getFirst()[1], 0.06);
        assertTrue(svg.contains(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"", ForestPlot.RIGHT, rowY(3),
                ForestPlot.RIGHT - 8, rowY(3) - 5)), "the arrow at the edge");
        // the margin's band around 1.0, its edges at 1/(1+M) and 1+M
        assertTrue(svg.contains(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\"", x.at(1 / 1.05), rowY(0) - ForestPlot.ROW / 2.0 + 3,
                x.at(1.05) - x.at(1 / 1.05))), svg);
        // the answer as text, the claim's name beside it
        assertEquals("undetermined", UNDETERMINED.answer().word, UNDETERMINED.toString());
        for (Claim c : List.of(BETTER, UNDETERMINED, ONE_FORK, RAY)) assertTrue(svg.contains(">" + Html.esc(StaticChart.shorten(c.answerWords(), ForestPlot.ANSWER_CHARS)) + "<"), c.answerWords());
        assertTrue(svg.contains(">better<"), svg);
        assertTrue(svg.contains(">virtual as shipped / platform req/s<"), svg);
    }

    @Test
    void theReportDrawsOneLinePerClaimOfFindingsUnderTheVerdicts() throws Exception {
        RunFixture f = new RunFixture(dir);
        f.row("ab", "platform", 400, null, 1, 1000, 100);
        f.row("ab", "virtual", 400, null, 1, 1800, 60);
        f.write();
        new Findings(List.of(new Findings.Entry("ab", "", List.of(new Finding("gain", List.of(1, 2)).withClaims(List.of(BETTER, UNDETERMINED))), null, null)),
                List.of()).write(dir);
        String html = new ReportPage(RunData.load(dir)).render();
        int forest = html.indexOf("<figure class=\"forest\" id=\"claims\">");
        assertTrue(forest > html.indexOf("id=\"verdicts\"") && forest < html.indexOf("id=\"row-1\""), "under the verdicts, above the rows");
        String svg = html.substring(forest, html.indexOf("</svg>", forest));
        assertEquals(1, horizontals(svg, rowY(0)).size());
        assertEquals(1, horizontals(svg, rowY(1)).size());
        assertEquals(2, Pattern.compile("<circle [^>]*fill=\"" + ForestPlot.POINT + "\"").matcher(svg).results().count(), "a point per claim");
        assertTrue(Files.exists(dir.resolve("findings.json")));
    }

    @Test
    void noClaimNoPlot() {
        assertEquals("", ForestPlot.svg(List.of()));
    }
}
