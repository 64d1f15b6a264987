package vtlab.load.generator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.tier.tool.Tools;
import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.Secrets;
import vtlab.core.UsageError;
import vtlab.data.LatencyHistogram;
import vtlab.stack.Request;
import vtlab.load.Generator;
import vtlab.load.LoadSpec;
import vtlab.load.LoadResult;
import vtlab.load.LoadSeries;
import vtlab.load.LoadModel;
import vtlab.load.ToolRun;

/**
 * wrk (C, epoll): the default generator; on a 2-core machine it outruns hey and k6 several times, so it is not the
 * bottleneck of a hello-world load. Percentiles and error counts come from wrk's own histogram, emitted as JSON by
 * its Lua done() hook; the same hook prints the histogram itself (every distinct latency with its count), kept as
 * raw/STEM.wrk.hlog.
 *
 * <p>What wrk's Lua API exposes (wrk 4.x, src/script.c and src/stats.c): {@code #latency} is the number of distinct
 * recorded values, and calling the object, {@code latency(i)}, returns the i-th smallest distinct value in
 * microseconds and its count. {@code latency[i]} is not an accessor: __index only knows min, max, mean, stdev and
 * percentile. Each call scans the histogram from its minimum, so the walk costs distinct values x range: cheap for
 * millisecond latencies, minutes for a multi-second tail; the hook stops after {@link #WALK_BUDGET_S} s of CPU and
 * the row then has no histogram rather than part of one.
 *
 * <p>The histogram is the one wrk's own percentiles come from, corrected for coordinated omission: before done()
 * runs, stats_correct takes I, the mean interval between one connection's answers, and for every recorded latency
 * L of at least 2I adds synthetic entries at L-I, L-2I, ... while above I. So its total can exceed the completed
 * requests, and it does not hold the requests wrk gave up on (at --timeout: counted as timeout errors, never
 * recorded).
 *
 * <p>Per-second series ({@link LoadSeries}): requests answered and status errors (> 399, wrk's own rule) of every
 * second, counted by a response() hook on a monotonic clock read through LuaJIT's ffi. wrk keeps no time order of its
 * own (its done() hook gets totals and distributions), so the hook is the only way; it costs wrk CPU, because with it
 * defined wrk hands every answer's headers and body to Lua. Measured here (servlet, virtual, SUT CPU 0, wrk -t1 on
 * CPU 1, alternating 5 s runs with and without the hook): hello at 100 connections +0.6 us of wrk user CPU per request
 * (7.1-7.6 -> 7.5-7.8 us user+sys), sleep at 1,000 +10% (13.3-14.6 -> 14.7-16.4 us); throughput unchanged within the
 * noise. The generator's CPU is recorded on every row and flags the row when it saturates, so that cost is never
 * hidden. No latency per second (response() gets none; use oha or k6 for that), and no per-second socket errors or
 * timeouts (wrk counts them without calling Lua). The seconds' sum must equal wrk's own request count, or the row
 * fails: a series that disagrees with its total would be a wrong one. With large answers the hook costs most (wrk
 * copies each body into Lua: 1 MB bodies at 8 connections, 8 s runs, +35% wrk CPU a request, 316 -> 426 us, wrk at 80%
 * of its core): --wrk-per-second off drops it.
 */
public final class WrkGenerator implements Generator {
    /** From load agents: closed-model rows, each agent its share (see {@link WrkAgents}). */
    @Override
    public java.util.Optional<FromAgents> fromAgents() {
        return java.util.Optional.of(new FromAgents(java.util.EnumSet.of(LoadModel.CLOSED), (run, agents) -> new WrkAgents(this, run, agents)));
    }

    static final String BEGIN = "VTLAB_JSON_BEGIN", END = "VTLAB_JSON_END";
    static final String HIST_BEGIN = "VTLAB_HIST_BEGIN", HIST_END = "VTLAB_HIST_END", HIST_INCOMPLETE = "VTLAB_HIST_INCOMPLETE";
    static final String SERIES_BEGIN = "VTLAB_SERIES_BEGIN", SERIES_END = "VTLAB_SERIES_END";
    static final java.util.Set<LoadSeries.Kind> SERIES_KINDS = java.util.EnumSet.of(LoadSeries.Kind.REQUESTS, LoadSeries.Kind.ERRORS);
    /** CPU seconds the done() hook may spend walking the histogram (see the class comment). */
    static final int WALK_BUDGET_S = 20;
    private static final Pattern HIST_HEAD = Pattern.compile(HIST_BEGIN + " (\\d+)");
    static final Opt PER_SECOND_OPT = Opt.of("wrk-per-second", "on", "wrk only: count answers and status errors per second (on, the default)\n"
            + "or not (off): the count's response() hook costs wrk CPU, most with large answers (+35% at 1 MB bodies)").withChoices(List.of("on", "off"));
    private static final ObjectMapper JSON = new ObjectMapper();
    private Path wrk;
    private boolean perSecond = true;

