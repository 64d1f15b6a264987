package vtlab.experiment.reactive;

import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.data.Rows;
import vtlab.data.Grouping;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vtlab.experiment.RowStats;
import vtlab.experiment.seeds.SeedClaims;
import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Bounds;
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
 * Seed 004: do virtual threads make reactive programming unnecessary? The same 100 ms wait at 2,000 connections
 * through Spring MVC on Tomcat (200 and 2,000 platform threads, virtual threads: Thread.sleep) and through WebFlux on
 * Reactor Netty (Mono.delay, a Kotlin suspend function, and Thread.sleep on virtual threads behind Netty, the
 * loom-netty approach of loom-webflux-benchmarks). Every variant serves GET /sleep?ms=N, so the summary sets them side
 * by side; the threads and nmt probes record each one's OS threads and thread-stack memory.
 */
public final class ReactiveExperiment implements Experiment {
    /** Grouping.variant names: platform-N is MVC on an N-thread pool. */
    static final List<String> VARIANTS = List.of("platform-200", "platform-2000", Threads.VIRTUAL.word, "reactive", "coroutine", "virtual-netty");
    public static final List<String> WEBFLUX_MODES = List.of("reactive", "coroutine", "virtual-netty");
    static final Pattern PLATFORM = Pattern.compile("platform-(\\d+)");

    @Override
    public String name() {
        return "reactive";
    }

    @Override
    public String summary() {
        return "virtual threads vs reactive (seed 004): MVC 200/2,000 threads and virtual, WebFlux Mono.delay, coroutines, virtual threads on Netty; 100 ms at 2,000 connections";
    }

    static final List<Opt> TIMING = PlanContext.timingOptions("5s", "15s", 1, "the first row of each variant warms up 20 s (--quick: 15 s), as its JVM is\ncold; later rows reuse it. Defaults: 18 rows, about 9 min, plus PostgreSQL for\nthe MVC rows; --quick: 6 rows, about 3 min");

    static final Opt VARIANTS_OPT = Opt.of("variants", String.join(",", VARIANTS), "platform-N = Spring MVC on an N-thread Tomcat pool (any N); virtual = MVC on\nvirtual threads; reactive / coroutine / virtual-netty = WebFlux on Reactor Netty");
    static final Opt CONC = Opt.of("conc", "200,1000,2000", "concurrent connections").quick("2000");
    static final Opt SLEEP_MS = Opt.of("sleep-ms", "100", "the wait every variant makes (Thread.sleep, Mono.delay or delay())");
    /**
     * A fresh Spring JVM on one shared core needs 15-20 s of load before the JIT has compiled the request path
     * (WebFlux measured 1.8k req/s after 3 s, 10k after 20 s here); later rows of a variant reuse the warm JVM.
     */
    static final Duration COLD_WARMUP = Duration.ofSeconds(20), QUICK_COLD_WARMUP = Duration.ofSeconds(15);

    @Override
    public List<Opt> options() {
        List<Opt> a = new ArrayList<>(List.of(VARIANTS_OPT, CONC, SLEEP_MS));
        a.addAll(TIMING);
        return a;
    }

    /** The options parsed once; cold: the warm-up of each variant's first row. */
    record Spec(List<Variant> variants, List<Integer> conc, PlanContext.Timing timing, Duration cold, int sleepMs) {
        static Spec parse(Options o, PlanContext ctx) throws UsageError {
            List<Variant> variants = new ArrayList<>();
            for (String id : VARIANTS_OPT.list(o)) {
                Variant v = Variant.parse(id);
                if (variants.stream().noneMatch(x -> x.id().equals(v.id()))) variants.add(v);
            }
            if (variants.isEmpty()) throw new UsageError("--variants needs at least one value");
            List<Integer> conc = CONC.ints(o);
            PlanContext.Timing t = ctx.timing(o, TIMING);
            Duration cold = PlanContext.WARMUP.given(o) ? t.warmup() : RunOptions.QUICK.on(o) ? QUICK_COLD_WARMUP : COLD_WARMUP;
            return new Spec(variants, conc, t, cold, SLEEP_MS.integer(o));
        }
    }

