package vtlab.experiment.spring;

import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;

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
import java.util.function.Predicate;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Bounds;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.plan.VerificationFailed;
import vtlab.stack.Params;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.tool.Jdk;
import vtlab.tier.RunTier;

/**
 * The Spring variants of the sleep experiment, on the spring-mvc SUT's /sleep controller (Thread.sleep):
 * the article's (seed 000: 50 ms, spring.threads.virtual.enabled off/on, 400 and 1,000 connections) and the talk's
 * (seed 004: 100 ms, platform 200 threads vs platform 2,000 threads vs virtual, 2,000 connections). --server jetty runs
 * them on the same application with the Jetty starter (stack spring-jetty), each mode bounded as that stack declares.
 */
public final class SpringSleepExperiment implements Experiment {
    static final List<String> VARIANTS = List.of("article", "talk");

    /** One variant's settings: sleep, connections, and the platform pool sizes it compares with virtual threads. */
    record Variant(String name, int sleepMs, List<Integer> conc, List<Integer> platformThreads) {}

    static final Variant ARTICLE = new Variant("article", 50, List.of(400, 1000), List.of(200));
    static final Variant TALK = new Variant("talk", 100, List.of(2000), List.of(200, 2000));

    @Override
    public String name() {
        return "spring-sleep";
    }

    /** Its rows run across hosts (--hosts). */
    @Override
    public boolean acrossHosts() {
        return true;
    }

    @Override
    public String summary() {
        return "Spring Boot /sleep: the article's variant (50 ms, 400/1,000 conns) and the talk's (100 ms, 200 vs 2,000 threads vs virtual, 2,000 conns)";
    }

    static final Opt VARIANTS_OPT = Opt.of("variants", "article,talk", "article: 50 ms, platform 200 vs virtual, 400 and 1,000 connections;\n"
            + "talk: 100 ms, platform 200 vs platform 2,000 vs virtual, 2,000 connections").withChoices(VARIANTS);
    static final Opt CONC = SpringRig.CONC.withHelp("N,... overrides both variants' connections");
    /** The /sleep rows' pool: the pg tier runs (stack.json) but /sleep never queries. */
    static final int POOL = 10;

    @Override
    public List<Opt> options() {
        return SpringRig.options(List.of(SpringRig.SERVER), List.of(VARIANTS_OPT, CONC), SpringRig.TIMING);
    }

    /** The options parsed once; conc null: each variant's own. */
    record Spec(List<String> variants, List<String> modes, List<Integer> conc, PlanContext.Timing timing, List<String> jvmArgs) {
        static Spec parse(Options o, PlanContext ctx) throws UsageError {
            return new Spec(VARIANTS_OPT.chosen(o), SpringRig.MODES_OPT.chosen(o),
                    CONC.given(o) ? CONC.ints(o) : null, ctx.timing(o, SpringRig.TIMING), SpringRig.jvmArgs(o, ctx));
        }
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        Stack stack = SpringRig.stack(o);
        Spec s = Spec.parse(o, ctx);
        PlanContext.Timing t = s.timing();
        List<Row> rows = new ArrayList<>();
        for (Jdk jdk : ctx.jdks())
            for (String vName : s.variants()) {
                Variant v = vName.equals("article") ? ARTICLE : TALK;
                List<Integer> conc = s.conc() != null ? s.conc() : v.conc();
                List<Integer> configs = new ArrayList<>(); // platform pool sizes, then 0 = virtual
                if (s.modes().contains(Threads.PLATFORM.word)) configs.addAll(v.platformThreads());
                if (s.modes().contains(Threads.VIRTUAL.word)) configs.add(0);
                for (int threads : configs)
                    for (int c : conc)
                        for (int rep = 1; rep <= t.reps(); rep++) {
                            String mode = threads == 0 ? Threads.VIRTUAL.word : Threads.PLATFORM.word;
                            // virtual ignores TOMCAT_MAX_THREADS: the stack's default, so its env is the same every time
                            SpringRig.Sut d = SpringRig.Sut.defaults(stack, mode);
                            SpringRig.Sut sut = new SpringRig.Sut(mode, threads == 0 ? d.maxThreads() : threads, d.maxConnections(), POOL,
                                    d.connMode(), d.pathMode(), d.delayMs(), d.client(), d.http());
                            Params params = Params.NONE.with("variant", v.name()).with("sleepMs", Integer.toString(v.sleepMs()));
                            double bound = Bounds.closedModelRps(Bounds.inFlight(sut.bound(stack), c, sut.maxConnections()), v.sleepMs());
                            String note = Bounds.note(sut.bound(stack), c, sut.maxConnections(), v.sleepMs());
                            rows.add(SpringRig.row(name(), stack, jdk, sut, "sleep", c, rep, false, params, bound, note, t, s.jvmArgs()));
                        }
            }
        return rows;
    }

