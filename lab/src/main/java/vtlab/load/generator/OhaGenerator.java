package vtlab.load.generator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.core.Secrets;
import vtlab.core.UsageError;
import vtlab.data.LatencyHistogram;
import vtlab.tier.tool.Tools;
import vtlab.load.Generator;
import vtlab.load.LoadSpec;
import vtlab.load.LoadResult;
import vtlab.load.LoadSeries;
import vtlab.load.LoadModel;
import vtlab.load.ToolRun;

/**
 * oha (Rust, tokio), the open-model generator: {@code -q RATE --latency-correction} sends on a fixed schedule and
 * measures each request from the moment it was due, so a stalled server shows in every request due during the stall
 * (no coordinated omission). Measured here on one core against the servlet: 5,000 / 10,000 / 15,000 req/s held
 * (docs/results.md, "generator capacity").
 *
 * <p>oha queues a due request until one of its connections is free and counts the wait, so it never drops one while
 * the hold lasts; requests still queued when the hold ends are never sent: {@link LoadResult#dropped()} counts them.
 * The whole distribution comes from oha's own per-request records (--db-url, SQLite), not from its five percentiles.
 */
public final class OhaGenerator implements Generator {
    /** From load agents: open-model rows, each agent its share (see {@link OhaAgents}). */
    @Override
    public java.util.Optional<FromAgents> fromAgents() {
        return java.util.Optional.of(new FromAgents(java.util.EnumSet.of(LoadModel.OPEN), (run, agents) -> new OhaAgents(this, run, agents)));
    }

    static final String VERSION = Tools.OHA_VERSION;
    /** Connections per req/s of offered rate: 200 ms of arrivals, so a 50 ms service has 4x headroom. */
    static final double CONNECTION_SECONDS = 0.2;
    static final int MIN_CONNECTIONS = 32;
    /**
     * oha runs this long at the row's rate before the hold, and what was due then is left out: its connections open
     * in the lead-in, not in the hold (each oha process opens them anew, on first use). Measured here without it:
     * 2,000 connections opening in a 10 s hold at 10,000 req/s put a ~170 ms p99 on a SUT whose warm p99 is 55 ms.
     */
    static final int LEAD_IN_S = 2;
    private static final ObjectMapper JSON = new ObjectMapper();
    private Path oha;

    @Override
    public String name() {
        return "oha";
    }

    @Override
    public String description() {
        return "oha " + VERSION + " (Rust), open model: --rates req/s on schedule, latency from the intended send time;"
                + " built by the lab on first use (cargo install)";
    }

    /** Per-request records with start, end and status: every second's requests, status errors and percentiles. */
    @Override
    public Set<LoadSeries.Kind> seriesKinds() {
        return EnumSet.copyOf(LoadSeries.Kind.PER_REQUEST);
    }

    @Override
    public Set<LoadModel> models() {
        return EnumSet.of(LoadModel.OPEN);
    }

    @Override
    public void ensureAvailable() throws UsageError {
        try {
            oha = Tools.OHA.get();
        } catch (IOException e) {
            throw new UsageError("oha " + VERSION + " is needed for the open model and could not be built: " + e.getMessage());
        }
    }

    /** The oha binary found by {@link #ensureAvailable} (load agents copy it to their hosts). */
    Path binary() {
        return oha;
    }

    @Override
    public String version() {
        return oha == null ? "oha (not looked up: the run has no load rows)" : "oha " + Tools.ohaVersion(oha) + " (" + oha + ")";
    }

    /**
     * The connections oha opens for a rate: 200 ms of arrivals, never above the row's in-flight cap. oha opens each
     * on its first request, all within the hold's first moments: measured here, 5,000 connections at 10,000 req/s
     * stalled the one-core SUT for ~1.3 s, and 7,500 at 15,000 timed out every one of them. Fewer connections
     * than a row needs queue the next due requests in oha, which counts their wait, and Little's law against
     * {@link #inFlightLimit} flags the row (in-flight-cap).
     */
    static int connections(double rate, int cap) {
        return (int) Math.min(cap, Math.max(MIN_CONNECTIONS, Math.ceil(rate * CONNECTION_SECONDS)));
    }

    @Override
    public int inFlightLimit(Double rate, int cap) {
        return rate == null ? cap : connections(rate, cap);
    }

    @Override
    public RunningLoad start(LoadSpec s) throws IOException {
        if (s.model() != LoadModel.OPEN) throw new IOException("oha runs the open model only here (closed: wrk, hey)");
        Files.createDirectories(s.rawDir());
        Path db = s.rawDir().resolve(s.stem() + ".oha.db");
        Files.deleteIfExists(db);
        List<String> cmd = command(oha, s, db);
        double holdS = Math.max(1, s.duration().toSeconds());
        long due = Math.round(s.rate() * holdS);
        Path hlog = s.rawDir().resolve(s.stem() + ".oha.hlog");
        return new ToolRun("oha", cmd, Secrets.toolCommand(cmd, "-H"), vtlab.proc.Env.NONE, s.rawDir(), s.stem(), (text, raw) -> parse(text, raw, db, hlog, LEAD_IN_S, holdS, due));
    }

