package vtlab.experiment.spring;

import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.data.Rows;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * The seed rig's bottleneck shift (seed 002): the transaction spans the downstream call (conn mode held), so each
 * request keeps a pooled connection for the whole 100 ms. The pool is swept at a fixed concurrency: with virtual
 * threads throughput follows the pool (pool / delay) until another tier saturates; with platform threads it stops
 * rising once the pool exceeds Tomcat's 200 threads.
 */
public final class PoolBottleneckExperiment implements SpringRig.OrderQueries {
    @Override
    public String name() {
        return "pool-bottleneck";
    }

    /** Its rows run across hosts (--hosts). */
    @Override
    public boolean acrossHosts() {
        return true;
    }

    @Override
    public String summary() {
        return "Spring Boot 4, connection held across the 100 ms call (seed 002): HikariCP pool sweep at 2,000 connections";
    }

    static final Opt POOLS = Opt.of("pools", "50,100,200,400,800", "HikariCP pool sizes").quick("50,100,400");
    static final Opt CONC = SpringRig.CONC.withDefault("2000").quick("500");
    /** The pg tier's max_connections less what its own clients keep. */
    static final int MAX_POOL = 900;

    @Override
    public List<Opt> options() {
        return SpringRig.options(List.of(POOLS, CONC), SpringRig.SUT_OPTIONS, SpringRig.TIMING);
    }

    /** The options parsed once. */
    record Spec(List<Integer> pools, List<Integer> conc, SpringRig.SutSpec sut) {
        static Spec parse(Options o, PlanContext ctx, Stack stack) throws UsageError {
            List<Integer> pools = POOLS.ints(o), conc = CONC.ints(o);
            SpringRig.SutSpec sut = SpringRig.SutSpec.parse(o, ctx, stack, conc);
            for (int p : pools) {
                if (p > MAX_POOL) throw new UsageError("--pools " + p + ": the pg tier allows 1,000 connections (900 for a pool)");
            }
            return new Spec(pools, conc, sut);
        }
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        Stack stack = Stack.load(SpringRig.STACK);
        Spec s = Spec.parse(o, ctx, stack);
        PlanContext.Timing t = s.sut().timing();
        List<Row> rows = new ArrayList<>();
        for (Jdk jdk : ctx.jdks())
            for (String mode : s.sut().modes())
                for (int pool : s.pools()) // the pool is the SUT's configuration: its reps share one warm JVM
                    SpringRig.sweep(rows, name(), stack, jdk, s.sut().sut(mode, pool, "held"), s.conc(), true, t, s.sut().jvmArgs());
        return rows;
    }

    @Override
    public List<Finding> findings(java.nio.file.Path runDir, List<DataRow> rows) {
        return Finding.of(findingsOf(rows));
    }

    static List<String> findingsOf(List<DataRow> rows) {
        List<String> out = new ArrayList<>();
        Predicate<DataRow> platform = Rows.inMode(Threads.PLATFORM), virtual = Rows.inMode(Threads.VIRTUAL);
        TreeMap<Integer, Double> v = SpringRig.meanBy(rows, virtual, Columns.HIKARI_POOL, Columns.RPS);
        TreeMap<Integer, Double> p = SpringRig.meanBy(rows, platform, Columns.HIKARI_POOL, Columns.RPS);
        if (v.isEmpty() && p.isEmpty()) {
            out.add("no row finished with status ok: nothing to conclude");
            return out;
        }

        // Virtual: throughput should follow the pool, step by step, until a tier saturates.
        if (v.size() >= 2) {
            Integer first = v.firstKey(), second = v.higherKey(first);
            out.add(String.format(Locale.ROOT, "virtual throughput follows the pool: pool %d = %s pool %d (%s vs %s; the pool ratio is %s)",
                    second, SpringRig.times(v.get(second) / v.get(first)), first, SpringRig.rps(v.get(second)),
                    SpringRig.rps(v.get(first)), SpringRig.times((double) second / first)));
            Integer stop = null;
            for (Integer pool : v.keySet()) {
                Integer next = v.higherKey(pool);
                if (next == null) break;
                double grow = v.get(next) / v.get(pool), poolGrow = (double) next / pool;
                // less than half of the pool's growth shows up as throughput: something else limits
                if (grow - 1 < (poolGrow - 1) / 2) {
                    stop = pool;
                    break;
                }
            }
            if (stop != null) {
                List<DataRow> there = SpringRig.at(rows, virtual, Columns.HIKARI_POOL, v.higherKey(stop));
                List<String> saturated = SpringRig.saturatedCpus(there);
                String sat = saturated.isEmpty() ? SpringRig.saturation(there)
                        : "the bottleneck moved to " + String.join(", ", saturated) + ", saturated";
                out.add("virtual stops following the pool above pool " + stop + " (" + SpringRig.rps(v.get(stop)) + " -> "
                        + SpringRig.rps(v.get(v.higherKey(stop))) + " at pool " + v.higherKey(stop) + ")"
                        + (sat == null ? "" : ": " + sat));
            } else {
                out.add("virtual throughput rises with every pool step up to pool " + v.lastKey() + " (" + SpringRig.rps(v.lastEntry().getValue()) + ")");
            }
        }

        // Platform: a pool beyond Tomcat's threads has connections no thread can use.
        int threads = rows.stream().filter(platform).map(r -> r.param("maxThreads")).filter(x -> x != null)
                .mapToInt(Integer::parseInt).findFirst().orElse(200);
        Integer atThreads = p.floorKey(threads), above = p.higherKey(threads);
        if (atThreads != null && above != null) {
            double gain = p.get(above) / p.get(atThreads) - 1;
            out.add(String.format(Locale.ROOT, "platform %s rising once the pool exceeds its %d threads: pool %d %s, pool %d %s (%+.0f%%)",
                    Math.abs(gain) < 0.15 ? "stops" : "does NOT stop", threads, atThreads, SpringRig.rps(p.get(atThreads)),
                    above, SpringRig.rps(p.get(above)), gain * 100));
        } else if (!p.isEmpty()) {
            out.add("platform rows do not straddle the " + threads + "-thread wall (pools " + p.keySet() + ")");
        }
        for (var e : v.entrySet()) {
            Double pr = p.get(e.getKey());
            if (pr != null) out.add("pool " + e.getKey() + ": virtual " + SpringRig.rps(e.getValue()) + " = " + SpringRig.times(e.getValue() / pr)
                    + " platform (" + SpringRig.rps(pr) + ")");
        }
        TreeMap<Integer, Double> pending = SpringRig.meanBy(rows, virtual, Columns.HIKARI_POOL, Columns.HIKARI_PENDING_MAX);
        if (!pending.isEmpty()) {
            out.add("requests waiting for a connection (virtual, max): " + pending.entrySet().stream()
                    .map(e -> "pool " + e.getKey() + ": " + Math.round(e.getValue())).toList());
        }
        long excluded = rows.stream().filter(r -> !r.ok()).count();
        if (excluded > 0) out.add(excluded + " row(s) not ok (flagged or failed) are left out of these statements");
        return out;
    }
}
