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
import vtlab.data.Columns;
import vtlab.data.RowValues;
import vtlab.data.RequestTime.Cause;
import vtlab.stack.ThreadMode.Threads;

/**
 * Where each request's time goes: a JFR recording of the SUT over a hold (execution samples every 20 ms by default;
 * monitor enters and waits, parks, socket reads and sleeps of at least the threshold, 1 ms by default; GC pauses), with
 * the SUT's threads' on-CPU and run-queue time from /proc/PID/task/TID/schedstat, turned into shares of the hold's
 * total request time (see {@link TimeBreakdown}): time_cpu_pct … time_other_pct, the largest cause and its evidence.
 *
 * <p>It {@link #explains() explains}: it runs in a hold of its own after the measured one (vtlab.run.ExplainingHold),
 * never while the row's numbers are taken. One sampler only, JFR's: the flame graph is made from the same recording's
 * execution samples by async-profiler's converter, not by a second, wall-clock sampler in the SUT (the two together
 * cost virtual threads 17% of their throughput). The recording starts with that hold and is dumped and stopped with
 * jcmd where the SUT runs; it is kept as raw/STEM.profiled.profile.jfr, the breakdown with every cause's evidence as
 * raw/STEM.profiled.profile.txt. The OS accounting is read on this machine only (across hosts CPU time is estimated
 * from the samples and the run queue is left empty).
 */
public final class ProfileProbe implements Probe {
    static final String RECORDING = "vtlab-profile";
    /** JFR's own default period: 10 ms (its "profile" setting) doubled the samples and their cost for no change in a share. */
    static final Duration SAMPLE_PERIOD = Duration.ofMillis(20);
    /** Frames kept per event: a Spring MVC request is ~100 deep from the thread's run() to its handler. */
    public static final int STACK_DEPTH = 512;

    static final Map<Cause, Column> SHARES = new java.util.EnumMap<>(Cause.class);

    static {
        for (Cause c : Cause.values()) {
            SHARES.put(c, c.column());
        }
    }

    static final Column TOP = Columns.TIME_TOP;
    static final Column DOMINANT = Columns.TIME_DOMINANT;
    static final Column QUEUE = Columns.TIME_QUEUE;
    static final Column QUEUE_EVIDENCE = Columns.TIME_QUEUE_EVIDENCE;
    static final Column OWN = Columns.TIME_OWN;
    static final Column SUT_BUSY = Column.number("time_sut_cpu_pct", "%", "the SUT's CPUs busy over the profiled hold, all its threads (schedstat): at 90% or more, request time no source saw is time queued for the CPU");
    static final Column CORES_BUSY = Column.number("time_sut_cores_busy_pct", "%", "the SUT's CPUs busy over the profiled hold by every process at its priority or above (/proc/stat; a lower-priority build's time was the SUT's for the asking): the SUT's own share is time_sut_cpu_pct, the rest another process's");
    static final Column TAIL = Columns.TIME_TAIL;
    static final Column EVIDENCE = Columns.TIME_EVIDENCE;
    static final Column OWNERS = vtlab.data.Columns.TIME_CPU_OWNERS;
    static final Column REQUEST_S = Column.number("time_request_s", "s", "the hold's total request time: throughput × mean latency × hold (Little's law: requests in flight × hold), at most connections × hold in the closed model");
    static final Column FLAME = Columns.PROFILE_FLAME;
    static final Column FILE = Columns.PROFILE_JFR;

    private static final Pattern DURATION = Pattern.compile("(\\d+)(us|ms)");

