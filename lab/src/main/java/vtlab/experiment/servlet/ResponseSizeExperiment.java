package vtlab.experiment.servlet;

import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.data.Rows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import vtlab.experiment.RowStats;
import vtlab.experiment.seeds.SeedClaims;
import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.Params;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.tool.Jdk;

/**
 * Seed 003's throughput sweep: GET /bytes?n=N (a response of exactly N bytes, no other work) for several N, from one
 * connection to far more connections than the SUT has cores, on Tomcat's platform pool and on virtual threads.
 */
public final class ResponseSizeExperiment implements Experiment {
    static final List<String> DEFAULT_SIZES = List.of("10", "1k", "10k", "100k", "1m");

    @Override
    public String name() {
        return "response-size";
    }

    @Override
    public String summary() {
        return "throughput by response size x concurrency (seed 003): 10 B to 1 MB, 1 to 32 connections, platform vs virtual";
    }

    static final Opt SIZES = Opt.of("sizes", String.join(",", DEFAULT_SIZES), "response sizes in bytes").quick("10,1m");
    static final Opt CONC = Opt.of("conc", "1,2,4,8,16,32", "concurrent connections, up to well above the SUT's cores").quick("1,2,8");
    static final List<Opt> TIMING = PlanContext.timingOptions("3s", "7s", 1, "the first row of each mode warms up 10 s (--quick: 6 s: a cold JVM);\n"
            + "defaults: 60 rows, about 12-16 min; --quick: 12 rows, about 3 min");

    @Override
    public List<Opt> options() {
        List<Opt> a = new ArrayList<>(List.of(SIZES, CONC, vtlab.experiment.ThreadModes.OPTION, ServletIoExperiment.MAX_THREADS));
        a.addAll(TIMING);
        return a;
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        Stack stack = Stack.load("servlet");
        List<String> modes = vtlab.experiment.ThreadModes.OPTION.chosen(o);
        List<Long> sizes = ServletIoExperiment.sizes(SIZES, o);
        List<Integer> conc = CONC.ints(o);
        PlanContext.Timing t = ctx.timing(o, TIMING);
        Duration cold = ServletIoExperiment.coldWarmup(o, t);
        int maxThreads = ServletIoExperiment.MAX_THREADS.integer(o);
        stack.workload("bytes");

        List<Row> rows = new ArrayList<>();
        // Mode outermost: one warm JVM per mode.
        for (Jdk jdk : ctx.jdks())
            for (String mode : modes) {
                List<Params> params = sizes.stream().map(b -> Params.NONE.with("bytes", Long.toString(b))).toList();
                ServletRig.warmSweep(rows, name(), stack, jdk, mode, "bytes", params, conc, t, cold, ServletIoExperiment.tomcat(maxThreads), ctx);
            }
        return rows;
    }

    /**
     * Seed 003's three statements about this sweep, each with this run's numbers (ok rows only): the first, a claim
     * SeedClaims declares, by its verdict there ({@link SeedClaims#linesFor}); the other two judged here.
     */
    @Override
    public List<Finding> findings(java.nio.file.Path runDir, List<DataRow> rows) {
        return SeedClaims.withVerdicts(name(), rows, lines(rows));
    }

    List<String> lines(List<DataRow> rows) {
        List<String> out = new ArrayList<>();
        List<DataRow> ok = RowStats.evidence(rows, out);
        if (ok.isEmpty()) return out;
        List<Long> sizes = ok.stream().map(r -> Long.parseLong(r.param("bytes"))).distinct().sorted().toList();
        List<Integer> conc = ok.stream().map(r -> Integer.parseInt(r.text(Columns.CONCURRENCY))).distinct().sorted().toList();
        int cores = RowStats.appCores(ok);

        // 1. The bigger the response, the smaller the difference: a claim SeedClaims declares, so its verdict is
        //    SeedClaims' (at the highest concurrency); here the difference at each size (mean over concurrency).
        List<String> bySize = new ArrayList<>();
        for (long s : sizes) {
            double p = RowStats.pairedPct(ok, size(s).and(Rows.inMode(Threads.VIRTUAL)), size(s).and(Rows.inMode(Threads.PLATFORM)), r -> r.text(Columns.CONCURRENCY));
            if (Double.isNaN(p)) continue;
            bySize.add(RowStats.size(s) + " " + RowStats.signedPct(p));
        }
        if (!bySize.isEmpty()) out.add("virtual vs platform by response size (over the concurrencies both have): " + String.join(", ", bySize));
        out.addAll(SeedClaims.linesFor(name(), rows));

        // 2. Platform threads do worse at concurrency 2 than at 1.
        if (conc.contains(1) && conc.contains(2)) {
            List<String> parts = new ArrayList<>();
            int worse = 0, n = 0;
            for (long s : sizes) {
                double p = RowStats.pct(RowStats.rps(ok, size(s).and(Rows.inMode(Threads.PLATFORM)).and(at(2))), RowStats.rps(ok, size(s).and(Rows.inMode(Threads.PLATFORM)).and(at(1))));
                if (Double.isNaN(p)) continue;
                parts.add(RowStats.size(s) + " " + RowStats.signedPct(p));
                n++;
                if (p < 0) worse++;
            }
            if (n > 0) {
                out.add("seed 003: platform-thread throughput is worse at concurrency 2 than at 1. Platform c=2 vs c=1: " + String.join(", ", parts)
                        + (worse * 2 > n ? " (supports: worse for " + worse + " of " + n + " sizes)" : " (does not support: worse for " + worse + " of " + n + " sizes)"));
            }
        }

        // 3. Above the core count, virtual threads have the higher throughput.
        List<Integer> above = conc.stream().filter(c -> cores > 0 && c > cores).toList();
        if (!above.isEmpty()) {
            int ahead = 0, n = 0;
            List<String> parts = new ArrayList<>();
            for (int c : above) {
                double p = RowStats.pairedPct(ok, Rows.inMode(Threads.VIRTUAL).and(at(c)), Rows.inMode(Threads.PLATFORM).and(at(c)), r -> r.param("bytes"));
                if (Double.isNaN(p)) continue;
                parts.add("c=" + c + " " + RowStats.signedPct(p));
                n++;
                if (p > 0) ahead++;
            }
            if (n > 0) {
                out.add("seed 003: once concurrency exceeds the processor count, virtual threads show higher throughput. The SUT had " + cores
                        + " core(s); virtual vs platform (over the sizes both have): " + String.join(", ", parts)
                        + (ahead * 2 > n ? " (supports: ahead at " + ahead + " of " + n + ")" : " (does not support: ahead at " + ahead + " of " + n + ")"));
            }
        }
        String left = RowStats.notUsed(rows);
        if (left != null) out.add(left);
        return out;
    }

    private static Predicate<DataRow> size(long s) {
        return r -> String.valueOf(s).equals(r.param("bytes"));
    }


    private static Predicate<DataRow> at(int c) {
        return r -> r.text(Columns.CONCURRENCY).equals(String.valueOf(c));
    }
}
