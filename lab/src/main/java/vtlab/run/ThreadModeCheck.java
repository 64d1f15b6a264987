package vtlab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import vtlab.plan.VerificationFailed;
import vtlab.probe.JfrRecording;
import vtlab.probe.ThreadDump;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.tool.Jdk;
import vtlab.tier.host.TierProcess;

/**
 * The thread mode of a service that does not report it (no runtime-info: ./vtlab ab), proven under the warm-up's
 * load by two independent witnesses, so that neither luck nor a fast endpoint decides it:
 * <ul>
 * <li>JSON thread dumps (which list virtual threads), a few in every warm-up slice until one catches a request in
 * flight: good at slow endpoints (a request waiting is in every dump), bad at one that answers in microseconds;</li>
 * <li>JFR execution samples over the whole warm-up (jdk.ExecutionSample every {@link #SAMPLE_PERIOD}; each names its
 * thread and whether it is virtual, JDK 21 and 25 alike): good exactly where dumps are bad, as a busy endpoint is
 * the one that gets sampled.</li>
 * </ul>
 * A virtual row must show requests on virtual threads, a platform row none; a row is unproven only when the whole
 * warm-up gave neither witness a request. A wrong property name or a framework that ignores it fails the row before
 * the hold. The JFR recording stops when the mode is proven (it never runs in the measured hold).
 */
