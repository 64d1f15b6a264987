package vtlab.experiment.servers;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.data.judge.Answer;
import vtlab.data.judge.Claim;
import vtlab.data.judge.Judge;
import vtlab.data.judge.Margin;
import vtlab.data.judge.Stats;
import vtlab.experiment.RowStats;
import vtlab.plan.Bounds;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.Params;
import vtlab.stack.Settings;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode;
import vtlab.tier.tool.Jdk;

/**
 * Which server, and which model: the article's two endpoints (the hello page, Thread.sleep) at 400 and 1,000
 * connections on every server and every thread mode each declares (stack.json "modes"): Tomcat 11 (servlet), Jetty 12.1,
 * Helidon SE 4.5 and Reactor Netty (webflux). Each row is proven in its mode by the server's own count of the threads
 * that ran its requests, and measured against its own declared bound (a pool of N, at most N virtual threads, or the
 * connections). The findings compare the servers per model (what runs the requests: platform threads, virtual threads,
 * an event loop) with 95% intervals over the reps, and say where each one's limit is.
 */
public final class ServersExperiment implements Experiment {
    static final List<String> SERVERS = List.of("servlet", "jetty", "helidon", "webflux");
    static final List<String> WORKLOADS = List.of("hello", "sleep");

    @Override
    public String name() {
        return "servers";
    }

    @Override
    public String summary() {
        return "Tomcat, Jetty, Helidon and Netty side by side in every thread mode each declares: hello and sleep(50) at 400 and 1,000 connections";
    }

    static final Opt SERVERS_OPT = Opt.of("servers", String.join(",", SERVERS), "stacks to compare: servlet = Tomcat 11, jetty = Jetty 12.1, helidon = Helidon SE 4.5,\n"
            + "webflux = Reactor Netty (any stack with hello and sleep workloads)");
    static final Opt MODES = Opt.of("modes", null, "thread modes (default: every mode each server declares): MODE for every server,\n"
            + "SERVER:MODE for one (jetty:virtual-pool); a mode a server does not declare is refused\n"
            + "(helidon has no platform mode)");
    static final Opt WORKLOADS_OPT = Opt.of("workloads", String.join(",", WORKLOADS), "hello = ~390 B page (CPU-bound); sleep = Thread.sleep(--sleep-ms)\n"
            + "(webflux's reactive mode: Mono.delay)").withChoices(WORKLOADS);
    static final Opt CONC = Opt.of("conc", "400,1000", "concurrent connections (closed model)").quick("1000");
    static final Opt SLEEP_MS = Opt.of("sleep-ms", "50", "service time of the sleep workload");
    static final Opt POOL = Opt.of("pool-size", null, "the request pool's size on every server that has one (its stack.json role requestPool:\n"
            + "Tomcat's and Jetty's maxThreads; default each server's own, 200)");
    static final Opt MAX_CONNECTIONS = Opt.of("max-connections", null, "the connection cap on every server that has one (role connectionCap; default 8192)");
    static final Opt ACCEPT_QUEUE = Opt.of("accept-queue", null, "the listening socket's backlog on every server that has one (role acceptQueue:\n"
            + "Tomcat's acceptCount, Jetty's acceptQueueSize, Helidon's backlog); default: the largest --conc where\n"
            + "a server's own is smaller (Tomcat 100, Jetty 50), so no connection of the load waits a second for the\n"
            + "kernel's retry (the listen probe counts the handshakes a full queue dropped)");
    static final Opt EVENT_LOOPS = Opt.of("event-loops", null, "event loops on every event-loop server (role eventLoops: Reactor Netty's ioWorkerCount);\n"
            + "default: one per SUT CPU, as Reactor Netty sizes them on 4 CPUs or more (its own max(CPUs, 4) runs\n"
            + "four loops on a one-CPU SUT: 2-5x fewer hello requests here, docs/results.md)");
    static final List<Opt> TIMING = PlanContext.timingOptions("10s", "20s", 3,
            "defaults: 9 servers and modes x 2 workloads x 2 concurrencies x 3 reps = 108 rows of about 30 s\n"
            + "(about an hour); --quick: one rep at 1,000 connections, 18 rows, about 5 min");