    /** oha on the load CPUs at the row's rate, its records to db, sending the spec's request (its body from a file). */
    static List<String> command(Path oha, LoadSpec s, Path db) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", s.cpus(), oha.toString(), "--no-tui",
                "-q", Double.toString(s.rate()), "--latency-correction",
                "-z", (LEAD_IN_S + Math.max(1, s.duration().toSeconds())) + "s", "-w",
                "-c", Integer.toString(connections(s.rate(), s.connections())),
                "-t", Math.max(1, s.timeout().toSeconds()) + "s",
                "--worker-threads", Integer.toString(Math.max(1, s.threads())),
                "--output-format", "json", "--db-url", db.toString()));
        cmd.addAll(HeyGenerator.requestArgs(s));
        cmd.add(s.url().toString());
        return cmd;
    }

    /**
     * oha's per-request records (db) due from leadS on, and its JSON summary (socket errors by kind: those of the
     * whole run, lead-in included, as oha counts them), into a result; the histogram written to hlog. holdS: the
     * scheduled hold; due: requests the schedule asked for in it.
     */
    static LoadResult parse(String text, Path raw, Path db, Path hlog, double leadS, double holdS, long due) throws LoadException {
        JsonNode n;
        try {
            // oha says where it stores the records on stderr, which the raw file interleaves with the JSON
            String json = text.lines().filter(l -> !l.startsWith("Storing results to ")).collect(java.util.stream.Collectors.joining("\n"));
            int a = json.indexOf('{');
            if (a < 0) throw new IOException("no JSON in oha's output");
            n = JSON.readTree(json.substring(a));
        } catch (IOException e) {
            throw new LoadException("oha printed no JSON summary: " + ToolRun.lastLines(text, 3));
        }
        long timeout = 0, connect = 0, read = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = n.path("errorDistribution").fields(); it.hasNext(); ) {
            var e = it.next();
            String kind = e.getKey().toLowerCase(java.util.Locale.ROOT);
            long count = e.getValue().asLong();
            if (kind.contains("timeout") || kind.contains("timed out") || kind.contains("deadline")) timeout += count;
            else if (kind.contains("connect") || kind.contains("refused") || kind.contains("dns")) connect += count;
            else read += count;
        }
        Window w;
        try {
            w = window(db, leadS, holdS);
        } catch (SQLException e) {
            throw new LoadException("cannot read oha's per-request records " + db + ": " + e.getMessage());
        }
        long sent = w.answered() + timeout + connect + read;
        long dropped = dropped(due, sent, due / holdS);
        return LoadResult.fromHistogram(w.histogram(), hlog, w.answered(), holdS, connect, read, 0, timeout, w.statusErrors(),
                w.bytes(), raw, dropped, w.series());
    }

    /**
     * The answered requests due in the hold: their latencies, how many, how many with status >= 400, their bytes, and
     * per second of the hold (by the time each answer arrived) the same. oha's records hold answered requests only:
     * a socket error or timeout is in its JSON summary, not in a second.
     */
    record Window(Histogram histogram, long answered, long statusErrors, long bytes, LoadSeries series) {}

    /**
     * Requests due in the hold that oha never sent (still queued when it ended). oha stops issuing at the first tick
     * past the deadline, and a late tick (its timer on a busy core) ends the schedule early: a shortfall within 5 ms
     * of the rate (plus one) is the schedule's edge, not a drop.
     */
    static long dropped(long due, long sent, double rate) {
        long edge = (long) Math.ceil(rate * 0.005) + 1;
        return due - sent > edge ? due - sent : 0;
    }

    /**
     * Every answered request due from leadS on (oha's start_latency_correction, seconds from its own start), with its
     * latency (oha's duration: from the intended send time under --latency-correction).
     */
    static Window window(Path db, double leadS, double holdS) throws SQLException {
        Histogram h = LatencyHistogram.empty();
        LoadSeries.Builder perSecond = new LoadSeries.Builder(EnumSet.copyOf(LoadSeries.Kind.PER_REQUEST), holdS);
        long answered = 0, status = 0, bytes = 0;
        if (!Files.isRegularFile(db)) return new Window(h, 0, 0, 0, perSecond.build()); // oha writes no database when nothing was answered
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             var st = c.prepareStatement("SELECT duration, status, len_bytes, \"end\" FROM oha WHERE COALESCE(start_latency_correction, start) >= ?")) {
            st.setDouble(1, leadS);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    double latency = rs.getDouble(1);
                    LatencyHistogram.recordSeconds(h, latency);
                    answered++;
                    boolean bad = rs.getInt(2) >= 400;
                    if (bad) status++;
                    bytes += rs.getLong(3);
                    perSecond.add(rs.getDouble(4) - leadS, true, bad, latency);
                }
            }
        }
        return new Window(h, answered, status, bytes, perSecond.build());
    }
}
