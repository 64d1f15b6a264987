package vtlab.probe;

import java.util.List;

import vtlab.data.Column;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

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

    /**
     * What the rest of the machine used while the row ran: every CPU's user and system time (/proc/stat) less the
     * tiers' processes and the lab's own JVM. A build, a browser or a second run beside the lab takes the tiers' CPUs
     * from under them (a control's SUT core read 33% busy at 200 connections while a compiler ran), so the row's numbers
     * are not the service's alone: check.RowValidity flags it. The processes serving the SUT that are no tier of the row
     * (a database or stub the user started, the lab's `./vtlab tiers`) count with the tiers. Only where every tier runs
     * on this machine.
     */
    public static final Column OTHERS = vtlab.data.Columns.OTHERS_CPU;
    /**
     * What processes at a lower priority than the lab's used (their nice above its): a build at nice 19 and idle
     * priority (./vtlab test builds oha so beside the end-to-end tests that need none) runs only on time no tier wants,
     * so it is shown, not counted as others'. Read per process, its system time and its reaped compilers' too: its
     * system time alone reached half a core in a C build (docs/results.md) and flagged a row busy-machine.
     */
    public static final Column BACKGROUND = vtlab.data.Columns.BACKGROUND_CPU;
    /**
     * What the hypervisor took: a VM's CPUs stolen for other guests. No process's ticks show it, so a row on a stolen
     * CPU reads as a slower service (the same JVM, same load, 10% lower between one run and the next on this VM):
     * check.RowValidity flags it, a caveat with how much. Only where every tier runs on this machine, as others' CPU.
     */
    public static final Column STEAL = vtlab.data.Columns.STEAL_CPU;

    @Override
    public java.util.List<Column> columns() {
        List<Column> all = new java.util.ArrayList<>(TIER_COLUMNS.values());
        all.add(OTHERS);
        all.add(BACKGROUND);
        all.add(STEAL);
        return all;
    }

    private final Map<String, Long> startTicks = new HashMap<>();
    private final Map<String, Long> lastTicks = new HashMap<>();
    private final Map<String, Long> lastNanosByTier = new HashMap<>();
    private long startNanos, lastNanos;
    /** {machine busy jiffies, the lab's own ticks, the tiers' ticks} at the hold's start and at the last sample that read every tier alive. */
    private long[] machineStart, machineLast;

    private long machineLastNanos;
    private List<ProcessHandle> servers = List.of();
    /** The tiers' processes and the lab's: never another's, whatever their priority. */
    private Set<Long> rowPids = Set.of();

    @Override
    public String name() {
        return "cpu";
    }

    /** The local tiers' processes with their descendants, and the lab's own. */
    private static Set<Long> rowPids(ProbeContext ctx) {
        Set<Long> pids = new java.util.HashSet<>();
        ctx.tiers().values().forEach(t -> t.local().ifPresent(h -> {
            pids.add(h.pid());
            h.descendants().forEach(d -> pids.add(d.pid()));
        }));
        pids.add(ProcessHandle.current().pid());
        return pids;
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
        boolean allHere = !ctx.tiers().isEmpty() && ctx.tiers().values().stream().allMatch(p -> p.local().isPresent());
        rowPids = rowPids(ctx);
        servers = allHere ? servers(ctx) : List.of();
        servers.forEach(h -> rowPids.add(h.pid())); // counted with the tiers, never as lower-priority work too
        machineStart = allHere ? machine(startTicks) : null;
    }

    /** steal jiffies of the machine ("cpu" line of /proc/stat, its 8th value); -1 where the kernel does not give it. */
    static long stealJiffies(String procStat) {
        for (String line : procStat.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f[0].equals("cpu") && f.length > 8) return Long.parseLong(f[8]);
        }
        return -1;
    }

    /** The local processes serving the SUT (LocalServers) that are no tier of the row: their CPU is the system's too. */
    private List<ProcessHandle> servers(ProbeContext ctx) {
        vtlab.tier.host.TierProcess app = ctx.tiers().get(vtlab.proc.CoreMap.APP);
        if (app == null || app.local().isEmpty()) return List.of();
        return LocalServers.of(app.local().get().pid()).stream().filter(pid -> !rowPids.contains(pid))
                .map(ProcessHandle::of).flatMap(java.util.Optional::stream).toList();
    }

    /**
     * {busy jiffies of every CPU, the lab's own ticks, the tiers' ticks, lower-priority processes' ticks, steal jiffies (-1: none)}; null when
     * /proc/stat cannot be read.
     */
    private long[] machine(Map<String, Long> tierTicks) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/stat"));
            long busy = busyJiffies(stat);
            long self = ProcessHandle.current().pid();
            // with the children it ran and reaped (a jcmd of a probe); the generator is reaped only after the last
            // reading, which is taken while every tier is alive
            long own = Proc.cpuTicks(self);
            long served = servers.stream().mapToLong(Proc::treeTicks).sum();
            long[] lower = background.read(Proc.lowerPriorityProcesses(Proc.nice(self), rowPids));
            return busy < 0 || own < 0 ? null : new long[] {busy, own, tierTicks.values().stream().mapToLong(Long::longValue).sum() + served, lower[0] + lower[1], stealJiffies(stat)};
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /**
     * user + nice + system jiffies of the machine ("cpu" line of /proc/stat): the time processes ran. Interrupts and
     * softirqs (the loopback traffic's own work) are left out: no process stands for them.
     */
    static long busyJiffies(String procStat) {
        for (String line : procStat.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f[0].equals("cpu") && f.length > 3) return Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]);
        }
        return -1;
    }

    private final LowerPriorityTicks background = new LowerPriorityTicks();

    /** Others' CPU in % of a core between two machine readings over seconds (lower-priority processes not); null without both. */
    static Double others(long[] from, long[] to, double seconds) {
        if (from == null || to == null || !(seconds > 0)) return null;
        long others = (to[0] - from[0]) - (to[1] - from[1]) - (to[2] - from[2]) - (to[3] - from[3]);
        return round1(Math.max(0, pct(others, seconds)));
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
        // the generator exits with the hold: the machine is read at the last sample every tier was alive for
        if (machineStart != null && ctx.tiers().values().stream().allMatch(vtlab.tier.host.TierProcess::alive)) {
            long[] m = machine(lastTicks);
            if (m != null) {
                machineLast = m;
                machineLastNanos = now;
            }
        }
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
        double machineSecs = (machineLastNanos - startNanos) / 1e9;
        Double others = others(machineStart, machineLast, machineSecs);
        if (others != null) out.put(OTHERS, others);
        if (machineStart != null && machineLast != null && machineSecs > 0) out.put(BACKGROUND, round1(pct(machineLast[3] - machineStart[3], machineSecs)));
        if (machineStart != null && machineLast != null && machineSecs > 0 && machineStart[4] >= 0 && machineLast[4] >= machineStart[4]) {
            out.put(STEAL, round1(pct(machineLast[4] - machineStart[4], machineSecs)));
        }
    }

    /** Ticks over a stretch of seconds as % of one core. */
    public static double pct(long ticks, double seconds) {
        return Proc.pct(ticks, seconds);
    }

    static double round1(double d) {
        return Math.round(d * 10) / 10.0;
    }
}
