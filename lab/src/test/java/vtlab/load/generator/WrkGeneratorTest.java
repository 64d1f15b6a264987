package vtlab.load.generator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.LatencyHistogram;
import vtlab.stack.Request;
import vtlab.load.Generator;
import vtlab.load.LoadSpec;
import vtlab.load.LoadResult;
import vtlab.load.LoadSeries;

class WrkGeneratorTest {
    @TempDir
    Path dir;

    static String resource(String name) throws Exception {
        try (var in = WrkGeneratorTest.class.getResourceAsStream("/vtlab/" + name)) {
            return new String(in.readAllBytes());
        }
    }

    @Test
    void parsesARealWrkRunAndKeepsItsWholeHistogram() throws Exception {
        // captured from `taskset -c 1 wrk -t 1 -c 10 -d 2s --timeout 30s --latency -s <script()> .../sleep?ms=5`
        // against the servlet SUT (virtual threads, pinned to CPU 0) on the 2-core dev machine
        Path hlog = dir.resolve("x.wrk.hlog");
        LoadResult r = WrkGenerator.parse(resource("wrk-sleep-virtual-c10.txt"), Path.of("x.wrk.txt"), hlog);
        assertEquals(2556, r.requests());
        assertEquals(2.100544, r.durationS(), 1e-9);
        assertEquals(1216.83, r.rps(), 0.01); // wrk's own "Requests/sec"
        // the percentile fields stay wrk's numbers
        assertEquals(6.803, r.p50Ms(), 1e-9);
        assertEquals(99.281, r.p99Ms(), 1e-9);
        assertEquals(163.734, r.p999Ms(), 1e-9);
        assertEquals(165.177, r.maxMs(), 1e-9);
        assertEquals(0, r.errors());
        assertEquals(332660, r.bytes());

        assertEquals(hlog, r.histogram());
        assertTrue(Files.isRegularFile(LatencyHistogram.hgrm(hlog)));
        Histogram h = LatencyHistogram.read(hlog);
        // wrk's coordinated-omission correction adds entries for the slow requests: more than were completed
        // (2,743 entries for 2,556 requests; wrk's p50..p99.9 and mean recomputed from the printed pairs match exactly)
        assertEquals(2743, h.getTotalCount());
        // the histogram agrees with wrk's percentiles: each within one bucket of the stored histogram
        assertWithinABucket(h, 5128, h.getMinValue());
        assertWithinABucket(h, 6803, h.getValueAtPercentile(50));
        assertWithinABucket(h, 14461, h.getValueAtPercentile(90));
        assertWithinABucket(h, 20377, h.getValueAtPercentile(95));
        assertWithinABucket(h, 99281, h.getValueAtPercentile(99));
        assertWithinABucket(h, 165177, h.getMaxValue());
        assertEquals(10.369291, h.getMean() / 1000, 0.01);
    }

    static void assertWithinABucket(Histogram h, long wrkUs, long hdrUs) {
        assertTrue(Math.abs(hdrUs - wrkUs) <= h.sizeOfEquivalentValueRange(wrkUs), "wrk " + wrkUs + " us, histogram " + hdrUs + " us");
    }

    @Test
    void parsesTheJsonBlockOfAnOlderScriptWithoutHistogram() throws Exception {
        // captured from `./vtlab run servlet --workloads sleep --conc 400 --modes virtual` on the 2-core dev machine,
        // before the done() hook printed the histogram: the numbers still parse, the row has no histogram
        Path hlog = dir.resolve("old.wrk.hlog");
        LoadResult r = WrkGenerator.parse(resource("wrk-sleep-virtual-c400.txt"), Path.of("x.wrk.txt"), hlog);
        assertEquals(130752, r.requests());
        assertEquals(20.036259, r.durationS(), 1e-9);
        assertEquals(130752 / 20.036259, r.rps(), 1e-6);
        // wrk's text output says 6525.77 req/s: our number must agree with the tool's own
        assertEquals(6525.77, r.rps(), 0.01);
        assertEquals(55.833, r.p50Ms(), 1e-9);
        assertEquals(111.533, r.p99Ms(), 1e-9);
        assertEquals(159.313, r.p999Ms(), 1e-9);
        assertEquals(183.802, r.maxMs(), 1e-9);
        assertEquals(60.113145, r.meanMs(), 1e-9);
        assertEquals(0, r.errors());
        assertEquals(0.0, r.errorRate());
        assertNull(r.histogram());
        assertTrue(Files.notExists(hlog));
    }

