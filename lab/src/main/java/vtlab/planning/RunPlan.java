package vtlab.planning;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import vtlab.check.Slo;
import vtlab.core.LabHome;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.Environment;
import vtlab.experiment.registry.Experiments;
import vtlab.load.Generator;
import vtlab.plan.Experiment;
import vtlab.plan.FaultAxis;
import vtlab.plan.LimitAxis;
import vtlab.plan.PlanContext;
import vtlab.plan.PlannedRow;
import vtlab.plan.Row;
import vtlab.plan.RunOptions;
import vtlab.plan.Search;
import vtlab.plan.Study;
import vtlab.plan.Suite;
import vtlab.probe.Probes;
import vtlab.proc.CoreMap;
import vtlab.proc.LabAffinity;
import vtlab.run.ExplainingHold;
import vtlab.tier.PostgresTier;
import vtlab.tier.TierOptions;
import vtlab.tier.Tiers;
import vtlab.tier.host.Topology;

/**
 * A run's plan from its options alone, as a value: the experiments chosen (a suite's parts), their rows, searches and
 * studies, the generator they need, the probes, CPUs, port and folder, and every row planned with its hooks. Every
 * refusal of the options and of the experiments' plans is made here, in one line; nothing is started, reached,
 * bound or installed ({@link Preflight} checks the machine next, the command reaches the hosts).
 *
 * @param experiments  the names asked for, each once (the demo's when none was)
 * @param options      the options the experiments planned from (the demo's defaults under them when no name was given)
 * @param topology     --hosts' topology, null without
 * @param kept         each experiment's entry of kept.json ({@link Experiment#kept}), by its name
 * @param open         whether the rows are open-model
 * @param failOn       --fail-on's thresholds, null without
 * @param hooks        how a row is planned (probes, fresh JVM, checks, drains): the fixed rows were, a search's will be
 */
