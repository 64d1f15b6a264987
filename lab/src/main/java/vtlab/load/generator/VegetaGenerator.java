package vtlab.load.generator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import vtlab.core.Secrets;
import vtlab.core.UsageError;
import vtlab.data.LatencyHistogram;
import vtlab.plan.RateProfile;
import vtlab.stack.Mix;
import vtlab.stack.Params;
import vtlab.stack.Request;
import vtlab.tier.tool.Tools;
import vtlab.load.Generator;
import vtlab.load.LoadSpec;
import vtlab.load.LoadResult;
import vtlab.load.LoadSeries;
import vtlab.load.LoadModel;
import vtlab.load.ToolRun;

/**
 * vegeta (Go, MIT), the open model's generator wherever a load needs more than one constant rate of one request: rate
 * profiles (spikes, ramps), weighted mixes and faults, whose seconds it tells apart by error kind. One vegeta attack
 * sends one constant rate ({@code -rate}) of the requests of its targets file ({@code -format=json}) for a duration;
 * a load here is a few attacks run side by side ({@link Attacker}), each with its own name, rate and window of the
 * hold, all started by one shell script (raw/STEM.vegeta.sh) on the load CPUs:
 *
 * <ul>
 * <li><b>Rate profile: superposed attackers, not consecutive ones.</b> The profile is cut into constant pieces (a ramp
 * into {@link #RAMP_STEP} steps at their mean rate) and stacked into layers ({@link #layers}): a base attacker at the
 * lowest rate for the whole hold and, for a spike, a second one at (peak - base) for the spike's window, started by the
 * script after a sleep. Consecutive attacks would put a gap at every step: vegeta waits for its requests in flight
 * before it exits, so under a slow SUT the next attack would start up to a timeout late, and the base load's
 * connections would be closed and opened again at each step. Superposed, the base schedule never pauses; the spike's
 * attacker opens connections of its own, as new clients of a real spike do.</li>
 * <li><b>Weighted mix: superposed attackers at rate x share</b>, one per request of the mix, each named after its
 * request (vegeta's attack name: every result carries it, so each request's latency and errors are its own), its
 * targets file that request with its placeholders drawn up front (up to {@link #MAX_TARGETS} lines, as many as the
 * attacker sends, sent in turn). Each request keeps its exact share of the arrivals over every second.</li>
 * <li><b>Latency from the scheduled send.</b> vegeta's ConstantPacer schedules hit n (0-based) at began + (n+1) x
 * interval (lib/pacer.go; interval = the rate's period / frequency in whole ns) and sends a late one at once; every
 * result carries its seq and the time it was actually sent (lib/attack.go hit()). The row's latency of each request
 * is vegeta's own (from the send) plus how late the send was ({@link #scheduleOrigin}), so a stall shows in every
 * request due during it (no coordinated omission), as oha's --latency-correction does. Each attacker gets
 * {@code -max-workers} its share of the in-flight cap where its share is largest ({@link #attackers}) and
 * {@code -workers} half a second of its arrivals (all of them
 * when the row expects bursts: a fault), so sends are late only when the cap is full. What was due in the hold but
 * never sent (the cap full until the end) is the row's {@link LoadResult#dropped()}.</li>
 * <li><b>Errors by kind</b> from each result's status and error text ({@link #outcome}), the per-second series and
 * the histogram from the per-request results that {@code vegeta encode --to json} prints (raw/STEM.vegeta.N.bin,
 * vegeta's own format, kept).</li>
 * <li><b>Closed model: one attacker, {@code -rate=0 -workers=N -max-workers=N}</b> ({@link #closed}). With no pacing
 * (vegeta's attack refuses -rate=0 without -max-workers) each of the N workers, all started up front, takes the next
 * target as soon as its answer arrives: N requests in flight, each connection's next sent when its answer is in, as
 * wrk's connections do. A mix is one targets file in the smooth weighted round robin's order ({@link #cycleTargets}:
 * whole cycles of the total weight, values drawn per line), read in turn by every worker through vegeta's one shared
 * targeter, so the sends hold the weights exactly whatever each request's latency; each target's URL carries its
 * request's index as a fragment ({@code #r2}), which Go's client never sends (a request line holds the path and query
 * only) and vegeta copies into every result ({@code url}), so the results split by request exactly ({@link #requestOf}),
 * two requests on one path and query too. One attacker per request with workers in proportion to the weights would
 * not hold the mix in a closed model: each attacker's throughput is its workers over its own latency, so a slow
 * request would get fewer sends than its weight. Latency is vegeta's own, from the send (a closed model has no
 * schedule to be late to; wrk's histogram, unlike it, adds wrk's coordinated-omission correction).</li>
 * </ul>
 */
public final class VegetaGenerator implements Generator {
    static final String VERSION = Tools.VEGETA_VERSION;
    /** Workers started up front, per req/s of an attacker's rate (vegeta adds more, up to its max, as they are needed). */
    static final double PREALLOCATED_SECONDS = 0.5;
    /** A ramp of a rate profile is sent as steps of this length, each at the ramp's mean over it. */
    static final Duration RAMP_STEP = Duration.ofSeconds(1);
    /** Lines of a mix request's targets file at most (its placeholders drawn up front; vegeta sends the lines in turn). */
    static final int MAX_TARGETS = 20_000;
    /** Attackers of one load at most (layers x requests of the mix): each is a process on the load CPUs. */
    static final int MAX_ATTACKERS = 64;
    /** Attackers of one load sent one after another (a step each, {@link #pieceAttackers}): a process each, two or three at once. */
    static final int MAX_PIECES = 3_600;
    /** The entry of the closed model's one attacker of a mix: every request of the mix, in its cycle's order. */
    static final int CYCLE = -2;
    /** A closed-model mix target's URL ends with this and its request's index: a fragment, never sent. */
    static final String FRAGMENT = "#r";
    /** A send later than this after its scheduled time is counted as late in raw/STEM.vegeta.txt. */
    static final long LATE_NS = 10_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private Path vegeta;