    /** One server configuration under test. */
    record Variant(String id, String stack, String threadMode, Integer maxThreads) {
        static Variant parse(String id) throws UsageError {
            Matcher m = PLATFORM.matcher(id);
            if (m.matches()) {
                int n;
                try {
                    n = Integer.parseInt(m.group(1));
                } catch (NumberFormatException e) {
                    n = 0;
                }
                if (n < 1 || n > 20_000) throw new UsageError("--variants " + id + ": the pool size must be 1 to 20000");
                return new Variant(id, "spring-mvc", Threads.PLATFORM.word, n);
            }
            if (id.equals(Threads.VIRTUAL.word)) return new Variant(id, "spring-mvc", Threads.VIRTUAL.word, null);
            if (WEBFLUX_MODES.contains(id)) return new Variant(id, "webflux", id, null);
            throw new UsageError("unknown value '" + id + "' for --variants (choose from " + String.join(", ", VARIANTS) + ", or platform-N)");
        }
    }

    /** Thread-stack memory per stack is part of this comparison: nmt runs whatever the run's --probes. */
    @Override
    public List<String> probes(List<String> runProbes) {
        return Experiment.withProbes(runProbes, "threads", "nmt");
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        Spec s = Spec.parse(o, ctx);
        Map<String, Stack> stacks = new LinkedHashMap<>();
        for (Variant v : s.variants()) if (!stacks.containsKey(v.stack())) stacks.put(v.stack(), Stack.load(v.stack()));

        List<Row> rows = new ArrayList<>();
        // Rows of one variant are consecutive, so they share one warm JVM.
        for (Jdk jdk : ctx.jdks())
            for (Variant v : s.variants())
                for (int c : s.conc())
                    for (int rep = 1; rep <= s.timing().reps(); rep++) {
                        boolean first = c == s.conc().getFirst() && rep == 1;
                        rows.add(row(v, stacks.get(v.stack()), jdk, c, rep, s.sleepMs(), first ? s.cold() : s.timing().warmup(), s.timing(), ctx));
                    }
        return rows;
    }

    private Row row(Variant v, Stack stack, Jdk jdk, int c, int rep, int sleepMs, Duration warmup, PlanContext.Timing t,
                    PlanContext ctx) throws UsageError {
        Params params = Params.NONE.with("sleepMs", Integer.toString(sleepMs));
        Settings axes = Settings.NONE;
        if (v.maxThreads() != null) {
            axes = axes.with("maxThreads", Integer.toString(v.maxThreads()));
            params = params.with("maxThreads", Integer.toString(v.maxThreads()));
        }
        String mode = v.stack().equals("spring-mvc") ? (v.maxThreads() == null ? Threads.VIRTUAL.word : Threads.PLATFORM.word) : v.threadMode();
        // MVC: the stack's pg tier (its HikariCP pool opens at start-up; /sleep never uses it); WebFlux: none
        Stack.Config cfg = stack.configure(mode, "sleep", axes, jdk.major());
        // Reactor Netty sets no connection limit
        int maxConnections = cfg.values().containsKey("maxConnections") ? cfg.intValue("maxConnections") : Integer.MAX_VALUE;
        // what bounds the requests, as the stack declares the mode: MVC's pool of maxThreads, or none; Netty's event loop
        vtlab.stack.ThreadMode.RequestBound declared = stack.threadMode(mode).bound(cfg.values());
        double bound = Bounds.closedModelRps(Bounds.inFlight(declared, c, maxConnections), sleepMs);
        String note = Bounds.note(declared, c, maxConnections, sleepMs);
        return Row.builder().experiment(name()).stack(v.stack()).threadMode(v.threadMode()).workload("sleep").concurrency(c).rep(rep)
                .jdk(jdk).params(params).sutEnv(cfg.env()).expectInfo(cfg.expectInfo()).boundRps(bound).boundNote(note)
                .tiers(cfg.tiers()).warmup(warmup).hold(t.hold()).jvmArgs(ctx.jvmArgs()).build();
    }

