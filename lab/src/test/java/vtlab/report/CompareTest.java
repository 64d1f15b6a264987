package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.core.Options;
import vtlab.core.UsageError;

class CompareTest {
    @TempDir
    Path tmp;

    private Path run(String name, double platformRps, double virtualRps, int jdk) throws Exception {
        RunFixture f = new RunFixture(tmp.resolve(name));
        f.row("servlet", "platform", 1000, null, 1, platformRps, 500).put("jdk", jdk);
        f.row("servlet", "platform", 1000, null, 2, platformRps + 2, 520).put("jdk", jdk);
        f.row("servlet", "virtual", 1000, null, 1, virtualRps, 130).put("jdk", jdk);
        f.write();
        return f.dir;
    }

    @Test
    void matchingRowsGetDeltasAcrossJdks() throws Exception {
        RunData a = RunData.load(run("a", 1000, 8000, 21));
        RunData b = RunData.load(run("b", 1100, 6000, 25));
        List<Compare.Line> lines = Compare.lines(a, b);
        assertEquals(2, lines.size(), "one JDK per run: the JDK is not part of the key, so 21 and 25 rows match");
        Compare.Line platform = lines.getFirst();
        assertEquals("platform-200", platform.variant());
        assertEquals("servlet sleep c=1000 sleepMs=100", platform.scenario());
        assertEquals(1001, platform.a().rps(), 1e-9);
        assertEquals(1101, platform.b().rps(), 1e-9);
        assertEquals(100.0 / 1001 * 100, platform.rpsDelta(), 1e-9);
        assertEquals(0, platform.p99Delta(), 1e-9);
        assertEquals(-25, lines.get(1).rpsDelta(), 1e-9);
        String table = Compare.terminal(a, b, lines);
        assertTrue(table.contains("+10.0%"), table);
        assertTrue(table.contains("-25.0%"), table);
    }

    @Test
    void rowsOnOneSideOnlyOrNotOkHaveNoDelta() throws Exception {
        RunFixture fa = new RunFixture(tmp.resolve("a"));
        fa.row("servlet", "virtual", 400, null, 1, 5000, 100);
        Map<String, Object> flagged = fa.row("servlet", "platform", 400, null, 1, 3000, 300);
        flagged.put("status", "flagged");
        fa.write();
        RunFixture fb = new RunFixture(tmp.resolve("b"));
        fb.row("servlet", "virtual", 400, null, 1, 5500, 90);
        fb.row("servlet", "platform", 400, null, 1, 3100, 280);
        fb.row("servlet", "virtual", 800, null, 1, 7000, 140);
        fb.write();
        List<Compare.Line> lines = Compare.lines(RunData.load(fa.dir), RunData.load(fb.dir));
        assertEquals(3, lines.size());
        Compare.Line platform = lines.stream().filter(l -> l.variant().startsWith("platform")).findFirst().orElseThrow();
        assertEquals("flagged", platform.a().status());
        assertTrue(Double.isNaN(platform.rpsDelta()));
        Compare.Line only = lines.getLast();
        assertEquals("absent", only.a().status());
        assertTrue(Double.isNaN(only.rpsDelta()));
        assertEquals(10, lines.getFirst().rpsDelta(), 1e-9);
    }

