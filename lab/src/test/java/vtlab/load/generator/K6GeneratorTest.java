package vtlab.load.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.LatencyHistogram;
import vtlab.plan.RateProfile;
import vtlab.stack.Request;
import vtlab.tier.tool.Tools;
import vtlab.load.Generator;
import vtlab.load.LoadSpec;
import vtlab.load.LoadResult;
import vtlab.load.LoadSeries;
import vtlab.load.LoadModel;

/**
 * The fixtures under resources/vtlab/k6 are real k6 v1.8.1 runs (their .cmd says how) of the scripts beside them,
 * against the servlet SUT's /sleep?ms=25 on one CPU, k6 pinned to the other: a --ramp run (200 ms up to 5 VUs, a 600 ms
 * hold, 200 ms down) and an open run (150 req/s for 1 s, at most 2 VUs, a 27 ms timeout) that both dropped iterations
 * and timed out. The expected numbers were counted from the CSVs with a separate script (exact nearest-rank percentiles;
 * the histogram keeps 3 significant digits, hence the 0.05 ms tolerance).
 */
class K6GeneratorTest {
    static final URI SLEEP = URI.create("http://127.0.0.1:18411/sleep?ms=25");
    static final double HDR_MS = 0.05;

    @TempDir
    Path tmp;

    /** A fixture file copied to tmp (parse writes the histogram beside the records). */
    Path fixture(String name) throws Exception {
        Path p = tmp.resolve(name);
        try (var in = K6GeneratorTest.class.getResourceAsStream("/vtlab/k6/" + name)) {
            Files.write(p, in.readAllBytes());
        }
        return p;
    }

    LoadResult parseFixture(String stem, double holdS, boolean ramped, boolean open) throws Exception {
        Path txt = fixture(stem + ".k6.txt");
        return K6Generator.parse(Files.readString(txt), txt, fixture(stem + ".k6.csv"), fixture(stem + ".k6.summary.json"),
                tmp.resolve(stem + ".k6.hlog"), holdS, ramped, open);
    }

    static LoadSpec closed(int vus, Duration hold) {
        return new LoadSpec(SLEEP, Request.of("GET"), vus, 1, hold, Duration.ofSeconds(30), "1", Path.of("raw"), "row");
    }

    static LoadSpec open(double rate, int cap, Duration hold, Duration timeout) {
        return new LoadSpec(SLEEP, Request.of("GET"), cap, 1, hold, timeout, "1", Path.of("raw"), "row", LoadModel.OPEN, rate);
    }

    @Test
    void aWholeClosedRunCountsEveryRequestAndKeepsItsHistogram() throws Exception {
        LoadResult r = parseFixture("k6-ramp-c5", 1.0, false, false);
        assertEquals(150, r.requests(), "k6's own summary says 150 http_reqs");
        assertEquals(0, r.errors());
        assertNull(r.dropped(), "a closed load drops nothing");
        assertEquals(19650, r.bytes());
        assertEquals(1.0, r.durationS());
        assertEquals(26.6798, r.meanMs(), HDR_MS);
        assertEquals(26.4706, r.p50Ms(), HDR_MS);
        assertEquals(27.5962, r.p90Ms(), HDR_MS);
        assertEquals(28.1537, r.p95Ms(), HDR_MS);
        assertEquals(29.4771, r.p99Ms(), HDR_MS);
        assertEquals(30.3495, r.p999Ms(), HDR_MS);
        assertEquals(30.3495, r.maxMs(), HDR_MS);
        Histogram h = LatencyHistogram.read(r.histogram());
        assertEquals(150, h.getTotalCount(), "every request's duration is in the .hlog");
        assertEquals(r.p99Ms(), LatencyHistogram.ms(h, 99), 1e-9, "the percentiles are the histogram's");
        assertTrue(Files.isRegularFile(LatencyHistogram.hgrm(r.histogram())));
    }

