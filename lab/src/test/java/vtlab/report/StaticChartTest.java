package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

class StaticChartTest {
    @TempDir
    Path dir;

    private ChartSpec hero() throws Exception {
        RunFixture.heroSweep(dir.resolve("run")).write();
        return new ChartData(RunData.load(dir.resolve("run"))).hero("servlet").getFirst();
    }

    @Test
    void svgIsWellFormedWithLabelledAxesAndOneLinePerSeries() throws Exception {
        ChartSpec c = hero();
        String svg = StaticChart.svg(c);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        List<String> texts = new ArrayList<>();
        NodeList t = doc.getElementsByTagName("text");
        for (int i = 0; i < t.getLength(); i++) texts.add(t.item(i).getTextContent());
        assertTrue(texts.contains("throughput (req/s)"), texts.toString());
        assertTrue(texts.contains("p99 latency (ms)"), texts.toString());
        assertTrue(texts.contains("concurrent connections (log scale)"), texts.toString());
        assertTrue(texts.contains("2,500"), "x ticks at the sweep's own values: " + texts);
        // throughput and p99 of both variants: four polylines
        assertEquals(4, doc.getElementsByTagName("polyline").getLength());
    }

    @Test
    void svgEscapesTextFromData() throws Exception {
        ChartSpec c = new ChartSpec("x-1", "bar", "a <b> & \"c\"", "x", "y", null, false, List.of("</svg>"),
                List.of(new ChartSpec.Line("v<1>", "y", "bar", "#1f77b4", List.of(new ChartSpec.Point(0, 3, null, List.of())))));
        String svg = StaticChart.svg(c);
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertTrue(svg.contains("a &lt;b&gt; &amp; &quot;c&quot;"));
    }

    @Test
    void pngIsDrawnInTheVariantColours() throws Exception {
        ChartSpec c = hero();
        List<Path> files = StaticChart.write(c, dir.resolve("charts"), c.id());
        assertEquals(2, files.size(), "SVG and PNG: " + files);
        BufferedImage img = ImageIO.read(files.get(1).toFile());
        assertEquals(StaticChart.W, img.getWidth());
        int blue = 0, orange = 0;
        for (int y = 0; y < img.getHeight(); y++)
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y) & 0xffffff;
                if (rgb == 0x1f77b4) blue++;
                if (rgb == 0xff7f0e) orange++;
            }
        assertTrue(blue > 200 && orange > 200, "virtual (blue) and platform (orange) lines drawn: " + blue + ", " + orange);
    }

    @Test
    void niceTicksAreRoundAndCoverTheMaximum() {
        assertEquals(List.of(0.0, 5000.0, 10000.0, 15000.0, 20000.0, 25000.0), StaticChart.niceTicks(20001));
        List<Double> small = StaticChart.niceTicks(1);
        assertEquals(6, small.size());
        assertEquals(0.6, small.get(3), 1e-12);
        assertEquals(1.0, small.getLast(), 1e-12);
    }

    @Test
    void logTicksStepOneTwoFiveAroundTheData() {
        assertEquals(List.of(50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0), StaticChart.logTicks(50.4, 1085));
        assertEquals(List.of(0.2, 0.5, 1.0), StaticChart.logTicks(0.3, 0.9).stream().map(d -> Math.round(d * 1e9) / 1e9).toList());
        assertEquals(2, StaticChart.logTicks(100, 100).size(), "one value still makes an axis");
    }

    @Test
    void spectrumFigureHasPercentileTicksAndALogLatencyAxis() throws Exception {
        RunFixture f = new RunFixture(dir.resolve("run"));
        f.histogram(f.row("servlet", "virtual", 100, null, 1, 1000, 0), "v1", 980, 50, 15, 200, 5, 1200);
        f.write();
        ChartSpec c = new ChartData(RunData.load(f.dir)).spectrum("servlet").getFirst();
        String svg = StaticChart.svg(c);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        List<String> texts = new ArrayList<>();
        NodeList t = doc.getElementsByTagName("text");
        for (int i = 0; i < t.getLength(); i++) texts.add(t.item(i).getTextContent());
        assertTrue(texts.containsAll(List.of("50%", "90%", "99%", "99.9%", "99.99%")), texts.toString());
        assertTrue(texts.contains("latency (ms) (log scale)"), texts.toString());
        assertTrue(texts.containsAll(List.of("50", "100", "200", "500", "1,000", "2,000")), "1-2-5 ticks from 50 ms to 1.2 s: " + texts);
        assertEquals(1, doc.getElementsByTagName("polyline").getLength());
    }
}
