package vtlab.load.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.LatencyHistogram;
import vtlab.load.Generator;
import vtlab.load.LoadSpec;
import vtlab.load.LoadResult;
import vtlab.load.LoadSeries;
import vtlab.load.LoadModel;

/**
 * oha's real output, recorded here against the servlet (2 s at 200 req/s of /sleep?ms=5; a 404; a refused port):
 * the JSON summary with oha's "Storing results" line inside it, and its per-request SQLite records.
 */
class OhaGeneratorTest {
    @TempDir
    Path dir;

    Path resource(String name) throws Exception {
        Path p = dir.resolve(name);
        Files.copy(Path.of(getClass().getResource("/oha/" + name).toURI()), p);
        return p;
    }

    LoadResult parse(String sample, String db, double holdS, long due) throws Exception {
        Path raw = resource(sample);
        return OhaGenerator.parse(Files.readString(raw), raw, resource(db), dir.resolve("row.oha.hlog"), 0, holdS, due);
    }

    @Test
    void theCommandSendsTheRequestsHeadersContentTypeAndBodyFile() throws Exception {
        Path body = dir.resolve("body.json");
        LoadSpec s = new LoadSpec(java.net.URI.create("http://127.0.0.1:1/echo"), HeyGeneratorTest.userRequest(body), 100, 1,
                java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(30), "1", dir, "row", LoadModel.OPEN, 500.0);
        java.util.List<String> cmd = OhaGenerator.command(Path.of("/bin/oha"), s, dir.resolve("row.oha.db"));
        int m = cmd.indexOf("-m");
        assertEquals(java.util.List.of("-m", "POST", "-H", "X-Note: it's \"quoted\"", "-H", "Cookie: sid=s3cr3t", "-T", "application/json",
                "-D", body.toString(), "http://127.0.0.1:1/echo"), cmd.subList(m, cmd.size()));
        assertTrue(vtlab.core.Secrets.toolCommand(cmd, "-H").contains("Cookie: ***"), "raw/*.oha.cmd masks the credential");
    }

    @Test
    void aHeldRateBecomesCountsPercentilesAndAWholeHistogram() throws Exception {
        LoadResult r = parse("sample.txt", "sample.db", 2, 400);
        assertEquals(400, r.requests());
        assertEquals(200, r.rps(), 1e-9, "answered over the scheduled hold");
        assertEquals(0, r.errors());
        assertEquals(0L, r.dropped());
        // the service sleeps 5 ms: every latency from the intended send time is at least that
        assertTrue(r.p50Ms() >= 5 && r.p50Ms() < 50, "p50 " + r.p50Ms());
        assertTrue(r.p99Ms() >= r.p50Ms() && r.maxMs() >= r.p999Ms(), r.toString());
        Histogram h = LatencyHistogram.read(r.histogram());
        assertEquals(400, h.getTotalCount(), "one sample per answered request");
        assertEquals(r.p99Ms(), LatencyHistogram.ms(h, 99), 1e-9, "the row's p99 is the histogram's");
        assertTrue(Files.readString(LatencyHistogram.hgrm(r.histogram())).contains("Percentile"), "the .hgrm table beside it");
    }

    @Test
    void eachSecondOfTheHoldHasItsRequestsErrorsAndPercentiles() throws Exception {
        LoadResult r = parse("sample.txt", "sample.db", 2, 400);
        java.util.List<LoadSeries.Second> s = r.series().seconds();
        // by the time each answer arrived: 199 in the first second, 200 in the second, the last one after the hold
        assertEquals(2, s.size());
        assertEquals(199, s.get(0).requests());
        assertEquals(200, s.get(1).requests());
        assertEquals(0, s.get(0).errors() + s.get(1).errors());
        // the first second's tail is oha opening its connections (120-126 ms); the second's slowest is 65 ms
        assertEquals(124.06, s.get(0).p99Ms(), 124.06 * 0.01);
        assertEquals(58.38, s.get(1).p99Ms(), 58.38 * 0.01);
        assertEquals(12.53, s.get(0).p50Ms(), 12.53 * 0.01);
        assertEquals(6.50, s.get(1).p50Ms(), 6.50 * 0.01);
        var series = r.series().asSeries();
        assertEquals(java.util.List.of("load_requests_rps", "load_errors", "load_p50_ms", "load_p99_ms"), java.util.List.copyOf(series.keySet()));
        assertEquals(2.0, series.get("load_requests_rps").get(1)[0], "a second's point sits at its end, as the probes sample");
        assertEquals(200.0, series.get("load_requests_rps").get(1)[1]);
    }

