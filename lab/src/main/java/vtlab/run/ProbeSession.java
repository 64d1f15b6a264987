package vtlab.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import vtlab.data.Column;
import vtlab.data.RowValues;

import vtlab.probe.Measurements;
import vtlab.probe.Probe;
import vtlab.probe.ProbeContext;
import vtlab.probe.SutNotClean;

/**
 * One row's probes through their calls. Every call is guarded: a probe that throws costs its own columns, not the
 * row; the error is kept for the row's note. Each probe's calls are timed: what the hold phase spends around its load
 * (a live set's full collection, a recording parsed) is a probe's, and a row says whose ({@link #WALL}).
 */
final class ProbeSession {
    static final Column WALL = Column.text("probes_s",
            "wall time each probe's calls took in the row, its explaining probes' too (s, largest first;...): the row's time around its load that is the probes'");
    static final List<Column> COLUMNS = List.of(WALL);

    private final List<Probe> probes;
    private final Measurements measurements = new Measurements();
    private final List<String> errors = new ArrayList<>();
    private boolean sutClean = true;
    private final Map<String, Long> nanos = new LinkedHashMap<>();

    ProbeSession(List<Probe> probes) {
        this.probes = probes;
    }

    boolean none() {
        return probes.isEmpty();
    }

    List<String> jvmArgs() {
        List<String> args = new ArrayList<>();
        probes.forEach(p -> args.addAll(p.jvmArgs()));
        return args;
    }

    void beforeLoad(ProbeContext ctx) {
        for (Probe p : probes) guard(p, () -> p.beforeLoad(ctx, measurements));
    }

    void beforeHold(ProbeContext ctx) {
        for (Probe p : probes) guard(p, () -> p.beforeHold(ctx));
    }

    void start(ProbeContext ctx) {
        for (Probe p : probes) guard(p, () -> p.start(ctx));
    }

    void sample(ProbeContext ctx, double second) {
        for (Probe p : probes) guard(p, () -> p.sample(ctx, second, measurements));
    }

    /** Every probe's window closes before any probe's finish() reads the SUT (see Probe.stop). */
    void finish(ProbeContext ctx) {
        for (Probe p : probes) guard(p, () -> p.stop(ctx));
        for (Probe p : probes) guard(p, () -> p.finish(ctx, measurements));
    }

    /** The row so far, the generator's columns in it: the probes' last columns. */
    void afterLoad(RowValues row) {
        for (Probe p : probes) guard(p, () -> p.afterLoad(row, measurements));
    }

    Measurements measurements() {
        return measurements;
    }

    List<String> errors() {
        return List.copyOf(errors);
    }

    /** False once a probe could not undo what it started in the SUT ({@link SutNotClean}): no later row may use it. */
    boolean sutClean() {
        return sutClean;
    }

    private interface Call {
        void run() throws Exception;
    }

    /** The probes' wall time of this session and others (a row's explaining probes) into the row, largest first. */
    static void into(RowValues out, ProbeSession... sessions) {
        Map<String, Long> all = new LinkedHashMap<>();
        for (ProbeSession s : sessions) if (s != null) s.nanos.forEach((k, v) -> all.merge(k, v, Long::sum));
        if (all.isEmpty()) return;
        out.put(WALL, all.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> e.getKey() + " " + String.format(Locale.ROOT, "%.1f", e.getValue() / 1e9))
                .collect(Collectors.joining(";")));
    }

    private void guard(Probe p, Call call) {
        long t0 = System.nanoTime();
        try {
            call.run();
        } catch (Exception e) {
            if (e instanceof SutNotClean) sutClean = false;
            String msg = p.name() + ": " + e.getMessage();
            if (!errors.contains(msg)) errors.add(msg);
        } finally {
            nanos.merge(p.name(), System.nanoTime() - t0, Long::sum);
        }
    }
}