    @Test
    void underRampOnlyTheHoldCounts() throws Exception {
        LoadResult r = parseFixture("k6-ramp-c5", 0.6, true, false);
        assertEquals(113, r.requests(), "37 of the 150 were sent while the VUs ramped");
        assertEquals(113 / 0.6, r.rps(), 1e-9);
        assertEquals(14803, r.bytes());
        assertEquals(26.6044, r.meanMs(), HDR_MS);
        assertEquals(26.4464, r.p50Ms(), HDR_MS);
        assertEquals(27.3801, r.p90Ms(), HDR_MS);
        assertEquals(28.3597, r.p99Ms(), HDR_MS);
        assertEquals(113, LatencyHistogram.read(r.histogram()).getTotalCount());
    }

    @Test
    void anOpenRunCountsDroppedIterationsAndTimeouts() throws Exception {
        LoadResult r = parseFixture("k6-open-r150-cap2", 1.0, false, true);
        assertEquals(35, r.requests(), "answered; 25 more timed out");
        assertEquals(25, r.errTimeout());
        assertEquals(0, r.errStatus() + r.errConnect() + r.errRead() + r.errWrite());
        assertEquals(90, r.dropped(), "150 due, 60 sent: no VU was free for the other 90");
        assertEquals(25.0 / 60, r.errorRate(), 1e-9);
        assertEquals(26.7396, r.p50Ms(), HDR_MS);
        assertEquals(27.3478, r.maxMs(), HDR_MS);
        assertEquals(35, LatencyHistogram.read(r.histogram()).getTotalCount(), "timed-out requests have no latency");
    }

    @Test
    void eachClockSecondHasItsRequestsErrorsAndPercentiles() throws Exception {
        // k6 stamps whole seconds: the open fixture's 60 requests fall in two (21 and 39, of which 10 and 15 timed out)
        LoadResult r = parseFixture("k6-open-r150-cap2", 2.0, false, true);
        List<LoadSeries.Second> s = r.series().seconds();
        assertEquals(2, s.size());
        assertEquals(11, s.get(0).requests(), "answered");
        assertEquals(10, s.get(0).errors(), "timed out: no answer, an error");
        assertEquals(24, s.get(1).requests());
        assertEquals(15, s.get(1).errors());
        assertTrue(s.get(0).p50Ms() > 26 && s.get(0).p99Ms() <= r.maxMs() * 1.01, s.get(0).toString());
        assertEquals(r.requests(), s.stream().mapToLong(LoadSeries.Second::requests).sum());
    }

    @Test
    void eachSecondTellsItsErrorsByKindAndWhatWasInFlight() throws Exception {
        LoadResult r = parseFixture("k6-open-r150-cap2", 2.0, false, true);
        var series = r.series().asSeries();
        List<double[]> timeouts = series.get(LoadSeries.Kind.ERR_TIMEOUT.series);
        assertEquals(List.of(10.0, 15.0), timeouts.stream().map(p -> p[1]).toList(), "the 25 timeouts, in the seconds they ended");
        assertEquals(0.0, series.get(LoadSeries.Kind.ERR_STATUS.series).stream().mapToDouble(p -> p[1]).sum());
        assertEquals(0.0, series.get(LoadSeries.Kind.ERR_CONNECT.series).stream().mapToDouble(p -> p[1]).sum());
        List<double[]> inFlight = series.get(LoadSeries.Kind.IN_FLIGHT.series);
        assertFalse(inFlight.isEmpty(), "k6's vus samples");
        assertTrue(inFlight.stream().allMatch(p -> p[1] >= 1 && p[1] <= 2), "at most the cap of 2 VUs, one request each");
    }

    @Test
    void aWindowsPercentileMergesItsSecondsHistograms() throws Exception {
        LoadResult r = parseFixture("k6-open-r150-cap2", 2.0, false, true);
        assertEquals(r.p99Ms(), r.series().percentileMs(0, 2, 99), r.p99Ms() * 0.01, "both seconds = the whole hold (two digits: 1%)");
        assertEquals(r.series().seconds().get(1).p99Ms(), r.series().percentileMs(1, 2, 99), 1e-9, "one second = that second's own");
        assertNull(r.series().percentileMs(2, 5, 99), "past the hold: nothing answered");
    }