    @Test
    void statusErrorsCountPerSecond() throws Exception {
        LoadResult r = parse("status404.txt", "err.db", 1, 50);
        assertEquals(1, r.series().seconds().size());
        assertEquals(50, r.series().seconds().get(0).requests());
        assertEquals(50, r.series().seconds().get(0).errors(), "every answer was a 404");
    }

    @Test
    void whatWasDueInTheLeadInIsLeftOut() throws Exception {
        Path raw = resource("sample.txt");
        // the sample ran 2 s at 200 req/s: taken as a 1 s lead-in and a 1 s hold, the hold has the second 200
        LoadResult r = OhaGenerator.parse(Files.readString(raw), raw, resource("sample.db"), dir.resolve("w.hlog"), 1, 1, 200);
        assertTrue(r.requests() >= 195 && r.requests() <= 205, "answered in the hold: " + r.requests());
        assertEquals(r.requests(), LatencyHistogram.read(r.histogram()).getTotalCount());
        assertEquals(0L, r.dropped());
        assertTrue(r.bytes() > 0 && r.bytes() % r.requests() == 0, "same-size answers, counted in the hold only: " + r.bytes());
    }

    @Test
    void statusesAndSocketErrorsAreCountedByKind() throws Exception {
        LoadResult notFound = parse("status404.txt", "err.db", 1, 50);
        assertEquals(50, notFound.requests());
        assertEquals(50, notFound.errStatus());
        assertEquals(1.0, notFound.errorRate(), 1e-9);

        LoadResult refused = parse("refused.txt", "refused.db", 1, 50);
        assertEquals(0, refused.requests());
        assertEquals(50, refused.errConnect());
        assertEquals(0L, refused.dropped(), "refused requests were sent");
        assertEquals(0, LatencyHistogram.read(refused.histogram()).getTotalCount());
    }

    @Test
    void requestsDueButNeverSentAreDroppedBeyondTheSchedulesEdge() throws Exception {
        // 400 answered of 1,000 due at 200 req/s: 600 were still queued in oha when the hold ended
        assertEquals(600L, parse("sample.txt", "sample.db", 2, 1000).dropped());
        assertEquals(0, OhaGenerator.dropped(10_000, 9_997, 2000), "3 short at 2,000 req/s: the last ticks, not a queue");
        assertEquals(30, OhaGenerator.dropped(10_000, 9_970, 2000));
    }

    @Test
    void connectionsCoverTwoHundredMillisecondsOfArrivalsWithinTheCap() {
        assertEquals(400, OhaGenerator.connections(2000, 10_000), "200 ms of arrivals");
        assertEquals(32, OhaGenerator.connections(10, 10_000), "a floor for low rates");
        assertEquals(500, OhaGenerator.connections(15_000, 500), "never above the in-flight cap");
        assertEquals(400, new OhaGenerator().inFlightLimit(2000.0, 10_000), "Little's law is checked against what oha opens");
    }

    @Test
    void outputWithoutJsonIsAClearFailure() throws Exception {
        Path raw = dir.resolve("bad.txt");
        Files.writeString(raw, "error: invalid value 'x' for '-q <QUERY_PER_SECOND>'\n");
        var e = assertThrows(Generator.LoadException.class,
                () -> OhaGenerator.parse(Files.readString(raw), raw, dir.resolve("none.db"), dir.resolve("h.hlog"), 0, 1, 1));
        assertTrue(e.getMessage().contains("invalid value"), e.getMessage());
    }

    @Test
    void itRunsTheOpenModelOnly() {
        var oha = new OhaGenerator();
        assertEquals(java.util.Set.of(LoadModel.OPEN), oha.models());
        assertNotNull(oha.description());
    }
}