    /**
     * Seed 004's numbers, then this run's: the ceiling of the 200-thread pool, whether the others clear it by 3x (or
     * ran out of CPU first), the verdicts of seed 004's claims on this experiment ({@link SeedClaims#linesFor}: virtual
     * threads vs WebFlux, WebFlux vs 2,000 platform threads), the other variants against Mono.delay, and each stack's
     * OS threads and stack memory.
     */
    @Override
    public List<Finding> findings(java.nio.file.Path runDir, List<DataRow> rows) {
        return SeedClaims.withVerdicts(name(), rows, lines(rows));
    }

    List<String> lines(List<DataRow> rows) {
        List<String> out = new ArrayList<>();
        out.add("seed 004 (M1, 8 cores, 2,000 JMeter threads, 100 ms): MVC 2,000 platform threads 12,342 req/s, WebFlux 17,228, "
                + "WebFlux + coroutines 17,240, MVC + virtual threads 16,294; stacks 2 GB (2,000 platform threads) vs 9 MB vs 11 MB");
        List<DataRow> ok = RowStats.evidence(rows, out);
        if (ok.isEmpty()) return out;
        int top = ok.stream().mapToInt(r -> Integer.parseInt(r.text(Columns.CONCURRENCY))).max().orElseThrow();
        List<DataRow> atTop = ok.stream().filter(r -> Integer.parseInt(r.text(Columns.CONCURRENCY)) == top).toList();
        Map<String, Double> rps = new LinkedHashMap<>();
        for (String v : atTop.stream().map(x -> Grouping.variant(x)).distinct().toList()) {
            rps.put(v, RowStats.rps(atTop, r -> Grouping.variant(r).equals(v)));
        }
        List<String> ranked = rps.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .map(e -> e.getKey() + " " + RowStats.n0(e.getValue())).toList();
        out.add("this run at " + top + " connections, req/s: " + String.join(", ", ranked));

        // The smallest platform pool is the ceiling the others must clear.
        String base = rps.keySet().stream().filter(v -> v.startsWith("platform-"))
                .min((a, b) -> Integer.compare(Integer.parseInt(a.substring(9)), Integer.parseInt(b.substring(9)))).orElse(null);
        if (base != null) {
            DataRow br = atTop.stream().filter(r -> Grouping.variant(r).equals(base)).findFirst().orElseThrow();
            double baseRps = rps.get(base), bound = br.num(Columns.BOUND_RPS);
            out.add(String.format(Locale.ROOT, "%s holds at its pool's ceiling: %s req/s vs bound %s (%s)", base, RowStats.n0(baseRps),
                    RowStats.n0(bound), baseRps <= bound * 1.05 ? "at or below it, as it must" : "ABOVE it: check the pool size"));
        }
        if (base != null && rps.size() > 1) {
            double baseRps = rps.get(base);
            List<String> clear = new ArrayList<>(), cpu = new ArrayList<>(), short3 = new ArrayList<>();
            rps.forEach((v, x) -> {
                if (v.equals(base)) return;
                boolean appBound = atTop.stream().filter(r -> Grouping.variant(r).equals(v))
                        .anyMatch(r -> r.text(Columns.FLAGS).contains("app-cpu-bound"));
                String s = String.format(Locale.ROOT, "%s %.1fx", v, x / baseRps);
                if (x >= 3 * baseRps) clear.add(s);
                else if (appBound) cpu.add(s + " (app-cpu-bound: the SUT's cores ran out first)");
                else short3.add(s);
            });
            out.add("the others vs " + base + ": " + (clear.isEmpty() ? "" : ">= 3x: " + String.join(", ", clear))
                    + (cpu.isEmpty() ? "" : (clear.isEmpty() ? "" : "; ") + "below 3x but CPU-bound: " + String.join(", ", cpu))
                    + (short3.isEmpty() ? "" : (clear.isEmpty() && cpu.isEmpty() ? "" : "; ") + "BELOW 3x and not CPU-bound: " + String.join(", ", short3))
                    + (short3.isEmpty() ? " (supports: only the pool caps the blocking servlet)" : " (does not support: something besides the CPU capped them)"));
        }

        // Seed 004's claims (MVC on virtual threads vs WebFlux Mono.delay, WebFlux vs MVC on 2,000 threads): their
        // verdicts as SeedClaims declares and checks them, never judged here in other words
        out.addAll(SeedClaims.linesFor(name(), rows));
        Double vt = rps.get(Threads.VIRTUAL.word), wf = rps.get("reactive");
        Double co = rps.get("coroutine");
        if (co != null && wf != null) {
            out.add("WebFlux coroutine vs Mono.delay: " + RowStats.signedPct(RowStats.pct(co, wf)) + " (seed 004: +0 %)");
        }
        Double vn = rps.get("virtual-netty");
        if (vn != null && wf != null) {
            out.add("virtual threads on Netty vs WebFlux Mono.delay: " + RowStats.signedPct(RowStats.pct(vn, wf))
                    + (vt != null ? ", vs virtual threads on Tomcat: " + RowStats.signedPct(RowStats.pct(vn, vt)) : "")
                    + " (loom-webflux-benchmarks found loom-netty ahead of both at high load)");
        }

        // Threads and stack memory: the cost seed 004 names (2 GB of stacks vs 9 MB).
        List<String> mem = new ArrayList<>();
        for (String v : rps.keySet()) {
            List<DataRow> vr = atTop.stream().filter(r -> Grouping.variant(r).equals(v)).toList();
            double threads = Rows.mean(vr, Columns.THREADS_MAX), res = Rows.mean(vr, Columns.NMT_RESERVED),
                    com = Rows.mean(vr, Columns.NMT_COMMITTED);
            mem.add(String.format(Locale.ROOT, "%s %s threads, %s MB reserved / %s MB committed", v, RowStats.n0(threads),
                    RowStats.n0(res / 1024), RowStats.n0(com / 1024)));
        }
        out.add("OS threads and NMT Thread memory at " + top + " connections: " + String.join("; ", mem));
        // "WebFlux's thread count stays near the core count": its threads must not grow with the connections.
        int low = ok.stream().mapToInt(r -> Integer.parseInt(r.text(Columns.CONCURRENCY))).min().orElseThrow();
        List<String> wfThreads = new ArrayList<>();
        boolean flat = true;
        for (String v : List.of("reactive", "coroutine")) {
            double atHigh = Rows.mean(atTop, r -> Grouping.variant(r).equals(v), Columns.THREADS_MAX);
            if (Double.isNaN(atHigh)) continue;
            double atLow = Rows.mean(ok, r -> Grouping.variant(r).equals(v) && r.text(Columns.CONCURRENCY).equals(String.valueOf(low)), Columns.THREADS_MAX);
            wfThreads.add(v + " " + (low < top && !Double.isNaN(atLow) ? RowStats.n0(atLow) + " at c=" + low + ", " : "") + RowStats.n0(atHigh) + " at c=" + top);
            flat &= atHigh <= 60 && (Double.isNaN(atLow) || atHigh <= atLow + 5);
        }
        if (!wfThreads.isEmpty()) {
            double plat = rps.keySet().stream().filter(v -> v.startsWith("platform-"))
                    .mapToDouble(v -> Rows.mean(atTop, r -> Grouping.variant(r).equals(v), Columns.THREADS_MAX)).max().orElse(Double.NaN);
            out.add("WebFlux's OS threads: " + String.join("; ", wfThreads) + " on " + RowStats.appCores(atTop)
                    + " app core(s) (event loops max(cores, 4) plus the JVM's own)" + (Double.isNaN(plat) ? "" : "; the largest platform pool ran " + RowStats.n0(plat))
                    + (flat ? " (supports: a fixed handful, not one per connection)" : " (does not support: they grew with the connections or passed 60)"));
        }
        String left = RowStats.notUsed(rows);
        if (left != null) out.add(left);
        return out;
    }
}