    @Override
    public String name() {
        return "vegeta";
    }

    @Override
    public String description() {
        return "vegeta " + VERSION + " (Go, MIT), open model: --rates, --rate-profile (superposed attackers) and scenario mixes (an"
                + " attacker per request); latency from the scheduled send, errors by kind per second; closed model (-rate=0, --conc"
                + " workers): a mix's requests apart by their targets' marks; built by the lab on first use (go install)";
    }

    /** Open (constant rates, profiles), and closed: -rate=0 with --conc workers ({@link #closed}). */
    @Override
    public Set<LoadModel> models() {
        return EnumSet.of(LoadModel.OPEN, LoadModel.CLOSED);
    }

    @Override
    public boolean followsRateProfile() {
        return true;
    }

    @Override
    public boolean sendsMix() {
        return true;
    }

    /** Per-request results with send time, latency, status and error: every second's requests, errors by kind, percentiles, in flight. */
    @Override
    public Set<LoadSeries.Kind> seriesKinds() {
        return EnumSet.allOf(LoadSeries.Kind.class);
    }

    /**
     * A mix's requests apart too (LoadResult.ByRequest): open, each request is its own attacker, so its results are its
     * own; closed, each result's URL names its request ({@link #requestOf}).
     */
    @Override
    public List<vtlab.data.Column> columns() {
        List<vtlab.data.Column> all = new ArrayList<>(LoadResult.COLUMNS);
        all.addAll(LoadResult.BY_REQUEST_COLUMNS);
        return all;
    }

    /** From load agents: open-model rows, each agent every attacker at rate/n (see {@link VegetaAgents}). */
    @Override
    public java.util.Optional<FromAgents> fromAgents() {
        return java.util.Optional.of(new FromAgents(EnumSet.of(LoadModel.OPEN), (run, agents) -> new VegetaAgents(this, run, agents)));
    }

    @Override
    public void ensureAvailable() throws UsageError {
        try {
            vegeta = Tools.VEGETA.get();
        } catch (IOException e) {
            throw new UsageError("vegeta " + VERSION + " is needed for this open-model load and could not be built: " + e.getMessage());
        }
    }

    /** The vegeta binary found by {@link #ensureAvailable} (load agents copy it to their hosts; their results are encoded here). */
    Path binary() {
        return vegeta;
    }

    @Override
    public String version() {
        return vegeta == null ? "vegeta (not looked up: the run has no load rows)" : "vegeta " + Tools.VEGETA.versionAt(vegeta) + " (" + vegeta + ")";
    }

    /**
     * One vegeta attack of a load: a constant rate of one request of the mix (entry; -1: the load's one request) over
     * [fromMs, fromMs + lengthMs) of the hold, with at most maxWorkers requests in flight, workers of them started up
     * front.
     */
    record Attacker(int index, String name, int entry, double rate, long fromMs, long lengthMs, int maxWorkers, int workers) {
        /**
         * vegeta's -rate: whole requests per second, or per 1000 s when the rate has a fraction (vegeta takes a whole
         * frequency); 0 for the closed model (no pacing: each worker sends when its answer is in).
         */
        String rateFlag() {
            if (closed()) return "0";
            return whole() ? (long) rate + "/1s" : Math.round(rate * 1000) + "/1000s";
        }

        /** The closed model's attacker: no rate, its workers its connections. */
        boolean closed() {
            return rate == 0;
        }

        private boolean whole() {
            return rate == Math.rint(rate);
        }

        /** The pacer's interval between hits, in ns, as vegeta computes it (the period's ns / the frequency, whole). */
        long intervalNs() {
            return whole() ? 1_000_000_000L / (long) rate : 1_000_000_000_000L / Math.round(rate * 1000);
        }

        /** Hits the pacer schedules within the attack's duration: n + 1 intervals after its start, up to its end (closed: none due). */
        long due() {
            return closed() ? 0 : lengthMs * 1_000_000L / intervalNs();
        }
    }

    /** A constant rate over [fromMs, toMs) of the hold. */
    record Layer(double rate, long fromMs, long toMs) {}

    /** The load's offered rate as constant pieces over the hold: one for a constant rate; a profile's steps and ramps cut into steps. */
    static List<Layer> pieces(LoadSpec s) {
        long holdMs = s.duration().toMillis();
        if (s.profile() == null) return List.of(new Layer(s.rate(), 0, holdMs));
        RateProfile p = s.profile();
        List<RateProfile.Knot> knots = new ArrayList<>(p.knots());
        knots.add(new RateProfile.Knot(s.duration(), knots.getLast().rate()));
        List<Layer> out = new ArrayList<>();
        for (int i = 1; i < knots.size(); i++) {
            RateProfile.Knot a = knots.get(i - 1), b = knots.get(i);
            long from = Math.min(a.at().toMillis(), holdMs), to = Math.min(b.at().toMillis(), holdMs);
            if (to <= from) continue;
            if (a.rate() == b.rate()) {
                out.add(new Layer(a.rate(), from, to));
                continue;
            }
            long step = RAMP_STEP.toMillis();
            for (long t = from; t < to; t += step) {
                long e = Math.min(to, t + step);
                double mean = (p.rateAt(t / 1000.0) + p.rateAt(e / 1000.0)) / 2; // linear: the mean of its ends
                out.add(new Layer(Math.round(mean * 1000) / 1000.0, t, e));
            }
        }
        // a piece at the rate of the one before it continues it
        List<Layer> merged = new ArrayList<>();
        for (Layer l : out) {
            if (!merged.isEmpty() && merged.getLast().rate() == l.rate() && merged.getLast().toMs() == l.fromMs()) {
                merged.set(merged.size() - 1, new Layer(l.rate(), merged.getLast().fromMs(), l.toMs()));
            } else {
                merged.add(l);
            }
        }
        return merged;
    }

