package vtlab.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import vtlab.core.UsageError;
import vtlab.data.Column;
import vtlab.data.RowValues;
import vtlab.data.RequestTime.Cause;

/**
 * Where each request's time goes: a JFR recording of the SUT over the hold (execution samples every 10 ms; monitor
 * enters and waits, parks, socket reads and sleeps of at least the threshold, 1 ms by default; GC pauses), with the
 * request threads' on-CPU and run-queue time from /proc/PID/task/TID/schedstat, turned into shares of the hold's
 * total request time (see {@link TimeBreakdown}): time_cpu_pct … time_other_pct, the largest cause and its evidence.
 * Started before the warm-up like jfr-pinning (only the hold's events count), dumped and stopped with jcmd where the
 * SUT runs; the recording is kept as raw/STEM.profile.jfr, the breakdown with every cause's evidence as
 * raw/STEM.profile.txt. The OS accounting is read on this machine only (across hosts CPU time is estimated from the
 * samples and the run queue is left empty).
 */
public final class ProfileProbe implements Probe {
    static final String RECORDING = "vtlab-profile";
    static final Duration SAMPLE_PERIOD = Duration.ofMillis(10);
    /** Frames kept per event: a Spring MVC request is ~100 deep from the thread's run() to its handler. */
    public static final int STACK_DEPTH = 512;

    static final Map<Cause, Column> SHARES = new java.util.EnumMap<>(Cause.class);

    static {
        for (Cause c : Cause.values()) {
            SHARES.put(c, Column.number(c.column(), "%", "share of the hold's request time (throughput × mean latency × hold) "
                    + c.label + " (profile probe)"));
        }
    }

    static final Column TOP = Column.text("time_top_cause", "the largest share of request time (profile probe): cpu, runqueue, monitor, park, pool_wait, db, downstream, sleep, gc or other");
    static final Column EVIDENCE = Column.text("time_top_evidence", "what the largest cause was: the top frame and owner, the lock's class, the socket's peer, the pauses");
    static final Column OWNERS = Column.text("time_cpu_owners", "request threads' execution samples by owner of their leaf-most frame outside the JDK (owner pct;...)");
    static final Column REQUEST_S = Column.number("time_request_s", "s", "the hold's total request time: throughput × mean latency × hold (Little's law: requests in flight × hold), at most connections × hold in the closed model");
    static final Column FLAME = Column.text("profile_flame", "async-profiler's wall-clock flame graph of the SUT over the hold in raw/ (interactive HTML)");
    static final Column FILE = Column.text("profile_jfr", "the profile probe's recording in raw/ (.jfr; the breakdown with every cause's evidence in .profile.txt)");

    private static final Pattern DURATION = Pattern.compile("(\\d+)(us|ms)");

    private Duration threshold = Duration.ofMillis(1);
    /** JSON thread dumps per hold on virtual rows: where JFR does not see a virtual thread, they do. */
    private int dumps = 4;
    private final List<Path> dumpFiles = new ArrayList<>();
    private String dumpError;
    /** async-profiler's flame graph of the hold (flame=false: none); the library's path where the SUT runs once loaded. */
    private boolean flame = true;
    private String flameLibrary, flameError;
    private Path flameFile;
    private JfrRecording recording;
    private Instant from, to;
    private Map<Long, long[]> schedStart, schedEnd;
    private Map<Long, String> names = Map.of();
    private TimeBreakdown.Seen seen;
    private TimeBreakdown.Classifier classifier;
    private ProbeContext ctx;

    @Override
    public String name() {
        return "profile";
    }

    @Override
    public String description() {
        return "where request time goes (JFR samples, monitor/park/socket/sleep >= 1 ms, GC; schedstat): time_*_pct, time_top_cause";
    }

    @Override
    public List<Column> columns() {
        List<Column> all = new ArrayList<>(SHARES.values());
        all.addAll(List.of(TOP, EVIDENCE, OWNERS, REQUEST_S, FILE, FLAME));
        return all;
    }

