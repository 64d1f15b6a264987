package vtlab.probe;

import java.util.List;

import vtlab.data.Column;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU of every tier over the hold, from /proc ticks of the tier's process tree, as top shows it: 100 = one core
 * busy. A tier at >= 90% of the cores it is pinned to is saturated: for the generator that voids the row. Load from
 * several agents is one tier: their CPU added (as a local generator's threads add up).
 */
public final class CpuProbe implements Probe {
    /** The tiers a row can have; each has its own column. */
    static final Map<String, Column> TIER_COLUMNS = new java.util.LinkedHashMap<>();

    static {
        List<String> tiers = new java.util.ArrayList<>(List.of(vtlab.proc.CoreMap.APP, vtlab.proc.CoreMap.LOAD));
        tiers.addAll(vtlab.tier.Tiers.builtIn()); // pg, stub, toxiproxy
        for (String tier : tiers) {
            TIER_COLUMNS.put(tier, vtlab.data.Columns.cpu(tier));
        }
    }

    @Override
    public java.util.List<Column> columns() {
        return java.util.List.copyOf(TIER_COLUMNS.values());
    }

    private final Map<String, Long> startTicks = new HashMap<>();
    private final Map<String, Long> lastTicks = new HashMap<>();
    private final Map<String, Long> lastNanosByTier = new HashMap<>();
    private long startNanos, lastNanos;

    @Override
    public String name() {
        return "cpu";
    }

    /** /proc stat of each tier's process, read where it runs. */
    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public String description() {
        return "CPU % of each tier (app, load, pg, stub) from /proc, 100 = one core";
    }

    @Override
    public void start(ProbeContext ctx) {
        startNanos = lastNanos = System.nanoTime();
        ctx.tiers().forEach((tier, p) -> {
            long t = Proc.treeTicks(p);
            startTicks.put(tier, t);
            lastTicks.put(tier, t);
        });
    }

    @Override
    public void sample(ProbeContext ctx, double second, Measurements out) {
        long now = System.nanoTime();
        double dt = (now - lastNanos) / 1e9;
        if (dt <= 0) return;
        ctx.tiers().forEach((tier, p) -> {
            if (!p.alive()) return; // an exited process has no ticks to read: keep its last reading
            long t = Proc.treeTicks(p);
            Long prev = lastTicks.put(tier, t);
            lastNanosByTier.put(tier, now);
            if (prev != null) out.point(tier + "_cpu_pct", second, pct(t - prev, dt));
        });
        lastNanos = now;
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) {
        double dt = (System.nanoTime() - startNanos) / 1e9;
        ctx.tiers().forEach((tier, p) -> {
            // the generator has exited by now: its last sample is the best reading of its total
            long t = p.alive() ? Proc.treeTicks(p) : lastTicks.getOrDefault(tier, 0L);
            double secs = p.alive() ? dt : (lastNanosByTier.getOrDefault(tier, startNanos) - startNanos) / 1e9;
            Long s = startTicks.get(tier);
            Column c = TIER_COLUMNS.get(tier);
            if (c != null && s != null && secs > 0) out.put(c, round1(pct(t - s, secs)));
        });
    }

    /** Ticks over a stretch of seconds as % of one core. */
    public static double pct(long ticks, double seconds) {
        return Proc.pct(ticks, seconds);
    }

    static double round1(double d) {
        return Math.round(d * 10) / 10.0;
    }
}