    @Override
    public List<Opt> options() {
        List<Opt> all = new ArrayList<>(List.of(SERVERS_OPT, MODES, WORKLOADS_OPT, CONC, SLEEP_MS, POOL, MAX_CONNECTIONS, ACCEPT_QUEUE, EVENT_LOOPS));
        all.addAll(TIMING);
        return all;
    }

    /** One server in one of its modes, with the settings the run gives it by role. */
    record Target(Stack stack, ThreadMode mode) {}

    /**
     * The servers and modes chosen. A --modes word applies to every server, SERVER:MODE to that server alone; a server
     * no word applies to runs every mode it declares. A mode a server does not declare is refused in one line naming
     * the modes it has.
     */
    static List<Target> targets(Options o) throws UsageError {
        List<Target> out = new ArrayList<>();
        List<String> servers = SERVERS_OPT.list(o), given = MODES.given(o) ? MODES.list(o) : List.of();
        for (String g : given) {
            int colon = g.indexOf(':');
            if (colon >= 0 && !servers.contains(g.substring(0, colon))) {
                throw new UsageError("--modes " + g + ": " + g.substring(0, colon) + " is not among --servers " + String.join(",", servers));
            }
        }
        for (String name : servers) {
            Stack stack = Stack.load(name);
            for (String w : WORKLOADS) stack.workload(w);
            // a mode given twice (platform,servlet:platform) runs once
            java.util.Set<String> modes = new java.util.LinkedHashSet<>();
            for (String g : given) {
                if (!g.contains(":")) modes.add(g);
                else if (g.startsWith(name + ":")) modes.add(g.substring(name.length() + 1));
            }
            if (modes.isEmpty()) modes.addAll(stack.modes().keySet());
            for (String m : modes) out.add(new Target(stack, stack.threadMode(m)));
        }
        return out;
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        List<Target> targets = targets(o);
        List<String> workloads = WORKLOADS_OPT.chosen(o);
        List<Integer> conc = CONC.ints(o);
        PlanContext.Timing t = ctx.timing(o, TIMING);
        int sleepMs = SLEEP_MS.integer(o);
        Integer pool = POOL.given(o) ? POOL.integer(o) : null, maxConnections = MAX_CONNECTIONS.given(o) ? MAX_CONNECTIONS.integer(o) : null;
        int acceptQueue = ACCEPT_QUEUE.given(o) ? ACCEPT_QUEUE.integer(o) : conc.stream().mapToInt(Integer::intValue).max().orElse(0);
        int eventLoops = EVENT_LOOPS.given(o) ? EVENT_LOOPS.integer(o) : PlanContext.appCpus(o);
        List<Row> rows = new ArrayList<>();
        // rows of one server, mode and workload are consecutive: with one rep they share one warm JVM
        for (Jdk jdk : ctx.jdks())
            for (String workload : workloads)
                for (Target target : targets)
                    for (int c : conc)
                        for (int rep = 1; rep <= t.reps(); rep++) {
                            rows.add(row(target, workload, c, rep, jdk, sleepMs, pool, maxConnections, acceptQueue, eventLoops, t, ctx));
                        }
        return rows;
    }

    /** A role's setting given a value where the stack has that role (a server without a request pool takes no pool size). */
    static Settings byRole(Stack stack, Settings axes, String role, Integer value) {
        String setting = stack.role(role);
        return value == null || setting == null ? axes : axes.with(setting, Integer.toString(value));
    }