    /** jcmd on the SUT's host, the recording brought back; the OS accounting only here. */
    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public void configure(Map<String, String> options) throws UsageError {
        for (Map.Entry<String, String> o : options.entrySet()) {
            if (o.getKey().equals("flame")) {
                if (!List.of("true", "false").contains(o.getValue())) throw new UsageError("profile:flame takes true or false, not '" + o.getValue() + "'");
                flame = Boolean.parseBoolean(o.getValue());
                continue;
            }
            if (o.getKey().equals("dumps")) {
                if (!o.getValue().matches("\\d{1,2}")) throw new UsageError("profile:dumps takes a count of thread dumps per hold (0-99), not '" + o.getValue() + "'");
                dumps = Integer.parseInt(o.getValue());
                continue;
            }
            if (!o.getKey().equals("threshold")) throw new UsageError("probe profile has no option '" + o.getKey() + "' (known: threshold, dumps, flame)");
            Matcher m = DURATION.matcher(o.getValue());
            if (!m.matches()) throw new UsageError("profile:threshold takes a duration like 0ms, 500us or 1ms, not '" + o.getValue() + "'");
            long n = Long.parseLong(m.group(1));
            threshold = m.group(2).equals("us") ? Duration.ofNanos(n * 1000) : Duration.ofMillis(n);
        }
    }

    Duration threshold() {
        return threshold;
    }

    /**
     * JFR's default of 64 frames cuts a framework's stack above the server's request path. Debug information at every
     * compiled instruction, not only at safepoints: without it a sample in a C2 loop with no safepoint poll (a counted
     * loop under Serial GC, the 1-CPU SUT's default) names the frame after the loop — the CPU control's own 8 MB
     * allocation loop was 98% "the web framework" (Tomcat's setContentType, called next), 77% its own frame with it.
     */
    @Override
    public List<String> jvmArgs() {
        return List.of("-XX:FlightRecorderOptions:stackdepth=" + STACK_DEPTH, "-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints");
    }

    static String settings(Duration threshold) {
        StringBuilder events = new StringBuilder("""
                  <event name="jdk.GCPhasePause">
                    <setting name="enabled">true</setting>
                    <setting name="threshold">0 ms</setting>
                  </event>
                """);
        for (String e : List.of("jdk.JavaMonitorEnter", "jdk.JavaMonitorWait", "jdk.ThreadPark", "jdk.SocketRead", "jdk.ThreadSleep")) {
            events.append("""
                      <event name="%s">
                        <setting name="enabled">true</setting>
                        <setting name="stackTrace">true</setting>
                        <setting name="threshold">%d us</setting>
                      </event>
                    """.formatted(e, threshold.toNanos() / 1000));
        }
        return executionSamples("vtlab profile", SAMPLE_PERIOD, events.toString());
    }