    @Test
    void aWalkStoppedAtItsBudgetLeavesNoHistogram() throws Exception {
        String text = BLOCK + """
                VTLAB_HIST_BEGIN 3
                1000:5,2000:3
                VTLAB_HIST_INCOMPLETE after 2 of 3 values: the walk exceeded 20 s of CPU
                VTLAB_HIST_END
                """;
        assertNull(WrkGenerator.parse(text, Path.of("x"), dir.resolve("x.hlog")).histogram());
    }

    @Test
    void refusesAHistogramThatMissesValues() {
        String text = BLOCK + "VTLAB_HIST_BEGIN 3\n1000:5,2000:3\nVTLAB_HIST_END\n";
        var e = assertThrows(Generator.LoadException.class, () -> WrkGenerator.parse(text, Path.of("x"), dir.resolve("x.hlog")));
        assertTrue(e.getMessage().contains("2 values"), e.getMessage());
        String cut = BLOCK + "VTLAB_HIST_BEGIN 2\n1000:5,20\nVTLAB_HIST_END\n";
        assertThrows(Generator.LoadException.class, () -> WrkGenerator.parse(cut, Path.of("x"), dir.resolve("x.hlog")));
    }

    @Test
    void aRunWithoutAnswersHasAnEmptyHistogram() throws Exception {
        Path hlog = dir.resolve("x.hlog");
        LoadResult r = WrkGenerator.parse(BLOCK + "VTLAB_HIST_BEGIN 0\nVTLAB_HIST_END\n", Path.of("x"), hlog);
        assertEquals(0, LatencyHistogram.read(r.histogram()).getTotalCount());
    }

    static final String BLOCK = """
            VTLAB_JSON_BEGIN
            {"requests":0,"duration_us":1000000,"bytes":0,"errors":{"connect":5,"read":0,"write":0,"status":0,"timeout":0},"latency_us":{"min":0,"max":0,"mean":0,"stdev":0,"p50":0,"p90":0,"p95":0,"p99":0,"p999":0}}
            VTLAB_JSON_END
            """;

    @Test
    void countsEveryKindOfErrorAndTheRate() throws Exception {
        String text = """
                Running 1s test
                VTLAB_JSON_BEGIN
                {"requests":900,"duration_us":1000000,"bytes":1,"errors":{"connect":50,"read":3,"write":2,"status":40,"timeout":50},"latency_us":{"min":1,"max":2000,"mean":10.5,"stdev":1,"p50":10,"p90":20,"p95":30,"p99":40,"p999":50}}
                VTLAB_JSON_END
                """;
        LoadResult r = WrkGenerator.parse(text, Path.of("x"), dir.resolve("x.hlog"));
        assertEquals(145, r.errors());
        // attempted = completed 900 + connect errors 50 + timeouts 50 = 1000
        assertEquals(0.145, r.errorRate(), 1e-12);
        assertEquals(2.0, r.maxMs(), 1e-12);
    }

    @Test
    void refusesOutputWithoutTheResultBlock() {
        var e = assertThrows(Generator.LoadException.class,
                () -> WrkGenerator.parse("unable to connect to 127.0.0.1:1 Connection refused\n", Path.of("x"), dir.resolve("x.hlog")));
        assertTrue(e.getMessage().contains("Connection refused"), e.getMessage());
    }

    @Test
    void scriptSetsMethodBodyAndDoneHook() {
        String lua = WrkGenerator.script(Request.filler("POST", 1024), Path.of("/raw/body-1024.bin"));
        assertTrue(lua.contains("wrk.method = \"POST\""));
        assertTrue(lua.contains("wrk.headers[\"Content-Type\"] = \"application/octet-stream\""), lua);
        assertTrue(lua.contains("local body = assert(io.open(\"/raw/body-1024.bin\", \"rb\"))\nwrk.body = body:read(\"*a\")"), lua);
        assertTrue(lua.contains("latency:percentile(99.9)"));
        // the histogram walk: #latency distinct values, latency(i) -> value, count
        assertTrue(lua.contains("local v, c = latency(i)"));
        assertTrue(lua.contains("VTLAB_HIST_BEGIN"));
        assertTrue(WrkGenerator.script(Request.of("GET"), null).lines().noneMatch(l -> l.startsWith("wrk.body") || l.startsWith("wrk.headers")));
    }

    @Test
    void luaStringsCarryAnyByteEscaped() {
        assertEquals("\"a\\034b\\092c\\010\\195\\188\"", MixScript.luaString("a\"b\\c\nü"));
    }

    /** A body that is no text (quotes, line breaks, bytes that are not UTF-8) and headers that need escaping. */
    static final byte[] AWKWARD = {'{', '"', 'a', '"', ':', '\'', '\\', '\n', '\r', 0, (byte) 0xc3, (byte) 0xbc, (byte) 0xff, (byte) 0x80, ']', ']', '}'};