    static Row row(Target target, String workload, int c, int rep, Jdk jdk, int sleepMs, Integer pool, Integer maxConnections,
                   int acceptQueue, int eventLoops, PlanContext.Timing t, PlanContext ctx) throws UsageError {
        Stack stack = target.stack();
        String mode = target.mode().name();
        Settings axes = byRole(stack, byRole(stack, Settings.NONE, Stack.REQUEST_POOL, pool), Stack.CONNECTION_CAP, maxConnections);
        axes = byRole(stack, byRole(stack, axes, Stack.ACCEPT_QUEUE, acceptQueueFor(stack, acceptQueue)), Stack.EVENT_LOOPS, eventLoops);
        Params params = workload.equals("sleep") ? Params.NONE.with("sleepMs", Integer.toString(sleepMs)) : Params.NONE;
        Stack.Config cfg = stack.configure(mode, workload, axes, jdk.major());
        ThreadMode.RequestBound declared = target.mode().bound(cfg.values());
        String capSetting = stack.role(Stack.CONNECTION_CAP);
        int cap = capSetting == null ? Integer.MAX_VALUE : cfg.intValue(capSetting);
        Double waitMs = stack.workload(workload).serviceMsFor(params);
        Double bound = null;
        String note = "CPU-bound workload: no closed-form bound (" + declared.describe() + ")";
        if (waitMs != null) {
            bound = Bounds.closedModelRps(Bounds.inFlight(declared, c, cap), waitMs);
            note = Bounds.note(declared, c, cap, waitMs) + " (" + declared.describe() + ")";
        }
        // with reps, each rep a fork (a JVM of its own, warmed up): the findings' interval is between JVMs, which differ
        // by more than the holds of one JVM do (up to ±15% seen on the development VM; ./vtlab ab --aa measures a machine's own); one rep may share the row before's warm JVM
        return Row.builder().experiment("servers").stack(stack.name()).threadMode(mode).workload(workload).concurrency(c).rep(rep)
                .fork(t.reps() > 1 ? rep : 0).jdk(jdk).params(params).sutEnv(cfg.env()).expectInfo(cfg.expectInfo()).boundRps(bound).boundNote(note)
                .tiers(cfg.tiers()).warmup(t.warmup()).hold(t.hold()).jvmArgs(ctx.jvmArgs()).build();
    }

    /**
     * The backlog a server gets: the one given where its own is smaller (a server whose own is larger, Helidon's 1,024,
     * keeps it: the comparison is of the servers, not of a backlog the lab lowered), none where it has no such role.
     */
    static Integer acceptQueueFor(Stack stack, int wanted) throws UsageError {
        String setting = stack.role(Stack.ACCEPT_QUEUE);
        if (wanted <= 0 || setting == null) return null;
        return Integer.parseInt(stack.dflt(setting)) >= wanted ? null : wanted;
    }

    /**
     * Per workload and concurrency, per model (what the servers declare runs the requests): the servers ranked by
     * throughput, each a mean with its 95% interval over the reps, the best against the runner-up as a ratio with its
     * interval, and where each one's limit is (its bound, its CPU, or neither).
     */
    @Override
    public List<Finding> findings(java.nio.file.Path runDir, List<DataRow> rows) {
        List<Finding> out = new ArrayList<>();
        String notUsed = RowStats.notUsed(rows);
        if (notUsed != null) out.add(Finding.of(notUsed));
        List<DataRow> ok = rows.stream().filter(DataRow::ok).toList();
        Map<String, List<DataRow>> groups = new LinkedHashMap<>();
        for (DataRow r : ok) {
            groups.computeIfAbsent(r.text(Columns.WORKLOAD) + " at " + r.text(Columns.CONCURRENCY) + " connections, "
                    + model(r) + " threads", k -> new ArrayList<>()).add(r);
        }
        groups.forEach((group, g) -> out.add(Finding.of(compare(group, g), g)));
        return out;
    }

    /** What runs the requests of a row's mode, as its stack declares it: the model the servers are compared within. */
    static String model(DataRow r) {
        return Stack.threadsOf(r.text(Columns.STACK), r.mode()).word;
    }

