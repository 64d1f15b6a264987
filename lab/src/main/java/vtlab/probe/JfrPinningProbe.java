package vtlab.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

import vtlab.data.Column;
import vtlab.data.Columns;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import vtlab.stack.ThreadMode.Threads;

/**
 * JFR jdk.VirtualThreadPinned events of the SUT during the hold (virtual-mode rows only): count, total and max
 * pinned time, the JDK's pinned reason (JDK 24+), and the distinct stacks trimmed to the application's frames.
 * The recording starts before warm-up (so attaching costs nothing measured) and only events inside the measured
 * window are counted. The threshold defaults to 0 ms (every pin; JFR's own default is 20 ms):
 * jfr-pinning:threshold=5ms (or --pin-threshold 5ms). Started and dumped with jcmd where the SUT runs (across hosts:
 * on its host, the recording copied back into raw/), read here.
 */
public final class JfrPinningProbe implements Probe {
    static final String RECORDING = "vtlab-pinning";
    /** Frames of these packages are the application's own (the lab's stacks): what a stack is trimmed to. */
    static final List<String> APP_PACKAGES = List.of("vtlab.");

    static final Column EVENTS = Columns.PINNED;
    static final Column TOTAL = Columns.PINNED_TOTAL_MS;
    static final Column MAX = Columns.PINNED_MAX_MS;
    static final Column REASONS = Columns.PINNED_REASONS;
    static final Column TOP_FRAME = Columns.PINNED_TOP_FRAME;

    private static final java.util.regex.Pattern DURATION = java.util.regex.Pattern.compile("(\\d+)(ms|s|m)?");

    private Duration threshold = Duration.ZERO;
    private Instant measureStart;
    private JfrRecording recording;

    @Override
    public List<Column> columns() {
        return List.of(EVENTS, TOTAL, MAX, REASONS, TOP_FRAME);
    }

    @Override
    public String name() {
        return "jfr-pinning";
    }

    /** jcmd on the SUT's host, the recording brought back. */
    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public String description() {
        return "JFR jdk.VirtualThreadPinned on virtual rows: pinned_events, total/max ms, reasons, stacks (pinning.txt)";
    }

    @Override
    public void configure(Map<String, String> options) throws vtlab.core.UsageError {
        for (Map.Entry<String, String> o : options.entrySet()) {
            if (!o.getKey().equals("threshold")) {
                throw new vtlab.core.UsageError("probe jfr-pinning has no option '" + o.getKey() + "' (known: threshold)");
            }
            java.util.regex.Matcher m = DURATION.matcher(o.getValue());
            if (!m.matches()) {
                throw new vtlab.core.UsageError("jfr-pinning:threshold takes a duration like 0ms, 5ms or 1s, not '" + o.getValue() + "'");
            }
            long n = Long.parseLong(m.group(1));
            threshold = switch (m.group(2) == null ? "s" : m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofSeconds(n);
            };
        }
    }

    Duration threshold() {
        return threshold;
    }

    static boolean applies(ProbeContext ctx) {
        return ctx.row().threadMode().contains(Threads.VIRTUAL.word);
    }