    @Test
    void millisecondStampsFallInTheSecondOfTheHoldTheyEndedIn() throws Exception {
        assertEquals(0, K6Generator.second(1_795_448_547_123L, 1_795_448_546_900L, false), "0.223 s after the start");
        assertEquals(1, K6Generator.second(1_795_448_547_950L, 1_795_448_546_900L, false), "1.05 s after it");
        assertEquals(1_795_448_547L, K6Generator.second(1_795_448_547L, null, false), "whole-second stamps: the clock's second");
        assertEquals(1_795_448_547L, K6Generator.second(1_795_448_547_950L, 1_795_448_546_900L, true), "--ramp: the clock's second");
        // the open fixture with its stamps in ms, k6 started 0.6 s before the first clock second's start: its 21 + 39
        // records move to the hold's seconds 0 and 1 (ended within 0.6-1.6 s and 1.6-2.6 s), so 39 fall in second 1 or 2
        Path csv = fixture("k6-open-r150-cap2.k6.csv");
        List<String> lines = Files.readAllLines(csv);
        long first = Long.parseLong(lines.get(1).split(",")[1]);
        List<String> ms = new java.util.ArrayList<>(List.of(lines.getFirst()));
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split(",", -1);
            f[1] = Long.toString(Long.parseLong(f[1]) * 1000 + 500);
            ms.add(String.join(",", f));
        }
        Files.write(csv, ms);
        Path txt = fixture("k6-open-r150-cap2.k6.txt");
        LoadResult r = K6Generator.parse(Files.readString(txt), txt, csv, fixture("k6-open-r150-cap2.k6.summary.json"),
                tmp.resolve("ms.hlog"), 3.0, false, true, first * 1000 - 600);
        List<LoadSeries.Second> s = r.series().seconds();
        assertEquals(3, s.size());
        assertEquals(0, s.get(0).requests() + s.get(0).errors(), "nothing ended in the hold's first second (+0.5 s stamps, 0.6 s start-up)");
        assertEquals(21, s.get(1).requests() + s.get(1).errors(), "the first clock second's records: 1.1 s into the hold");
        assertEquals(39, s.get(2).requests() + s.get(2).errors());
        assertEquals(35, r.requests(), "the row's own numbers do not depend on the stamps");
    }

    @Test
    void underRampTheSecondsStartWithTheHold() throws Exception {
        LoadResult r = parseFixture("k6-ramp-c5", 2.0, true, false);
        List<LoadSeries.Second> s = r.series().seconds();
        assertEquals(35, s.get(0).requests(), "hold-tagged only: 16 of that second's 51 were sent in the ramp");
        assertEquals(78, s.get(1).requests());
    }

    @Test
    void theKeptCsvIsGzippedAndReadsTheSame() throws Exception {
        LoadResult plain = parseFixture("k6-open-r150-cap2", 1.0, false, true);
        Path csv = tmp.resolve("k6-open-r150-cap2.k6.csv");
        long size = Files.size(csv);
        Path gz = K6Generator.gzip(csv);
        assertFalse(Files.exists(csv), "the plain CSV is replaced");
        assertTrue(Files.size(gz) < size / 4, "compressed: " + Files.size(gz) + " of " + size + " bytes");
        LoadResult again = K6Generator.parse("", plain.raw(), csv, tmp.resolve("k6-open-r150-cap2.k6.summary.json"),
                tmp.resolve("again.hlog"), 1.0, false, true);
        assertEquals(plain.requests(), again.requests());
        assertEquals(plain.dropped(), again.dropped());
        assertEquals(plain.p99Ms(), again.p99Ms());
    }

    @Test
    void aCsvShortOfK6sOwnCountIsRefused() throws Exception {
        Path csv = fixture("k6-ramp-c5.k6.csv");
        List<String> lines = Files.readAllLines(csv);
        Files.write(csv, lines.subList(0, lines.size() - 200));
        Generator.LoadException e = assertThrows(Generator.LoadException.class, () -> K6Generator.parse("", csv, csv,
                fixture("k6-ramp-c5.k6.summary.json"), tmp.resolve("x.hlog"), 1.0, false, false));
        assertTrue(e.getMessage().contains("k6 counted 150 requests but its CSV holds"), e.getMessage());
    }

    @Test
    void noCsvIsRefusedWithK6sLastWords() {
        Generator.LoadException e = assertThrows(Generator.LoadException.class, () -> K6Generator.parse(
                "ERRO[0000] could not initialize 'script.js'\n", Path.of("x"), tmp.resolve("none.csv"), tmp.resolve("none.json"),
                tmp.resolve("x.hlog"), 1.0, false, false));
        assertTrue(e.getMessage().contains("could not initialize"), e.getMessage());
    }

    @Test
    void classifiesEachRequestByStatusAndErrorCode() {
        assertEquals(Outcome.ANSWERED, K6Generator.outcome(200, 0));
        assertEquals(Outcome.ANSWERED, K6Generator.outcome(302, 0));
        assertEquals(Outcome.STATUS, K6Generator.outcome(404, 1404));
        assertEquals(Outcome.STATUS, K6Generator.outcome(503, 1503));
        assertEquals(Outcome.TIMEOUT, K6Generator.outcome(0, 1050));
        assertEquals(Outcome.CONNECT, K6Generator.outcome(0, 1212), "dial: connection refused");
        assertEquals(Outcome.CONNECT, K6Generator.outcome(0, 1211), "dial: i/o timeout");
        assertEquals(Outcome.CONNECT, K6Generator.outcome(0, 1101), "no such host");
        assertEquals(Outcome.WRITE, K6Generator.outcome(0, 1201), "broken pipe");
        assertEquals(Outcome.READ, K6Generator.outcome(0, 1220), "reset by peer");
        assertEquals(Outcome.READ, K6Generator.outcome(0, 1000));
    }

    @Test
    void theFixturesScriptsAreTheOnesItWrites() throws Exception {
        assertEquals(Files.readString(fixture("k6-ramp-c5.k6.js")),
                K6Generator.script(closed(5, Duration.ofMillis(600)), Duration.ofMillis(200)));
        assertEquals(Files.readString(fixture("k6-open-r150-cap2.k6.js")),
                K6Generator.script(open(150, 2, Duration.ofSeconds(1), Duration.ofMillis(27)), null));
    }

    @Test
    void closedScriptHoldsConstantVus() {
        String js = K6Generator.script(closed(400, Duration.ofSeconds(20)), null);
        assertTrue(js.contains("executor: 'constant-vus',\n      vus: 400, duration: '20000ms',"), js);
        assertTrue(js.contains("timeout: '30000ms'"), js);
        assertTrue(js.contains("const METHOD = \"GET\";\nconst BODY = null;"), js);
        assertFalse(js.contains("k6/execution"), "no phase tag without --ramp");
        assertTrue(K6Generator.script(closed(5, Duration.ofMillis(300)), null).contains("duration: '1000ms'"),
                "k6 refuses a constant-vus scenario under 1 s");
        assertEquals(1.0, K6Generator.hold(closed(5, Duration.ofMillis(300)), false).toMillis() / 1000.0);
        LoadSpec post = new LoadSpec(URI.create("http://127.0.0.1:1/count?a=it's"), Request.filler("POST", 5), 10, 1,
                Duration.ofSeconds(5), Duration.ofSeconds(30), "1", Path.of("raw"), "row");
        String p = K6Generator.script(post, null, Path.of("/raw/body-5.bin"));
        assertTrue(p.contains("const URL = \"http://127.0.0.1:1/count?a=it's\";"), p);
        assertTrue(p.contains("const BODY = open(\"/raw/body-5.bin\", 'b');"), p);
        assertTrue(p.contains("headers: { \"Content-Type\": \"application/octet-stream\" }"), p);
        assertThrows(IllegalArgumentException.class, () -> K6Generator.script(post, null), "a body is read from its file");
    }

    /** A user's request: every header in order, quoted as JavaScript, a credential read from k6's environment. */
    @Test
    void scriptSendsTheRequestsHeadersAndTheBodyFilesBytes() {
        Request r = new Request("PUT", List.of(new Request.Header("Content-Type", "application/json; charset=\"utf-8\""),
                new Request.Header("X-Trace", "it's \\ ü"), new Request.Header("Authorization", "Bearer s3cr3t")),
                Request.Body.of(new byte[] {1, 2}));
        LoadSpec put = new LoadSpec(SLEEP, r, 10, 1, Duration.ofSeconds(5), Duration.ofSeconds(30), "1", Path.of("raw"), "row");
        String js = K6Generator.script(put, null, Path.of("/b/o\"dy.bin"));
        assertTrue(js.contains("const METHOD = \"PUT\";\nconst BODY = open(\"/b/o\\\"dy.bin\", 'b');\n"), js);
        assertTrue(js.contains("headers: { \"Content-Type\": \"application/json; charset=\\\"utf-8\\\"\", \"X-Trace\": \"it's \\\\ ü\", "
                + "\"Authorization\": __ENV.VTLAB_HEADER_2 }"), js);
        assertFalse(js.contains("s3cr3t"), "the script kept in raw/ holds no credential");
        assertEquals(java.util.Map.of("VTLAB_HEADER_2", "Bearer s3cr3t"), put.secretHeaderEnv().asMap());
    }

    @Test
    void rampScriptRampsUpHoldsAndRampsDown() {
        String js = K6Generator.script(closed(1000, Duration.ofSeconds(20)), Duration.ofSeconds(8));
        assertTrue(js.contains("executor: 'ramping-vus',\n      startVUs: 0,"), js);
        assertTrue(js.contains("{ duration: '8000ms', target: 1000 },\n        { duration: '20000ms', target: 1000 },\n"
                + "        { duration: '8000ms', target: 0 },"), js);
        assertTrue(js.contains("const HOLD_FROM_MS = 8000, HOLD_TO_MS = 28000;"), js);
        assertTrue(js.contains("exec.vu.metrics.tags.phase = now;"), js);
        assertThrows(IllegalArgumentException.class,
                () -> K6Generator.script(open(100, 10, Duration.ofSeconds(5), Duration.ofSeconds(30)), Duration.ofSeconds(8)));
    }

    @Test
    void openScriptPreallocatesHalfASecondOfArrivalsUnderTheCap() {
        String js = K6Generator.script(open(4000, 10000, Duration.ofSeconds(20), Duration.ofSeconds(30)), null);
        assertTrue(js.contains("executor: 'constant-arrival-rate',\n      rate: 4000, timeUnit: '1s',\n      duration: '20000ms',\n"
                + "      preAllocatedVUs: 2000, maxVUs: 10000,"), js);
        assertTrue(K6Generator.script(open(4000, 100, Duration.ofSeconds(20), Duration.ofSeconds(30)), null)
                .contains("preAllocatedVUs: 100, maxVUs: 100,"));
        assertTrue(K6Generator.script(open(2500.5, 10000, Duration.ofSeconds(20), Duration.ofSeconds(30)), null)
                .contains("rate: 2500500, timeUnit: '1000s',"), "a fractional rate keeps its spacing");
        assertEquals(1, K6Generator.preAllocated(0.5, 10));
    }

    static LoadSpec profiled(String profile, int cap, Duration hold) {
        RateProfile p = RateProfile.parse(profile);
        return open(p.meanRate(hold.toMillis() / 1000.0), cap, hold, Duration.ofSeconds(30)).withProfile(p);
    }

    /** A step: a 0 ms stage to the new rate (k6 adds no iteration in it), then a stage holding it until the next point. */
    @Test
    void aStepProfileJumpsWithAZeroLengthStage() {
        String js = K6Generator.script(profiled("1000@0s,5000@10s,1000@20s", 10_000, Duration.ofSeconds(30)), null);
        assertTrue(js.contains("""
                  scenarios: {
                    load: {
                      executor: 'ramping-arrival-rate',
                      startRate: 1000, timeUnit: '1s',
                      preAllocatedVUs: 2500, maxVUs: 10000,
                      stages: [
                        { duration: '10000ms', target: 1000 },
                        { duration: '0ms', target: 5000 },
                        { duration: '10000ms', target: 5000 },
                        { duration: '0ms', target: 1000 },
                        { duration: '10000ms', target: 1000 },
                      ],
                      gracefulStop: '30000ms',
                    },
                  },
                """), js);
        assertFalse(js.contains("constant-arrival-rate"), js);
    }

    /** A ramp: one stage of its length to its rate; the last rate holds to the end of the hold. */
    @Test
    void aRampProfileIsOneStagePerRamp() {
        String js = K6Generator.script(profiled("200@0s,800@1s-2s,200@2s-2500ms", 4, Duration.ofSeconds(3)), null);
        assertTrue(js.contains("""
                      executor: 'ramping-arrival-rate',
                      startRate: 200, timeUnit: '1s',
                      preAllocatedVUs: 4, maxVUs: 4,
                      stages: [
                        { duration: '1000ms', target: 200 },
                        { duration: '1000ms', target: 800 },
                        { duration: '500ms', target: 200 },
                        { duration: '500ms', target: 200 },
                      ],
                """), js);
        assertTrue(K6Generator.script(profiled("1000@0s,5000@0s-10s", 10_000, Duration.ofSeconds(10)), null)
                .contains("stages: [\n        { duration: '10000ms', target: 5000 },\n      ],"), "a ramp from the start, to the hold's end");
        assertTrue(K6Generator.script(profiled("10.5@0s,20@1s", 100, Duration.ofSeconds(2)), null)
                .contains("startRate: 10500, timeUnit: '1000s',"), "a fractional rate anywhere: every rate per 1000 s");
        assertThrows(IllegalArgumentException.class, () -> profiled("1000@0s,5000@10s", 100, Duration.ofSeconds(5)), "the profile ends after the load");
    }

    @Test
    void commandPinsK6AndSizesItsGoRuntime() {
        LoadSpec s = new LoadSpec(SLEEP, Request.of("GET"), 5, 2, Duration.ofSeconds(5), Duration.ofSeconds(30), "1-2", Path.of("raw"), "row");
        List<String> cmd = K6Generator.command(Path.of("/bin/k6"), s, Path.of("raw/row.k6.js"), Path.of("raw/row.k6.csv"),
                Path.of("raw/row.k6.summary.json"));
        assertEquals(List.of("env", "GOMAXPROCS=2", "K6_CSV_TIME_FORMAT=unix_milli", "taskset", "-c", "1-2", "/bin/k6", "run", "--quiet", "--no-color",
                "--no-usage-report", "--out", "csv=raw/row.k6.csv", "--summary-export", "raw/row.k6.summary.json",
                "raw/row.k6.js"), cmd);
    }

    /**
     * k6 itself reads the scripts (inspect: their options, no load sent): the real k6 v1.8.1, the suite's one test of it.
     * k6 is AGPL-3.0 and opt-in (./vtlab setup k6): where it is not installed this test is skipped, never installs it,
     * and the suite's closing lines name the skip and why (SuiteReport.WATCHED).
     */
    @Test
    void k6AcceptsTheScripts() throws Exception {
        java.util.Optional<Path> found = Tools.K6.find();
        org.junit.jupiter.api.Assumptions.assumeTrue(found.isPresent(), "k6 " + K6Generator.VERSION + " is not installed (AGPL-3.0, opt-in:"
                + " ./vtlab setup k6 installs it)");
        Path k6 = found.get();
        assertEquals(K6Generator.VERSION, Tools.k6Version(k6), k6.toString());
        record Case(String js, String executor, int maxVUs) {}
        List<Case> cases = List.of(
                new Case(K6Generator.script(closed(5, Duration.ofMillis(300)), null), "constant-vus", 5),
                new Case(K6Generator.script(closed(5, Duration.ofSeconds(2)), Duration.ofSeconds(1)), "ramping-vus", 5),
                new Case(K6Generator.script(open(2500.5, 40, Duration.ofSeconds(2), Duration.ofSeconds(30)), null), "constant-arrival-rate", 40),
                new Case(K6Generator.script(profiled("100@0s,500@1s,100@2s-3s", 40, Duration.ofSeconds(3)), null), "ramping-arrival-rate", 40),
                // a scenario's weighted mix (MixScript), open model
                new Case(K6Generator.script(open(200, 30, Duration.ofSeconds(2), Duration.ofSeconds(30)).withMix(MixScriptTest.MIX), null), "constant-arrival-rate", 30),
                // open() of a binary body file in the init context, headers with quotes
                new Case(K6Generator.script(new LoadSpec(SLEEP, new Request("POST", List.of(new Request.Header("Content-Type", "a/b; x=\"1\"")),
                        Request.Body.of(new byte[] {0, (byte) 0xff, '\n', '\''})), 3, 1, Duration.ofSeconds(2), Duration.ofSeconds(30), "1", tmp, "row"),
                        null, Request.Body.of(new byte[] {0, (byte) 0xff, '\n', '\''}).file(tmp)), "constant-vus", 3));
        for (Case c : cases) {
            Path script = tmp.resolve(c.executor() + ".js");
            Files.writeString(script, c.js());
            Process p = new ProcessBuilder(k6.toString(), "inspect", "--execution-requirements", script.toString()).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), c.executor() + ": " + err);
            JsonNode n = new ObjectMapper().readTree(out);
            assertEquals(c.executor(), n.path("scenarios").path("load").path("executor").asText(), out);
            assertEquals(c.maxVUs(), n.path("maxVUs").asInt(), out);
        }
    }

    @Test
    void rampIsK6sAndClosedModelOnly() throws Exception {
        for (String other : List.of("wrk", "hey", "oha")) {
            UsageError e = assertThrows(UsageError.class, () -> Generators.configured(other, vtlab.cli.Main.parse(List.of("--ramp", "8s"))));
            assertEquals("--ramp is an option of generator k6, not of " + other + ": add --generator k6 or drop --ramp", e.getMessage());
        }
        UsageError open = assertThrows(UsageError.class, () -> Generators.configured("k6",
                vtlab.cli.Main.parse(List.of("--ramp", "8s", "--load-model", "open"))));
        assertTrue(open.getMessage().startsWith("--ramp ramps the closed model's VUs"), open.getMessage());
        assertThrows(UsageError.class, () -> Generators.configured("k6", vtlab.cli.Main.parse(List.of("--ramp", "0s"))));
        K6Generator k6 = (K6Generator) Generators.configured("k6", vtlab.cli.Main.parse(List.of("--ramp", "8s")));
        assertEquals(Duration.ofSeconds(8), k6.ramp());
        assertNull(((K6Generator) Generators.configured("k6", vtlab.cli.Main.parse(List.of()))).ramp());
        assertTrue(Generators.configured("wrk", vtlab.cli.Main.parse(List.of())) instanceof WrkGenerator);
    }

    @Test
    void runsBothModels() throws Exception {
        Generator k6 = Generators.byName("k6");
        assertEquals(java.util.EnumSet.of(LoadModel.CLOSED, LoadModel.OPEN), k6.models());
        assertTrue(Generators.options().stream().map(vtlab.core.Opt::name).toList().contains("ramp"));
    }
}