    @Override
    public String name() {
        return "wrk";
    }

    @Override
    public String description() {
        return "wrk (C, epoll), closed model: each connection sends its next request when the answer arrives";
    }

    /** Answers and status errors per second, from the response() hook (see the class comment), unless switched off. */
    @Override
    public java.util.Set<LoadSeries.Kind> seriesKinds() {
        return perSecond ? java.util.EnumSet.copyOf(SERIES_KINDS) : java.util.EnumSet.noneOf(LoadSeries.Kind.class);
    }

    /** Through its Lua request() hook (see {@link MixScript}). */
    @Override
    public boolean sendsMix() {
        return true;
    }

    @Override
    public List<Opt> options() {
        return List.of(PER_SECOND_OPT);
    }

    @Override
    public Generator configure(Options o) throws UsageError {
        perSecond = PER_SECOND_OPT.choice(o).equals("on");
        return this;
    }

    @Override
    public void ensureAvailable() throws UsageError {
        try {
            wrk = Tools.WRK.get();
        } catch (java.io.IOException e) {
            throw new UsageError("wrk is needed and could not be installed: " + e.getMessage() + " (or install it: dnf install wrk, brew install wrk)");
        }
    }

    @Override
    public String version() {
        if (wrk == null) return "wrk (not looked up: the run has no load rows)";
        try {
            Process p = new ProcessBuilder(wrk.toString(), "-v").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            return out.lines().findFirst().orElse("wrk (unknown version)").replaceAll("\\s+Copyright.*", "").trim();
        } catch (IOException e) {
            return "wrk (version unknown: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "wrk";
        }
    }

    /**
     * The Lua script: the request (method, headers, body) and a done() hook that prints wrk's summary as JSON, then
     * the histogram as "value:count" pairs (microseconds), 64 a line, after a line with the number of distinct values.
     * The body is read from bodyFile by Lua itself, bytes as they are (never inlined: binary-safe, and a large body
     * does not become a large script); a secret header's value comes from the environment ({@link LoadSpec#headerEnv}),
     * so the script kept in raw/ does not hold it. wrk keeps headers in a Lua table: their order is wrk's own.
     *
     * @param bodyFile the body's bytes (null: the request has none)
     */
    static String script(Request r, Path bodyFile) {
        return script(r, bodyFile, true, true);
    }

    /**
     * As above; perSecond: with the response() hook counting answers per second, histogram: with the walk of the
     * whole histogram in done() (neither for a warm-up: see the class comment).
     */
    static String script(Request r, Path bodyFile, boolean perSecond, boolean histogram) {
        return script(r, null, bodyFile, perSecond, histogram);
    }

    /** As above, sending the mix through the request() hook ({@link MixScript#lua}) when there is one (mix: null for none). */
    static String script(Request r, vtlab.stack.Mix mix, Path bodyFile, boolean perSecond, boolean histogram) {
        StringBuilder lua = new StringBuilder();
        if (mix != null) lua.append(MixScript.lua(mix));
        else appendRequest(lua, r, bodyFile);
        if (perSecond) lua.append(PER_SECOND);
        appendDone(lua, histogram);
        return lua.toString();
    }

    /** The one request: wrk's method, headers and body (see above). */
    private static void appendRequest(StringBuilder lua, Request r, Path bodyFile) {
        lua.append("wrk.method = ").append(MixScript.luaString(r.method())).append("\n");
        for (int i = 0; i < r.headers().size(); i++) {
            Request.Header h = r.headers().get(i);
            lua.append("wrk.headers[").append(MixScript.luaString(h.name())).append("] = ")
                    .append(Secrets.secretHeader(h.name()) ? "os.getenv(\"" + LoadSpec.headerEnv(i) + "\")" : MixScript.luaString(h.value())).append("\n");
        }
        if (r.body() != null) {
            if (bodyFile == null) throw new IllegalArgumentException("a request with a body needs its file");
            lua.append("local body = assert(io.open(").append(MixScript.luaString(bodyFile.toString())).append(", \"rb\"))\n");
            lua.append("wrk.body = body:read(\"*a\")\nbody:close()\n");
        }
    }

