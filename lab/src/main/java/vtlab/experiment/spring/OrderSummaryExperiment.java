package vtlab.experiment.spring;

import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.data.Rows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.tool.Jdk;

/**
 * The seed rig's hero (seed 002): one blocking Spring Boot 4 endpoint (a PostgreSQL lookup through HikariCP, then a
 * 100 ms downstream call), connection released after the query, pool 50, swept over concurrency in both thread
 * modes. Platform threads should plateau near 200 / (delay + query); virtual threads should pass that wall.
 * Ids: the SUT draws a uniform random order id per request (/api/order-summary/random), so wrk's single URL reads
 * the whole table.
 */
public final class OrderSummaryExperiment implements SpringRig.OrderQueries {
    @Override
    public String name() {
        return "order-summary";
    }

    /** Its rows run across hosts (--hosts). */
    @Override
    public boolean acrossHosts() {
        return true;
    }

    @Override
    public String summary() {
        return "Spring Boot 4 + PostgreSQL + 100 ms downstream (seed 002 hero): concurrency sweep, platform vs virtual, pool 50";
    }

    static final Opt CONC = SpringRig.CONC.withDefault("100,500,1000,2500,5000,10000").quick("100,1000");
    static final Opt POOL = Opt.of("pool", "50", "HikariCP pool size (fixed, min = max)");
    static final Opt CONN_MODE = Opt.of("conn-mode", "released", "released (hero) or held (connection held across the call)")
            .withChoices(List.of("released", "held"));

    @Override
    public List<Opt> options() {
        List<Opt> tail = new ArrayList<>(SpringRig.SUT_OPTIONS);
        tail.add(Opt.of("reseed", null, "rebuilds the PostgreSQL seed"));
        return SpringRig.options(List.of(CONC, POOL, CONN_MODE), tail, SpringRig.TIMING);
    }

    /** The options parsed once. */
    record Spec(List<Integer> conc, int pool, String connMode, SpringRig.SutSpec sut) {
        static Spec parse(Options o, PlanContext ctx, Stack stack) throws UsageError {
            List<Integer> conc = CONC.ints(o);
            return new Spec(conc, POOL.integer(o), CONN_MODE.choice(o), SpringRig.SutSpec.parse(o, ctx, stack, conc));
        }
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        Stack stack = Stack.load(SpringRig.STACK);
        Spec s = Spec.parse(o, ctx, stack);
        PlanContext.Timing t = s.sut().timing();
        List<Row> rows = new ArrayList<>();
        for (Jdk jdk : ctx.jdks())
            for (String mode : s.sut().modes()) // one warm SUT per mode, its rows back to back
                SpringRig.sweep(rows, name(), stack, jdk, s.sut().sut(mode, s.pool(), s.connMode()), s.conc(), true, t, s.sut().jvmArgs());
        return rows;
    }

    @Override
    public List<Finding> findings(java.nio.file.Path runDir, List<DataRow> rows) {
        return Finding.of(findingsOf(rows));
    }

    /** Where the platform plateau is below its wall, whether the SUT's CPU (not the threads) was the limit. */
    private static String platformSaturation(List<DataRow> rows, Predicate<DataRow> platform,
                                             TreeMap<Integer, Double> beyond, double plateau) {
        int at = beyond.entrySet().stream().filter(e -> e.getValue() == plateau).findFirst().orElseThrow().getKey();
        String sat = SpringRig.saturation(SpringRig.at(rows, platform, Columns.CONCURRENCY, at));
        return sat == null ? "" : " (at c=" + at + ": " + sat + ")";
    }

