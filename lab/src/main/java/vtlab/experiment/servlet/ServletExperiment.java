package vtlab.experiment.servlet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.Params;
import vtlab.stack.Settings;
import vtlab.stack.Stack;
import vtlab.tier.tool.Jdk;

/**
 * The article's Tomcat 11 experiment (seed 000): HelloWorld and Thread.sleep servlets, a 200-thread platform pool vs
 * the virtual-thread executor, at 400 and 1,000 concurrent connections.
 */
public final class ServletExperiment implements Experiment {
    @Override
    public String name() {
        return "servlet";
    }

    /** Its rows run across hosts (--hosts). */
    @Override
    public boolean acrossHosts() {
        return true;
    }

    @Override
    public String summary() {
        return "Tomcat 11 servlets (seed 000): 200-thread pool vs virtual-thread executor (tuned, or as shipped), hello and sleep workloads";
    }

    static final Opt MODES_OPT = vtlab.experiment.ThreadModes.OPTION_WITH_VARIANTS;
    static final Opt WORKLOADS = Opt.of("workloads", "hello,sleep", "hello = ~390 B page (CPU-bound); sleep = Thread.sleep(--sleep-ms);\n"
            + "monitor = one synchronized lock held --lock-ms per request (a positive control: requests queue on it);\n"
            + "alloc = --alloc-kb of 1 KB arrays per request kept in an 8 MB ring (the CPU control; the GC control on a small heap);\n"
            + "mixed = computes, sleeps and parks --mixed-ms each per request (the negative control: the request's own work, no queue of its own)")
            // the stack's other workloads (count, bytes, call...) need the servlet-io / response-size experiments' params
            .withChoices(List.of("hello", "sleep", "monitor", "alloc", "mixed"));
    static final Opt CONC = Opt.of("conc", "400,1000", "concurrent connections (closed model)");
    static final Opt SLEEP_MS = Opt.of("sleep-ms", "50", "service time of the sleep workload");
    static final Opt LOCK_MS = Opt.of("lock-ms", "1", "how long each request of the monitor workload holds the one lock");
    static final Opt ALLOC_KB = Opt.of("alloc-kb", "256", "what each request of the alloc workload allocates, KB");
    static final Opt MIXED_MS = Opt.of("mixed-ms", "5", "how long each request of the mixed workload computes, sleeps and parks, each");
    /** Tomcat's settings: no default here, the stack's (stacks/servlet/stack.json) applies unless one is given. */
    static final Opt MAX_THREADS = Opt.of("max-threads", null, "platform pool size (stack default 200, Tomcat's)");
    static final Opt MIN_SPARE = Opt.of("min-spare-threads", null, "idle pool threads kept (stack default 25)");
    static final Opt MAX_CONNECTIONS = Opt.of("max-connections", null, "Tomcat connector limit, the only cap left with virtual threads (stack default 8192)");
    static final Opt PROCESSOR_CACHE = Opt.of("processor-cache", null, "idle request processors Tomcat keeps (stack default -1 = all; Tomcat's 200\n"
            + "makes every virtual-thread request above 200 build a new one)");
    static final List<Opt> OPTIONS = List.of(MODES_OPT, WORKLOADS, CONC, SLEEP_MS, LOCK_MS, ALLOC_KB, MIXED_MS, MAX_THREADS, MIN_SPARE, MAX_CONNECTIONS, PROCESSOR_CACHE);
    static final List<Opt> TIMING = PlanContext.timingOptions("10s", "20s", 3, null);

