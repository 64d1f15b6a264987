package vtlab.load.generator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.Secrets;
import vtlab.core.UsageError;
import vtlab.data.LatencyHistogram;
import vtlab.plan.PlanContext;
import vtlab.plan.RateProfile;
import vtlab.stack.Request;
import vtlab.tier.tool.Tools;
import vtlab.load.Generator;
import vtlab.load.LoadSpec;
import vtlab.load.LoadResult;
import vtlab.load.LoadSeries;
import vtlab.load.LoadModel;
import vtlab.load.ToolRun;

/**
 * k6 (Go, a JavaScript VU per connection), the seed rig's own generator: closed model with constant-vus (or the seed
 * rig's ramping-vus profile with --ramp), open model with constant-arrival-rate, or ramping-arrival-rate for a rate
 * profile (--rate-profile: the only generator here that follows one). It costs far more CPU per request
 * than wrk or oha (each VU runs the script in its own JS runtime), so it is the choice for reproducing the seed rig,
 * not for finding a SUT's ceiling on a shared 2-core machine.
 *
 * <p>Every request's http_req_duration comes from k6's CSV output (raw/STEM.k6.csv, gzipped by the lab once parsed),
 * which also carries each request's status and error code: requests, errors by kind, bytes and dropped iterations are
 * counted from the same records the histogram is made of. k6 writes the CSV uncompressed because its own gzip would
 * run on the load core during the hold; k6's --summary-export (raw/STEM.k6.summary.json) is kept as k6's own view and
 * checked against the CSV's request count.
 *
 * <p>Open-model latency: http_req_duration is the request's sending + waiting + receiving (k6's metric reference), so
 * it runs from the moment the request is actually sent, not from its iteration's scheduled start. The arrival-rate
 * executors start each iteration on schedule while a VU is free and drop it (dropped_iterations) when none is, so no
 * request waits unmeasured in a queue of k6's; the dropped ones are missing from the histogram instead (the row's
 * dropped column, see Validity). The same holds for ramping-arrival-rate, whose schedule follows the stages.
 */
public final class K6Generator implements Generator {
    /** From load agents: open-model rows, each agent its share (see {@link K6Agents}). */
    @Override
    public java.util.Optional<FromAgents> fromAgents() {
        return java.util.Optional.of(new FromAgents(java.util.EnumSet.of(LoadModel.OPEN), (run, agents) -> new K6Agents(this, run, agents)));
    }