    private static void appendDone(StringBuilder lua, boolean histogram) {
        lua.append("local vtlab_histogram = ").append(histogram).append("\n");
        lua.append("""
                done = function(summary, latency, requests)
                  if vtlab_write_series then vtlab_write_series() end
                  local e = summary.errors
                  io.write("%s\\n")
                  io.write(string.format('{"requests":%%d,"duration_us":%%d,"bytes":%%d,', summary.requests, summary.duration, summary.bytes))
                  io.write(string.format('"errors":{"connect":%%d,"read":%%d,"write":%%d,"status":%%d,"timeout":%%d},', e.connect, e.read, e.write, e.status, e.timeout))
                  io.write(string.format('"latency_us":{"min":%%d,"max":%%d,"mean":%%.3f,"stdev":%%.3f,', latency.min, latency.max, latency.mean, latency.stdev))
                  io.write(string.format('"p50":%%d,"p90":%%d,"p95":%%d,"p99":%%d,"p999":%%d}}\\n', latency:percentile(50), latency:percentile(90), latency:percentile(95), latency:percentile(99), latency:percentile(99.9)))
                  io.write("%s\\n")
                  if not vtlab_histogram then return end
                  local n, line, t0 = #latency, {}, os.clock()
                  io.write("%s ", n, "\\n")
                  for i = 1, n do
                    local v, c = latency(i)
                    line[#line + 1] = string.format("%%d:%%d", v, c)
                    if #line == 64 or i == n then
                      io.write(table.concat(line, ","), "\\n")
                      line = {}
                      if os.clock() - t0 > %d then
                        io.write("%s after ", i, " of ", n, " values: the walk exceeded %d s of CPU\\n")
                        break
                      end
                    end
                  end
                  io.write("%s\\n")
                end
                """.formatted(BEGIN, END, HIST_BEGIN, WALK_BUDGET_S, HIST_INCOMPLETE, WALK_BUDGET_S, HIST_END));
    }

    /**
     * Each thread counts its answers (and status errors) per second since setup() on CLOCK_MONOTONIC (ffi: LuaJIT,
     * wrk's Lua); done() collects every thread's counts as "second:answered:errors" lines, one per thread and second.
     */
    static final String PER_SECOND = """
            local ffi = require("ffi")
            ffi.cdef[[
            typedef struct { long tv_sec; long tv_nsec; } vtlab_timespec;
            int clock_gettime(int clk, vtlab_timespec *ts);
            ]]
            local vtlab_ts = ffi.new("vtlab_timespec")
            local function vtlab_now()
              ffi.C.clock_gettime(1, vtlab_ts) -- CLOCK_MONOTONIC: one clock for every thread's state
              return tonumber(vtlab_ts.tv_sec) + tonumber(vtlab_ts.tv_nsec) / 1e9
            end
            local vtlab_threads = {}
            vtlab_answered, vtlab_errors = {}, {} -- globals: done() reads them through thread:get
            setup = function(thread)
              thread:set("vtlab_t0", vtlab_now())
              vtlab_threads[#vtlab_threads + 1] = thread
            end
            response = function(status, headers, body)
              local s = math.floor(vtlab_now() - vtlab_t0)
              vtlab_answered[s] = (vtlab_answered[s] or 0) + 1
              if status > 399 then vtlab_errors[s] = (vtlab_errors[s] or 0) + 1 end
            end
            function vtlab_write_series()
              io.write("%s\\n")
              for _, t in ipairs(vtlab_threads) do
                local answered, errors = t:get("vtlab_answered"), t:get("vtlab_errors")
                for s, n in pairs(answered) do io.write(string.format("%%d:%%d:%%d\\n", s, n, errors[s] or 0)) end
              end
              io.write("%s\\n")
            end
            """.formatted(SERIES_BEGIN, SERIES_END);

    @Override
    public RunningLoad start(LoadSpec s) throws IOException {
        Files.createDirectories(s.rawDir());
        Path lua = s.rawDir().resolve(s.stem() + ".wrk.lua");
        Request.Body body = s.request().body();
        Files.writeString(lua, script(s, body == null ? null : body.file(s.rawDir())));
        List<String> cmd = command(wrk.toString(), s, lua.toString());
        Path hlog = s.rawDir().resolve(s.stem() + ".wrk.hlog");
        return new ToolRun("wrk", cmd, cmd, s.secretHeaderEnv(), s.rawDir(), s.stem(), (text, raw) -> parse(text, raw, hlog));
    }

    /** The spec's script: a warm-up slice wants its rate, so no per-second hook and no histogram walk. */
    String script(LoadSpec s, Path bodyFile) {
        return script(s.request(), s.mix(), bodyFile, perSecond && !s.rateOnly(), !s.rateOnly());
    }

