package vtlab.probe;

import vtlab.data.Column;
import vtlab.data.Columns;

/**
 * Peak OS thread count of the SUT process (/proc Threads): every platform thread the JVM runs (pool threads,
 * carriers, GC, JIT), not virtual threads, which are not OS threads. This is what thread stacks cost memory for.
 */
public final class ThreadsProbe implements Probe {
    static final Column MAX = Columns.THREADS_MAX;
    static final Column IDLE = Columns.THREADS_IDLE;

    @Override
    public java.util.List<Column> columns() {
        return java.util.List.of(MAX, IDLE);
    }

    @Override
    public String name() {
        return "threads";
    }

    /** /proc status of the SUT, read where it runs. */
    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public String description() {
        return "SUT OS threads, max over the hold (jvm_threads_max)";
    }

    /** The SUT before any load: its idle thread count (the footprint experiment's "before"). */
    @Override
    public void beforeLoad(ProbeContext ctx, Measurements out) {
        long n = Proc.statusField(ctx.app(), "Threads");
        if (n >= 0) out.put(IDLE, n);
    }

    @Override
    public void sample(ProbeContext ctx, double second, Measurements out) {
        long n = Proc.statusField(ctx.app(), "Threads");
        if (n < 0) return;
        out.max(MAX, n);
        if (second >= 0) out.point("threads", second, n);
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) {
        sample(ctx, -1, out);
    }
}