public record RunPlan(List<String> experiments, Options options, List<Experiment> chosen, Topology topology, PlanContext ctx,
                      List<Row> rows, List<Search> searches, List<Study.Prepared> studies, long studySeconds,
                      Map<String, Map<String, Object>> kept, boolean open, Generator generator, Slo failOn,
                      CoreMap cores, int port, Path results, TierOptions tierOptions, RowHooks hooks, List<PlannedRow> planned) {

    /** The run's probe set (each row adds what its experiment needs). */
    public List<String> probes() {
        return hooks.probes();
    }

    /** The rows and the searches' template rows: what the machine is checked and made ready for. */
    public List<Row> templates() {
        return Stream.concat(rows.stream(), searches.stream().map(Search::template)).toList();
    }

    /** Plans the run: refuses what the options and the experiments refuse, starts nothing. */
    public static RunPlan of(Options given, List<String> names) throws UsageError {
        List<String> experiments = new ArrayList<>(names);
        Options o = given;
        if (experiments.isEmpty()) {
            experiments.add(LabOptions.DEMO_EXPERIMENT);
            o = given.withDefaults(LabOptions.DEMO);
        }
        Map<String, Map<String, String>> settings = new HashMap<>(); // a suite's, by part
        List<Experiment> chosen = choose(experiments, o, settings);
        List<String> unknown = LabOptions.unknown(given, chosen);
        if (!unknown.isEmpty()) {
            throw new UsageError("option --" + unknown.getFirst() + " is not known to " + String.join(", ", experiments) + " (see ./vtlab list)");
        }
        Slo failOn = LabOptions.failOn(o);
        Topology topology = HostsPlan.read(o);
        PlanContext ctx = PlanContext.from(o);
        Parts parts = Parts.of(chosen, settings, o, ctx);
        boolean open = parts.refuseMixedModels(ctx);
        Generator gen = GeneratorChoice.choose(o, chosen, parts.rows, open, ctx.rateProfile() != null);
        if (topology != null) {
            HostsPlan.refuse(topology, chosen.stream().map(Experiment::name).toList(), parts.rows,
                    !parts.searches.isEmpty() || !parts.studies.isEmpty(), gen, o);
        }
        CoreMap cores = Tiers.cores(LabAffinity.machineCpus(), o);
        List<String> defaultProbes = Experiment.defaultProbes(chosen, Probes.DEFAULT);
        List<String> probes = topology != null ? HostsPlan.probes(o) : LabOptions.probes(o, defaultProbes);
        int port = RunOptions.PORT.integer(o);
        Path results = Path.of(RunOptions.OUT.string(o, LabHome.get().resolve("results").toString()));
        RowHooks hooks = RowHooks.of(o, probes);
        List<PlannedRow> planned = hooks.plannedAll(parts.rows);
        TierOptions tierOptions = RunOptions.RESEED.on(o) ? TierOptions.NONE.with(PostgresTier.OPT_RESEED, "true") : TierOptions.NONE;
        if (port > 65535) throw new UsageError("--port must be at most 65535");
        return new RunPlan(List.copyOf(new LinkedHashSet<>(experiments)), o, List.copyOf(chosen), topology, ctx, List.copyOf(parts.rows),
                List.copyOf(parts.searches), List.copyOf(parts.studies), parts.studySeconds, Collections.unmodifiableMap(parts.kept),
                open, gen, failOn, cores, port, results, tierOptions, hooks, planned);
    }

    /** The experiments named, a suite as its parts (each part's settings kept in settings, by its name). */
    private static List<Experiment> choose(List<String> names, Options o, Map<String, Map<String, String>> settings) throws UsageError {
        List<Experiment> chosen = new ArrayList<>();
        for (String name : new LinkedHashSet<>(names)) {
            Experiment e = Experiments.byName(name);
            if (!(e instanceof Suite suite)) {
                chosen.add(e);
                continue;
            }
            for (Suite.Part part : suite.parts()) {
                chosen.add(Experiments.byName(part.experiment()));
                settings.put(part.experiment(), LabOptions.suiteSettings(part.settings(), o));
            }
        }
        return chosen;
    }

    /** What the chosen experiments plan: their rows (faults and limits applied), searches and studies, and what each keeps. */
    private record Parts(List<Row> rows, List<Search> searches, List<Study.Prepared> studies, long studySeconds,
                         Map<String, Map<String, Object>> kept) {
        static Parts of(List<Experiment> chosen, Map<String, Map<String, String>> settings, Options o, PlanContext ctx) throws UsageError {
            List<Row> rows = new ArrayList<>();
            List<Search> searches = new ArrayList<>();
            List<Study.Prepared> studies = new ArrayList<>();
            long studySeconds = 0;
            Map<String, Map<String, Object>> kept = new LinkedHashMap<>();
            for (Experiment e : chosen) {
                Options eo = o.withDefaults(settings.getOrDefault(e.name(), Map.of()));
                Map<String, Object> own = e.kept(eo);
                if (!own.isEmpty()) kept.put(e.name(), own);
                if (e instanceof Study s) {
                    Study.Prepared sp = s.prepare(eo, ctx);
                    studySeconds += sp.seconds();
                    studies.add(sp);
                    continue;
                }
                List<String> faults = e.faults(eo);
                if (ctx.rateProfile() != null && !faults.isEmpty()) {
                    throw new UsageError("--rate-profile: a fault row is judged at a constant rate (" + e.name() + " runs faults " + String.join(", ", faults)
                            + "): run spikes and faults apart" + (e.name().equals("faults") ? " (faults has its own spike row: --spike)" : ""));
                }
                List<Row> faulted = FaultAxis.apply(ctx.underLoadModel(e.plan(ctx.forExperiments(eo), ctx)), faults);
                rows.addAll(LimitAxis.apply(faulted, LimitAxis.parse(eo), eo));
                searches.addAll(e.searches(eo, ctx));
            }
            if (rows.isEmpty() && studies.isEmpty() && searches.isEmpty()) throw new UsageError("the options leave no row to run");
            LimitAxis.refuse(rows, CoreMap.compute(LabAffinity.machineCpus(), o).count(CoreMap.APP), Environment.memTotalKb() * 1024);
            return new Parts(rows, searches, studies, studySeconds, kept);
        }

        /**
         * Whether the run is open-model; refused when a search's rows cannot share the generator with the fixed rows,
         * or a rate profile goes with what it cannot.
         */
        boolean refuseMixedModels(PlanContext ctx) throws UsageError {
            // a search runs rows of its template's load model (capacity: open, constant rates; ab's next step: the A/B's
            // own), which rows of the other model cannot share a generator with
            boolean openSearch = searches.stream().anyMatch(s -> s.template().open());
            boolean open = ctx.open() || openSearch || rows.stream().anyMatch(Row::open); // faults plans open rows itself
            if (openSearch && rows.stream().anyMatch(r -> !r.open())) {
                throw new UsageError("capacity runs open-model rows: run it on its own, not with closed-model experiments");
            }
            if (ctx.rateProfile() != null) refuseWithProfile(rows, searches);
            return open;
        }
    }

    /**
     * What a rate profile cannot go with: a capacity search (it searches constant rates) and a fault (a fault row's
     * rate is judged on the seconds before the fault against a constant target).
     */
    static void refuseWithProfile(List<Row> rows, List<Search> searches) throws UsageError {
        if (!searches.isEmpty()) throw new UsageError("--rate-profile: capacity searches constant rates; run a profile with a load experiment");
        for (Row r : rows) {
            if (!r.faults().isEmpty()) {
                throw new UsageError("--rate-profile: a fault row is judged at a constant rate (row " + r.label() + "): run spikes and faults apart");
            }
        }
    }

    /** The run's one line before it starts: what it runs, about how long, with which generator and probes. */
    public String line(String generatorName) {
        return "vtlab: " + rows.size() + " rows" + (studies.isEmpty() ? "" : " and " + studies.size() + " studies")
                + (searches.isEmpty() ? "" : " and " + searches.size() + " searches (about "
                        + searches.stream().mapToInt(Search::expectedRows).sum() + " rows, "
                        + searches.stream().mapToLong(s -> s.expectedRows() * s.secondsPerRow()).sum() / 60 + " min of load)")
                + " of " + String.join(", ", experiments) + ", about " + minutes(planned, studySeconds)
                + " (generator " + generatorName + ", probes " + String.join(",", probes())
                + (rows.stream().anyMatch(r -> r.ownProbes() != null) ? "; probe-cost rows: their own sets" : "") + ")";
    }

    /** The run's planned length: each row's warm-up, hold and profiled hold, a few seconds each to start, and the studies. */
    public static String minutes(List<PlannedRow> rows, long extraSeconds) {
        long s = rows.stream().mapToLong(r -> ExplainingHold.plannedSeconds(r) + 6).sum() + extraSeconds;
        return s >= 120 ? (s / 60) + " min" : s + " s";
    }
}
