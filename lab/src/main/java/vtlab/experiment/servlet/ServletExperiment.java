package vtlab.experiment.servlet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Bounds;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.Stack;
import vtlab.tier.Jdk;

/**
 * The article's Tomcat 11 experiment (seed 000): HelloWorld and Thread.sleep servlets, a 200-thread platform pool vs
 * the virtual-thread executor, at 400 and 1,000 concurrent connections.
 */
public final class ServletExperiment implements Experiment {
    static final List<String> MODES = List.of("platform", "virtual");

    @Override
    public String name() {
        return "servlet";
    }

    @Override
    public String summary() {
        return "Tomcat 11 servlets (seed 000): 200-thread pool vs virtual-thread executor, hello and sleep workloads";
    }

    @Override
    public List<String> axes() {
        return List.of(
                "--modes platform,virtual        thread mode (default both)",
                "--workloads hello,sleep         hello = ~390 B page (CPU-bound); sleep = Thread.sleep(--sleep-ms) (default both)",
                "--conc 400,1000                 concurrent connections (closed model)",
                "--reps 3  --warmup 10s  --hold 20s",
                "--sleep-ms 50                   service time of the sleep workload",
                "--max-threads 200               platform pool size (Tomcat default); --min-spare-threads 25",
                "--max-connections 8192          Tomcat connector limit (the only cap left with virtual threads)",
                "--processor-cache -1            idle request processors Tomcat keeps (-1 = all; Tomcat's default 200",
                "                                makes every virtual-thread request above 200 build a new one)",
                "--carriers auto                 virtual-thread carriers (auto = one per SUT CPU, at least 2)");
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        Stack stack = Stack.load("servlet");
        List<String> modes = o.choices("modes", MODES, MODES);
        // the stack's other workloads (count, bytes, call...) need the servlet-io / response-size experiments' params
        List<String> workloads = o.choices("workloads", List.of("hello", "sleep"), List.of("hello", "sleep"));
        List<Integer> conc = o.positiveInts("conc", List.of(400, 1000));
        PlanContext.Timing t = ctx.timing(o, Duration.ofSeconds(10), Duration.ofSeconds(20), 3);
        int sleepMs = o.positiveInt("sleep-ms", 50);
        Map<String, String> tomcat = new LinkedHashMap<>();
        if (o.has("max-threads")) tomcat.put("maxThreads", Integer.toString(o.positiveInt("max-threads", 200)));
        if (o.has("min-spare-threads")) tomcat.put("minSpareThreads", Integer.toString(o.positiveInt("min-spare-threads", 25)));
        if (o.has("max-connections")) tomcat.put("maxConnections", Integer.toString(o.positiveInt("max-connections", 8192)));
        if (o.has("processor-cache")) tomcat.put("processorCache", Integer.toString(processorCache(o)));

        List<Row> rows = new ArrayList<>();
        // Rows of one SUT configuration (JDK x workload x mode) are consecutive, so they share one warm JVM.
        for (Jdk jdk : ctx.jdks())
            for (String workload : workloads)
                for (String mode : modes)
                    for (int c : conc)
                        for (int rep = 1; rep <= t.reps(); rep++) {
                            Map<String, String> params = new LinkedHashMap<>();
                            if (workload.equals("sleep")) params.put("sleepMs", Integer.toString(sleepMs));
                            rows.add(ServletRig.row(name(), stack, mode, workload, c, rep, jdk, params, tomcat, t.warmup(), t.hold(), ctx));
                        }
        return rows;
    }

    /**
     * The servlet rows planned with other defaults (experiments built on these rows: footprint, probe-cost). The
     * servlet experiment reads a copy with the defaults added, so a run of both keeps servlet's own defaults.
     */
    List<Row> planWithDefaults(Options o, PlanContext ctx, Map<String, String> defaults) throws UsageError {
        List<String> args = new ArrayList<>();
        o.asMap().forEach((k, vs) -> vs.forEach(v -> args.add("--" + k + "=" + v)));
        defaults.forEach((k, v) -> {
            if (!o.asMap().containsKey(k)) args.add("--" + k + "=" + v);
        });
        Options own = Options.parse(args);
        List<Row> rows = plan(own, ctx);
        List<String> unread = own.unread();
        for (String k : own.asMap().keySet()) if (!unread.contains(k)) o.has(k); // what servlet read counts as read
        return rows;
    }

    /**
     * -1 (keep every processor) by default: Tomcat sizes its cache of 200 for a 200-thread pool, and with a virtual
     * thread per connection the requests above 200 each build, register in JMX and throw away a processor with its
     * buffers (~50 KB). At 1,000 connections that was 7.0k instead of 10.1k req/s with full GCs every 2 s (README).
     */
    static int processorCache(Options o) throws UsageError {
        String v = o.string("processor-cache", "-1").trim();
        try {
            int n = Integer.parseInt(v);
            if (n >= -1) return n;
        } catch (NumberFormatException e) {
            // falls through to the usage error
        }
        throw new UsageError("--processor-cache must be -1 (unlimited) or a count >= 0, not '" + v + "'");
    }
}