    /**
     * Constant pieces stacked into superposed layers: for each rate level, from the lowest up, a layer of (level - the
     * level below) over every run of pieces at or above it. 200, 1000 at 10 s, 200 at 20 s: 200 over the whole hold
     * and 800 over [10 s, 20 s). The layers' rates add up to the profile's at every moment.
     */
    static List<Layer> layers(List<Layer> pieces) {
        TreeSet<Double> levels = new TreeSet<>();
        for (Layer p : pieces) if (p.rate() > 0) levels.add(p.rate());
        List<Layer> out = new ArrayList<>();
        double below = 0;
        for (double level : levels) {
            double rate = Math.round((level - below) * 1000) / 1000.0;
            Long from = null;
            long to = 0;
            for (Layer p : pieces) {
                boolean in = p.rate() >= level;
                if (in && from != null && p.fromMs() != to) { // a gap in the pieces ends the run
                    out.add(new Layer(rate, from, to));
                    from = null;
                }
                if (in) {
                    if (from == null) from = p.fromMs();
                    to = p.toMs();
                } else if (from != null) {
                    out.add(new Layer(rate, from, to));
                    from = null;
                }
            }
            if (from != null) out.add(new Layer(rate, from, to));
            below = level;
        }
        return out;
    }

    /**
     * The load's attackers: every layer of its rate, and within a layer every request of the mix at its share of the
     * layer's rate. Each gets the in-flight cap's share of its rate where that share is largest: its rate over the
     * lowest total rate offered in its window. A mix's attackers split the cap by weight; a spike's base attacker gets
     * the whole cap, since it runs alone after the spike, when the backlog the spike left is its own (k6's one pool of
     * VUs lets it; split by the peak, 200 of 1,000 req/s would leave it a fifth of the cap: at a 6.8 s p99 after a
     * spike, 1,360 due in flight against 800). While the spike lasts, base and spike together may hold more than the
     * cap, at most by the spike's share: vegeta's attackers are processes that share no worker pool.
     */
    static List<Attacker> attackers(LoadSpec s) {
        List<Layer> layers = layers(pieces(s));
        if (s.mix() != null && s.profile() != null && layers.size() * s.mix().entries().size() > MAX_ATTACKERS) return pieceAttackers(s);
        double peak = s.profile() == null ? s.rate() : pieces(s).stream().mapToDouble(Layer::rate).max().orElse(s.rate());
        Mix mix = s.mix();
        List<Attacker> out = new ArrayList<>();
        List<Layer> pieces = pieces(s);
        for (Layer l : layers) {
            double lowest = pieces.stream().filter(p -> p.fromMs() < l.toMs() && p.toMs() > l.fromMs()).mapToDouble(Layer::rate).min().orElse(peak);
            int entries = mix == null ? 1 : mix.entries().size();
            for (int e = 0; e < entries; e++) {
                double share = mix == null ? 1 : (double) mix.entries().get(e).weight() / mix.totalWeight();
                double rate = Math.round(l.rate() * share * 1000) / 1000.0;
                if (rate <= 0) continue;
                int max = (int) Math.min(s.connections(), Math.max(1, Math.ceil(s.connections() * rate / lowest)));
                int workers = s.bursts() ? max : (int) Math.min(max, Math.max(1, Math.ceil(rate * PREALLOCATED_SECONDS)));
                String name = mix == null ? "load" : mix.entries().get(e).name();
                Attacker a = new Attacker(out.size(), name, mix == null ? -1 : e, rate, l.fromMs(), l.toMs() - l.fromMs(), max, workers);
                // one due nothing in its window is left out: vegeta would sleep out its first interval (a request at 0.5%
                // of 2 req/s: 100 s) before it sees its duration is over, holding the load that long
                if (a.due() > 0) out.add(a);
            }
        }
        if (out.size() > MAX_ATTACKERS) {
            throw new IllegalArgumentException("this load needs " + out.size() + " vegeta attackers (rate levels x requests), at most "
                    + MAX_ATTACKERS + ": fewer ramps or steps in --rate-profile");
        }
        return out;
    }

    /**
     * A mix under a profile of many steps (an access log replayed at its logged pace: a step per second of its time),
     * which superposed layers x requests would need more than {@link #MAX_ATTACKERS} processes for: one attacker per
     * constant piece, started by the script at the piece's time (not after the one before ends: no gap at a step) at
     * the piece's rate, each sending the mix's weighted cycle with its requests marked ({@link #cycleTargets}: the
     * results split by request as the closed model's do), so that at most two or three run at once. Each piece opens
     * connections of its own and reads the cycle from its start, so the values repeat from one piece to the next; the
     * replay's fidelity (the values' KS distance) says how much that matters. Pieces that send nothing are left out.
     */
    static List<Attacker> pieceAttackers(LoadSpec s) {
        List<Attacker> out = new ArrayList<>();
        for (Layer p : pieces(s)) {
            int max = Math.max(1, s.connections());
            int workers = s.bursts() ? max : (int) Math.min(max, Math.max(1, Math.ceil(p.rate() * PREALLOCATED_SECONDS)));
            Attacker a = new Attacker(out.size(), "mix", CYCLE, p.rate(), p.fromMs(), p.toMs() - p.fromMs(), max, workers);
            if (a.due() > 0) out.add(a);
        }
        if (out.size() > MAX_PIECES) {
            throw new IllegalArgumentException("this load needs " + out.size() + " vegeta attackers (a step each), at most " + MAX_PIECES
                    + ": a shorter hold, a --speedup, or the log's rate profile of 20 steps");
        }
        return out;
    }

    /**
     * The closed model's one attacker: the load's request, or every request of its mix in the cycle's order
     * ({@link #CYCLE}), over the whole hold with the connections as its workers, all started up front (-workers = -max-workers).
     */
    static Attacker closed(LoadSpec s) {
        int n = Math.max(1, s.connections());
        return new Attacker(0, s.mix() == null ? "load" : "mix", s.mix() == null ? -1 : CYCLE, 0, 0, s.duration().toMillis(), n, n);
    }

