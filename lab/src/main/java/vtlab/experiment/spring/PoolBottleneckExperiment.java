package vtlab.experiment.spring;

import vtlab.data.Rows;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.Stack;
import vtlab.tier.Jdk;
import vtlab.tier.RunTier;

/**
 * The seed rig's bottleneck shift (seed 002): the transaction spans the downstream call (conn mode held), so each
 * request keeps a pooled connection for the whole 100 ms. The pool is swept at a fixed concurrency: with virtual
 * threads throughput follows the pool (pool / delay) until another tier saturates; with platform threads it stops
 * rising once the pool exceeds Tomcat's 200 threads.
 */
public final class PoolBottleneckExperiment implements Experiment {
    static final List<Integer> POOLS = List.of(50, 100, 200, 400, 800);
    static final List<Integer> QUICK_POOLS = List.of(50, 100, 400);

    @Override
    public String name() {
        return "pool-bottleneck";
    }

    @Override
    public String summary() {
        return "Spring Boot 4, connection held across the 100 ms call (seed 002): HikariCP pool sweep at 2,000 connections";
    }

    static final List<Opt> TIMING = PlanContext.timingOptions("10s", "20s", 3, null);

    @Override
    public List<Opt> options() {
        List<Opt> a = new ArrayList<>(List.of(
                Opt.of("modes", "platform,virtual", "thread mode (VT_ENABLED)"),
                Opt.of("pools", "50,100,200,400,800", "HikariCP pool sizes").quick("50,100,400"),
                Opt.of("conc", "2000", "concurrent connections").quick("500"),
                Opt.of("path-mode", "normal", "normal or synchronized"),
                Opt.of("delay-ms", "100", "the stub's delay per call"),
                Opt.of("client", "jdk", "SUT's downstream library: jdk (java.net.http, as the rig) or urlconnection"),
                Opt.of("downstream-http", "auto", "http1 (the rig's), h2c (multiplexed), auto: h2c only when the open-file\nlimit cannot hold two sockets per connection"),
                Opt.of("max-threads", "200", "Tomcat's platform pool (TOMCAT_MAX_THREADS)")));
        a.addAll(TIMING);
        return a;
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        Stack stack = Stack.load(SpringRig.STACK);
        List<String> modes = o.choices("modes", SpringRig.MODES, SpringRig.MODES);
        boolean quick = o.flag("quick");
        List<Integer> pools = o.positiveInts("pools", quick ? QUICK_POOLS : POOLS);
        List<Integer> conc = o.positiveInts("conc", List.of(quick ? 500 : 2000));
        String pathMode = o.choices("path-mode", SpringRig.PATH_MODES, List.of("normal")).getLast();
        int delay = o.positiveInt("delay-ms", 100);
        String client = o.choices("client", SpringRig.CLIENTS, List.of("jdk")).getLast();
        String http = SpringRig.downstreamHttp(o, client, conc.stream().mapToInt(Integer::intValue).max().orElse(0));
        int maxThreads = o.positiveInt("max-threads", 200);
        for (int p : pools) {
            if (p > 900) throw new UsageError("--pools " + p + ": the pg tier allows 1,000 connections (900 for a pool)");
        }
        PlanContext.Timing t = ctx.timing(o, TIMING);
        List<String> jvmArgs = SpringRig.jvmArgs(o, ctx);

        List<Row> rows = new ArrayList<>();
        for (Jdk jdk : ctx.jdks())
            for (String mode : modes)
                for (int pool : pools) // the pool is the SUT's configuration: its reps share one warm JVM
                    for (int c : conc)
                        for (int rep = 1; rep <= t.reps(); rep++) {
                            SpringRig.Sut s = new SpringRig.Sut(mode, maxThreads, SpringRig.MAX_CONNECTIONS, pool, "held", pathMode, delay, client, http);
                            rows.add(SpringRig.orderSummaryRow(name(), stack, jdk, s, c, rep, true, t, jvmArgs));
                        }
        return rows;
    }

    @Override
    public void verify(Row row, URI sutBase, Map<String, RunTier> tiers) throws Exception {
        SpringRig.verifyOrderSummary(sutBase, tiers);
    }

    @Override
    public List<String> findings(List<Map<String, String>> rows) {
        return findingsOf(rows);
    }

    static List<String> findingsOf(List<Map<String, String>> rows) {
        List<String> out = new ArrayList<>();
        Predicate<Map<String, String>> platform = r -> "platform".equals(r.get("thread_mode"));
        Predicate<Map<String, String>> virtual = r -> "virtual".equals(r.get("thread_mode"));
        TreeMap<Integer, Double> v = SpringRig.meanBy(rows, virtual, "hikari_pool", Rows.RPS);
        TreeMap<Integer, Double> p = SpringRig.meanBy(rows, platform, "hikari_pool", Rows.RPS);
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
                List<Map<String, String>> there = SpringRig.at(rows, virtual, "hikari_pool", v.higherKey(stop));
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
        int threads = rows.stream().filter(platform).map(r -> Rows.param(r, "maxThreads")).filter(x -> x != null)
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
        TreeMap<Integer, Double> pending = SpringRig.meanBy(rows, virtual, "hikari_pool", "hikari_pending_max");
        if (!pending.isEmpty()) {
            out.add("requests waiting for a connection (virtual, max): " + pending.entrySet().stream()
                    .map(e -> "pool " + e.getKey() + ": " + Math.round(e.getValue())).toList());
        }
        long excluded = rows.stream().filter(r -> !Rows.ok(r)).count();
        if (excluded > 0) out.add(excluded + " row(s) not ok (flagged or failed) are left out of these statements");
        return out;
    }
}
