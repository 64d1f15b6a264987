package vtlab.experiment.servlet;

import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import vtlab.experiment.RowStats;
import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.plan.RunOptions;
import vtlab.stack.Params;
import vtlab.stack.Settings;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.tool.Jdk;

/**
 * Seed 003's I/O questions on the servlet stack. Counting request-body bytes with a blocking ServletInputStream.read
 * loop (count) vs Servlet non-blocking I/O with ReadListener/WriteListener (count-async), across body sizes and
 * concurrency; and "Easy to use": the same downstream wait as blocking code (call: HttpClient.send) vs an async
 * servlet with a non-blocking client (call-async: sendAsync), against the stub tier. Every workload under the
 * platform pool and under virtual threads.
 */
public final class ServletIoExperiment implements Experiment {
    static final List<String> WORKLOADS = List.of("count", "count-async", "call", "call-async");
    static final List<String> DEFAULT_SIZES = List.of("1k", "10k", "100k", "1m");

    @Override
    public String name() {
        return "servlet-io";
    }

    @Override
    public String summary() {
        return "blocking vs non-blocking servlet I/O (seed 003): body counting by size x concurrency, blocking vs async downstream call; platform vs virtual";
    }

    static final Opt WORKLOADS_OPT = Opt.of("workloads", String.join(",", WORKLOADS), "count = blocking read loop, count-async = ReadListener;\n"
            + "call = blocking HttpClient.send to the stub, call-async = async servlet + sendAsync").withChoices(WORKLOADS);
    static final Opt SIZES = Opt.of("body-sizes", String.join(",", DEFAULT_SIZES), "request-body sizes of the count workloads").quick("1k,1m");
    static final Opt CONC_OPT = Opt.of("conc", "1,8,64", "concurrent connections").quick("8");
    static final Opt DELAY_MS = Opt.of("delay-ms", "100", "the downstream's wait for the call workloads (stub tier, non-blocking)");
    static final Opt MAX_THREADS = Opt.of("max-threads", "200", "platform pool size (Tomcat default)");
    static final List<Opt> TIMING = PlanContext.timingOptions("3s", "8s", 1, "the first row of each mode and workload warms up 10 s (--quick: 6 s), its\n"
            + "code being cold; defaults: 60 rows, about 15-18 min; --quick: 12 rows, about 3 min");

    @Override
    public List<Opt> options() {
        List<Opt> a = new ArrayList<>(List.of(WORKLOADS_OPT, vtlab.experiment.ThreadModes.OPTION, SIZES, CONC_OPT, DELAY_MS, MAX_THREADS));
        a.addAll(TIMING);
        return a;
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        Stack stack = Stack.load("servlet");
        List<String> modes = vtlab.experiment.ThreadModes.OPTION.chosen(o);
        List<String> workloads = WORKLOADS_OPT.chosen(o);
        List<Long> sizes = sizes(SIZES, o);
        List<Integer> conc = CONC_OPT.ints(o);
        PlanContext.Timing t = ctx.timing(o, TIMING);
        Duration cold = coldWarmup(o, t);
        int delayMs = DELAY_MS.integer(o);
        int maxThreads = MAX_THREADS.integer(o);
        for (String w : workloads) stack.workload(w);

        List<Row> rows = new ArrayList<>();
        // Mode outermost: every row of one mode shares one warm JVM (the call rows add the stub's address, and a JVM).
        for (Jdk jdk : ctx.jdks())
            for (String mode : modes)
                for (String w : workloads) {
                    List<Params> params = w.startsWith("call") ? List.of(Params.NONE.with("delayMs", Integer.toString(delayMs)))
                            : sizes.stream().map(b -> Params.NONE.with("bodyBytes", Long.toString(b))).toList();
                    ServletRig.warmSweep(rows, name(), stack, jdk, mode, w, params, conc, t, cold, tomcat(maxThreads), ctx);
                }
        return rows;
    }

    /** A --max-threads below the stack's 25 spare threads takes the spare count down with it (Tomcat refuses more). */
    static Settings tomcat(int maxThreads) {
        Settings axes = Settings.NONE.with("maxThreads", Integer.toString(maxThreads));
        return maxThreads < 25 ? axes.with("minSpareThreads", Integer.toString(maxThreads)) : axes;
    }

    /**
     * The warm-up of a row whose code path is new to its JVM (first of its mode and workload): 10 s (--quick: 6 s), as a
     * fresh Tomcat on one shared core is still compiling after 3 s; the rows after it reuse the warm JVM. --warmup
     * sets both.
     */
    static Duration coldWarmup(Options o, PlanContext.Timing t) throws UsageError {
        if (PlanContext.WARMUP.given(o)) return t.warmup();
        return Duration.ofSeconds(Math.max(RunOptions.QUICK.on(o) ? 6 : 10, t.warmup().toSeconds()));
    }

    static List<Long> sizes(Opt opt, Options o) throws UsageError {
        String name = opt.name();
        List<String> given = opt.list(o);
        List<Long> out = new ArrayList<>();
        for (String s : given) {
            long n;
            try {
                n = RowStats.parseSize(s);
            } catch (IllegalArgumentException e) {
                throw new UsageError("--" + name + ": " + e.getMessage());
            }
            if (n > 16L * 1024 * 1024) throw new UsageError("--" + name + ": at most 16m, not " + s);
            if (!out.contains(n)) out.add(n);
        }
        if (out.isEmpty()) throw new UsageError("--" + name + " needs at least one size");
        return out;
    }

    /** Seed 003's statements about blocking vs non-blocking, each with this run's numbers (ok rows only). */
    @Override
    public List<Finding> findings(java.nio.file.Path runDir, List<DataRow> rows) {
        return Finding.of(lines(rows));
    }