    @Test
    void commandWritesHtmlAndRefusesBadArguments() throws Exception {
        Path a = run("a", 1000, 8000, 25), b = run("b", 900, 9000, 25);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Path out = tmp.resolve("cmp.html");
        int code = new vtlab.cli.CompareCommand().run(vtlab.cli.Main.parse(List.of("--out", out.toString())), List.of(a.toString(), b.toString()),
                new PrintStream(buf, true, StandardCharsets.UTF_8));
        assertEquals(0, code);
        String html = Files.readString(out);
        assertTrue(html.contains("<canvas id=\"c-compare-1\""));
        assertTrue(html.contains("class=\"worse\">-10.0%"), "platform fell 10%: marked worse");
        assertTrue(buf.toString(StandardCharsets.UTF_8).contains("comparison in"));
        assertThrows(UsageError.class, () -> new vtlab.cli.CompareCommand().run(vtlab.cli.Main.parse(List.of()), List.of(a.toString()), System.out));
        assertThrows(UsageError.class, () -> new vtlab.cli.CompareCommand().run(vtlab.cli.Main.parse(List.of()), List.of(a.toString(), tmp.resolve("nope").toString()), System.out));
        Files.createDirectories(tmp.resolve("empty"));
        assertThrows(UsageError.class, () -> new vtlab.cli.CompareCommand().run(vtlab.cli.Main.parse(List.of()), List.of(a.toString(), tmp.resolve("empty").toString()), System.out));
        assertThrows(UsageError.class, () -> new vtlab.cli.CompareCommand().run(vtlab.cli.Main.parse(List.of("--bogus", "1")), List.of(a.toString(), b.toString()), System.out));
        assertFalse(Files.exists(Path.of("compare.html")) && Files.getLastModifiedTime(Path.of("compare.html")).toMillis() > System.currentTimeMillis() - 60_000,
                "--out was given: nothing written to the current directory");
    }

    private Path reps(String name, double... platformRps) throws Exception {
        RunFixture f = new RunFixture(tmp.resolve(name));
        for (int i = 0; i < platformRps.length; i++) f.row("servlet", "platform", 1000, null, i + 1, platformRps[i], 500);
        f.write();
        return f.dir;
    }

    private int compare(Path a, Path b, String maxRegression, ByteArrayOutputStream buf) throws Exception {
        return new vtlab.cli.CompareCommand().run(vtlab.cli.Main.parse(List.of("--out", tmp.resolve("cmp.html").toString(), "--max-regression", maxRegression)),
                List.of(a.toString(), b.toString()), new PrintStream(buf, true, StandardCharsets.UTF_8));
    }

    @Test
    void maxRegressionFailsOnlyWhatIsSlowerBeyondTheNoise() throws Exception {
        Path a = reps("a", 1000, 1010, 990), slower = reps("slower", 900, 905, 895), noisy = reps("noisy", 1000, 1100, 900),
                noisySlower = reps("noisy-slower", 940, 1040, 840), once = reps("once", 1000), onceSlower = reps("once-slower", 800);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        assertEquals(99, compare(a, slower, "5%", buf), buf.toString(StandardCharsets.UTF_8));
        assertTrue(buf.toString(StandardCharsets.UTF_8).contains("REGRESSION servlet sleep c=1000 sleepMs=100 platform-200: req/s -10.0%"), buf.toString());
        assertTrue(buf.toString(StandardCharsets.UTF_8).contains("req/s worse"), buf.toString());
        assertEquals(0, compare(a, slower, "15", new ByteArrayOutputStream()), "10% slower is within a 15% budget");
        buf.reset();
        assertEquals(0, compare(noisy, noisySlower, "5%", buf), "6% slower, but within the reps' 10% noise");
        assertTrue(buf.toString(StandardCharsets.UTF_8).contains("req/s undetermined"), buf.toString());
        buf.reset();
        assertEquals(0, compare(once, onceSlower, "5%", buf), "one rep a side: the noise is unknown, nothing is beyond it");
        assertTrue(buf.toString(StandardCharsets.UTF_8).contains("noise unknown (1 fork)"), buf.toString());
        for (String bad : List.of("x", "-5%", "100%")) {
            assertThrows(UsageError.class, () -> compare(a, slower, bad, new ByteArrayOutputStream()), bad);
        }
    }

    /** Two forks of three iterations each: each fork's iterations 1 req/s apart, the forks themselves apart by fork. */
    private Path iterated(String name, double... forkRps) throws Exception {
        RunFixture f = new RunFixture(tmp.resolve(name));
        int rep = 0;
        for (int fork = 1; fork <= forkRps.length; fork++) {
            for (int it = 1; it <= 3; it++) {
                Map<String, Object> r = f.row("servlet", "platform", 1000, null, ++rep, forkRps[fork - 1] + (it - 2), 500);
                r.put("fork", fork);
                r.put("iteration", it);
            }
        }
        f.write();
        return f.dir;
    }