    /** One line: the servers of one model ranked, the best named with its interval and its lead over the runner-up. */
    static String compare(String group, List<DataRow> g) {
        Map<String, List<DataRow>> byServer = new LinkedHashMap<>();
        for (DataRow r : g) byServer.computeIfAbsent(r.text(Columns.STACK) + " " + r.mode(), k -> new ArrayList<>()).add(r);
        List<Map.Entry<String, List<DataRow>>> ranked = byServer.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<String, List<DataRow>> e) -> -rps(e.getValue()).mean())).toList();
        StringBuilder sb = new StringBuilder(group).append(": ");
        var best = ranked.getFirst();
        sb.append("best ").append(best.getKey()).append(' ').append(render(rps(best.getValue())));
        if (ranked.size() > 1) {
            var second = ranked.get(1);
            double[] a = values(second.getValue()), b = values(best.getValue());
            // the lab's judge: a lead is claimed when the whole set lies above 1, said as what the set is otherwise
            Claim lead = Judge.ratio(best.getKey() + " / " + second.getKey() + " req/s", a, b, Margin.DEFAULT);
            sb.append(", ahead of ").append(second.getKey()).append(" by ")
                    .append(!lead.hasSet() ? String.format(java.util.Locale.ROOT, "%.2f× (one rep: no interval)", lead.estimate())
                            : lead.ratioWords() + (lead.answer() == Answer.BETTER ? "" : " (not told apart by the reps: " + lead.answerWords() + ")"));
        }
        List<String> each = new ArrayList<>();
        for (var e : ranked) each.add(e.getKey() + " " + render(rps(e.getValue())) + ": " + limit(e.getValue()));
        return sb.append("; ").append(String.join("; ", each)).toString();
    }

    static double[] values(List<DataRow> rows) {
        return rows.stream().mapToDouble(r -> r.num(Columns.RPS)).toArray();
    }

    static Stats.Interval rps(List<DataRow> rows) {
        return Stats.mean95(values(rows));
    }

    /**
     * "12,340 req/s (95% CI 11,900–12,780)", the mean alone with one rep; a throughput is never below zero, so an interval
     * that two forks far apart stretch past it starts at 0 (Student's t with one degree of freedom is 12.7).
     */
    static String render(Stats.Interval i) {
        if (!i.bounded()) return RowStats.n0(i.mean()) + " req/s";
        return RowStats.n0(i.mean()) + " req/s (95% CI " + RowStats.n0(Math.max(0, i.low())) + "–" + RowStats.n0(i.high()) + ")";
    }

    /**
     * Where a server's limit is: at its declared bound (its pool, its virtual-thread cap, the connections), its CPU
     * (the lab flagged the row app-cpu-bound), or below both, with how busy its CPU was.
     */
    static String limit(List<DataRow> rows) {
        DataRow r = rows.getFirst();
        double bound = r.num(Columns.BOUND_RPS), x = rps(rows).mean(), cpu = vtlab.data.Rows.mean(rows, Columns.APP_CPU);
        String what = r.text(Columns.BOUND_NOTE);
        boolean cpuBound = rows.stream().anyMatch(x1 -> x1.flags().contains("app-cpu-bound"));
        double carriers = vtlab.data.Rows.mean(rows, Columns.CARRIERS);
        // on virtual threads the carriers run the requests: how many there were says how much CPU they could use
        String on = Stack.threadsOf(r.text(Columns.STACK), r.mode()).virtual() && !Double.isNaN(carriers)
                ? String.format(Locale.ROOT, " (%.0f carriers)", carriers) : "";
        // a hold in which the compiler still ran measured a server not yet warm (the jit-busy caveat): say how much of its CPU that was
        double jit = rows.stream().mapToDouble(x1 -> vtlab.data.Rows.cpuGroupPct(x1.text(Columns.APP_CPU_BY_THREAD), "jit")).average().orElse(0);
        String compiling = jit >= vtlab.check.Validity.JIT_BUSY_PCT ? String.format(Locale.ROOT, ", %.0f%% of a core the JIT: not yet warm", jit) : "";
        String busy = Double.isNaN(cpu) ? "" : String.format(Locale.ROOT, ", its CPU %.0f%% of a core%s%s", cpu, on, compiling);
        if (!Double.isNaN(bound) && bound > 0) {
            double pct = 100 * x / bound;
            if (pct >= 90) return String.format(Locale.ROOT, "at its bound (%.0f%% of %s req/s: %s)", pct, RowStats.n0(bound), what);
            return String.format(Locale.ROOT, "%.0f%% of its bound %s req/s (%s)%s", pct, RowStats.n0(bound), what,
                    cpuBound ? ", its CPU ran out first (app-cpu-bound)" : busy);
        }
        return cpuBound ? "its CPU (app-cpu-bound)" : "no bound derived (" + what + ")" + busy;
    }
}