    /**
     * One cycle of the smooth weighted round robin (nginx's, as the wrk and k6 scripts choose: every entry gains its
     * weight, the one ahead is sent and loses the total): the entries' indexes in sending order, each as often as its
     * weight.
     */
    static int[] cycle(Mix mix) {
        int total = mix.totalWeight(), n = mix.entries().size();
        int[] current = new int[n], out = new int[total];
        for (int k = 0; k < total; k++) {
            int best = 0;
            for (int i = 0; i < n; i++) {
                current[i] += mix.entries().get(i).weight();
                if (current[i] > current[best]) best = i;
            }
            current[best] -= total;
            out[k] = best;
        }
        return out;
    }

    /**
     * The closed model's targets file of a mix: whole cycles ({@link #cycle}) up to {@link #MAX_TARGETS} lines (one
     * cycle when the mix has no placeholder, or when a cycle is longer), each request with its values drawn and its
     * index as the URL's fragment ({@link #FRAGMENT}), which vegeta keeps in the result and Go's client never sends.
     */
    static String cycleTargets(LoadSpec s, Random random, boolean mask) {
        return cycleTargets(s, random, mask, 0);
    }

    /** As above; sends: the requests the attacker is due (0: the closed model's, as many as it gets), whole cycles enough for them. */
    static String cycleTargets(LoadSpec s, Random random, boolean mask, long sends) {
        Mix mix = s.mix();
        int[] cycle = cycle(mix);
        boolean drawn = mix.entries().stream().anyMatch(e -> !e.placeholders().isEmpty());
        long most = Math.max(1, MAX_TARGETS / cycle.length);
        long cycles = !drawn ? 1 : sends > 0 ? Math.min(most, (sends + cycle.length - 1) / cycle.length) : most;
        String base = K6Generator.base(s.url());
        StringBuilder out = new StringBuilder();
        for (long c = 0; c < cycles; c++) {
            for (int i : cycle) {
                Mix.Entry e = mix.entries().get(i);
                Params values = draw(mix, random, mask);
                String body = e.bodyWith(values);
                out.append(target(e.method(), base + e.pathWith(values) + FRAGMENT + i, e.headers(),
                        body == null ? null : body.getBytes(StandardCharsets.UTF_8), mask)).append('\n');
            }
        }
        return out.toString();
    }