    /** The options parsed once. */
    record Spec(List<String> modes, List<String> workloads, List<Integer> conc, PlanContext.Timing timing, int sleepMs,
                Settings tomcat, int lockMs, int allocKb, int mixedMs) {
        static Spec parse(Options o, PlanContext ctx) throws UsageError {
            return parse(o, ctx, TIMING);
        }

        /** timing: the reps, warm-up and hold declared with their defaults (another experiment's: footprint, probe-cost). */
        static Spec parse(Options o, PlanContext ctx, List<Opt> timing) throws UsageError {
            Settings tomcat = Settings.NONE;
            if (MAX_THREADS.given(o)) tomcat = tomcat.with("maxThreads", Integer.toString(MAX_THREADS.integer(o)));
            if (MIN_SPARE.given(o)) tomcat = tomcat.with("minSpareThreads", Integer.toString(MIN_SPARE.integer(o)));
            if (MAX_CONNECTIONS.given(o)) tomcat = tomcat.with("maxConnections", Integer.toString(MAX_CONNECTIONS.integer(o)));
            if (PROCESSOR_CACHE.given(o)) tomcat = tomcat.with("processorCache", Integer.toString(processorCache(PROCESSOR_CACHE.string(o))));
            return new Spec(MODES_OPT.chosen(o), WORKLOADS.chosen(o), CONC.ints(o),
                    ctx.timing(o, timing), SLEEP_MS.integer(o), tomcat, LOCK_MS.integer(o), ALLOC_KB.integer(o), MIXED_MS.integer(o));
        }
    }

    @Override
    public List<Opt> options() {
        return options(Map.of());
    }

    /** Where the run had an as-shipped variant (the demo): what the flag alone gives, and what tuning adds. */
    @Override
    public List<vtlab.data.Finding> findings(java.nio.file.Path runDir, List<vtlab.data.DataRow> rows) {
        return vtlab.experiment.ThreadModes.asShippedGains(rows);
    }

    /** The declarations under other defaults (footprint, probe-cost): what they parse with and show. */
    static List<Opt> options(Map<String, String> defaults) {
        List<Opt> all = new ArrayList<>(OPTIONS);
        all.addAll(TIMING);
        all.add(Opt.of("carriers", "auto", "virtual-thread carriers (auto = one per SUT CPU, at least 2)"));
        return Opt.withDefaults(all, defaults);
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        return plan(Spec.parse(o, ctx), ctx);
    }

    List<Row> plan(Spec s, PlanContext ctx) throws UsageError {
        Stack stack = Stack.load(ServletRig.STACK);
        List<Row> rows = new ArrayList<>();
        // Rows of one SUT configuration (JDK x workload x mode) are consecutive, so they share one warm JVM.
        for (Jdk jdk : ctx.jdks())
            for (String workload : s.workloads())
                for (String mode : s.modes())
                    for (int c : s.conc())
                        for (int rep = 1; rep <= s.timing().reps(); rep++) {
                            Params params = switch (workload) {
                                case "sleep" -> Params.NONE.with("sleepMs", Integer.toString(s.sleepMs()));
                                case "monitor" -> Params.NONE.with("lockMs", Integer.toString(s.lockMs()));
                                case "alloc" -> Params.NONE.with("allocKb", Integer.toString(s.allocKb()));
                                case "mixed" -> Params.NONE.with("mixedMs", Integer.toString(s.mixedMs()));
                                default -> Params.NONE;
                            };
                            rows.add(ServletRig.row(name(), stack, mode, workload, c, rep, jdk, params, s.tomcat(),
                                    s.timing().warmup(), s.timing().hold(), ctx));
                        }
        return rows;
    }

    /**
     * The servlet rows planned with other defaults (footprint, probe-cost): a view of the options, not a copy. Their
     * timing defaults are declarations, not options given, so --quick shortens them as it does the servlet's.
     */
    List<Row> planWithDefaults(Options o, PlanContext ctx, Map<String, String> defaults) throws UsageError {
        Map<String, String> axes = new LinkedHashMap<>(defaults);
        TIMING.forEach(d -> axes.remove(d.name()));
        return plan(Spec.parse(o.withDefaults(axes), ctx, Opt.withDefaults(TIMING, defaults)), ctx);
    }

    /**
     * -1 (keep every processor) by default: Tomcat sizes its cache of 200 for a 200-thread pool, and with a virtual
     * thread per connection the requests above 200 each build, register in JMX and throw away a processor with its
     * buffers (~50 KB). At 1,000 connections that was 7.0k instead of 10.1k req/s with full GCs every 2 s (docs/results.md, "Two defaults").
     */
    static int processorCache(String given) throws UsageError {
        String v = given.trim();
        try {
            int n = Integer.parseInt(v);
            if (n >= -1) return n;
        } catch (NumberFormatException e) {
            // falls through to the usage error
        }
        throw new UsageError("--processor-cache must be -1 (unlimited) or a count >= 0, not '" + v + "'");
    }
}