    List<String> lines(List<DataRow> rows) {
        List<String> out = new ArrayList<>();
        List<DataRow> ok = RowStats.evidence(rows, out);
        if (ok.isEmpty()) return out;
        List<Integer> conc = ok.stream().map(r -> Integer.parseInt(r.text(Columns.CONCURRENCY))).distinct().sorted().toList();

        // Counting: blocking reads on virtual threads vs the ReadListener on the platform pool, per body size.
        List<Long> sizes = ok.stream().filter(r -> r.text(Columns.WORKLOAD).startsWith("count"))
                .map(r -> Long.parseLong(r.param("bodyBytes"))).distinct().sorted().toList();
        if (!sizes.isEmpty()) {
            List<String> parts = new ArrayList<>();
            List<Double> diffs = new ArrayList<>();
            for (long s : sizes) {
                Predicate<DataRow> size = r -> String.valueOf(s).equals(r.param("bodyBytes"));
                double p = RowStats.pairedPct(ok, size.and(is("count", Threads.VIRTUAL.word)), size.and(is("count-async", Threads.PLATFORM.word)), CONC);
                if (!Double.isNaN(p)) {
                    parts.add(RowStats.size(s) + " " + RowStats.signedPct(p));
                    diffs.add(p);
                }
            }
            if (!parts.isEmpty()) {
                boolean comparable = diffs.stream().allMatch(d -> d >= -15);
                out.add("seed 003 (\"Easy to use\"): blocking code on virtual threads performs comparably to code refactored to non-blocking APIs. "
                        + "Request-body counting, blocking read on virtual threads vs ReadListener on the platform pool (over the concurrencies both have): " + String.join(", ", parts) + (comparable ? " (supports: never more than 15 % behind)"
                        : " (does not support: the non-blocking version is more than 15 % ahead somewhere)"));
            }
            List<String> vtOnAsync = new ArrayList<>();
            for (long s : sizes) {
                Predicate<DataRow> size = r -> String.valueOf(s).equals(r.param("bodyBytes"));
                double p = RowStats.pairedPct(ok, size.and(is("count-async", Threads.VIRTUAL.word)), size.and(is("count-async", Threads.PLATFORM.word)), CONC);
                if (!Double.isNaN(p)) vtOnAsync.add(RowStats.size(s) + " " + RowStats.signedPct(p));
            }
            if (!vtOnAsync.isEmpty()) {
                out.add("seed 003: code already non-blocking sees minimal differences with virtual threads. ReadListener counting, virtual vs platform: "
                        + String.join(", ", vtOnAsync));
            }
            List<String> blocking = new ArrayList<>();
            for (long s : sizes) {
                Predicate<DataRow> size = r -> String.valueOf(s).equals(r.param("bodyBytes"));
                double p = RowStats.pairedPct(ok, size.and(is("count", Threads.VIRTUAL.word)), size.and(is("count", Threads.PLATFORM.word)), CONC);
                if (!Double.isNaN(p)) blocking.add(RowStats.size(s) + " " + RowStats.signedPct(p));
            }
            if (!blocking.isEmpty()) out.add("blocking read loop, virtual vs platform: " + String.join(", ", blocking));
        }

        // The downstream call: blocking on virtual threads vs async servlet + sendAsync on the pool, per concurrency.
        List<String> calls = new ArrayList<>();
        List<Double> callDiffs = new ArrayList<>();
        for (int c : conc) {
            Predicate<DataRow> at = r -> r.text(Columns.CONCURRENCY).equals(String.valueOf(c));
            double p = RowStats.pct(RowStats.rps(ok, at.and(is("call", Threads.VIRTUAL.word))), RowStats.rps(ok, at.and(is("call-async", Threads.PLATFORM.word))));
            if (!Double.isNaN(p)) {
                calls.add("c=" + c + " " + RowStats.signedPct(p));
                callDiffs.add(p);
            }
        }
        if (!calls.isEmpty()) {
            boolean comparable = callDiffs.stream().allMatch(d -> d >= -15);
            out.add("seed 003 (\"Easy to use\"): virtual threads a little ahead of the refactored non-blocking code, more so at low concurrency and "
                    + "above the core count. Downstream call, blocking HttpClient.send on virtual threads vs async servlet + sendAsync on the platform pool: "
                    + String.join(", ", calls) + (comparable ? " (supports: comparable or better)" : " (does not support: the async version is more than 15 % ahead)"));
            List<String> pooled = new ArrayList<>();
            for (int c : conc) {
                Predicate<DataRow> at = r -> r.text(Columns.CONCURRENCY).equals(String.valueOf(c));
                double p = RowStats.pct(RowStats.rps(ok, at.and(is("call", Threads.PLATFORM.word))), RowStats.rps(ok, at.and(is("call-async", Threads.PLATFORM.word))));
                if (!Double.isNaN(p)) pooled.add("c=" + c + " " + RowStats.signedPct(p));
            }
            if (!pooled.isEmpty()) out.add("the same blocking call on the platform pool vs async: " + String.join(", ", pooled)
                    + " (blocking holds a pool thread for the whole wait)");
        }
        String left = RowStats.notUsed(rows);
        if (left != null) out.add(left);
        return out;
    }

    private static final java.util.function.Function<DataRow, String> CONC = r -> r.text(Columns.CONCURRENCY);

    private static Predicate<DataRow> is(String workload, String mode) {
        return r -> workload.equals(r.text(Columns.WORKLOAD)) && mode.equals(r.mode());
    }
}
