package vtlab.run;

import java.util.ArrayList;
import java.util.List;

import vtlab.probe.Measurements;
import vtlab.probe.Probe;
import vtlab.probe.ProbeContext;
import vtlab.probe.SutNotClean;

/**
 * One row's probes through their calls. Every call is guarded: a probe that throws costs its own columns, not the
 * row; the error is kept for the row's note.
 */
final class ProbeSession {
    private final List<Probe> probes;
    private final Measurements measurements = new Measurements();
    private final List<String> errors = new ArrayList<>();
    private boolean sutClean = true;

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
    void afterLoad(vtlab.data.RowValues row) {
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

    private void guard(Probe p, Call call) {
        try {
            call.run();
        } catch (Exception e) {
            if (e instanceof SutNotClean) sutClean = false;
            String msg = p.name() + ": " + e.getMessage();
            if (!errors.contains(msg)) errors.add(msg);
        }
    }
}