    /** The request index a closed-model mix result's URL names (its fragment); -1 when it names none. */
    static int requestOf(String url) {
        int at = url == null ? -1 : url.lastIndexOf(FRAGMENT);
        if (at < 0) return -1;
        try {
            return Integer.parseInt(url.substring(at + FRAGMENT.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * A request as a line of vegeta's JSON targets format: method, URL, headers (a secret one's value masked where the
     * file is kept in raw/) and the body in base64.
     */
    static String target(String method, String url, List<Request.Header> headers, byte[] body, boolean mask) {
        ObjectNode t = JSON.createObjectNode().put("method", method).put("url", url);
        if (!headers.isEmpty()) {
            ObjectNode h = t.putObject("header");
            for (Request.Header x : headers) {
                ArrayNode values = h.has(x.name()) ? (ArrayNode) h.get(x.name()) : h.putArray(x.name());
                values.add(mask && Secrets.secretHeader(x.name()) ? Secrets.MASK : x.value());
            }
        }
        if (body != null) t.put("body", Base64.getEncoder().encodeToString(body));
        return t.toString();
    }

    /**
     * Targets file of entry (-1: the load's one request): one line, or for a mix request with placeholders one line per
     * request it sends (at most {@link #MAX_TARGETS}), each with its values drawn as wrk's and k6's scripts draw them
     * (a range uniformly, a CSV file's row uniformly, every column of that file from that row).
     */
    static String targets(LoadSpec s, int entry, long sends, Random random, boolean mask) throws IOException {
        if (entry < 0) {
            Request r = s.request();
            return target(r.method(), s.url().toString(), r.headers(), r.body() == null ? null : r.body().bytes(), mask) + "\n";
        }
        Mix.Entry e = s.mix().entries().get(entry);
        String base = K6Generator.base(s.url());
        long lines = e.placeholders().isEmpty() ? 1 : Math.max(1, Math.min(MAX_TARGETS, sends));
        StringBuilder out = new StringBuilder();
        for (long i = 0; i < lines; i++) {
            Params drawn = draw(s.mix(), random, mask);
            String body = e.bodyWith(drawn);
            out.append(target(e.method(), base + e.pathWith(drawn), e.headers(), body == null ? null : body.getBytes(StandardCharsets.UTF_8), mask)).append('\n');
        }
        return out.toString();
    }

    /**
     * One request's values of every placeholder; a value from the environment (a secret the user supplies) masked
     * where the file is kept in raw/.
     */
    static Params draw(Mix mix, Random random, boolean mask) {
        Params drawn = Params.NONE;
        for (var v : mix.values().entrySet()) {
            if (v.getValue() instanceof Mix.Range r) {
                drawn = drawn.with(v.getKey(), Long.toString(r.from() + (long) Math.floor(random.nextDouble() * (r.to() - r.from() + 1))));
            } else if (v.getValue() instanceof Mix.Env env) {
                drawn = drawn.with(v.getKey(), mask || env.value() == null ? Secrets.MASK : env.value());
            }
        }
        for (Map<String, Mix.Column> cols : mix.files().values()) {
            int row = random.nextInt(cols.values().iterator().next().cells().size());
            for (var c : cols.entrySet()) drawn = drawn.with(c.getKey(), c.getValue().cells().get(row));
        }
        return drawn;
    }

    /** A word for sh, single-quoted. */
    static String sh(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /**
     * The script that runs a load's attackers side by side on the load CPUs (threads: GOMAXPROCS), each one after a
     * sleep of its start into the hold, and exits with the first failure's code. Paths as where it runs: targets(i)
     * and output(i) of attacker i.
     */
    static String script(String vegeta, LoadSpec s, List<Attacker> attackers, IntFunction<String> targets, IntFunction<String> output) {
        // vegeta run once first (-version: nothing sent) pages its 18 MB in, so the attackers start together: seen on a
        // machine short of page cache, the first attacker's exec took a second longer than a later one's
        StringBuilder sh = new StringBuilder("#!/bin/sh\n# vegeta attackers of one load, side by side (vtlab.load.generator.VegetaGenerator)\nrc=0\n"
                + sh(vegeta) + " -version >/dev/null 2>&1\n");
        for (Attacker a : attackers) {
            List<String> cmd = List.of("env", "GOMAXPROCS=" + Math.max(1, s.threads()), "taskset", "-c", s.cpus(), vegeta, "attack",
                    "-format=json", "-targets=" + targets.apply(a.index()), "-name=" + a.name(), "-rate=" + a.rateFlag(),
                    "-duration=" + a.lengthMs() + "ms", "-timeout=" + s.timeout().toMillis() + "ms",
                    "-workers=" + a.workers(), "-max-workers=" + a.maxWorkers(), "-max-body=0", "-output=" + output.apply(a.index()));
            String line = String.join(" ", cmd.stream().map(VegetaGenerator::sh).toList());
            if (a.fromMs() > 0) line = "(sleep " + String.format(Locale.ROOT, "%.3f", a.fromMs() / 1000.0) + " && exec " + line + ")";
            sh.append(line).append(" &\np").append(a.index()).append("=$!\n");
        }
        for (Attacker a : attackers) sh.append("wait $p").append(a.index()).append(" || { c=$?; [ $rc = 0 ] && rc=$c; }\n");
        return sh.append("exit $rc\n").toString();
    }

    /** Where attacker i's targets file is: its request's (one file per request of the mix, shared by its layers). */
    static Path targetsFile(LoadSpec s, Attacker a) {
        return s.rawDir().resolve(s.stem() + ".vegeta." + (a.entry() == CYCLE ? "mix" : a.entry() < 0 ? "load" : "r" + a.entry()) + ".targets.json");
    }

    static Path output(LoadSpec s, Attacker a) {
        return s.rawDir().resolve(s.stem() + ".vegeta." + a.index() + ".bin");
    }

    /**
     * Each attacker's targets file, written to raw/ (a secret header's value masked) and, when it holds one, the real
     * file beside it in a private temporary folder that the load removes: the file path attacker i reads, by its index.
     * Each attacker draws values of its own, as many lines as it sends (at most {@link #MAX_TARGETS}): attackers of
     * one request that shared a file each read it from its start, so their values repeated from one rate level (or
     * step) to the next, and a replay's values strayed beyond chance from the log's (the values' KS distance).
     */
    static Map<Integer, Path> writeTargets(LoadSpec s, List<Attacker> attackers, Path privateDir) throws IOException {
        Map<Integer, Path> byAttacker = new LinkedHashMap<>();
        Random random = new Random(s.stem().hashCode());
        Set<Integer> named = new java.util.HashSet<>();
        for (Attacker a : attackers) {
            Path kept = targetsFile(s, a);
            // the first attacker of a request keeps its file's name; the others' carry their index
            if (!named.add(a.entry())) kept = kept.resolveSibling(kept.getFileName().toString().replace(".targets.json", "." + a.index() + ".targets.json"));
            long seed = random.nextLong();
            boolean cycle = a.entry() == CYCLE;
            Files.writeString(kept, cycle ? cycleTargets(s, new Random(seed), true, a.due()) : targets(s, a.entry(), a.due(), new Random(seed), true));
            Path used = kept;
            if (!s.secretHeaderEnv().isEmpty()) {
                used = privateDir.resolve(kept.getFileName());
                Files.writeString(used, cycle ? cycleTargets(s, new Random(seed), false, a.due()) : targets(s, a.entry(), a.due(), new Random(seed), false));
            }
            byAttacker.put(a.index(), used);
        }
        return byAttacker;
    }

    @Override
    public RunningLoad start(LoadSpec s) throws IOException {
        Files.createDirectories(s.rawDir());
        List<Attacker> attackers;
        try {
            attackers = s.model() == LoadModel.CLOSED ? List.of(closed(s)) : attackers(s);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage());
        }
        List<String> names = s.mix() == null ? null : s.mix().entries().stream().map(Mix.Entry::name).toList();
        Path privateDir = s.secretHeaderEnv().isEmpty() ? null : Files.createTempDirectory("vtlab-vegeta-",
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        Map<Integer, Path> targets = writeTargets(s, attackers, privateDir);
        List<Path> outputs = new ArrayList<>();
        for (Attacker a : attackers) {
            Files.deleteIfExists(output(s, a));
            outputs.add(output(s, a));
        }
        Path script = s.rawDir().resolve(s.stem() + ".vegeta.sh");
        Files.writeString(script, script(vegeta.toString(), s, attackers, i -> targets.get(i).toString(),
                i -> outputs.get(i).toString()));
        Path hlog = s.rawDir().resolve(s.stem() + ".vegeta.hlog");
        List<String> cmd = List.of("sh", script.toString());
        long startMs = System.currentTimeMillis(); // the hold's clock: the runner times faults and probes from this moment too
        Path bin = vegeta;
        return new ToolRun("vegeta", cmd, s.rawDir(), s.stem(), (text, raw) -> {
            try {
                return parse(bin, text, raw, attackers, outputs, hlog, s.duration().toMillis() / 1000.0, startMs, names);
            } finally {
                if (privateDir != null) {
                    for (Path t : targets.values()) try {
                        Files.deleteIfExists(t);
                    } catch (IOException e) {
                        // the OS's temporary folder
                    }
                    try {
                        Files.deleteIfExists(privateDir);
                    } catch (IOException e) {
                        // idem
                    }
                }
            }
        });
    }

    /**
     * Which kind of outcome a result is, from its status and vegeta's error text (Go's net/http errors): a status of 400
     * or more is an answer and a status error; without one, the client's timeout (Client.Timeout, whatever it was
     * waiting on), a dial that failed (refused, no route: the SUT never saw it), a broken pipe (writing), else the
     * connection broke while reading (reset by peer, EOF, closed).
     */
    static Outcome outcome(int code, String error) {
        if (code >= 400) return Outcome.STATUS;
        if (code > 0) return Outcome.ANSWERED;
        String e = error == null ? "" : error.toLowerCase(Locale.ROOT);
        if (e.contains("client.timeout")) return Outcome.TIMEOUT;
        if (e.contains("dial ") || e.contains("connection refused") || e.contains("no such host") || e.contains("no route to host")) return Outcome.CONNECT;
        if (e.contains("timeout") || e.contains("deadline exceeded")) return Outcome.TIMEOUT;
        if (e.contains("broken pipe")) return Outcome.WRITE;
        return Outcome.READ;
    }

    /**
     * One result as vegeta encodes it: seq, when it was sent (epoch ns), latency (ns), status, error, bytes of the
     * answer, and its target's URL (a closed-model mix's names its request: {@link #requestOf}).
     */
    record Hit(long seq, long sentNs, long latencyNs, int code, String error, long bytes, String url) {
        Hit(long seq, long sentNs, long latencyNs, int code, String error, long bytes) {
            this(seq, sentNs, latencyNs, code, error, bytes, "");
        }
    }

    /** Every result of one attacker's output file, read through `vegeta encode --to json` (a JSON object a line). */
    static List<Hit> read(Path vegeta, Path bin) throws LoadException {
        if (!Files.isRegularFile(bin)) throw new LoadException("vegeta wrote no results " + bin);
        List<Hit> hits = new ArrayList<>();
        ProcessBuilder pb = new ProcessBuilder(vegeta.toString(), "encode", "--to", "json", bin.toString()).redirectError(ProcessBuilder.Redirect.DISCARD);
        try {
            Process p = vtlab.proc.Children.track(pb.start());
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8), 1 << 16)) {
                String line;
                while ((line = in.readLine()) != null) if (!line.isBlank()) hits.add(hit(JSON.readTree(line)));
            }
            if (p.waitFor() != 0) throw new LoadException("vegeta encode " + bin + " exited with " + p.exitValue());
        } catch (IOException | RuntimeException e) {
            throw new LoadException("cannot read vegeta's results " + bin + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LoadException("interrupted while reading " + bin);
        }
        return hits;
    }

    /** One request a load sent, as vegeta's results record it: when (epoch ns), under which request name, to which URL. */
    public record Sent(long sentNs, String request, String url) {}

    /**
     * What a load sent, and when its schedule began (epoch ns; null for the closed model, which has none): the hold's
     * seconds are counted from it, not from the first send, which comes one interval later (a sixth of a second at 6/s).
     */
    public record Sends(List<Sent> sent, Long originNs) {}

    /** An attacker's line of raw/STEM.vegeta.txt ({@link #parse}): its index, its -rate (N per P s) and when it started in the hold. */
    private static final java.util.regex.Pattern ATTACKER_LINE = java.util.regex.Pattern.compile("# attacker (\\d+) \\S+: rate (\\d+)/(\\d+)s from ([0-9.]+) s");

    /**
     * Every request a row's load sent, from vegeta's own results in raw/ (STEM.vegeta.N.bin: each result's timestamp,
     * URL and attack name): a request named by its URL's mark in a closed-model mix ({@link #requestOf}; names: the mix's
     * request names in order), else by its attacker's name (an open mix's attacker is named after its request).
     */
    public static Sends sends(Path rawDir, String stem, List<String> names) throws LoadException, UsageError {
        Path vegeta;
        try {
            vegeta = Tools.VEGETA.get();
        } catch (IOException e) {
            throw new UsageError("vegeta " + VERSION + " reads its results and could not be found: " + e.getMessage());
        }
        List<Path> bins = new ArrayList<>();
        try (var files = Files.list(rawDir)) {
            String prefix = stem + ".vegeta.";
            files.filter(f -> f.getFileName().toString().startsWith(prefix) && f.getFileName().toString().endsWith(".bin")
                    && f.getFileName().toString().substring(prefix.length()).matches("[0-9]+\\.bin")).sorted().forEach(bins::add);
        } catch (IOException e) {
            throw new LoadException("cannot list " + rawDir + ": " + e.getMessage());
        }
        // each open attacker's pacing, as the load's text says it ran: its schedule's origin is read back from its sends
        Map<Integer, long[]> paced = new LinkedHashMap<>(); // index -> [interval ns, from ns]
        try {
            Path text = rawDir.resolve(stem + ".vegeta.txt");
            if (Files.isRegularFile(text)) {
                for (String line : Files.readAllLines(text)) {
                    var m = ATTACKER_LINE.matcher(line);
                    if (m.find()) paced.put(Integer.parseInt(m.group(1)), new long[] {Long.parseLong(m.group(3)) * 1_000_000_000L / Long.parseLong(m.group(2)),
                            Math.round(Double.parseDouble(m.group(4)) * 1e9)});
                }
            }
        } catch (IOException | RuntimeException e) {
            paced.clear(); // no origin: the first send stands for it
        }
        Long origin = null;
        List<Sent> out = new ArrayList<>();
        for (Path bin : bins) {
            String file = bin.getFileName().toString();
            long[] pace = paced.get(Integer.parseInt(file.substring(stem.length() + ".vegeta.".length(), file.length() - ".bin".length())));
            ProcessBuilder pb = new ProcessBuilder(vegeta.toString(), "encode", "--to", "json", bin.toString()).redirectError(ProcessBuilder.Redirect.DISCARD);
            try {
                Process p = vtlab.proc.Children.track(pb.start());
                try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8), 1 << 16)) {
                    for (String line; (line = in.readLine()) != null; ) {
                        if (line.isBlank()) continue;
                        JsonNode n = JSON.readTree(line);
                        Hit h = hit(n);
                        if (pace != null) {
                            long o = h.sentNs() - (h.seq() + 1) * pace[0] - pace[1]; // the script's start, as this send places it
                            if (origin == null || o < origin) origin = o;
                        }
                        int r = requestOf(h.url());
                        String name = r >= 0 && names != null && r < names.size() ? names.get(r) : n.path("attack").asText("");
                        out.add(new Sent(h.sentNs(), name, h.url()));
                    }
                }
                if (p.waitFor() != 0) throw new LoadException("vegeta encode " + bin + " exited with " + p.exitValue());
            } catch (IOException | RuntimeException e) {
                throw new LoadException("cannot read vegeta's results " + bin + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LoadException("interrupted while reading " + bin);
            }
        }
        return new Sends(out, origin);
    }