    /** JFR settings (.jfc) with execution samples every period and the given further events (XML). */
    public static String executionSamples(String label, Duration period, String moreEvents) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <configuration version="2.0" label="%s">
                  <event name="jdk.ExecutionSample">
                    <setting name="enabled">true</setting>
                    <setting name="period">%d ms</setting>
                  </event>
                %s</configuration>
                """.formatted(label, period.toMillis(), moreEvents);
    }

    @Override
    public void beforeLoad(ProbeContext ctx, Measurements out) throws Exception {
        recording = JfrRecording.start(ctx.app(), ctx.row().jdk(), RECORDING, ctx.rawDir().resolve(ctx.stem() + ".profile.jfc"), settings(threshold));
    }

    @Override
    public void start(ProbeContext ctx) {
        if (flame) {
            try {
                Path lib = AsyncProfiler.library();
                if (lib == null) throw new IOException("no async-profiler library for " + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
                flameLibrary = ctx.app().site().send(lib);
                AsyncProfiler.command(ctx.app(), ctx.row().jdk(), flameLibrary, AsyncProfiler.start((int) SAMPLE_PERIOD.toMillis()));
            } catch (IOException e) {
                flameError = e.getMessage();
                flameLibrary = null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        schedStart = schedstat(ctx);
        from = Instant.now();
    }

    /** On virtual rows, a JSON thread dump at evenly spaced seconds of the hold (dumps=N, default 4; 0: none). */
    @Override
    public void sample(ProbeContext ctx, double second, Measurements out) {
        if (dumps == 0 || dumpError != null || !ctx.row().threadMode().contains("virtual") || dumpFiles.size() >= dumps) return;
        double every = ctx.row().hold().toMillis() / 1000.0 / (dumps + 1);
        if (second < every * (dumpFiles.size() + 1)) return;
        Path file = ctx.rawDir().resolve(ctx.stem() + ".profile-dump-" + (dumpFiles.size() + 1) + ".json");
        try {
            dumpFiles.add(ThreadDump.take(ctx.app(), ctx.row().jdk(), file));
        } catch (IOException e) {
            dumpError = e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void stop(ProbeContext ctx) throws Exception {
        to = Instant.now();
        schedEnd = schedstat(ctx);
        if (flameLibrary != null) {
            Path html = ctx.rawDir().resolve(ctx.stem() + ".flame.html");
            AsyncProfiler.command(ctx.app(), ctx.row().jdk(), flameLibrary, "stop,file=" + ctx.app().site().path(html));
            flameFile = html;
        }
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) throws Exception {
        if (recording == null) return;
        this.ctx = ctx;
        Path jfr = recording.finish(ctx.rawDir().resolve(ctx.stem() + ".profile.jfr"));
        recording = null;
        out.put(FILE, jfr.getFileName().toString());
        if (flameFile != null) {
            ctx.app().site().fetch(flameFile);
            out.put(FLAME, flameFile.getFileName().toString());
        }
        classifier = new TimeBreakdown.Classifier(vtlab.stack.Stack.load(ctx.row().stack()).launch().appPackages(),
                TimeBreakdown.dbPorts(ctx.row().sutEnv()));
        seen = TimeBreakdown.read(jfr, from, to != null ? to : Instant.now(), classifier);
        if (flameError != null) throw new IOException("no flame graph: " + flameError); // the row's note says so; the breakdown stands
    }

    /** The generator's columns are in: the shares of the hold's request time. */
    @Override
    public void afterLoad(RowValues row, Measurements out) throws IOException {
        if (seen == null) return;
        Double rps = number(row, "throughput_rps"), mean = number(row, "mean_ms"), hold = number(row, "duration_s");
        if (rps == null || mean == null || hold == null || !(rps > 0)) return;
        double requestS = requestSeconds(rps, mean, hold, ctx.row().open() ? null : ctx.row().concurrency());
        boolean virtual = ctx.row().threadMode().contains("virtual");
        List<String> texts = new ArrayList<>();
        for (Path f : dumpFiles) texts.add(Files.readString(f));
        TimeBreakdown.DumpSeen fromDumps = TimeBreakdown.readDumps(texts, classifier);
        TimeBreakdown.Seen seen = TimeBreakdown.withDumps(this.seen, fromDumps, requestS);
        double cpuS = Double.NaN, runqueueS = Double.NaN;
        int threads = 0;
        if (schedStart != null && schedEnd != null && !schedEnd.isEmpty()) {
            cpuS = 0;
            runqueueS = 0;
            for (Map.Entry<Long, long[]> e : schedEnd.entrySet()) {
                long tid = e.getKey();
                boolean request = virtual ? names.getOrDefault(tid, "").startsWith("ForkJoinPool-") : seen.platformTids().contains(tid);
                if (!request) continue;
                long[] a = schedStart.getOrDefault(tid, new long[] {0, 0}), b = e.getValue();
                cpuS += (b[0] - a[0]) / 1e9;
                runqueueS += (b[1] - a[1]) / 1e9;
                threads++;
            }
            if (threads == 0) cpuS = runqueueS = Double.NaN;
        }
        int cpus = ctx.tierCpus().getOrDefault("app", 1);
        TimeBreakdown.Result r = TimeBreakdown.compute(seen, requestS, hold, cpuS, runqueueS, threads, cpus, SAMPLE_PERIOD.toNanos() / 1e9);
        r.pct().forEach((c, v) -> {
            if (v != null) out.put(SHARES.get(c), v);
        });
        out.put(TOP, r.top().key);
        out.put(EVIDENCE, r.evidence());
        if (!r.cpuOwners().isEmpty()) out.put(OWNERS, r.cpuOwners());
        out.put(REQUEST_S, Math.round(requestS * 10) / 10.0);
        Files.writeString(ctx.rawDir().resolve(ctx.stem() + ".profile.txt"), render(r, seen, requestS, cpuS, runqueueS, threads, virtual)
                + (virtual ? String.format(Locale.ROOT, "%nthread dumps: %d (%d observations of virtual request threads)%s%n", fromDumps.dumps(),
                fromDumps.observations(), dumpError == null ? "" : "; a dump failed: " + dumpError) : ""));
    }

    /**
     * The hold's request time: throughput × mean latency × hold (Little's law), and in the closed model at most the
     * connections × the hold (each has one request in flight at a time). wrk corrects its latencies for coordinated
     * omission (a request queued behind a slow one gets synthetic samples as if it had been sent on schedule), so under
     * uneven latency (GC pauses) its mean overstates the real one: 6.3 ms for a real 2.2 ms at one connection in the
     * GC control, three times the hold, all of it "other".
     *
     * @param closedConcurrency the closed model's connections; null in the open model (no cap)
     */
    static double requestSeconds(double rps, double meanMs, double holdS, Integer closedConcurrency) {
        double littles = rps * meanMs / 1000 * holdS;
        return closedConcurrency == null ? littles : Math.min(littles, closedConcurrency * holdS);
    }

    static Double number(RowValues row, String column) {
        return row.get(column) instanceof Number n ? n.doubleValue() : null;
    }

    static String render(TimeBreakdown.Result r, TimeBreakdown.Seen seen, double requestS, double cpuS, double runqueueS, int threads,
                         boolean virtual) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "request time in the hold: %.1f s (throughput × mean latency × hold, at most connections × hold)%n", requestS));
        sb.append(String.format(Locale.ROOT, "request threads read from schedstat: %d (%s): on CPU %.2f s, run queue %.2f s%n", threads,
                virtual ? "carriers" : "platform threads seen serving requests", cpuS, runqueueS));
        if (r.scaled()) sb.append("what was seen exceeded the request time (overlaps, sampling): the shares are scaled to 100%\n");
        sb.append("largest: ").append(r.topLine()).append("\n\n");
        for (Cause c : Cause.values()) {
            Double v = r.pct().get(c);
            sb.append(String.format(Locale.ROOT, "%-12s %6s%%  %s%n", c.key, v == null ? "-" : String.format(Locale.ROOT, "%.1f", v), c.label));
            seen.evidence().getOrDefault(c, Map.of()).entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(5)
                    .forEach(e -> sb.append(String.format(Locale.ROOT, "             %9.2f s  %s%n", e.getValue(), e.getKey())));
        }
        sb.append("\nCPU by owner (execution samples of request threads, ").append(seen.samplesTotal()).append("): ").append(r.cpuOwners()).append('\n');
        seen.topFrames().entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(10)
                .forEach(e -> sb.append(String.format(Locale.ROOT, "  %6d  %s%n", e.getValue(), e.getKey())));
        return sb.toString();
    }

    /** tid -> {on-CPU ns, run-queue ns} of every thread of a SUT on this machine; empty elsewhere. */
    private Map<Long, long[]> schedstat(ProbeContext ctx) {
        Map<Long, long[]> out = new HashMap<>();
        if (ctx.app() == null || ctx.app().local().isEmpty()) return out;
        Map<Long, String> comm = new HashMap<>(names);
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(ctx.app().pid()), "task"))) {
            tasks.forEach(t -> {
                try {
                    long[] v = parseSchedstat(Files.readString(t.resolve("schedstat")));
                    long tid = Long.parseLong(t.getFileName().toString());
                    out.put(tid, v);
                    comm.put(tid, Files.readString(t.resolve("comm")).trim());
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read
                }
            });
        } catch (IOException e) {
            return out;
        }
        names = comm;
        return out;
    }

    /** /proc/PID/task/TID/schedstat: "on-CPU ns, run-queue wait ns, timeslices". */
    static long[] parseSchedstat(String line) {
        String[] f = line.trim().split("\\s+");
        return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])};
    }

    /** The request threads this probe read, for tests. */
    Set<Long> platformTids() {
        return seen == null ? Set.of() : seen.platformTids();
    }
}