    static String settings(Duration threshold) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <configuration version="2.0" label="vtlab pinning">
                  <event name="jdk.VirtualThreadPinned">
                    <setting name="enabled">true</setting>
                    <setting name="stackTrace">true</setting>
                    <setting name="threshold">%d ms</setting>
                  </event>
                </configuration>
                """.formatted(threshold.toMillis());
    }

    @Override
    public void beforeLoad(ProbeContext ctx, Measurements out) throws Exception {
        if (!applies(ctx)) return;
        recording = JfrRecording.start(ctx.app(), ctx.row().jdk(), RECORDING, ctx.rawDir().resolve(ctx.stem() + ".pinning.jfc"), settings(threshold));
    }

    @Override
    public void start(ProbeContext ctx) {
        measureStart = Instant.now();
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) throws Exception {
        if (recording == null) return;
        Instant measureEnd = Instant.now();
        Path jfr = recording.finish(ctx.rawDir().resolve(ctx.stem() + ".pinning.jfr"));
        recording = null;
        // a service from the command line has its own packages (Start-Class, --app-package)
        Pins pins = read(jfr, measureStart, measureEnd, vtlab.stack.Stack.load(ctx.row().stack()).launch().appPackages());
        out.put(EVENTS, pins.count());
        out.put(TOTAL, pins.totalMs());
        out.put(MAX, pins.maxMs());
        out.put(REASONS, pins.reasons().entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(";")));
        if (pins.topFrame() != null) out.put(TOP_FRAME, pins.topFrame());
        Path file = ctx.rawDir().getParent().resolve("pinning.txt");
        Files.writeString(file, pins.render(ctx.stem() + "  " + ctx.row().scenario() + " rep " + ctx.row().rep(), 5),
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /**
     * What the recording holds between two instants.
     *
     * @param topFrame the most common frame outside the JDK nearest a pin, "class.method:line (n)", null without pins
     */
    public record Pins(int count, double totalMs, double maxMs, Map<String, Integer> reasons, List<Map.Entry<String, Integer>> stacks,
                       String topFrame) {
        public String render(String title, int top) {
            StringBuilder sb = new StringBuilder("## ").append(title).append('\n');
            sb.append(String.format(java.util.Locale.ROOT, "%d pinned events, total %.1f ms, max %.1f ms, reasons %s%n", count, totalMs, maxMs, reasons));
            stacks.stream().limit(top).forEach(e -> sb.append(String.format("%6d x %s%n", e.getValue(), e.getKey().replace("\n", "\n         "))));
            return sb.append('\n').toString();
        }
    }

    public static Pins read(Path jfr, Instant from, Instant to) throws IOException {
        return read(jfr, from, to, APP_PACKAGES);
    }

    /** @param appPackages the application's packages, whose frames a stack is trimmed to */
    public static Pins read(Path jfr, Instant from, Instant to, List<String> appPackages) throws IOException {
        int count = 0;
        double total = 0, max = 0;
        Map<String, Integer> reasons = new TreeMap<>();
        Map<String, Integer> stacks = new LinkedHashMap<>();
        Map<String, Integer> culprits = new LinkedHashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (!e.getEventType().getName().equals("jdk.VirtualThreadPinned")) continue;
            if (from != null && e.getStartTime().isBefore(from)) continue;
            if (to != null && e.getStartTime().isAfter(to)) continue;
            count++;
            double ms = e.getDuration().toNanos() / 1e6;
            total += ms;
            max = Math.max(max, ms);
            String reason = e.hasField("pinnedReason") && e.getString("pinnedReason") != null ? e.getString("pinnedReason") : "(JDK gives no reason)";
            reasons.merge(reason, 1, Integer::sum);
            List<RecordedFrame> frames = e.getStackTrace() == null ? List.of() : e.getStackTrace().getFrames();
            stacks.merge(trim(frames, appPackages), 1, Integer::sum);
            culprits.merge(culprit(frames), 1, Integer::sum);
        }
        List<Map.Entry<String, Integer>> top = new ArrayList<>(stacks.entrySet());
        top.sort((a, b) -> b.getValue() - a.getValue());
        String topFrame = culprits.entrySet().stream().max(Map.Entry.comparingByValue())
                .map(e -> e.getKey() + " (" + e.getValue() + ")").orElse(null);
        return new Pins(count, Math.round(total * 10) / 10.0, Math.round(max * 10) / 10.0, reasons, top, topFrame);
    }

    /** Packages of the JDK itself: a pin's cause is the first frame below them (pgjdbc's LruCache.borrow, a synchronized of the application). */
    static final List<String> JDK_PACKAGES = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.");

    /** The frame outside the JDK nearest the top of a pinned stack: the code that pinned (a library's, or the application's). */
    static String culprit(List<RecordedFrame> frames) {
        return firstOutsideJdk(frames.stream().map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName() + ":" + f.getLineNumber()).toList());
    }

    /** Of frames written "class.method:line", top first: the first whose class is not the JDK's. */
    static String firstOutsideJdk(List<String> frames) {
        return frames.stream().filter(f -> JDK_PACKAGES.stream().noneMatch(f::startsWith)).findFirst().orElse("(only JDK frames)");
    }

    /** The blocking frame on top, then the application's own frames (the rest is JDK, Tomcat and Spring plumbing). */
    static String trim(List<RecordedFrame> frames, List<String> appPackages) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            RecordedFrame f = frames.get(i);
            String type = f.getMethod().getType().getName();
            boolean app = appPackages.stream().anyMatch(type::startsWith);
            if (i == 0 || app) out.add(type + "." + f.getMethod().getName() + ":" + f.getLineNumber() + (f.getType().equals("Native") ? " (native)" : ""));
            if (out.size() >= 8) break;
        }
        return out.isEmpty() ? "(no stack)" : String.join("\n", out);
    }
}
