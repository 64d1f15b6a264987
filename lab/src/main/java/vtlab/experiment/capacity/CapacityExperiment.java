package vtlab.experiment.capacity;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import vtlab.check.Slo;
import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.data.Grouping;
import vtlab.data.Rows;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.plan.RunOptions;
import vtlab.plan.Search;
import vtlab.plan.Study;
import vtlab.tier.RunTier;

/**
 * Capacity at an SLO: for each scenario of another load experiment (--of; by default the servlet's sleep workload)
 * and each thread mode, the highest constant (open-model) rate that meets the SLO over a full hold, found by
 * {@link CapacitySearch}. Every step is a row in matrix.csv; the finding is one sentence per scenario.
 */
public final class CapacityExperiment implements Experiment {
    static final String OF_PARAM = "capacityOf", SLO_PARAM = "slo";
    static final Opt OF = Opt.of("of", "servlet", "the load experiment whose scenarios are searched (e.g. servlet, order-summary)");
    static final Opt SLO = Opt.of("slo", "p99<100ms,errors<0.1%", "what a step must meet over its hold: METRIC<VALUE terms, comma-separated\n"
            + "(p50 p90 p95 p99 p999 max mean in us/ms/s; errors in % or a ratio)");
    static final Opt FROM = Opt.of("from", "1000", "first rate tried, req/s (then doubled until a step fails, or halved until one passes)");
    static final Opt MAX_RATE = Opt.of("max-rate", "64000", "highest rate the search offers, req/s");
    /** The base experiments' own defaults under a search: one rep, short warm-up, and a hold longer than the SUT's slowest periodic pause (Serial old-generation collections every ~25 s at 9,000 req/s here): a 10 s hold caught one or none, so a step passed or failed by luck. */
    static final Map<String, String> BASE_DEFAULTS = Map.of("workloads", "sleep", "reps", "1", "warmup", "5s", "hold", "30s");

    /**
     * The search's defaults for one base experiment: the sleep workload only where the base has one (servlet-io's
     * workloads are count and call, so a search of it keeps its own default instead of being refused).
     */
    static Map<String, String> baseDefaults(Experiment base) {
        String workload = BASE_DEFAULTS.get("workloads");
        boolean sleeps = base.options().stream().filter(d -> d.name().equals("workloads"))
                .allMatch(d -> d.choices().isEmpty() || d.choices().contains(workload));
        if (sleeps) return BASE_DEFAULTS;
        Map<String, String> out = new java.util.HashMap<>(BASE_DEFAULTS);
        out.remove("workloads");
        return out;
    }

    /** The experiments it may search, by name: the registry's (which names this family, so it is handed in). */
    private final Supplier<Map<String, Experiment>> experiments;

    public CapacityExperiment(Supplier<Map<String, Experiment>> experiments) {
        this.experiments = experiments;
    }

    @Override
    public String name() {
        return "capacity";
    }

    @Override
    public String summary() {
        return "the highest constant rate each thread mode sustains within an SLO (--slo), searched step by step, open model";
    }

    @Override
    public List<Opt> options() {
        List<Opt> all = new ArrayList<>(List.of(OF, SLO, FROM, MAX_RATE));
        // the searched experiment's own options (workloads, pool, timing...) are accepted too, under the search's defaults
        java.util.Set<String> seen = new java.util.HashSet<>(all.stream().map(Opt::name).toList());
        for (Experiment e : experiments.get().values()) {
            if (e == this || e instanceof Study) continue;
            for (Opt d : Opt.withDefaults(e.options(), baseDefaults(e))) if (seen.add(d.name())) all.add(d);
        }
        return all;
    }

    @Override
    public List<String> axes() {
        return Opt.render(List.of(OF, SLO, FROM, MAX_RATE));
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) {
        return List.of(); // the rows are decided as the search goes: see searches()
    }

    /** The options a search runs with, checked: SLO, rates and the base experiment. */
    record Spec(Experiment base, Slo slo, double from, double maxRate) {
        static Spec parse(Options o, PlanContext ctx, Map<String, Experiment> experiments) throws UsageError {
            if (PlanContext.CONC.given(o)) throw new UsageError("capacity searches rates: --conc is not an axis here (the in-flight cap is --max-in-flight)");
            if (PlanContext.RATES.given(o) || PlanContext.LOAD_MODEL.given(o)) {
                throw new UsageError("capacity chooses its own rates (open model): drop --load-model/--rates, start with --from");
            }
            String of = OF.string(o);
            Experiment base = Experiment.named(experiments, of);
            if (base instanceof Study || base instanceof CapacityExperiment) {
                throw new UsageError("--of takes a load experiment (servlet, order-summary, ...), not " + of);
            }
            Slo slo = Slo.parse(SLO.string(o));
            double from = positive(o, FROM), max = positive(o, MAX_RATE);
            if (max < from) throw new UsageError("--max-rate (" + fmt(max) + ") is below --from (" + fmt(from) + ")");
            return new Spec(base, slo, from, max);
        }

        private static double positive(Options o, Opt d) throws UsageError {
            String v = d.string(o).trim();
            try {
                double r = Double.parseDouble(v);
                if (r > 0 && !Double.isInfinite(r)) return r;
            } catch (NumberFormatException e) {
                // falls through
            }
            throw new UsageError("--" + d.name() + " takes a positive rate in req/s, not '" + v + "'");
        }
    }