    /**
     * The request wrk itself builds from the script (wrk.format(), what it sends on every connection), written by an
     * init() hook added for the test: real wrk, no server needed (wrk checks the port accepts a connection before it
     * starts, and the kernel's backlog accepts it; nothing ever answers).
     */
    @Test
    void wrkSendsTheBodysBytesAndTheHeadersAsGiven() throws Exception {
        Path wrk = vtlab.tier.tool.Tools.WRK.get();
        Request r = new Request("PATCH", java.util.List.of(new Request.Header("Content-Type", "application/x-odd; q=\"1\""),
                new Request.Header("X-Note", "it's \\ \"quoted\" ]]"), new Request.Header("Authorization", "Bearer s3cr3t")),
                Request.Body.of(AWKWARD));
        Path body = r.body().file(dir);
        assertArrayEquals(AWKWARD, Files.readAllBytes(body));
        String lua = WrkGenerator.script(r, body);
        assertTrue(!lua.contains("s3cr3t") && lua.contains("os.getenv(\"VTLAB_HEADER_2\")"), "the script kept in raw/ holds no credential: " + lua);
        Path out = dir.resolve("request.bin");
        Path script = Files.writeString(dir.resolve("t.lua"), lua + "init = function(args)\n  local f = io.open("
                + MixScript.luaString(out.toString()) + ", \"wb\")\n  f:write(wrk.format())\n  f:close()\nend\n");
        try (java.net.ServerSocket port = new java.net.ServerSocket(0, 8, java.net.InetAddress.getLoopbackAddress())) {
            run(wrk, script, "http://127.0.0.1:" + port.getLocalPort() + "/echo", r);
        }
        byte[] sent = Files.readAllBytes(out);

        int split = indexOf(sent, "\r\n\r\n".getBytes()) + 4;
        String head = new String(sent, 0, split, java.nio.charset.StandardCharsets.ISO_8859_1);
        assertTrue(head.startsWith("PATCH /echo HTTP/1.1\r\n"), head);
        assertTrue(head.contains("\r\nContent-Type: application/x-odd; q=\"1\"\r\n"), head);
        assertTrue(head.contains("\r\nX-Note: it's \\ \"quoted\" ]]\r\n"), head);
        assertTrue(head.contains("\r\nAuthorization: Bearer s3cr3t\r\n"), "a credential reaches wrk through its environment: " + head);
        assertTrue(head.contains("\r\nContent-Length: " + AWKWARD.length + "\r\n"), head);
        assertArrayEquals(AWKWARD, java.util.Arrays.copyOfRange(sent, split, sent.length), "the body, byte for byte");
    }