    /**
     * wrk on the spec's CPUs with its threads (at most one per connection), connections, hold and timeout, the
     * script at lua (a path where wrk runs): wrk here, or on a load agent's host.
     */
    static List<String> command(String wrk, LoadSpec s, String lua) {
        return new ArrayList<>(List.of("taskset", "-c", s.cpus(), wrk,
                "-t", Integer.toString(Math.max(1, Math.min(s.threads(), s.connections()))),
                "-c", Integer.toString(s.connections()),
                "-d", Math.max(1, s.duration().toSeconds()) + "s",
                "--timeout", Math.max(1, s.timeout().toSeconds()) + "s",
                "--latency", "-s", lua, s.url().toString()));
    }

    /**
     * Parses the JSON block our done() hook printed; the histogram block, when whole, is written to hlog (.hgrm
     * beside it) and named in the result. Percentiles stay wrk's own numbers, the histogram agrees with them.
     */
    public static LoadResult parse(String text, Path raw, Path hlog) throws LoadException {
        int a = text.indexOf(BEGIN), b = text.indexOf(END);
        if (a < 0 || b < a) throw new LoadException("wrk printed no result block: " + ToolRun.lastLines(text, 3));
        JsonNode n;
        try {
            n = JSON.readTree(text.substring(a + BEGIN.length(), b));
        } catch (IOException e) {
            throw new LoadException("wrk result block is not JSON: " + e.getMessage());
        }
        JsonNode e = n.path("errors"), l = n.path("latency_us");
        long requests = n.path("requests").asLong();
        return LoadResult.builder().requests(requests, n.path("duration_us").asLong() / 1e6)
                .latencyMs(l.path("mean").asDouble() / 1000, l.path("p50").asDouble() / 1000, l.path("p90").asDouble() / 1000,
                        l.path("p95").asDouble() / 1000, l.path("p99").asDouble() / 1000, l.path("p999").asDouble() / 1000,
                        l.path("max").asDouble() / 1000)
                .errors(e.path("connect").asLong(), e.path("read").asLong(), e.path("write").asLong(), e.path("timeout").asLong(),
                        e.path("status").asLong())
                .bytes(n.path("bytes").asLong()).raw(raw).histogram(histogram(text, hlog))
                .series(series(text, requests, n.path("duration_us").asLong() / 1e6)).build();
    }

    /**
     * The response() hook's seconds (NONE for an output without them: an older script), the hold's whole seconds
     * kept. Every answer wrk counted must be in some second (wrk calls the hook once per answer it counts).
     */
    static LoadSeries series(String text, long requests, double durationS) throws LoadException {
        int a = text.indexOf(SERIES_BEGIN), b = text.indexOf(SERIES_END);
        if (a < 0 || b < a) return LoadSeries.NONE;
        LoadSeries.Builder perSecond = new LoadSeries.Builder(SERIES_KINDS, Math.floor(durationS));
        long counted = 0;
        for (String line : text.substring(a + SERIES_BEGIN.length(), b).strip().split("\\R")) {
            if (line.isEmpty()) continue;
            String[] f = line.split(":");
            try {
                long answered = Long.parseLong(f[1]), errors = Long.parseLong(f[2]);
                perSecond.addCounts(Long.parseLong(f[0]), answered, errors);
                counted += answered;
            } catch (RuntimeException e) { // not three numbers: a line cut short
                throw new LoadException("wrk per-second line is not second:answered:errors: " + line);
            }
        }
        if (counted != requests) {
            throw new LoadException("wrk's per-second counts add up to " + counted + " answers, its total says " + requests);
        }
        return perSecond.build();
    }

    /**
     * The histogram block into hlog, or null when there is none whole: an output of the older script, or a walk
     * stopped at its budget (a part of the distribution would be a wrong distribution).
     */
    static Path histogram(String text, Path hlog) throws LoadException {
        Matcher head = HIST_HEAD.matcher(text);
        int end = text.indexOf(HIST_END);
        if (!head.find() || end < head.end() || text.contains(HIST_INCOMPLETE)) return null;
        long distinct = Long.parseLong(head.group(1)), seen = 0;
        Histogram h = LatencyHistogram.empty();
        for (String line : text.substring(head.end(), end).strip().split("\\R")) {
            if (line.isEmpty()) continue;
            for (String pair : line.split(",")) {
                int colon = pair.indexOf(':');
                try {
                    LatencyHistogram.recordMicros(h, Long.parseLong(pair.substring(0, colon)), Long.parseLong(pair.substring(colon + 1)));
                } catch (RuntimeException e) { // no colon, or not numbers: a line cut short
                    throw new LoadException("wrk histogram line is not value:count pairs: " + line);
                }
                seen++;
            }
        }
        if (seen != distinct) throw new LoadException("wrk histogram has " + seen + " values, its header says " + distinct);
        try {
            LatencyHistogram.write(h, hlog);
        } catch (IOException e) {
            throw new LoadException("cannot write " + hlog + ": " + e.getMessage());
        }
        return hlog;
    }
}