final class ThreadModeCheck {
    static final String NOT_IN_EFFECT = "virtual threads not in effect";
    static final String UNPROVEN = "the thread mode is unproven";
    /** Frames of a request being served, whatever the service's own code: the servlet containers' request paths. */
    static final List<String> SERVER_FRAMES = vtlab.probe.TimeBreakdown.SERVER_FRAMES;
    /** Dumps at these fractions of each warm-up slice, until one shows a request in flight. */
    static final double[] AT = {0.3, 0.5, 0.7};
    /** JFR's "profile" setting: ~100 samples a second of a busy core, a few hundred in a 2 s warm-up. */
    static final Duration SAMPLE_PERIOD = Duration.ofMillis(10);
    static final String RECORDING = "vtlab-mode-check";
    /** Frames kept per sample: a Spring MVC request is ~100 deep from the thread's run() to its handler. */
    static final int STACK_DEPTH = vtlab.probe.ProfileProbe.STACK_DEPTH;
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Threads (dumps) or samples (JFR) serving a request, by kind of thread.
     *
     * @param platformInServer of the platform ones, those inside a servlet container's request path ({@link #SERVER_FRAMES}),
     *                         not only in the service's own package (which a platform thread of its own, a scheduler's, may be)
     */
    record Seen(int virtual, int platform, int platformInServer) {
        /** Every platform thread seen in a server's request path. */
        Seen(int virtual, int platform) {
            this(virtual, platform, platform);
        }

        Seen plus(Seen o) {
            return new Seen(virtual + o.virtual, platform + o.platform, platformInServer + o.platformInServer);
        }

        boolean any() {
            return virtual > 0 || platform > 0;
        }
    }

    /** What was tried, for the verdict's message. */
    record Tried(int dumps, int slices, Duration warmup, String jfr) {}

    private final Threads runsOn;
    private final List<String> frames;
    private Seen dumped = new Seen(0, 0), sampled = new Seen(0, 0);
    private int dumps, slices;
    private Duration watched = Duration.ZERO;
    /** Why there is no JFR witness (null while it records or once read). */
    private String jfrMissing = "not started";
    /** The JFR witness while it records (null before it starts and once stopped). */
    private JfrRecording recording;
    private boolean concluded, jfrRead;

    /** @param appPackages the service's own packages: a thread in their frames serves a request too */
    ThreadModeCheck(vtlab.stack.ThreadMode.Threads runsOn, List<String> appPackages) {
        // what the stack declares runs the mode's requests, not the mode's name, decides what the witnesses must see
        this.runsOn = runsOn.virtual() ? Threads.VIRTUAL : Threads.PLATFORM;
        List<String> f = new ArrayList<>(SERVER_FRAMES);
        f.addAll(appPackages);
        this.frames = List.copyOf(f);
    }

    /** Starts the JFR witness before the warm-up's load; a JVM that refuses it leaves the dumps to prove the mode. */
    void begin(Jdk jdk, TierProcess sut, Path raw, String stem) throws InterruptedException {
        try {
            try { // JFR's default 64 frames cut a deep framework stack above the server's own frames
                sut.site().jcmd(jdk, sut.pid(), List.of("JFR.configure", "stackdepth=" + STACK_DEPTH));
            } catch (IOException e) {
                // a JFR already running keeps its depth: the service's own package and the thread's kind still tell
            }
            recording = JfrRecording.start(sut, jdk, RECORDING, raw.resolve(stem + ".mode-check.jfc"), settings());
            jfrMissing = null;
        } catch (IOException e) {
            jfrMissing = "JFR could not start: " + e.getMessage().lines().findFirst().orElse("");
        }
    }

    static String settings() {
        return vtlab.probe.ProfileProbe.executionSamples("vtlab thread-mode check", SAMPLE_PERIOD, "");
    }

    boolean concluded() {
        return concluded;
    }

    /** Thread dumps of the SUT while a warm-up slice of length d runs (it started at t0), kept in raw/; stops once one is conclusive. */
    void during(Jdk jdk, TierProcess sut, Duration d, long t0, Path raw, String stem) throws IOException, InterruptedException {
        slices++;
        watched = watched.plus(d);
        for (double at : AT) {
            if (dumped.any()) return;
            long wait = t0 + (long) (d.toNanos() * at) - System.nanoTime();
            if (wait > 0) Thread.sleep(wait / 1_000_000);
            Path file = ThreadDump.take(sut, jdk, raw.resolve(stem + ".mode-check-" + (++dumps) + ".threads.json"));
            dumped = dumped.plus(count(Files.readString(file), frames));
        }
    }

    /**
     * After a slice's load: the JFR witness read so far (when the dumps caught nothing), and the verdict once either
     * witness saw a request. Throws when what was seen contradicts the row's mode.
     */
    void afterSlice(Jdk jdk, TierProcess sut, Path raw, String stem) throws VerificationFailed, RowRunner.RowFailed, InterruptedException {
        if (concluded) return;
        if (!dumped.any() && recording != null) readJfr(jdk, sut, raw, stem);
        if (dumped.any() || sampled.any()) conclude(jdk, sut);
    }

    /** At the end of the whole warm-up: throws unless what the witnesses saw fits the row's mode; stops the recording. */
    void conclude(Jdk jdk, TierProcess sut) throws VerificationFailed, RowRunner.RowFailed, InterruptedException {
        if (concluded) return;
        concluded = true;
        stop(jdk, sut);
        verdict(this.runsOn, dumped, jfrRead ? sampled : null, new Tried(dumps, slices, watched, jfrMissing));
    }

    /**
     * Stops the recording if it still runs (also when the row fails before a verdict). Throws when it cannot in a SUT
     * that still runs (a jcmd that timed out): its samples every 10 ms would run on into the measured hold.
     */
    void stop(Jdk jdk, TierProcess sut) throws RowRunner.RowFailed, InterruptedException {
        if (recording == null) return;
        JfrRecording r = recording;
        recording = null;
        try {
            r.stop();
        } catch (IOException e) {
            if (!sut.alive()) return; // the SUT exited: nothing records any more
            throw new RowRunner.RowFailed("the thread-mode check's JFR recording (samples every " + SAMPLE_PERIOD.toMillis()
                    + " ms) could not be stopped in the SUT, which still runs, so it would sample on into the measured hold: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private void readJfr(Jdk jdk, TierProcess sut, Path raw, String stem) throws InterruptedException {
        Path jfr = raw.resolve(stem + ".mode-check.jfr");
        try {
            Files.deleteIfExists(jfr);
            recording.dump(jfr);
            sampled = samples(jfr, frames); // the recording from its start: each dump holds every sample so far
            jfrRead = true;
        } catch (IOException e) {
            jfrMissing = "JFR could not be read: " + e.getMessage().lines().findFirst().orElse("");
        }
    }

    /**
     * The evidence, for the row's thread_mode_proof column; it starts with the flag thread-mode-mixed when a virtual
     * row's requests were seen on platform threads too (its validity flags the row from it).
     */
    String proof() {
        String what = describe(dumped, jfrRead ? sampled : null, new Tried(dumps, slices, watched, jfrMissing));
        return mixed(runsOn, jfrRead ? dumped.plus(sampled) : dumped) ? vtlab.check.Validity.THREAD_MODE_MIXED + ": " + what : what;
    }

    /**
     * A virtual row whose requests the witnesses saw on virtual threads and on platform threads in a server's request
     * path: it passes verification (virtual threads are in effect) but is not a virtual-thread measurement alone.
     */
    static boolean mixed(Threads runsOn, Seen seen) {
        return runsOn.virtual() && seen.virtual() > 0 && seen.platformInServer() > 0;
    }

    static String describe(Seen dumped, Seen sampled, Tried tried) {
        return dumped.virtual() + " request(s) on virtual threads, " + dumped.platform() + " on platform threads in "
                + tried.dumps() + " thread dump(s); " + (tried.jfr() != null ? "no JFR samples (" + tried.jfr() + ")"
                : sampled == null ? "JFR samples not read (the dumps sufficed)"
                : sampled.virtual() + " JFR execution sample(s) of requests on virtual threads, " + sampled.platform() + " on platform threads");
    }

    /** @param sampled null when the JFR witness was not read (the dumps sufficed) */
    static void verdict(Threads runsOn, Seen dumped, Seen sampled, Tried tried) throws VerificationFailed {
        String what = describe(dumped, sampled, tried);
        Seen seen = sampled == null ? dumped : dumped.plus(sampled);
        if (!seen.any()) {
            throw new VerificationFailed("no request seen under load over the whole " + tried.warmup().toSeconds() + " s warm-up ("
                    + tried.slices() + " slice(s)): " + what + " (" + UNPROVEN + "). Does the URL reach the service's request path"
                    + " (a servlet container, or its own package: --app-package)? If it answers in microseconds at low"
                    + " concurrency, give it a longer --warmup or a slower URL");
        }
        if (runsOn.virtual() && seen.virtual() == 0) throw new VerificationFailed(NOT_IN_EFFECT + ": " + what);
        if (!runsOn.virtual() && seen.virtual() > 0) {
            throw new VerificationFailed("a " + runsOn.word + " row ran requests on virtual threads: " + what);
        }
    }

    /** Threads, virtual or not, with a frame of the given packages on their stack. */
    static Seen count(String json, List<String> frames) throws IOException {
        int virtual = 0, platform = 0, inServer = 0;
        for (JsonNode container : JSON.readTree(json).path("threadDump").path("threadContainers")) {
            for (JsonNode t : container.path("threads")) {
                boolean serving = false, server = false, isVirtual = t.path(ThreadDump.VIRTUAL_FIELD).asBoolean(false);
                for (JsonNode f : t.path("stack")) {
                    // "loader/module@version/class.method(File.java:1)": the class part only
                    String frame = f.asText(), head = frame.contains("(") ? frame.substring(0, frame.indexOf('(')) : frame;
                    frame = head.substring(head.lastIndexOf('/') + 1);
                    if (frame.contains("java.lang.VirtualThread.")) isVirtual = true; // JDK 21 does not mark them
                    if (serves(frame, frames)) serving = true;
                    if (serves(frame, SERVER_FRAMES)) server = true;
                }
                if (!serving) continue;
                if (isVirtual) virtual++;
                else {
                    platform++;
                    if (server) inServer++;
                }
            }
        }
        return new Seen(virtual, platform, inServer);
    }

    /** Execution samples whose stack has a frame of the given packages, by the kind of the sampled thread. */
    static Seen samples(Path jfr, List<String> frames) throws IOException {
        int virtual = 0, platform = 0, inServer = 0;
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) continue;
                boolean serving = false, server = false, isVirtual = false;
                RecordedThread t = e.getThread("sampledThread");
                if (t != null && t.isVirtual()) isVirtual = true;
                for (RecordedFrame f : e.getStackTrace().getFrames()) {
                    if (f.getMethod() == null || f.getMethod().getType() == null) continue;
                    String frame = f.getMethod().getType().getName() + "." + f.getMethod().getName();
                    if (frame.startsWith("java.lang.VirtualThread.")) isVirtual = true; // a carrier's stack running one
                    if (serves(frame, frames)) serving = true;
                    if (serves(frame, SERVER_FRAMES)) server = true;
                }
                if (!serving) continue;
                if (isVirtual) virtual++;
                else {
                    platform++;
                    if (server) inServer++;
                }
            }
        }
        return new Seen(virtual, platform, inServer);
    }

    private static boolean serves(String frame, List<String> frames) {
        for (String f : frames) if (frame.startsWith(f)) return true;
        return false;
    }
}