    /** wrk for a second, with the secret headers' values in its environment as the generator gives them. */
    void run(Path wrk, Path script, String url, Request r) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(wrk.toString(), "-t1", "-c1", "-d1s", "--timeout", "1s", "-s", script.toString(), url)
                .redirectErrorStream(true).redirectOutput(dir.resolve("wrk.txt").toFile());
        pb.environment().putAll(new LoadSpec(java.net.URI.create(url), r, 1, 1, java.time.Duration.ofSeconds(1),
                java.time.Duration.ofSeconds(1), "0", dir, "row").secretHeaderEnv().asMap());
        assertEquals(0, pb.start().waitFor(), Files.readString(dir.resolve("wrk.txt")));
    }

    static int indexOf(byte[] a, byte[] b) {
        outer:
        for (int i = 0; i + b.length <= a.length; i++) {
            for (int j = 0; j < b.length; j++) if (a[i + j] != b[j]) continue outer;
            return i;
        }
        return -1;
    }

    /**
     * A warm-up slice wants its rate only: real wrk for 2 s against a local server (the JDK's), once measured (whole
     * histogram, per-second counts) and once rate-only (neither: the histogram walk can cost wrk up to 20 s of its
     * core after a wide-tailed run, which every warm-up slice paid).
     */
    @Test
    void aRateOnlyLoadSkipsTheHistogramAndTheSeconds() throws Exception {
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/", x -> {
            x.sendResponseHeaders(200, 2);
            x.getResponseBody().write("ok".getBytes());
            x.close();
        });
        server.start();
        try {
            WrkGenerator wrk = new WrkGenerator();
            wrk.configure(vtlab.cli.Main.parse(java.util.List.of()));
            wrk.ensureAvailable();
            java.net.URI url = java.net.URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            LoadSpec measured = new LoadSpec(url, Request.of("GET"), 2, 1, java.time.Duration.ofSeconds(2), java.time.Duration.ofSeconds(2),
                    "0-" + (Runtime.getRuntime().availableProcessors() - 1), dir, "hold");
            LoadResult full = wrk.start(measured).await();
            LoadResult warm = wrk.start(measured.forRateOnly()).await();
            assertTrue(full.requests() > 0 && warm.requests() > 0, full.requests() + " / " + warm.requests());
            assertTrue(full.histogram() != null && Files.exists(full.histogram()), "a measured load keeps its histogram");
            assertEquals(2, full.series().seconds().size(), "and its seconds");
            assertNull(warm.histogram(), "a rate-only load walks no histogram");
            assertTrue(warm.series().seconds().isEmpty(), "and counts no seconds");
            assertTrue(warm.rps() > 0);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void perSecondCountsOfEveryThreadAddUpToWrksTotal() throws Exception {
        // captured from `wrk -t2 -c4 -d2s --timeout 30s --latency -s <script()>` against a path that answers 404 (python's
        // http.server on 127.0.0.1): every answer a status error, each thread printing its own seconds
        LoadResult r = WrkGenerator.parse(resource("wrk-series-404-t2.txt"), Path.of("x"), dir.resolve("x.hlog"));
        assertEquals(3794, r.requests());
        assertEquals(3794, r.errors());
        LoadSeries s = r.series();
        assertEquals(java.util.EnumSet.of(LoadSeries.Kind.REQUESTS, LoadSeries.Kind.ERRORS), s.kinds());
        // a 2.1 s run holds two whole seconds; both threads' counts summed; the partial third second left out
        assertEquals(2, s.seconds().size());
        assertEquals(827 + 821, s.seconds().get(0).requests());
        assertEquals(967 + 975, s.seconds().get(1).requests());
        assertEquals(967 + 975, s.seconds().get(1).errors());
        assertNull(s.seconds().get(0).p99Ms()); // wrk's hook sees no latency
        assertEquals(java.util.List.of("load_requests_rps", "load_errors"), java.util.List.copyOf(s.asSeries().keySet()));
    }

    @Test
    void aSeriesThatDisagreesWithTheTotalFailsTheRow() {
        String text = BLOCK.replace("\"requests\":0", "\"requests\":10") + "VTLAB_SERIES_BEGIN\n0:4:0\n0:5:1\nVTLAB_SERIES_END\n";
        var e = assertThrows(Generator.LoadException.class, () -> WrkGenerator.parse(text, Path.of("x"), dir.resolve("x.hlog")));
        assertTrue(e.getMessage().contains("add up to 9"), e.getMessage());
        String cut = BLOCK + "VTLAB_SERIES_BEGIN\n0:4\nVTLAB_SERIES_END\n";
        assertThrows(Generator.LoadException.class, () -> WrkGenerator.parse(cut, Path.of("x"), dir.resolve("x.hlog")));
    }

    @Test
    void perSecondCountsCanBeSwitchedOff() throws Exception {
        var o = vtlab.cli.Main.parse(java.util.List.of("--wrk-per-second", "off"));
        Generator off = new WrkGenerator().configure(o);
        assertTrue(off.seriesKinds().isEmpty());
        assertEquals(2, new WrkGenerator().configure(vtlab.cli.Main.parse(java.util.List.of())).seriesKinds().size());
        assertThrows(vtlab.core.UsageError.class, () -> new WrkGenerator().configure(vtlab.cli.Main.parse(java.util.List.of("--wrk-per-second", "maybe"))));
        // wrk's own: refused with another generator
        assertThrows(vtlab.core.UsageError.class, () -> Generators.configured("oha", vtlab.cli.Main.parse(java.util.List.of("--wrk-per-second", "off"))));
    }

    @Test
    void anOutputWithoutSecondsHasNoSeries() throws Exception {
        // the older script's output (no response() hook): numbers as before, nothing per second
        assertTrue(WrkGenerator.parse(resource("wrk-sleep-virtual-c10.txt"), Path.of("x"), dir.resolve("x.hlog")).series().seconds().isEmpty());
    }

    @Test
    void scriptCountsAnswersPerSecondOnAMonotonicClock() {
        String lua = WrkGenerator.script(Request.of("GET"), null);
        assertTrue(lua.contains("response = function(status, headers, body)"));
        assertTrue(lua.contains("clock_gettime(1, vtlab_ts)"), "CLOCK_MONOTONIC");
        assertTrue(lua.contains("if status > 399 then"));
        // done() prints the seconds first, so a histogram walk stopped at its budget cannot cut them off
        String off = WrkGenerator.script(Request.of("GET"), null, false, true);
        assertTrue(!off.contains("response = function") && off.contains("VTLAB_JSON_BEGIN"), off);
        assertTrue(lua.indexOf("vtlab_write_series()", lua.indexOf("done = function")) < lua.indexOf("VTLAB_JSON_BEGIN", lua.indexOf("done = function")));
    }
}
