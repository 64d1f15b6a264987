package vtlab.experiment.scenario;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.Columns;
import vtlab.experiment.ThreadModes;
import vtlab.experiment.ab.AbExperiment;
import vtlab.experiment.ab.Service;
import vtlab.load.LoadResult;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.plan.RunOptions;
import vtlab.probe.PathsProbe;
import vtlab.probe.Probes;
import vtlab.stack.Mix;
import vtlab.stack.Params;
import vtlab.stack.Request;
import vtlab.stack.Settings;
import vtlab.stack.Stack;
import vtlab.tier.tool.Jdk;

/**
 * A scenario file run (./vtlab run FILE.toml, docs/scenarios.md): its service (one of the lab's stacks, or a jar or a
 * command as ./vtlab ab takes them) under its weighted mix of requests, one row per JDK x mode x load point x rep. The
 * file is read again here from --scenario (cli turns the rest of it into options); its mix becomes the workload
 * "mix" of the service's stack, which every generator that sends a mix gets whole. On a lab stack that counts the
 * requests it receives by path (runtime-info's requests_by_path) the {@link PathsProbe} counts the mix at the SUT, and
 * the findings name each request's share there against its weight.
 */
public final class ScenarioExperiment implements Experiment {
    public static final String NAME = "scenario";
    /** The workload of a lab stack's rows: the file's mix. */
    public static final String MIX = "mix";
    /** A row's param naming the mix's requests and weights. */
    public static final String MIX_PARAM = "mix";
    public static final Opt SCENARIO = Opt.of("scenario", null, "the scenario file (./vtlab run FILE.toml sets it)");
    public static final Opt STACK = Opt.of("stack", null, "the service: one of the lab's stacks (servlet, spring-mvc, webflux)").inScenario("service");
    public static final Opt JUNIT = Opt.of("junit", null, "write the thresholds as a JUnit XML report to this file (each a test case)");
    static final Opt MODES = ThreadModes.OPTION.typed(Opt.Type.STRINGS).inScenario("run");
    static final Opt CONC = Opt.of("conc", "50", "concurrent connections (closed model)").typed(Opt.Type.INTS).inScenario("load");
    static final List<Opt> TIMING = PlanContext.timingOptions("10s", "20s", 1, "");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "a scenario file (./vtlab run FILE.toml): a service under a weighted mix of requests, with thresholds (docs/scenarios.md)";
    }

    /** The servlet stack under the example file's mix (docs/scenarios/servlet-mix.toml). */
    @Override
    public List<String> example() {
        return List.of("--scenario", vtlab.core.LabHome.get().resolve("docs/scenarios/servlet-mix.toml").toString());
    }

    @Override
    public List<Opt> options() {
        Map<String, Opt> all = new LinkedHashMap<>();
        for (Opt o : List.of(SCENARIO, STACK, JUNIT, MODES, CONC)) all.put(o.name(), o);
        for (Opt o : TIMING) all.put(o.name(), o);
        for (Opt o : new AbExperiment().options()) all.putIfAbsent(o.name(), o);
        return List.copyOf(all.values());
    }

    /** The numeric columns a threshold may name: the generators' and every probe's. */
    public static Map<String, String> metrics() {
        List<vtlab.data.Column> cols = new ArrayList<>(LoadResult.COLUMNS);
        for (var p : Probes.all().values()) cols.addAll(p.get().columns());
        cols.addAll(Fidelity.COLUMNS); // a replay's against its access log (Replayed), after the run
        return Scenario.metrics(cols);
    }

    /**
     * The count of the mix at the SUT, then the run's probes: first, so that its readings at the hold's start and end
     * come before the others' (a JFR recording's start takes a second or more: after it, a short hold is over).
     */
    @Override
    public List<String> probes(List<String> runProbes) {
        return Experiment.withProbes(List.of(PathsProbe.NAME), runProbes.toArray(String[]::new));
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        if (!SCENARIO.given(o)) throw new UsageError("scenario runs a scenario file: ./vtlab run FILE.toml (see docs/scenarios.md)");
        Scenario sc = Scenario.read(Path.of(SCENARIO.string(o)), metrics());
        sc.refuseUnsetEnv();
        o = o.withDefaults(sc.defaults()); // what cli has not set from the file already (planned without it: tests, ./vtlab list)
        Mix mix = sc.mix();
        if (!STACK.given(o)) {
            if (RunOptions.HOSTS.given(o)) throw new UsageError("--hosts: a scenario of a jar or a command does not run across hosts yet (one of the lab's stacks does: stack = \"servlet\")");
            return withModesOf(sc, ofService(o, ctx, mix));
        }
        Stack base = Stack.load(STACK.string(o));
        Stack s = withMix(base, MIX, mix);
        List<String> modes = MODES.chosen(o);
        List<Integer> conc = CONC.ints(o);
        PlanContext.Timing t = ctx.timing(o, TIMING);
        List<Row> rows = new ArrayList<>();
        for (Jdk jdk : ctx.jdks())
            for (String mode : modes)
                for (int c : conc)
                    for (int rep = 1; rep <= t.reps(); rep++) {
                        Stack.Config cfg = s.configure(mode, MIX, Settings.NONE, jdk.major());
                        Params params = Params.NONE.with(MIX_PARAM, mix.spec());
                        // the file's env (a stack's own settings, ACCESS_LOG=DIR for the servlet stack's access log) under the mode's
                        vtlab.proc.Env env = cfg.env();
                        for (String kv : Service.ENV.every(o)) {
                            int eq = kv.indexOf('=');
                            if (eq > 0 && env.get(kv.substring(0, eq)) == null) env = env.with(kv.substring(0, eq), kv.substring(eq + 1));
                        }
                        rows.add(Row.builder().experiment(NAME).stack(s.name()).threadMode(mode).workload(MIX).concurrency(c).rep(rep)
                                .jdk(jdk).params(params).sutEnv(env).expectInfo(cfg.expectInfo())
                                .boundNote("a scenario's mix: no closed-form bound").tiers(cfg.tiers()).warmup(t.warmup())
                                .hold(t.hold()).jvmArgs(ctx.jvmArgs()).build());
                    }
        return withModesOf(sc, rows);
    }

    /** The rows, once the file's thresholds are known to name only modes they have (refused in one line otherwise). */
    static List<Row> withModesOf(Scenario sc, List<Row> rows) throws UsageError {
        sc.refuseModes(rows.stream().map(Row::threadMode).distinct().toList());
        return rows;
    }

    /** A jar or a command: ab's rows (its switches, thread-mode proof, tuned variant), their endpoint the mix. */
    static List<Row> ofService(Options o, PlanContext ctx, Mix mix) throws UsageError {
        String first = mix.entries().getFirst().pathWith(mix.firstValues());
        List<Row> rows = new ArrayList<>();
        for (Row r : new AbExperiment().plan(o.withDefaults(Map.of(Service.URL.name(), first, CONC.name(), CONC.dflt())), ctx)) {
            Stack s = Stack.load(r.stack());
            if (s.workload(r.workload()).mix() == null) Stack.define(withMix(s, r.workload(), mix));
            rows.add(r.as(NAME, r.params().with(MIX_PARAM, mix.spec())));
        }
        return rows;
    }

    /** The stack with a workload that sends the mix (its path the base the mix's paths go to), defined for this run. */
    static Stack withMix(Stack base, String workload, Mix mix) {
        Map<String, Stack.Workload> w = new LinkedHashMap<>(base.workloads());
        w.put(workload, new Stack.Workload(workload, "/", 2, "", null, Request.of("GET"), null, List.of(), mix));
        Stack s = new Stack(base.name(), base.description(), base.dir(), base.jar(), base.runtimeInfoPath(), base.settings(), base.tiers(),
                base.expect(), w, base.data(), base.launch(), base.modes(), base.roles());
        Stack.define(s);
        return s;
    }

    /**
     * A lab stack's scenario runs across hosts as the stack's own experiments do (the mix goes to every load agent in
     * its script); a jar's or a command's does not yet, as ./vtlab ab does not (refused in {@link #plan}).
     */
    @Override
    public boolean acrossHosts() {
        return true;
    }

    /** Every row, in matrix order: the thresholds are held against each. */
    @Override
    public boolean readsOpenRows() {
        return true;
    }

    /** The file and its requests (name, path, weight), in kept.json: the findings match the SUT's paths to them. */
    @Override
    public Map<String, Object> kept(Options o) throws UsageError {
        if (!SCENARIO.given(o)) return Map.of();
        return ScenarioKept.of(Scenario.read(Path.of(SCENARIO.string(o)), metrics())).asMap();
    }

    /** A request of the mix as kept.json keeps it ({@link ScenarioKept}), by name, path and weight. */
    public record Named(String name, String path, int weight) {}

    /** The requests of the run's scenario from its kept.json (empty when it kept none). */
    public static List<Named> requests(Path runDir) {
        ScenarioKept kept = ScenarioKept.read(runDir);
        return kept == null ? List.of() : kept.named();
    }

    /**
     * Per row: throughput, p99 and errors, and each request's share of what the SUT received in the hold against its
     * weight (from sut_requests_by_path; a service that does not count has the mix's names and weights only).
     */
    @Override
    public List<vtlab.data.Finding> findings(Path runDir, List<vtlab.data.DataRow> rows) {
        List<Named> requests = requests(runDir);
        Replayed.Of log = Replayed.of(runDir);
        List<vtlab.data.Finding> out = new ArrayList<>();
        for (vtlab.data.DataRow r : rows) {
            if (!NAME.equals(r.experiment())) continue;
            String where = r.mode() + " " + Threshold.point(r) + " rep " + r.text(Columns.REP);
            if (r.failed()) {
                out.add(vtlab.data.Finding.of(where + ": failed (" + r.text(Columns.NOTE) + ")", List.of(r)));
                continue;
            }
            out.add(vtlab.data.Finding.of(where + ": " + r.text(Columns.RPS) + " req/s, p99 " + r.text(Columns.P99) + " ms, error rate "
                    + r.text(Columns.ERROR_RATE) + "; " + shares(requests, r.cells().get(PathsProbe.BY_PATH.name())), List.of(r)));
            String each = latencyByRequest(r);
            if (requests.size() > 1 && each != null) out.add(vtlab.data.Finding.of(where + ": " + each, List.of(r)));
            if (log != null) {
                Replayed f = Replayed.of(runDir, r, log.log(), log.templates());
                out.add(vtlab.data.Finding.of(where + ": " + (f.fidelity() != null ? f.fidelity().line() : "fidelity to the log not measured: " + f.why()), List.of(r)));
            }
        }
        return out;
    }

    /**
     * Each request's own p50 and p99 (a mix measured apart: vegeta), e.g. "per request (vegeta): hello p50 0.2 p99 1.1
     * ms, sleep ..."; null for a generator that measures the whole load only (the run said so once, before it started).
     */
    static String latencyByRequest(vtlab.data.DataRow r) {
        Map<String, String> p50 = r.byName(Columns.P50_BY_REQUEST), p99 = r.byName(Columns.P99_BY_REQUEST);
        if (p99.isEmpty()) return null;
        List<String> parts = new ArrayList<>();
        p99.forEach((n, v) -> parts.add(n + " p50 " + p50.getOrDefault(n, "?") + " p99 " + v + " ms"));
        return "per request (" + r.text(Columns.GENERATOR) + "): " + String.join(", ", parts);
    }

    /** Each request's share of the SUT's count against its weight, e.g. "owner 50.1% (weight 50.0%), ...". */
    public static String shares(List<Named> requests, String byPath) {
        if (requests.isEmpty()) return "no mix";
        int total = requests.stream().mapToInt(Named::weight).sum();
        Map<String, Long> counted = countsByRequest(requests, PathsProbe.parse(byPath));
        long n = counted.values().stream().mapToLong(Long::longValue).sum();
        List<String> parts = new ArrayList<>();
        if (n == 0) {
            requests.forEach(q -> parts.add(q.name() + " weight " + pct(q.weight(), total)));
            return "the mix (not counted at the SUT: it does not report requests_by_path): " + String.join(", ", parts);
        }
        for (Named q : requests) parts.add(q.name() + " " + pct(counted.get(q.name()), n) + " (weight " + pct(q.weight(), total) + ")");
        return "the mix at the SUT (" + n + " requests): " + String.join(", ", parts);
    }

    /**
     * Each request's count at the SUT: the paths of a request matched against its path template (placeholders any
     * segment, the query left out); a path two requests share cannot be told apart and counts for the first.
     */
    public static Map<String, Long> countsByRequest(List<Named> requests, Map<String, Long> byPath) {
        Map<String, String> templates = new LinkedHashMap<>();
        requests.forEach(q -> templates.put(q.name(), q.path()));
        return Mix.countsByName(templates, byPath);
    }

    static String pct(double part, double total) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * part / total);
    }
}