    /** The request must run on the kind of thread the row says: a virtual thread's name starts with VirtualThread[. */
    @Override
    public void verify(Row row, URI sutBase, Map<String, RunTier> tiers) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(sutBase.resolve("/sleep?ms=1")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        boolean onVirtual = r.body().contains("on VirtualThread[");
        if (r.statusCode() != 200 || onVirtual != row.threadMode().equals(Threads.VIRTUAL.word)) {
            throw new VerificationFailed("/sleep ran on the wrong kind of thread for a " + row.threadMode() + " row: " + r.body().strip());
        }
    }

    @Override
    public List<Finding> findings(java.nio.file.Path runDir, List<DataRow> rows) {
        return Finding.of(findingsOf(rows));
    }

    static List<String> findingsOf(List<DataRow> rows) {
        List<String> out = new ArrayList<>();
        for (String variant : VARIANTS) {
            Predicate<DataRow> inVariant = r -> variant.equals(r.param("variant"));
            if (rows.stream().noneMatch(inVariant)) continue;
            // one series per configuration: platform-N or virtual
            Map<String, TreeMap<Integer, Double>> series = new LinkedHashMap<>();
            Map<String, TreeMap<Integer, Double>> bounds = new LinkedHashMap<>();
            rows.stream().filter(inVariant).map(SpringSleepExperiment::config).distinct().sorted().forEach(cfg -> {
                Predicate<DataRow> f = inVariant.and(r -> config(r).equals(cfg));
                series.put(cfg, SpringRig.meanBy(rows, f, Columns.CONCURRENCY, Columns.RPS));
                bounds.put(cfg, SpringRig.meanBy(rows, f, Columns.CONCURRENCY, Columns.BOUND_RPS));
            });
            String platform200 = series.keySet().stream().filter(k -> k.endsWith("platform-200")).findFirst().orElse("platform-200");
            TreeMap<Integer, Double> base = series.get(platform200);
            for (var e : series.entrySet()) {
                for (var c : e.getValue().entrySet()) {
                    double bound = bounds.get(e.getKey()).getOrDefault(c.getKey(), Double.NaN);
                    String s = String.format(Locale.ROOT, "%s, c=%d: %s %s (%.0f%% of its bound %s)", variant, c.getKey(), e.getKey(),
                            SpringRig.rps(c.getValue()), c.getValue() / bound * 100, SpringRig.rps(bound));
                    if (base != null && !e.getKey().equals(platform200) && base.containsKey(c.getKey())) {
                        s += " = " + SpringRig.times(c.getValue() / base.get(c.getKey())) + " " + platform200;
                    }
                    String sat = SpringRig.saturation(rows.stream().filter(DataRow::ok).filter(inVariant)
                            .filter(r -> config(r).equals(e.getKey()) && (int) r.num(Columns.CONCURRENCY) == c.getKey()).toList());
                    if (sat != null) s += "; " + sat;
                    out.add(s);
                }
            }
        }
        if (out.isEmpty()) out.add("no row finished with status ok: nothing to conclude");
        long excluded = rows.stream().filter(r -> !r.ok()).count();
        if (excluded > 0) out.add(excluded + " row(s) not ok (flagged or failed) are left out of these statements");
        return out;
    }

    /** platform-N or virtual, on Jetty (--server jetty) "jetty platform-N", "jetty virtual". */
    static String config(DataRow r) {
        String t = r.param("maxThreads");
        String server = SpringRig.JETTY_STACK.equals(r.text(Columns.STACK)) ? "jetty " : "";
        return server + (Threads.PLATFORM.word.equals(r.mode()) && t != null ? "platform-" + t : r.mode());
    }
}