    static List<String> findingsOf(List<DataRow> rows) {
        List<String> out = new ArrayList<>();
        Predicate<DataRow> platform = Rows.inMode(Threads.PLATFORM), virtual = Rows.inMode(Threads.VIRTUAL);
        TreeMap<Integer, Double> p = SpringRig.meanBy(rows, platform, Columns.CONCURRENCY, Columns.RPS);
        TreeMap<Integer, Double> v = SpringRig.meanBy(rows, virtual, Columns.CONCURRENCY, Columns.RPS);
        if (p.isEmpty() && v.isEmpty()) {
            out.add("no row finished with status ok: nothing to conclude");
            return out;
        }
        DataRow any = rows.stream().filter(DataRow::ok).findFirst().orElseThrow();
        double delay = any.param("delayMs") != null ? Double.parseDouble(any.param("delayMs")) : 100;
        int threads = rows.stream().filter(platform).map(r -> r.param("maxThreads")).filter(x -> x != null)
                .mapToInt(Integer::parseInt).findFirst().orElse(200);
        double wall = threads * 1000.0 / delay;

        // Platform: beyond its thread count, more connections only queue.
        TreeMap<Integer, Double> beyond = new TreeMap<>(p.tailMap(threads, false));
        if (!beyond.isEmpty()) {
            double plateau = beyond.values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            out.add(String.format(java.util.Locale.ROOT,
                    "platform plateaus at %s for concurrency %s (%d Tomcat threads): %.0f%% of %d / %.0f ms = %s"
                            + (plateau >= 0.85 * wall ? "; the shortfall is query time and overhead" : ", far below that wall"),
                    SpringRig.rps(plateau), beyond.keySet(), threads, plateau / wall * 100, threads, delay, SpringRig.rps(wall))
                    + platformSaturation(rows, platform, beyond, plateau));
        } else if (!p.isEmpty()) {
            out.add("no platform row above " + threads + " connections: the thread wall was not reached");
        }

        // Virtual against platform, concurrency by concurrency.
        for (var e : v.entrySet()) {
            int c = e.getKey();
            Double pr = p.get(c);
            String s = "c=" + c + ": virtual " + SpringRig.rps(e.getValue());
            if (pr != null) s += " = " + SpringRig.times(e.getValue() / pr) + " platform (" + SpringRig.rps(pr) + ")";
            if (c >= 1000) {
                s += e.getValue() > wall * 1.05 ? ", above the platform wall of " + SpringRig.rps(wall)
                        : ", NOT above the platform wall of " + SpringRig.rps(wall);
            }
            String sat = SpringRig.saturation(SpringRig.at(rows, virtual, Columns.CONCURRENCY, c));
            if (sat != null) s += "; " + sat;
            out.add(s);
        }

        // Where virtual stops rising: the tier that saturated there.
        Integer peak = v.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
        if (peak != null && v.higherKey(peak) != null) {
            String sat = SpringRig.saturation(SpringRig.at(rows, virtual, Columns.CONCURRENCY, peak));
            out.add("virtual peaks at c=" + peak + " (" + SpringRig.rps(v.get(peak)) + ") and does not rise with more connections"
                    + (sat == null ? "" : "; " + sat));
        }

        // Released mode: waits for a connection although the query is sub-millisecond.
        TreeMap<Integer, Double> pending = SpringRig.meanBy(rows, virtual.and(r -> "released".equals(r.text(Columns.CONN_MODE))),
                Columns.CONCURRENCY, Columns.HIKARI_PENDING_MAX);
        pending.entrySet().stream().filter(e -> e.getValue() >= 1).reduce((a, b) -> b).ifPresent(e -> out.add(String.format(
                java.util.Locale.ROOT, "virtual c=%d: up to %.0f requests waited for a pooled connection (pool %s, released right after"
                        + " the query): the pool is held while threads that own a connection wait for CPU", e.getKey(), e.getValue(),
                rows.stream().filter(DataRow::ok).map(r -> r.text(Columns.HIKARI_POOL)).filter(x -> x != null).findFirst().orElse("?"))));

        // Tail latency at the highest concurrency both modes finished.
        TreeMap<Integer, Double> p99p = SpringRig.meanBy(rows, platform, Columns.CONCURRENCY, Columns.P99);
        TreeMap<Integer, Double> p99v = SpringRig.meanBy(rows, virtual, Columns.CONCURRENCY, Columns.P99);
        Integer top = p99p.keySet().stream().filter(p99v::containsKey).max(Integer::compare).orElse(null);
        if (top != null) {
            out.add(String.format(java.util.Locale.ROOT, "p99 at c=%d: platform %.0f ms, virtual %.0f ms", top, p99p.get(top), p99v.get(top)));
        }
        long excluded = rows.stream().filter(r -> !r.ok()).count();
        if (excluded > 0) out.add(excluded + " row(s) not ok (flagged or failed) are left out of these statements");
        return out;
    }
}