    static final String VERSION = Tools.K6_VERSION;
    /** Open model: VUs allocated up front, per req/s of offered rate (k6 adds more, up to the cap, as they are needed). */
    static final double PREALLOCATED_SECONDS = 0.5;
    /** The hold's samples carry this VU tag under --ramp; the ramps' samples do not count. */
    static final String HOLD_TAG = "phase=hold";
    public static final Opt RAMP = Opt.of("ramp", null, "k6 only: the seed rig's ramping-vus profile, ramping up to --conc over this long (e.g. 8s)\n"
            + "before the hold and down after it; only the hold is measured (closed model)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private Path k6;
    private Duration ramp;

    @Override
    public String name() {
        return "k6";
    }

    @Override
    public String description() {
        return "k6 " + VERSION + " (Go, JS VUs), the seed rig's tool: closed (constant-vus, --ramp: ramping-vus) and open"
                + " (constant-arrival-rate, --rate-profile: ramping-arrival-rate; dropped iterations counted); AGPL-3.0, opt-in: built by the lab"
                + " (go install) only for --generator k6 or ./vtlab setup k6";
    }

    @Override
    public boolean followsRateProfile() {
        return true;
    }

    /**
     * Its CSV stamps each request with the clock's whole second (k6's default time format): every second's requests,
     * errors of every kind, and percentiles. Second 0 is the clock second of the first request counted, which may be
     * partial: k6's seconds are the wall clock's, not the hold's.
     */
    @Override
    public Set<LoadSeries.Kind> seriesKinds() {
        return EnumSet.allOf(LoadSeries.Kind.class);
    }

    @Override
    public Set<LoadModel> models() {
        return EnumSet.of(LoadModel.CLOSED, LoadModel.OPEN);
    }

    @Override
    public List<Opt> options() {
        return List.of(RAMP);
    }

    /**
     * --ramp is read here rather than carried on {@link LoadSpec}: it is k6's alone, and the runner never needs it
     * (the hold it measures is the same; the ramps are added around it).
     */
    @Override
    public Generator configure(Options o) throws UsageError {
        if (!RAMP.given(o)) return this;
        if (PlanContext.LOAD_MODEL.choice(o).equals("open") || PlanContext.RATE_PROFILE.given(o)) {
            throw new UsageError("--ramp ramps the closed model's VUs; an open run sends its --rates from the start: drop --ramp");
        }
        ramp = RAMP.duration(o, false);
        return this;
    }

    Duration ramp() {
        return ramp;
    }

    @Override
    public void ensureAvailable() throws UsageError {
        try {
            k6 = Tools.K6.get();
        } catch (IOException e) {
            throw new UsageError("k6 " + VERSION + " is needed for --generator k6 and could not be built: " + e.getMessage());
        }
    }

    /** The k6 binary found by {@link #ensureAvailable} (load agents copy it to their hosts). */
    Path binary() {
        return k6;
    }

    @Override
    public String version() {
        return k6 == null ? "k6 (not looked up: the run has no load rows)" : "k6 " + Tools.k6Version(k6) + " (" + k6 + ")";
    }

    /** Open model: VUs k6 allocates before the start, never above the in-flight cap. */
    static int preAllocated(double rate, int cap) {
        return (int) Math.min(cap, Math.max(1, Math.ceil(rate * PREALLOCATED_SECONDS)));
    }

    /** The script of a load whose request has no body. */
    static String script(LoadSpec s, Duration ramp) {
        return script(s, ramp, null);
    }

    /**
     * The k6 script for a load: the request, k6's options and its one scenario. ramp: null for none. The body is
     * bodyFile's bytes, read by k6's open() in the init context as binary (an ArrayBuffer, sent byte for byte); a
     * secret header's value comes from the environment (__ENV, {@link LoadSpec#headerEnv}), so the script kept in
     * raw/ does not hold it.
     */
    static String script(LoadSpec s, Duration ramp, Path bodyFile) {
        if (ramp != null && s.model() == LoadModel.OPEN) throw new IllegalArgumentException("--ramp is closed-model only");
        String timeout = s.timeout().toMillis() + "ms";
        StringBuilder js = new StringBuilder("import http from 'k6/http';\n");
        if (ramp != null || s.mix() != null) js.append("import exec from 'k6/execution';\n");
        if (s.mix() != null && ramp != null) throw new IllegalArgumentException("--ramp sends the one request, not a mix");
        if (s.mix() != null) js.append("\n").append(MixScript.js(s.mix(), base(s.url()), timeout)).append("\n");
        else appendRequest(js, s, bodyFile, timeout);
        js.append("export const options = {\n");
        js.append("  discardResponseBodies: true,\n"); // k6 reads them but keeps none: less CPU and memory per VU
        js.append("  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)'],\n");
        // only the tags the lab reads: every sample's tag set is built and written to the CSV
        js.append("  systemTags: ['status', 'error_code'],\n");
        js.append("  scenarios: {\n    load: {\n");
        String duration = hold(s, ramp != null).toMillis() + "ms";
        if (s.profile() != null) {
            rampingArrivalRate(js, s.profile(), s.connections(), hold(s, false));
        } else if (s.model() == LoadModel.OPEN) {
            double r = s.rate();
            // k6 takes whole iterations per time unit: a fractional rate is the same spacing per 1000 s
            boolean whole = r == Math.rint(r);
            js.append("      executor: 'constant-arrival-rate',\n");
            js.append("      rate: ").append(whole ? (long) r : Math.round(r * 1000)).append(", timeUnit: '").append(whole ? "1s" : "1000s").append("',\n");
            js.append("      duration: '").append(duration).append("',\n");
            js.append("      preAllocatedVUs: ").append(s.bursts() ? s.connections() : preAllocated(r, s.connections())).append(", maxVUs: ").append(s.connections()).append(",\n");
        } else if (ramp != null) {
            String up = ramp.toMillis() + "ms";
            js.append("      executor: 'ramping-vus',\n      startVUs: 0,\n      stages: [\n");
            js.append("        { duration: '").append(up).append("', target: ").append(s.connections()).append(" },\n");
            js.append("        { duration: '").append(duration).append("', target: ").append(s.connections()).append(" },\n");
            js.append("        { duration: '").append(up).append("', target: 0 },\n      ],\n");
            js.append("      gracefulRampDown: '").append(timeout).append("',\n");
        } else {
            js.append("      executor: 'constant-vus',\n");
            js.append("      vus: ").append(s.connections()).append(", duration: '").append(duration).append("',\n");
        }
        // a request under way when the scenario ends is waited for up to the request timeout, as wrk and oha do
        js.append("      gracefulStop: '").append(timeout).append("',\n    },\n  },\n};\n\n");
        if (ramp != null) {
            // the VU's tag marks every sample of an iteration begun in the hold; set only when the phase changes
            js.append("const HOLD_FROM_MS = ").append(ramp.toMillis()).append(", HOLD_TO_MS = ")
                    .append(ramp.plus(s.duration()).toMillis()).append(";\nlet phase = '';\n\n");
            js.append("""
                    export default function () {
                      const t = exec.instance.currentTestRunDuration;
                      const now = t >= HOLD_FROM_MS && t < HOLD_TO_MS ? 'hold' : 'ramp';
                      if (now !== phase) {
                        exec.vu.metrics.tags.phase = now;
                        phase = now;
                      }
                      http.request(METHOD, URL, BODY, PARAMS);
                    }
                    """);
        } else {
            if (s.mix() == null) js.append("export default function () {\n  http.request(METHOD, URL, BODY, PARAMS);\n}\n");
        }
        return js.toString();
    }

    /** The one request as constants: its URL, method, body (bodyFile's bytes) and params (timeout, headers). */
    private static void appendRequest(StringBuilder js, LoadSpec s, Path bodyFile, String timeout) {
        js.append("\nconst URL = ").append(MixScript.jsString(s.url().toString())).append(";\n");
        Request req = s.request();
        if (req.body() != null && bodyFile == null) throw new IllegalArgumentException("a request with a body needs its file");
        js.append("const METHOD = ").append(MixScript.jsString(req.method())).append(";\n");
        js.append("const BODY = ").append(req.body() == null ? "null" : "open(" + MixScript.jsString(bodyFile.toString()) + ", 'b')").append(";\n");
        js.append("const PARAMS = { timeout: '").append(timeout).append("'");
        if (!req.headers().isEmpty()) {
            List<String> headers = new java.util.ArrayList<>();
            for (int i = 0; i < req.headers().size(); i++) {
                Request.Header h = req.headers().get(i);
                headers.add(MixScript.jsString(h.name()) + ": " + (Secrets.secretHeader(h.name()) ? "__ENV." + LoadSpec.headerEnv(i) : MixScript.jsString(h.value())));
            }
            js.append(", headers: { ").append(String.join(", ", headers)).append(" }");
        }
        js.append(" };\n\n");
    }

    /** The SUT's scheme, host and port: a mix's paths are sent there. */
    static String base(java.net.URI url) {
        return url.getScheme() + "://" + url.getRawAuthority();
    }

    /** Through its script (see {@link MixScript}), each request tagged with its name. */
    @Override
    public boolean sendsMix() {
        return true;
    }

    /**
     * A rate profile as ramping-arrival-rate: startRate the first rate, then one stage per straight piece of the
     * profile up to the end of the hold. A ramp is one stage of its length to its rate; a step is a stage of 0 ms to
     * the new rate, then a stage holding it: k6 refuses only negative stage durations, and its schedule adds a stage's
     * area (its length x its mean rate) to the iterations due, so a 0 ms stage starts none and the next stage runs
     * from the new rate (lib/executor/ramping_arrival_rate.go, cal). Rates per 1 s, or per 1000 s when one has a
     * fraction (k6 takes whole iterations per time unit); VUs allocated up front for half a second of the peak.
     */
    static void rampingArrivalRate(StringBuilder js, RateProfile p, int cap, Duration end) {
        List<RateProfile.Knot> knots = new java.util.ArrayList<>(p.knots());
        knots.add(new RateProfile.Knot(end, knots.getLast().rate()));
        boolean whole = knots.stream().allMatch(k -> k.rate() == Math.rint(k.rate()));
        java.util.function.DoubleFunction<Long> perUnit = r -> whole ? (long) r : Math.round(r * 1000);
        js.append("      executor: 'ramping-arrival-rate',\n");
        js.append("      startRate: ").append(perUnit.apply(knots.getFirst().rate())).append(", timeUnit: '").append(whole ? "1s" : "1000s").append("',\n");
        js.append("      preAllocatedVUs: ").append(preAllocated(p.peakRate(), cap)).append(", maxVUs: ").append(cap).append(",\n");
        js.append("      stages: [\n");
        for (int i = 1; i < knots.size(); i++) {
            RateProfile.Knot a = knots.get(i - 1), b = knots.get(i);
            Duration d = b.at().minus(a.at());
            if (d.isNegative()) throw new IllegalArgumentException("the rate profile " + p + " ends after the load");
            if (d.isZero() && a.rate() == b.rate()) continue; // nothing changes there
            js.append("        { duration: '").append(d.toMillis()).append("ms', target: ").append(perUnit.apply(b.rate())).append(" },\n");
        }
        js.append("      ],\n");
    }

    /** The measured hold: k6 refuses a constant-vus or constant-arrival-rate scenario under 1 s (a ramp's stages it takes). */
    static Duration hold(LoadSpec s, boolean ramped) {
        Duration min = Duration.ofSeconds(1);
        return ramped || s.duration().compareTo(min) >= 0 ? s.duration() : min;
    }


    @Override
    public RunningLoad start(LoadSpec s) throws IOException {
        Files.createDirectories(s.rawDir());
        boolean ramped = ramp != null && s.model() == LoadModel.CLOSED;
        Path script = s.rawDir().resolve(s.stem() + ".k6.js");
        Request.Body body = s.request().body();
        Files.writeString(script, script(s, ramped ? ramp : null, body == null ? null : body.file(s.rawDir())));
        Path csv = s.rawDir().resolve(s.stem() + ".k6.csv");
        Path summary = s.rawDir().resolve(s.stem() + ".k6.summary.json");
        Path hlog = s.rawDir().resolve(s.stem() + ".k6.hlog");
        for (Path stale : List.of(csv, gz(csv), summary)) Files.deleteIfExists(stale);
        double holdS = hold(s, ramped).toMillis() / 1000.0;
        boolean open = s.model() == LoadModel.OPEN;
        List<String> cmd = command(k6, s, script, csv, summary);
        long startMs = System.currentTimeMillis(); // the hold's clock: the runner times faults and probes from this moment too
        return new ToolRun("k6", cmd, cmd, s.secretHeaderEnv(), s.rawDir(), s.stem(), (text, raw) -> {
            LoadResult r = parse(text, raw, csv, summary, hlog, holdS, ramped, open, startMs);
            try {
                gzip(csv);
            } catch (IOException e) {
                throw new LoadException("cannot compress " + csv + ": " + e.getMessage());
            }
            return r;
        });
    }

    /**
     * k6 on the load CPUs with as many Go threads (GOMAXPROCS); no progress bar, colours or usage report; every sample
     * to the CSV, k6's own summary to JSON.
     */
    static List<String> command(Path k6, LoadSpec s, Path script, Path csv, Path summary) {
        // millisecond timestamps: a second of the series is a second of the hold, not of the wall clock (k6's default)
        return List.of("env", "GOMAXPROCS=" + Math.max(1, s.threads()), "K6_CSV_TIME_FORMAT=unix_milli", "taskset", "-c", s.cpus(),
                k6.toString(), "run", "--quiet", "--no-color", "--no-usage-report",
                "--out", "csv=" + csv, "--summary-export", summary.toString(), script.toString());
    }

    /** A record's second: of the hold when k6's start is known, else of the clock (stamps in s, or ms past 1973). */
    static long second(long stamp, Long startMs, boolean ramped) {
        long ms = stamp > 100_000_000_000L ? stamp : stamp * 1000;
        return startMs != null && !ramped ? Math.floorDiv(ms - startMs, 1000) : Math.floorDiv(ms, 1000);
    }

    /**
     * k6's error codes (lib/netext/httpext/error_codes.go): 1050 request timeout; 11xx DNS and 121x dial (refused, dial
     * timeout) never reached the server; 1201 broken pipe failed writing; the rest (1000, 1220 reset by peer, ...)
     * broke while reading. An answer with status 400 or more is an answer and a status error.
     */
    static Outcome outcome(int status, int errorCode) {
        if (status >= 400) return Outcome.STATUS;
        if (status > 0) return Outcome.ANSWERED;
        if (errorCode == 1050) return Outcome.TIMEOUT;
        if ((errorCode >= 1100 && errorCode < 1200) || (errorCode >= 1210 && errorCode < 1220)) return Outcome.CONNECT;
        if (errorCode == 1201) return Outcome.WRITE;
        return Outcome.READ;
    }

    /**
     * k6's CSV (plain or .gz) into a result, the answered requests' durations written to hlog. ramped: only samples
     * tagged {@link #HOLD_TAG} count; open: dropped_iterations counted (null for a closed load, which drops none).
     */
    static LoadResult parse(String text, Path raw, Path csv, Path summary, Path hlog, double holdS, boolean ramped,
                            boolean open) throws LoadException {
        return parse(text, raw, csv, summary, hlog, holdS, ramped, open, null);
    }

    /**
     * @param startMs when k6 was started (epoch ms): with millisecond timestamps each record falls in the second of the
     *                hold it ended in, the seconds the faults and probes are timed in (k6's start-up, its first
     *                fraction of a second, then has no record, as it sent nothing). Null, a --ramp run (its hold begins
     *                after the ramp) or whole-second stamps: seconds of the clock from the first record's on.
     */
    static LoadResult parse(String text, Path raw, Path csv, Path summary, Path hlog, double holdS, boolean ramped,
                            boolean open, Long startMs) throws LoadException {
        Path file = Files.isRegularFile(csv) ? csv : gz(csv);
        if (!Files.isRegularFile(file)) throw new LoadException("k6 wrote no CSV " + csv + ": " + ToolRun.lastLines(text, 3));
        Histogram h = LatencyHistogram.empty();
        LoadSeries.Builder perSecond = new LoadSeries.Builder(EnumSet.allOf(LoadSeries.Kind.class), holdS);
        long answered = 0, status = 0, timeout = 0, connect = 0, write = 0, read = 0, bytes = 0, dropped = 0, all = 0;
        try (BufferedReader in = reader(file)) {
            String header = in.readLine();
            if (header == null) throw new LoadException("k6's CSV " + file + " is empty: " + ToolRun.lastLines(text, 3));
            List<String> cols = List.of(header.split(",", -1));
            int name = cols.indexOf("metric_name"), value = cols.indexOf("metric_value"), st = cols.indexOf("status"),
                    code = cols.indexOf("error_code"), tags = cols.indexOf("extra_tags"), time = cols.indexOf("timestamp");
            if (name < 0 || value < 0 || st < 0 || code < 0 || tags < 0 || time < 0) {
                throw new LoadException("k6's CSV " + file + " lacks timestamp/status/error_code/extra_tags columns: " + header);
            }
            String line;
            while ((line = in.readLine()) != null) {
                // no field the script makes holds a comma or a quote (the URL and method are not among the tags)
                String[] f = line.split(",", -1);
                String metric = f[name];
                boolean http = metric.equals("http_req_duration");
                if (http) all++;
                if (ramped && !f[tags].contains(HOLD_TAG)) continue;
                switch (metric) {
                    case "http_req_duration" -> {
                        Outcome o = outcome(f[st].isEmpty() ? 0 : Integer.parseInt(f[st]), f[code].isEmpty() ? 0 : Integer.parseInt(f[code]));
                        double latencyS = Double.parseDouble(f[value]) / 1000; // k6: milliseconds
                        boolean got = o == Outcome.ANSWERED || o == Outcome.STATUS;
                        long second = second(Long.parseLong(f[time]), startMs, ramped);
                        perSecond.addAt(second, got, o != Outcome.ANSWERED, latencyS);
                        if (o != Outcome.ANSWERED) perSecond.errorAt(second, o.series);
                        switch (o) {
                            case ANSWERED, STATUS -> {
                                answered++;
                                if (o == Outcome.STATUS) status++;
                                LatencyHistogram.recordSeconds(h, latencyS);
                            }
                            case TIMEOUT -> timeout++;
                            case CONNECT -> connect++;
                            case WRITE -> write++;
                            case READ -> read++;
                        }
                    }
                    case "data_received" -> bytes += (long) Double.parseDouble(f[value]);
                    case "dropped_iterations" -> dropped += (long) Double.parseDouble(f[value]);
                    // active VUs, sampled by k6 about once a second: one request each, so what it has in flight
                    case "vus" -> perSecond.levelAt(second(Long.parseLong(f[time]), startMs, ramped), LoadSeries.Kind.IN_FLIGHT, Double.parseDouble(f[value]));
                    default -> { }
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new LoadException("cannot read k6's CSV " + file + ": " + e.getMessage());
        }
        checkAgainstSummary(summary, all);
        Long first = perSecond.first();
        if (startMs != null && !ramped) first = 0L; // seconds of the hold already
        return LoadResult.fromHistogram(h, hlog, answered, holdS, connect, read, write, timeout, status, bytes, raw,
                open ? dropped : null, first == null ? perSecond.build() : perSecond.build(first));
    }

    /** k6's own request count must be the CSV's: fewer records would mean a truncated CSV, and a wrong histogram. */
    private static void checkAgainstSummary(Path summary, long csvRequests) throws LoadException {
        if (!Files.isRegularFile(summary)) throw new LoadException("k6 wrote no summary " + summary);
        JsonNode n;
        try {
            n = JSON.readTree(summary.toFile());
        } catch (IOException e) {
            throw new LoadException("k6's summary " + summary + " is not JSON: " + e.getMessage());
        }
        long k6Requests = n.path("metrics").path("http_reqs").path("count").asLong(0);
        if (k6Requests != csvRequests) {
            throw new LoadException(String.format(Locale.ROOT, "k6 counted %d requests but its CSV holds %d: the CSV is incomplete", k6Requests, csvRequests));
        }
    }

    private static BufferedReader reader(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        if (file.getFileName().toString().endsWith(".gz")) in = new GZIPInputStream(in, 1 << 16);
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    static Path gz(Path csv) {
        return csv.resolveSibling(csv.getFileName() + ".gz");
    }

    /**
     * The CSV gzipped beside itself and the plain file removed: about 12 records a request (k6 writes every built-in
     * metric) make ~100 MB a minute at 2,000 req/s. Fastest level: this runs between rows, the next one waits for it.
     */
    static Path gzip(Path csv) throws IOException {
        if (!Files.isRegularFile(csv)) return gz(csv);
        Path out = gz(csv);
        try (InputStream in = Files.newInputStream(csv);
             OutputStream o = new GZIPOutputStream(Files.newOutputStream(out), 1 << 16) {
                 {
                     def.setLevel(Deflater.BEST_SPEED);
                 }
             }) {
            in.transferTo(o);
        }
        Files.delete(csv);
        return out;
    }
}