    /** One line of `vegeta encode --to json` (its bytes from the answer's Content-Length: the lab keeps no body, -max-body=0). */
    static Hit hit(JsonNode n) {
        Instant t = Instant.parse(n.path("timestamp").asText());
        JsonNode length = n.path("headers").path("Content-Length").path(0);
        long bytes = n.path("bytes_in").asLong(0);
        if (bytes == 0 && length.isTextual()) {
            try {
                bytes = Long.parseLong(length.asText());
            } catch (NumberFormatException e) {
                // none
            }
        }
        return new Hit(n.path("seq").asLong(), t.getEpochSecond() * 1_000_000_000L + t.getNano(), n.path("latency").asLong(),
                n.path("code").asInt(0), n.path("error").asText(""), bytes, n.path("url").asText(""));
    }

    /**
     * When an attacker's schedule began (epoch ns): hit n of the seq order was sent at or after began + (n+1) x interval
     * (the n-th send needs the n-th tick), so the earliest of sent - (n+1) x interval is began plus the smallest delay,
     * a sleep's overshoot; null for no hit.
     */
    static Long scheduleOrigin(List<Hit> hits, long intervalNs) {
        Long origin = null;
        for (Hit h : hits) {
            long o = h.sentNs() - (h.seq() + 1) * intervalNs;
            if (origin == null || o < origin) origin = o;
        }
        return origin;
    }