    /**
     * --iterations 3 is three holds of one JVM, one sample of the noise between JVMs: compare judges fork means, two a
     * side here. Counted as six independent reps a side (before the judge), 10% slower was "beyond the noise" and
     * --max-regression 5% exited 99 on forks 60 req/s apart.
     */
    @Test
    void iterationsOfOneForkAreOneSampleNotThree() throws Exception {
        Path a = iterated("iter-a", 1000, 1060), b = iterated("iter-b", 900, 960);
        List<Compare.Line> lines = Compare.lines(RunData.load(a), RunData.load(b));
        assertEquals(2, lines.getFirst().a().rpsReps().length, "one value a fork: " + java.util.Arrays.toString(lines.getFirst().a().rpsReps()));
        assertEquals(1030, lines.getFirst().a().rpsReps()[1] - 30, 1e-9);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        assertEquals(0, compare(a, b, "5%", buf), buf.toString(StandardCharsets.UTF_8));
        assertTrue(buf.toString(StandardCharsets.UTF_8).contains("req/s undetermined"), buf.toString());
    }

    @Test
    void aMarginIsAPercentInItsRange() throws Exception {
        Path a = reps("m-a", 1000, 1010, 990), b = reps("m-b", 1001, 1011, 991);
        for (String bad : List.of("0", "150%", "abc")) {
            UsageError e = assertThrows(UsageError.class, () -> new vtlab.cli.CompareCommand().run(vtlab.cli.Main.parse(List.of("--out",
                    tmp.resolve("cmp.html").toString(), "--margin", bad)), List.of(a.toString(), b.toString()), new PrintStream(new ByteArrayOutputStream())), bad);
            assertTrue(e.getMessage().startsWith("--margin " + bad + ": "), e.getMessage());
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        assertEquals(0, new vtlab.cli.CompareCommand().run(vtlab.cli.Main.parse(List.of("--out", tmp.resolve("cmp.html").toString(), "--margin", "10%")),
                List.of(a.toString(), b.toString()), new PrintStream(buf, true, StandardCharsets.UTF_8)));
        assertTrue(buf.toString(StandardCharsets.UTF_8).contains("req/s equivalent within ±10%"), buf.toString(StandardCharsets.UTF_8));
    }

    /** Same throughput, latency up: p99 per rep at the same req/s. */
    private Path p99Reps(String name, double... p99) throws Exception {
        RunFixture f = new RunFixture(tmp.resolve(name));
        for (int i = 0; i < p99.length; i++) f.row("servlet", "platform", 1000, null, i + 1, 1000 + i, p99[i]);
        f.write();
        return f.dir;
    }

    @Test
    void maxRegressionFailsOnATailThatGrewBeyondTheNoise() throws Exception {
        Path a = p99Reps("p99-a", 500, 505, 495), slower = p99Reps("p99-slower", 600, 610, 590), noisy = p99Reps("p99-noisy", 450, 560, 640);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        assertEquals(99, compare(a, slower, "5%", buf), buf.toString(StandardCharsets.UTF_8));
        String out = buf.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("REGRESSION servlet sleep c=1000 sleepMs=100 platform-200: p99 +20.0%"), out);
        assertTrue(!out.contains("req/s -"), "throughput did not change: only the tail is named: " + out);
        assertEquals(0, compare(a, slower, "25%", new ByteArrayOutputStream()), "20% slower p99 is within a 25% budget");
        assertEquals(0, compare(a, noisy, "5%", new ByteArrayOutputStream()), "p99 +10% but within the reps' noise");
        assertEquals(0, compare(slower, a, "5%", new ByteArrayOutputStream()), "a tail that shrank is no regression");
    }

    @Test
    void compareReadsSummaryJsonRatherThanTheRows() throws Exception {
        Path a = reps("a", 1000, 1010), b = reps("b", 1100, 1110);
        RunSummary.of(RunData.load(b)).write(b);
        // the rows are gone; summary.json still says what B measured
        String header = Files.readAllLines(b.resolve("matrix.csv")).getFirst();
        Files.writeString(b.resolve("matrix.csv"), header + "\n");
        Compare.Line l = Compare.lines(RunData.load(a), RunData.load(b)).getFirst();
        assertEquals(1105, l.b().rps(), 1e-9);
        assertEquals(List.of(1, 2), l.b().rowNumbers());
    }
}