    private Duration threshold = Duration.ofMillis(1);
    /**
     * JSON thread dumps per hold: how many requests the server's threads hold (its own share of request time, both thread
     * models), and on virtual rows where JFR does not see a virtual thread, where it is.
     */
    private int dumps = 4;
    private final List<Path> dumpFiles = new ArrayList<>();
    /** The load's sockets with bytes waiting, summed over the dumps' instants. */
    private TimeBreakdown.ReceiveQueues receiveQueues = TimeBreakdown.ReceiveQueues.NONE;
    /** A virtual row's sleeps counted from its thread dumps, not from an event per sleep (see settings). */
    private boolean sleepsFromDumps;
    private String dumpError;
    /** A flame graph of the recording's execution samples (flame=false: none). */
    private boolean flame = true;
    private Duration period = SAMPLE_PERIOD;
    private JfrRecording recording;
    private Instant from, to;
    private Map<Long, long[]> schedStart, schedEnd;
    /** /proc/stat of the SUT's CPUs (busy, total jiffies, every process) at the hold's start and end; null elsewhere. */
    private long[] coresStart, coresEnd;
    /** Lower-priority processes' ticks through the hold, read at every sample so a build ending in it keeps its ticks. */
    private LowerPriorityTicks lower;
    /** The processes at a lower priority than the SUT's (pid), by pid {user, system, parent}: from /proc. */
    java.util.function.LongFunction<Map<Long, long[]>> lowerPriorityProcesses = pid -> Proc.lowerPriorityProcesses(Proc.nice(pid), java.util.Set.of(pid));
    /** The SUT's established outgoing TCP connections at the hold's end, "host:port" with their count. */
    private Map<String, Integer> peers = Map.of();
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
        return "where request time goes, in a profiled hold after the measured one (JFR samples, monitor/park/socket/sleep >= 1 ms, GC; schedstat): time_*_pct, time_top_cause, what profiling cost";
    }

    @Override
    public boolean explains() {
        return true;
    }

    @Override
    public List<Column> columns() {
        List<Column> all = new ArrayList<>(SHARES.values());
        all.addAll(List.of(TOP, DOMINANT, QUEUE, QUEUE_EVIDENCE, OWN, Columns.TIME_SERVER, SUT_BUSY, CORES_BUSY, EVIDENCE, TAIL, OWNERS, Columns.TIME_CPU_SAMPLES, REQUEST_S, FILE, FLAME));
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
            if (o.getKey().equals("period")) {
                Matcher m = Pattern.compile("(\\d{1,4})ms").matcher(o.getValue());
                if (!m.matches() || Integer.parseInt(m.group(1)) < 1) throw new UsageError("profile:period takes JFR's sampling period like 10ms or 20ms, not '" + o.getValue() + "'");
                period = Duration.ofMillis(Integer.parseInt(m.group(1)));
                continue;
            }
            if (o.getKey().equals("dumps")) {
                if (!o.getValue().matches("\\d{1,2}")) throw new UsageError("profile:dumps takes a count of thread dumps per hold (0-99), not '" + o.getValue() + "'");
                dumps = Integer.parseInt(o.getValue());
                continue;
            }
            if (!o.getKey().equals("threshold")) throw new UsageError("probe profile has no option '" + o.getKey() + "' (known: threshold, period, dumps, flame)");
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

    Duration period() {
        return period;
    }

    static String settings(Duration threshold) {
        return settings(threshold, SAMPLE_PERIOD, true);
    }

    /**
     * @param sleepEvents false on a virtual row with thread dumps: a sleeping virtual thread is unmounted and the dumps
     *                    see it, while an event per sleep, with its stack, is a cost per request — on a virtual row
     *                    that fills its one core (/sleep?ms=50, 400 connections, 7,400 req/s), the profiled hold's
     *                    throughput fell by about 3 points more with the sleep events than without (3 reps each)
     */
    static String settings(Duration threshold, Duration period, boolean sleepEvents) {
        StringBuilder events = new StringBuilder("""
                  <event name="jdk.GCPhasePause">
                    <setting name="enabled">true</setting>
                    <setting name="threshold">0 ms</setting>
                  </event>
                """);
        for (String e : List.of("jdk.JavaMonitorEnter", "jdk.JavaMonitorWait", "jdk.ThreadPark", "jdk.SocketRead", "jdk.ThreadSleep")) {
            if (e.equals("jdk.ThreadSleep") && !sleepEvents) continue;
            events.append("""
                      <event name="%s">
                        <setting name="enabled">true</setting>
                        <setting name="stackTrace">true</setting>
                        <setting name="threshold">%d us</setting>
                      </event>
                    """.formatted(e, threshold.toNanos() / 1000));
        }
        return executionSamples("vtlab profile", period, events.toString());
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

    /**
     * The recording starts after the measured hold, right before the profiled hold's load (its beforeLoad comes there,
     * see vtlab.run.ExplainingHold): nothing of the warm-up or the measured hold is recorded, and JFR's start-up in the
     * SUT (seconds on a thrashing 40 MB heap, the GC control's: a recording started with the load held nothing) is
     * over before the load begins. Only the events from the hold's start count.
     */
    @Override
    public void beforeLoad(ProbeContext ctx, Measurements out) throws Exception {
        sleepsFromDumps = dumps > 0 && ctx.row().threadMode().contains(Threads.VIRTUAL.word);
        recording = JfrRecording.start(ctx.app(), ctx.row().jdk(), RECORDING, ctx.rawDir().resolve(ctx.stem() + ".profile.jfc"),
                settings(threshold, period, !sleepsFromDumps));
    }

    @Override
    public void start(ProbeContext ctx) throws Exception {
        schedStart = schedstat(ctx);
        lower = new LowerPriorityTicks();
        coresStart = cores(ctx);
        from = Instant.now();
    }

    /**
     * A JSON thread dump at evenly spaced seconds of the hold (dumps=N, default 4; 0: none), in both thread models; one a
     * call at most, and the runner calls once a second, so a 5 s hold takes 4 however many are asked.
     */
    @Override
    public void sample(ProbeContext ctx, double second, Measurements out) {
        lowerPriority(ctx);
        if (dumps == 0 || dumpError != null || dumpFiles.size() >= dumps) return;
        double every = ctx.row().hold().toMillis() / 1000.0 / (dumps + 1);
        if (second < every * (dumpFiles.size() + 1)) return;
        Path file = ctx.rawDir().resolve(ctx.stem() + ".profile-dump-" + (dumpFiles.size() + 1) + ".json");
        try {
            dumpFiles.add(ThreadDump.take(ctx.app(), ctx.row().jdk(), file));
            // where the requests outside the server are, at the same instant: the kernel's receive queues of both ends
            if (!ctx.app().local().isEmpty() && ctx.sutBase() != null) {
                int[] u = unread(LocalServers.tcpTables(ctx.app().pid()), ctx.sutBase().getPort());
                receiveQueues = new TimeBreakdown.ReceiveQueues(receiveQueues.instants() + 1, receiveQueues.unreadByServer() + u[0],
                        receiveQueues.unreadByClient() + u[1]);
            }
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
        coresEnd = cores(ctx);
        peers = peers(ctx);
    }

    /**
     * The SUT's established TCP connections to others (its sockets in /proc/PID/fd matched in /proc/PID/net/tcp and
     * tcp6), by remote "host:port": those from its own listening port (the load) and to a database port left out. An
     * HTTP client's request thread parks while its selector reads, so this is where the downstream's address shows.
     */
    private static Map<String, Integer> peers(ProbeContext ctx) {
        if (ctx.app() == null || ctx.app().local().isEmpty() || ctx.sutBase() == null) return Map.of();
        long pid = ctx.app().pid();
        try {
            return establishedPeers(LocalServers.tcpTables(pid), LocalServers.socketInodes(pid), ctx.sutBase().getPort(),
                    TimeBreakdown.dbPorts(ctx.row().sutEnv()));
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
    }

    /**
     * The load's connections with bytes waiting in the kernel at one instant (/proc/net/tcp's rx_queue of established
     * sockets): {requests the server had not read (its sockets on ownPort), answers the client had not read (the
     * sockets whose peer is ownPort)}. The table is the network namespace's, so the client's sockets are in it too.
     */
    static int[] unread(String procNetTcp, int ownPort) {
        int server = 0, client = 0;
        for (String line : procNetTcp.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 5 || !f[0].endsWith(":") || !f[3].equals("01")) continue;
            int local = Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16), remote = Integer.parseInt(f[2].substring(f[2].indexOf(':') + 1), 16);
            long rx = Long.parseLong(f[4].substring(f[4].indexOf(':') + 1), 16);
            if (rx == 0) continue;
            if (local == ownPort) server++;
            else if (remote == ownPort) client++;
        }
        return new int[] {server, client};
    }

    /** Remote "host:port" of the established connections (state 01) among these socket inodes, with their count. */
    static Map<String, Integer> establishedPeers(String procNetTcp, Set<String> inodes, int ownPort, Set<Integer> dbPorts) {
        Map<String, Integer> out = new java.util.TreeMap<>();
        for (String line : procNetTcp.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 10 || !f[0].endsWith(":") || !f[3].equals("01") || !inodes.contains(f[9])) continue;
            int local = Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16);
            String remote = address(f[2]);
            int remotePort = Integer.parseInt(remote.substring(remote.lastIndexOf(':') + 1));
            if (local == ownPort || dbPorts.contains(remotePort)) continue;
            out.merge(remote, 1, Integer::sum);
        }
        return out;
    }

    /** "0100007F:1F90" (tcp) or an IPv4-mapped tcp6 address as "127.0.0.1:8080"; other IPv6 as hex words. */
    static String address(String hexHostPort) {
        String host = hexHostPort.substring(0, hexHostPort.indexOf(':'));
        int port = Integer.parseInt(hexHostPort.substring(hexHostPort.indexOf(':') + 1), 16);
        if (host.length() == 32 && host.startsWith("0000000000000000FFFF0000")) host = host.substring(24);
        if (host.length() == 8) {
            long v = Long.parseLong(host, 16); // little-endian
            return (v & 0xff) + "." + (v >> 8 & 0xff) + "." + (v >> 16 & 0xff) + "." + (v >> 24 & 0xff) + ":" + port;
        }
        return "[" + host + "]:" + port;
    }

    /**
     * Jiffies of the CPUs the SUT may run on (/proc/stat) and what lower-priority processes had of them: {busy by every
     * process, total, nice on them, nice on every CPU, lower-priority processes' system ticks}; null where it cannot be
     * read. For a niced SUT its own time is in the nice jiffies: then nothing is taken for lower-priority work.
     */
    private long[] cores(ProbeContext ctx) {
        if (ctx.app() == null || ctx.app().local().isEmpty()) return null;
        try {
            long pid = ctx.app().pid();
            String allowed = Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                    .filter(l -> l.startsWith("Cpus_allowed_list:")).map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse(null);
            if (allowed == null) return null;
            long[] c = coreJiffies(Files.readString(Path.of("/proc/stat")), vtlab.proc.CoreMap.parse(allowed, Runtime.getRuntime().availableProcessors() * 64));
            if (Proc.nice(pid) > 0) return new long[] {c[0], c[1], 0, 0, 0};
            long[] lowerNow = lowerPriority(ctx);
            return lowerNow == null ? null : new long[] {c[0], c[1], c[2], c[3], lowerNow[1]};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Lower-priority processes' {user, system} ticks so far, the SUT's own left out; null without a local SUT. */
    private long[] lowerPriority(ProbeContext ctx) {
        if (lower == null || ctx.app() == null || ctx.app().local().isEmpty()) return null;
        return lower.read(lowerPriorityProcesses.apply(ctx.app().pid()));
    }

    /** Lower-priority processes' system ticks over the hold, as the SUT's busy share takes them out; null unread. */
    Long lowerSystemTicks() {
        return coresStart == null || coresEnd == null ? null : coresEnd[4] - coresStart[4];
    }

    /**
     * {busy, total, nice} jiffies of these CPUs and the nice jiffies of every CPU, from /proc/stat's "cpuN user nice
     * system idle iowait irq softirq steal" lines and its "cpu" line.
     */
    static long[] coreJiffies(String procStat, int[] cpus) {
        Set<String> wanted = new java.util.HashSet<>();
        for (int c : cpus) wanted.add("cpu" + c);
        long busy = 0, total = 0, nice = 0, niceAll = 0;
        for (String line : procStat.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f[0].equals("cpu") && f.length > 2) niceAll = Long.parseLong(f[2]);
            if (!wanted.contains(f[0]) || f.length < 5) continue;
            long idle = 0, all = 0;
            for (int i = 1; i < Math.min(f.length, 9); i++) {
                long v = Long.parseLong(f[i]);
                all += v;
                if (i == 4 || i == 5) idle += v; // idle, iowait
            }
            busy += all - idle;
            total += all;
            nice += Long.parseLong(f[2]);
        }
        return new long[] {busy, total, nice, niceAll};
    }

    /**
     * The share of the SUT's CPUs busy between two {@link #cores} readings with work at its priority or above. A
     * lower-priority process (a build at nice 19 and idle priority) runs only on time the SUT leaves, so its time there
     * was the SUT's for the asking: its user time on them (their nice jiffies) and its system time in the same
     * proportion (the kernel does not say on which CPU a process's system time was spent). NaN without both.
     */
    static double busyShare(long[] from, long[] to) {
        if (from == null || to == null || to[1] <= from[1]) return Double.NaN;
        double niceHere = to[2] - from[2], niceAll = to[3] - from[3], lowerSystem = to[4] - from[4];
        double lower = niceHere + (niceAll > 0 ? lowerSystem * niceHere / niceAll : 0);
        return Math.max(0, (to[0] - from[0]) - lower) / (to[1] - from[1]);
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) throws Exception {
        if (recording == null) return;
        this.ctx = ctx;
        Path jfr = recording.finish(ctx.rawDir().resolve(ctx.stem() + ".profile.jfr"));
        recording = null;
        out.put(FILE, jfr.getFileName().toString());
        classifier = new TimeBreakdown.Classifier(vtlab.stack.Stack.load(ctx.row().stack()).launch().appPackages(),
                TimeBreakdown.dbPorts(ctx.row().sutEnv()));
        seen = TimeBreakdown.read(jfr, from, to != null ? to : Instant.now(), classifier);
        if (flame) {
            Path html = ctx.rawDir().resolve(ctx.stem() + ".flame.html");
            flameGraph(jfr, html, ctx.row().threadMode() + ", " + ctx.row().workload() + " at " + ctx.row().concurrency()
                    + " connections: CPU samples of the profiled hold");
            out.put(FLAME, html.getFileName().toString());
        }
    }

    /** async-profiler's converter over the recording's execution samples (JDK JFR's jdk.ExecutionSample). */
    static void flameGraph(Path jfr, Path html, String title) throws IOException {
        one.convert.JfrToFlame.convert(jfr.toString(), html.toString(), new one.convert.Arguments("--title", title));
    }

    /** The generator's columns are in: the shares of the hold's request time. */
    @Override
    public void afterLoad(RowValues row, Measurements out) throws IOException {
        if (seen == null) return;
        Double rps = number(row, Columns.RPS), mean = number(row, Columns.MEAN_MS), hold = number(row, Columns.DURATION_S);
        if (rps == null || mean == null || hold == null || !(rps > 0)) return;
        // the window the recording saw (from its start to the load's end), within the hold: its events are all there is
        double window = from != null && to != null ? Math.min(hold, Duration.between(from, to).toNanos() / 1e9) : hold;
        if (window < hold / 2) throw new IOException(String.format(Locale.ROOT, "the recording covered %.1f s of the %.1f s profiled hold: no breakdown", window, hold));
        hold = window;
        double requestS = requestSeconds(rps, mean, hold, ctx.row().open() ? null : ctx.row().concurrency());
        boolean virtual = ctx.row().threadMode().contains(Threads.VIRTUAL.word);
        List<String> texts = new ArrayList<>();
        for (Path f : dumpFiles) texts.add(Files.readString(f));
        TimeBreakdown.DumpSeen fromDumps = TimeBreakdown.readDumps(texts, classifier, sleepsFromDumps);
        // the server's own request time: the requests its threads held at the dumps' average instant, over the window
        double serverS = Math.min(requestS, fromDumps.inServerPerDump() * hold);
        // a virtual row's dump shares are of the requests in the server, so they size the server's time, not the client's
        TimeBreakdown.Seen seen = TimeBreakdown.withDumps(this.seen, fromDumps, Double.isNaN(serverS) ? requestS : serverS);
        double cpuS = Double.NaN, runqueueS = Double.NaN;
        int threads = 0;
        int cpus = ctx.tierCpus().getOrDefault("app", 1);
        TimeBreakdown.SutCpu sut = TimeBreakdown.SutCpu.UNKNOWN;
        if (schedStart != null && schedEnd != null && !schedEnd.isEmpty()) {
            cpuS = 0;
            runqueueS = 0;
            double allCpuS = 0, othersRunqueueS = 0;
            Map<String, Double> others = new HashMap<>();
            for (Map.Entry<Long, long[]> e : schedEnd.entrySet()) {
                long tid = e.getKey();
                long[] a = schedStart.getOrDefault(tid, new long[] {0, 0}), b = e.getValue();
                allCpuS += (b[0] - a[0]) / 1e9;
                boolean request = virtual ? names.getOrDefault(tid, "").startsWith("ForkJoinPool-") : seen.platformTids().contains(tid);
                if (!request) {
                    othersRunqueueS += (b[1] - a[1]) / 1e9;
                    others.merge(names.getOrDefault(tid, "tid " + tid), (b[1] - a[1]) / 1e9, Double::sum);
                    continue;
                }
                cpuS += (b[0] - a[0]) / 1e9;
                runqueueS += (b[1] - a[1]) / 1e9;
                threads++;
            }
            if (threads == 0) cpuS = runqueueS = Double.NaN;
            String top = others.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(2)
                    .map(e -> String.format(Locale.ROOT, "%s %.1f s", e.getKey(), e.getValue())).collect(java.util.stream.Collectors.joining(", "));
            double coresBusy = busyShare(coresStart, coresEnd);
            // one window for both CPU figures: schedstat's deltas span start() to stop(), as /proc/stat's do, so their
            // own wall time is the denominator (the hold as the generator counted it is shorter by its start and end:
            // "its own threads 105% busy, every process 63%" came from dividing by it)
            double schedWindow = from != null && to != null ? Duration.between(from, to).toNanos() / 1e9 : window;
            sut = new TimeBreakdown.SutCpu(schedWindow > 0 ? Math.min(1.0, allCpuS / (schedWindow * cpus)) : Double.NaN, coresBusy, othersRunqueueS, top);
        }
        TimeBreakdown.Result r = TimeBreakdown.compute(seen, requestS, hold, cpuS, runqueueS, threads, cpus, period.toNanos() / 1e9, sut,
                ctx.row().open() ? 0 : ctx.row().concurrency(), serverS, receiveQueues, fromDumps.peakInServer());
        if (!Double.isNaN(r.serverPct())) out.put(Columns.TIME_SERVER, r.serverPct());
        r.pct().forEach((c, v) -> {
            if (v != null) out.put(SHARES.get(c), v);
        });
        out.put(TOP, r.top().key);
        out.put(DOMINANT, r.dominant());
        out.put(QUEUE, r.queue() == null ? "" : r.queue().key);
        if (r.queue() != null) out.put(QUEUE_EVIDENCE, r.queueEvidence());
        out.put(OWN, r.ownPct());
        String evidence = r.evidence();
        if (r.top() == Cause.DOWNSTREAM && !peers.isEmpty() && !evidence.contains("socket reads from")) {
            evidence += "; the service's connections: " + peers.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")")
                    .collect(java.util.stream.Collectors.joining(", "));
        }
        if (!Double.isNaN(sut.busy())) out.put(SUT_BUSY, Math.round(1000 * sut.busy()) / 10.0);
        if (!Double.isNaN(sut.coresBusy())) out.put(CORES_BUSY, Math.round(1000 * sut.coresBusy()) / 10.0);
        out.put(EVIDENCE, evidence);
        Double p99 = number(row, Columns.P99);
        String tail = p99 == null ? "" : TimeBreakdown.tail(seen, p99, r, virtual, fromDumps);
        if (!tail.isEmpty()) out.put(TAIL, tail);
        if (!r.cpuOwners().isEmpty()) out.put(OWNERS, r.cpuOwners());
        out.put(Columns.TIME_CPU_SAMPLES, seen.samplesTotal());
        out.put(REQUEST_S, Math.round(requestS * 10) / 10.0);
        Files.writeString(ctx.rawDir().resolve(ctx.stem() + ".profile.txt"), render(r, seen, requestS, cpuS, runqueueS, threads, virtual)
                + String.format(Locale.ROOT, "%nthread dumps: %d (%d requests inside the server over them, at most %d in one%s)%s%n", fromDumps.dumps(), Math.max(0, fromDumps.inServer()),
                Math.max(0, fromDumps.peakInServer()),
                virtual ? String.format(Locale.ROOT, "; %d observations of virtual request threads", fromDumps.observations()) : "",
                dumpError == null ? "" : "; a dump failed: " + dumpError)
                + (Double.isNaN(serverS) ? "the server's own request time: not known (no dumps, or none saw a request thread): what no source saw is other\n"
                : String.format(Locale.ROOT, "the server's own request time: %.1f s of %.1f s (%.0f%%); outside the server %.1f s%n", serverS, requestS,
                100 * serverS / requestS, requestS - serverS))
                + (tail.isEmpty() ? "" : "\n" + tail + "\n")
                + (peers.isEmpty() ? "" : "\nthe service's established outgoing connections at the hold's end: " + peers + "\n")
                + (Double.isNaN(sut.busy()) ? "" : String.format(Locale.ROOT, "the SUT's CPUs: its own threads %.1f%% busy, every process %.1f%%%n",
                100 * sut.busy(), 100 * sut.coresBusy())));
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

    static Double number(RowValues row, Column column) {
        return row.get(column) instanceof Number n ? n.doubleValue() : null;
    }

    static String render(TimeBreakdown.Result r, TimeBreakdown.Seen seen, double requestS, double cpuS, double runqueueS, int threads,
                         boolean virtual) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "request time in the hold: %.1f s (throughput × mean latency × hold, at most connections × hold)%n", requestS));
        sb.append(String.format(Locale.ROOT, "request threads read from schedstat: %d (%s): on CPU %.2f s, run queue %.2f s%n", threads,
                virtual ? "carriers" : "platform threads seen serving requests", cpuS, runqueueS));
        if (r.scaled()) sb.append("what was seen exceeded the request time (overlaps, sampling): the shares are scaled to 100%\n");
        sb.append("largest: ").append(r.topLine()).append('\n');
        sb.append(r.queue() == null
                ? String.format(Locale.ROOT, "bottleneck: none (no queue of %.0f%% or more): working, not waiting%n", vtlab.data.RequestTime.MATERIAL_QUEUE_PCT)
                : String.format(Locale.ROOT, "bottleneck: %.0f%% of request time %s (%s)%n", r.pct().get(r.queue()), r.queue().label, r.queueEvidence()));
        sb.append(String.format(Locale.ROOT, "the request's own work (its floor): %.0f%%%n%n", r.ownPct()));
        for (Cause c : Cause.values()) {
            Double v = r.pct().get(c);
            sb.append(String.format(Locale.ROOT, "%-12s %6s%%  %-6s %s%n", c.key, v == null ? "-" : String.format(Locale.ROOT, "%.1f", v),
                    c.kind.name().toLowerCase(Locale.ROOT), c.label));
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