    @Override
    public List<Search> searches(Options o, PlanContext ctx) throws UsageError {
        Spec s = Spec.parse(o, ctx, experiments.get());
        // the base experiment's rows, once each, at the in-flight cap: each is a scenario to search
        // --quick: the base experiment's quick timing (a smoke run), not the search's long holds
        Map<String, String> defaults = new java.util.HashMap<>(baseDefaults(s.base()));
        if (RunOptions.QUICK.on(o)) defaults.keySet().removeAll(List.of(PlanContext.WARMUP.name(), PlanContext.HOLD.name()));
        Options base = o.withDefaults(defaults).withDefaults(Map.of(PlanContext.CONC.name(), Integer.toString(ctx.maxInFlight())));
        List<Search> out = new ArrayList<>();
        Map<String, Row> seeds = new LinkedHashMap<>();
        for (Row r : s.base().plan(base, ctx)) seeds.putIfAbsent(r.scenario(), r);
        for (Row r : seeds.values()) {
            Row seed = r.as(name(), CapacitySearch.params(r.params(), s.base().name(), s.slo()));
            String label = "capacity " + s.base().name() + " " + r.threadMode() + " " + r.workload();
            out.add(new CapacitySearch(label, seed, s.slo(), s.from(), s.maxRate()));
        }
        if (out.isEmpty()) throw new UsageError("--of " + s.base().name() + " leaves no scenario to search");
        return out;
    }

    /** The searched experiment's own checks (order-summary: the SQL really runs) hold for every step. */
    @Override
    public void verify(Row row, URI sutBase, Map<String, RunTier> tiers) throws Exception {
        String of = row.params().get(OF_PARAM);
        if (of != null) Experiment.named(experiments.get(), of).verify(row, sutBase, tiers);
    }

    /**
     * Every step in a JVM of its own: a step must not inherit the state of the steps before it. Reusing one JVM, an
     * overloaded step (16,000 req/s, thousands of connections) left ~330 MB live in the article's 512 MB heap (Tomcat
     * keeps every processor with processorCache -1), and the Serial collector a one-CPU JVM picks then ran a 130-240 ms
     * full GC every ~3 s for the rest of the search: the later, lower steps failed their p99 on the earlier one's heap.
     */
    @Override
    public boolean freshSutPerRow() {
        return true;
    }

    @Override
    public boolean readsOpenRows() {
        return true; // every step is one
    }

    /**
     * One sentence per scenario: "platform-200 sustains 3,800 req/s at p99 < 100 ms, errors < 0.1%, virtual 14,000
     * (3.68x); the limit was ..." from the steps' rows.
     */
    @Override
    public List<Finding> findings(java.nio.file.Path runDir, List<DataRow> all) {
        Map<String, Map<String, List<DataRow>>> byScenario = new LinkedHashMap<>();
        for (DataRow r : Rows.ofExperiment(all, name())) {
            byScenario.computeIfAbsent(scenario(r), k -> new LinkedHashMap<>()).computeIfAbsent(Grouping.variant(r), k -> new ArrayList<>()).add(r);
        }
        List<Finding> out = new ArrayList<>();
        byScenario.forEach((scenario, variants) -> out.add(Finding.of(sentence(scenario, variants),
                variants.values().stream().flatMap(List::stream).toList())));
        return out;
    }

    /** The scenario of a step without its rate and mode: what the modes are compared on. */
    static String scenario(DataRow r) {
        String key = Grouping.comparison(r);
        return Grouping.comparisonLabel(key.substring(0, key.lastIndexOf('|') + 1)).replaceAll(" c=\\S+", "")
                .replaceAll("\\s+slo=\\S+", "").replaceAll("\\s+" + OF_PARAM + "=\\S+", "").trim();
    }

    static String sentence(String scenario, Map<String, List<DataRow>> variants) {
        List<String> parts = new ArrayList<>(), limits = new ArrayList<>();
        Double first = null;
        String slo = null;
        for (var e : variants.entrySet()) {
            List<DataRow> steps = e.getValue();
            slo = CapacitySearch.slo(steps.getFirst()).words();
            double cap = steps.stream().filter(CapacitySearch::passes).mapToDouble(CapacitySearch::rate).max().orElse(0);
            var above = steps.stream().filter(r -> !CapacitySearch.passes(r) && CapacitySearch.rate(r) > cap)
                    .min(java.util.Comparator.comparingDouble(CapacitySearch::rate));
            String what = cap == 0 ? e.getKey() + " meets it at no rate tried" : String.format(Locale.ROOT, "%s sustains %,.0f req/s", e.getKey(), cap);
            if (first == null && cap > 0) first = cap;
            else if (first != null && cap > 0) what += String.format(Locale.ROOT, " (%.2fx)", cap / first);
            parts.add(what);
            limits.add(e.getKey() + ": " + above.map(CapacitySearch::limit).orElse("none found up to the highest rate tried ("
                    + fmt(steps.stream().mapToDouble(CapacitySearch::rate).max().orElse(0)) + " req/s)"));
        }
        return scenario + ": at " + slo + ", " + String.join(", ", parts) + "; the limit was " + String.join("; ", limits) + ".";
    }

    static String fmt(double d) {
        return String.format(Locale.ROOT, "%,.0f", d);
    }
}