    /**
     * Requests due in an attack that vegeta never sent (its in-flight cap full until the end): a shortfall within 5 ms
     * of the rate (plus one) is the schedule's edge, as oha's.
     */
    static long dropped(long due, long sent, double rate) {
        return OhaGenerator.dropped(due, sent, rate);
    }

    /**
     * Every attacker's results into the load's result: latency from the scheduled send, answers (status errors among
     * them) in the histogram written to hlog, errors by kind, what was due but never sent, and per second of the hold
     * (each result in the second it ended in, from startMs: when the script started, on the results' clock) its
     * requests, errors by kind, percentiles and the most requests in flight. What each attacker did is added to the
     * text kept in raw.
     */
    static LoadResult parse(Path vegeta, String text, Path raw, List<Attacker> attackers, List<Path> outputs, Path hlog, double holdS,
                            long startMs) throws LoadException {
        return parse(vegeta, text, raw, attackers, outputs, hlog, holdS, startMs, null);
    }

    /** As above; names: the mix's request names by index, which a closed-model mix's results name (null: no mix). */
    static LoadResult parse(Path vegeta, String text, Path raw, List<Attacker> attackers, List<Path> outputs, Path hlog, double holdS,
                            long startMs, List<String> names) throws LoadException {
        List<List<Hit>> hits = new ArrayList<>();
        for (Attacker a : attackers) hits.add(read(vegeta, outputs.get(a.index())));
        return parse(text, raw, attackers, hits, outputs, hlog, holdS, startMs, names);
    }

    /** As above, from each attacker's results already read (an open load's; no closed-model mix). */
    static LoadResult parse(String text, Path raw, List<Attacker> attackers, List<List<Hit>> results, List<Path> outputs, Path hlog,
                            double holdS, long startMs) throws LoadException {
        return parse(text, raw, attackers, results, outputs, hlog, holdS, startMs, null);
    }

    /**
     * As above, from each attacker's results already read; names: the mix's request names by index. An open load's
     * results are split by attacker (each its request's), a closed-model mix's ({@link #CYCLE}) by the request its
     * URL names: a result naming no request of the mix fails the load, as a split that mixed requests up would be wrong.
     */
    static LoadResult parse(String text, Path raw, List<Attacker> attackers, List<List<Hit>> results, List<Path> outputs, Path hlog,
                            double holdS, long startMs, List<String> names) throws LoadException {
        Histogram h = LatencyHistogram.empty();
        LoadSeries.Builder perSecond = new LoadSeries.Builder(EnumSet.allOf(LoadSeries.Kind.class), holdS);
        long answered = 0, status = 0, timeout = 0, connect = 0, write = 0, read = 0, bytes = 0, dropped = 0;
        long startNs = startMs * 1_000_000L;
        List<long[]> spans = new ArrayList<>(); // [sent, ended] ns from startNs, of every request
        StringBuilder said = new StringBuilder(text.isEmpty() || text.endsWith("\n") ? text : text + "\n");
        // a mix's requests apart, by attacker name: [attempted, errors] and the answers' histogram
        Map<String, long[]> counts = new LinkedHashMap<>();
        Map<String, Histogram> byName = new LinkedHashMap<>();
        boolean mix = attackers.stream().anyMatch(a -> a.entry() >= 0 || a.entry() == CYCLE);
        if (attackers.stream().anyMatch(a -> a.entry() == CYCLE)) {
            if (names == null) throw new LoadException("a closed-model mix's results without the mix's request names");
            for (String n : names) { // every request of the mix in the columns, in the file's order, one that got nothing too
                counts.computeIfAbsent(n, k -> new long[2]);
                byName.computeIfAbsent(n, k -> LatencyHistogram.empty());
            }
        }
        for (Attacker a : attackers) {
            // a closed-model mix's attacker sent every request of the mix: each result counts under the request its URL names
            boolean cycle = a.entry() == CYCLE;
            long[] nameCounts = cycle ? null : counts.computeIfAbsent(a.name(), k -> new long[2]);
            Histogram nameHistogram = cycle ? null : byName.computeIfAbsent(a.name(), k -> LatencyHistogram.empty());
            List<Hit> hits = results.get(a.index());
            long interval = a.closed() ? 0 : a.intervalNs();
            Long origin = a.closed() ? null : scheduleOrigin(hits, interval);
            long late = 0, maxLateNs = 0;
            for (Hit x : hits) {
                long delay = a.closed() ? 0 : Math.max(0, x.sentNs() - origin - (x.seq() + 1) * interval);
                if (cycle) {
                    int r = requestOf(x.url());
                    if (r < 0 || r >= names.size()) {
                        throw new LoadException("vegeta result " + x.seq() + " of " + outputs.get(a.index()).getFileName() + " names no request of the mix: "
                                + x.url());
                    }
                    nameCounts = counts.get(names.get(r));
                    nameHistogram = byName.get(names.get(r));
                }
                if (delay > LATE_NS) late++;
                maxLateNs = Math.max(maxLateNs, delay);
                Outcome o = outcome(x.code(), x.error());
                double latencyS = (x.latencyNs() + delay) / 1e9;
                long endedNs = x.sentNs() + x.latencyNs() - startNs;
                long second = Math.floorDiv(endedNs, 1_000_000_000L);
                perSecond.addAt(second, o.answered(), o != Outcome.ANSWERED, latencyS);
                if (o != Outcome.ANSWERED) perSecond.errorAt(second, o.series);
                spans.add(new long[] {x.sentNs() - startNs, endedNs});
                nameCounts[0]++;
                if (o != Outcome.ANSWERED) nameCounts[1]++;
                if (o.answered()) LatencyHistogram.recordSeconds(nameHistogram, latencyS);
                switch (o) {
                    case ANSWERED, STATUS -> {
                        answered++;
                        if (o == Outcome.STATUS) status++;
                        bytes += x.bytes();
                        LatencyHistogram.recordSeconds(h, latencyS);
                    }
                    case TIMEOUT -> timeout++;
                    case CONNECT -> connect++;
                    case WRITE -> write++;
                    case READ -> read++;
                }
            }
            if (a.closed()) {
                said.append(String.format(Locale.ROOT, "# attacker %d %s: closed model, %d workers (-rate=0 -max-workers=%d) for %.3f s: %d sent, raw %s%n",
                        a.index(), a.name(), a.maxWorkers(), a.maxWorkers(), a.lengthMs() / 1000.0, hits.size(), outputs.get(a.index()).getFileName()));
                continue;
            }
            long due = a.due(), never = dropped(due, hits.size(), a.rate());
            dropped += never;
            said.append(String.format(Locale.ROOT, "# attacker %d %s: rate %s from %.3f s for %.3f s, at most %d in flight: %d due, %d sent,"
                            + " %d never sent, %d sent over %d ms late (latest %.1f ms), raw %s%n", a.index(), a.name(), a.rateFlag(),
                    a.fromMs() / 1000.0, a.lengthMs() / 1000.0, a.maxWorkers(), due, hits.size(), never, late, LATE_NS / 1_000_000,
                    maxLateNs / 1e6, outputs.get(a.index()).getFileName()));
        }
        inFlight(perSecond, spans, holdS);
        try {
            Files.writeString(raw, said);
        } catch (IOException e) {
            throw new LoadException("cannot write " + raw + ": " + e.getMessage());
        }
        boolean closed = attackers.stream().allMatch(Attacker::closed);
        LoadResult r = LoadResult.fromHistogram(h, hlog, answered, holdS, connect, read, write, timeout, status, bytes, raw, closed ? null : dropped,
                perSecond.build());
        if (!mix) return r;
        List<LoadResult.ByRequest> each = new ArrayList<>();
        for (var e : counts.entrySet()) {
            each.add(LoadResult.ByRequest.of(e.getKey(), e.getValue()[0], e.getValue()[1], byName.get(e.getKey()), byRequest(hlog, e.getKey())));
        }
        return r.withByRequest(each);
    }

    /** Where a request name's histogram is kept: beside the load's (STEM.vegeta.hlog: STEM.vegeta.NAME.hlog). */
    static Path byRequest(Path hlog, String name) {
        String f = hlog.getFileName().toString();
        return hlog.resolveSibling(f.substring(0, f.length() - ".hlog".length()) + "." + name + ".hlog");
    }

    /** Each second's most requests in flight at once (sent and not yet ended), from every request's span. */
    static void inFlight(LoadSeries.Builder perSecond, List<long[]> spans, double holdS) {
        List<long[]> events = new ArrayList<>(spans.size() * 2);
        for (long[] s : spans) {
            events.add(new long[] {s[0], 1});
            events.add(new long[] {s[1], -1});
        }
        // a start before an end at the same ns: a request that took no time is in flight for that moment, never below zero
        events.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(y[1], x[1]));
        int seconds = (int) Math.floor(holdS + 1e-9);
        long level = 0;
        int i = 0;
        for (int sec = 0; sec < seconds; sec++) {
            long until = (sec + 1) * 1_000_000_000L;
            for (; i < events.size() && events.get(i)[0] < sec * 1_000_000_000L; i++) level += events.get(i)[1];
            long max = level;
            for (; i < events.size() && events.get(i)[0] < until; i++) {
                level += events.get(i)[1];
                max = Math.max(max, level);
            }
            perSecond.levelAt(sec, LoadSeries.Kind.IN_FLIGHT, max);
        }
    }
}
