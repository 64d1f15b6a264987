package vtlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import vtlab.core.LabHome;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.check.Slo;
import vtlab.data.Environment;
import vtlab.data.RunDir;
import vtlab.experiment.registry.Experiments;
import vtlab.load.Generator;
import vtlab.load.generator.Generators;
import vtlab.load.LoadModel;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.PlannedRow;
import vtlab.plan.Row;
import vtlab.plan.Search;
import vtlab.plan.RowCheck;
import vtlab.plan.RunOptions;
import vtlab.plan.Study;
import vtlab.probe.Probe;
import vtlab.probe.Probes;
import vtlab.run.Runner;
import vtlab.stack.Stack;
import vtlab.proc.CoreMap;
import vtlab.tier.StackVariants;
import vtlab.tier.Tiers;
import vtlab.tier.tool.OsPackages;
import vtlab.tier.tool.Tool;

/**
 * ./vtlab run: plans every row and refuses bad input before anything starts, then runs the plan, then writes the
 * experiments' findings, the summary and the report of the run folder.
 */
public final class RunCommand implements Command {
    /** The command line as given, for environment.json. */
    private final List<String> commandLine;

    public RunCommand(List<String> commandLine) {
        this.commandLine = commandLine;
    }

    /** Plans and checks everything before starting anything, then runs. */
    @Override
    public String name() {
        return "run";
    }

    @Override
    public String help() {
        return HelpCommand.runText();
    }

    /** The lab's own options (--help and --version aside); each experiment's are in its own help. */
    @Override
    public java.util.Set<String> options() {
        java.util.Set<String> all = new java.util.TreeSet<>(GLOBAL);
        all.removeAll(java.util.Set.of("help", "version"));
        return all;
    }

    @Override
    public int run(Options o, List<String> names, PrintStream out) throws Exception {
        if (ScenarioRun.isScenario(names)) { // ./vtlab run FILE.toml: the file's options, run as the scenario experiment, then its thresholds
            ScenarioRun scenario = ScenarioRun.of(o, names, out);
            Executed ex = execute(scenario.options(), List.of(vtlab.experiment.scenario.ScenarioExperiment.NAME), out);
            return scenario.afterRun(ex.done().dir(), ex.code(), out);
        }
        return execute(o, names, out).code();
    }

    /** A finished run: the runner's outcome and the exit code it earns (ExitCodes). */
    record Executed(Runner.Outcome done, int code) {}

    /** Plans, runs and writes the results; the run folder, whether every row got to run, and the exit code. */
    Executed execute(Options o, List<String> names, PrintStream out) throws Exception {
        Prepared p = prepare(o, names);
        Slo failOn = failOn(o);
        out.println("vtlab: " + p.rows().size() + " rows" + (p.studies().isEmpty() ? "" : " and " + p.studies().size() + " studies")
                + (p.searches().isEmpty() ? "" : " and " + p.searches().size() + " searches (about "
                        + p.searches().stream().mapToInt(Search::expectedRows).sum() + " rows, "
                        + p.searches().stream().mapToLong(s -> s.expectedRows() * s.secondsPerRow()).sum() / 60 + " min of load)")
                + " of " + String.join(", ", p.experiments()) + ", about " + minutes(p.planned(), p.studySeconds())
                + " (generator " + p.generator().name() + ", probes " + String.join(",", p.probes())
                + (p.rows().stream().anyMatch(r -> r.ownProbes() != null) ? "; probe-cost rows: their own sets" : "") + ")");
        Environment env = new Environment(commandLine, o.asMap(), p.cores(),
                java.util.stream.Stream.concat(p.rows().stream(), p.searches().stream().map(Search::template)).map(Row::jdk).distinct().toList(),
                p.generator().name(), p.generator().version(), p.probes(), p.rows().size());
        p.environments().forEach(env::set);
        RunAcrossHosts.Across across = p.across();
        if (across != null) {
            env.set("topology", across.file().toString());
            env.set("hosts", across.survey());
            across.describe().forEach(out::println);
        }
        Runner.Outcome done;
        try {
            Runner.Builder config = Runner.Config.builder().rows(p.planned()).studies(p.studies(), p.studySeconds()).generator(p.generator())
                    .cores(p.cores()).port(p.port()).folders(p.results(), LabHome.get().resolve(".vtlab")).tierOptions(p.tierOptions())
                    .environment(env).experiments(p.experiments()).plan(p.plan()).searches(p.searches(), p.planner()).launcher(p.launcher());
            if (across != null) config.hosts(across.run()::unreachable, across.sites());
            done = new Runner(out).run(config.build());
        } finally {
            if (across != null) {
                List<String> left = across.run().finish();
                if (!left.isEmpty()) out.println("vtlab: still running on the hosts after the run, killed: " + String.join(", ", left));
                List<String> notReached = across.run().notReached();
                if (!notReached.isEmpty()) out.println("vtlab: not reached after the run, not swept: " + String.join("; ", notReached));
            }
        }
        RunDir dir = done.dir();
        boolean breached = done.complete() && writeResults(dir, p.experiments(), failOn, out);
        if (done.complete()) vtlab.experiment.registry.RunFindings.afterRun(dir.dir(), p.experiments(), out);
        out.println("vtlab: results in " + dir.dir() + " (matrix.csv, summary.txt, summary.json, environment.json, raw/)");
        int code = ExitCodes.ofRun(done.complete(), done.failed(), breached);
        if (code == ExitCodes.ROWS_FAILED) {
            out.println("vtlab: " + done.failed() + " row(s) failed" + (done.stopped() == null ? "" : ", " + done.notRun() + " not run (the run stopped)") + ": exit code 1");
        }
        else if (code == ExitCodes.THRESHOLDS) out.println("vtlab: thresholds breached (--fail-on " + failOn.text() + "): exit code 99");
        return new Executed(done, code);
    }

    public static void writeResults(RunDir dir, List<String> experiments, PrintStream out) throws IOException {
        writeResults(dir, experiments, null, out);
    }

    /**
     * After a finished run: the experiments' findings to findings.json (which the summary and the report read), the
     * summary to summary.json and, with the findings, to summary.txt and the terminal, then report.html.
     *
     * @param failOn thresholds every row is held against (--fail-on), null without
     * @return whether a row breached them
     */
    public static boolean writeResults(RunDir dir, List<String> experiments, Slo failOn, PrintStream out) throws IOException {
        vtlab.data.Findings findings = vtlab.experiment.registry.RunFindings.write(dir.dir(), experiments);
        List<vtlab.data.DataRow> rows = Files.exists(dir.matrix()) ? vtlab.data.Dataset.rows(dir.matrix()) : List.of();
        java.util.Map<Integer, List<String>> breaches = new java.util.LinkedHashMap<>();
        if (failOn != null) for (int i = 0; i < rows.size(); i++) breaches.put(i + 1, failOn.breached(rows.get(i)));
        var env = Files.exists(dir.environment()) ? new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.environment().toFile()) : null;
        vtlab.report.RunSummary s = vtlab.report.RunSummary.of(rows, vtlab.report.Histograms.of(dir.dir()), env,
                failOn == null ? null : failOn.text(), breaches);
        s.write(dir.dir());
        String summary = (rows.isEmpty() ? "" : vtlab.report.Summary.render(s)) + vtlab.report.Summary.findings(findings);
        Files.writeString(dir.summary(), summary);
        out.print(summary);
        vtlab.report.Report.afterRun(dir.dir(), out);
        return s.breached();
    }

    /** @param environments each experiment's own entries of environment.json ({@link Experiment#environment}), by its name */
    public record Prepared(List<String> experiments, List<Row> rows, List<Study.Prepared> studies, long studySeconds,
                           Generator generator, List<String> probes, CoreMap cores, int port, Path results,
                           vtlab.tier.TierOptions tierOptions, PlanContext plan, boolean freshSut,
                           List<PlannedRow> planned, List<Search> searches, String pinThreshold,
                           java.util.Map<String, java.util.Map<String, Object>> environments, RunAcrossHosts.Across across) {
        /** Where the SUT runs: here, or on its host (--hosts). */
        vtlab.tier.SutHandle.Launcher launcher() {
            return across == null ? vtlab.tier.SutProcess::start : across.launcher();
        }

        /** Resolves a searched row as the fixed rows were. */
        Runner.Planner planner() {
            return row -> RunCommand.planned(row, probes, freshSut, pinThreshold);
        }
    }

    /**
     * The default demo: the article's sleep servlet at 400 and 1,000 connections, once, on platform threads and on
     * virtual threads both tuned and as shipped (what the flag alone gives); about 3 minutes: a fixed 15 s warm-up
     * (full runs warm up until the rate and the JIT settle), 12 s hold.
     */
    static final String DEMO_EXPERIMENT = "servlet";
    static final java.util.Map<String, String> DEMO = java.util.Map.of("workloads", "sleep", "reps", "1", "warmup", "15s",
            "warmup-max", "0s", "hold", "12s", "modes", "platform,virtual,virtual-as-shipped");

    /**
     * Options of the lab itself, whichever experiments run: RunOptions and --generator, declared beside the generators'
     * registry it chooses from, in the order the run's help shows them; each experiment declares its own besides.
     */
    static final List<vtlab.core.Opt> OWN = ownOptions();
    static final java.util.Set<String> GLOBAL = java.util.Set.copyOf(OWN.stream().map(vtlab.core.Opt::name).toList());

    private static List<vtlab.core.Opt> ownOptions() {
        List<vtlab.core.Opt> all = new ArrayList<>(RunOptions.ALL);
        all.add(all.indexOf(RunOptions.WARMUP_MAX) + 1, Generators.OPTION); // where the help has always shown it
        return List.copyOf(all);
    }

    /** --fail-on's thresholds, null without; refused in one line when they do not parse. */
    static Slo failOn(Options o) throws UsageError {
        return RunOptions.FAIL_ON.given(o) ? Slo.failOn(RunOptions.FAIL_ON.string(o, "")) : null;
    }

    /** Options given that neither the lab nor any of these experiments declares. */
    public static List<String> unknown(Options given, List<Experiment> experiments) {
        java.util.Set<String> known = new java.util.HashSet<>(GLOBAL);
        Generators.options().forEach(d -> known.add(d.name())); // refused by name with any other generator (Generators.configured)
        for (Experiment e : experiments) {
            e.options().forEach(d -> known.add(d.name()));
            if (!(e instanceof Study)) PlanContext.LOAD_OPTIONS.forEach(d -> known.add(d.name())); // every load experiment's
        }
        return given.unknown(known);
    }

    /**
     * A run's plan from its options alone: the experiments chosen (a suite's parts), their rows, searches and studies,
     * and the generator they need; every refusal of the options and of the experiments' plans, in one line. Nothing is
     * started, reached or installed here (no port, host, tool or build): {@link #prepare} does that next.
     *
     * @param options      the options the experiments planned from (the demo's defaults under them when no name was given)
     * @param environments each experiment's own entries of environment.json ({@link Experiment#environment}), by its name
     * @param open         whether the rows are open-model
     */
    public record Plan(List<String> experiments, Options options, List<Experiment> chosen, vtlab.tier.host.Topology topology,
                       PlanContext ctx, List<Row> rows, List<Search> searches, List<Study.Prepared> studies, long studySeconds,
                       java.util.Map<String, java.util.Map<String, Object>> environments, boolean open, Generator generator) {}

    /** Plans the run (see {@link Plan}): refuses what the options and the experiments refuse, starts nothing. */
    public static Plan plan(Options given, List<String> names) throws UsageError {
        List<String> experiments = new ArrayList<>(names);
        Options o = given;
        if (experiments.isEmpty()) {
            experiments.add(DEMO_EXPERIMENT);
            o = given.withDefaults(DEMO);
        }
        List<Experiment> chosen = new ArrayList<>();
        java.util.Map<String, java.util.Map<String, String>> settings = new java.util.HashMap<>(); // a suite's, by part
        for (String name : new LinkedHashSet<>(experiments)) {
            Experiment e = Experiments.byName(name);
            if (!(e instanceof vtlab.plan.Suite suite)) {
                chosen.add(e);
                continue;
            }
            for (vtlab.plan.Suite.Part part : suite.parts()) {
                chosen.add(Experiments.byName(part.experiment()));
                settings.put(part.experiment(), suiteSettings(part.settings(), o));
            }
        }
        List<String> unknown = unknown(given, chosen);
        if (!unknown.isEmpty()) {
            throw new UsageError("option --" + unknown.getFirst() + " is not known to " + String.join(", ", experiments) + " (see ./vtlab list)");
        }
        failOn(o);
        vtlab.tier.host.Topology topology = RunAcrossHosts.read(o);
        PlanContext ctx = PlanContext.from(o);
        List<Row> rows = new ArrayList<>();
        List<Search> searches = new ArrayList<>();
        List<Study.Prepared> studies = new ArrayList<>();
        long studySeconds = 0;
        java.util.Map<String, java.util.Map<String, Object>> environments = new java.util.LinkedHashMap<>();
        for (Experiment e : chosen) {
            Options eo = o.withDefaults(settings.getOrDefault(e.name(), java.util.Map.of()));
            java.util.Map<String, Object> own = e.environment(eo);
            if (!own.isEmpty()) environments.put(e.name(), own);
            if (e instanceof Study s) {
                Study.Prepared sp = s.prepare(eo, ctx);
                studySeconds += sp.seconds();
                studies.add(sp);
            } else {
                List<String> faults = e.faults(eo);
                if (ctx.rateProfile() != null && !faults.isEmpty()) {
                    throw new UsageError("--rate-profile: a fault row is judged at a constant rate (" + e.name() + " runs faults " + String.join(", ", faults)
                            + "): run spikes and faults apart" + (e.name().equals("faults") ? " (faults has its own spike row: --spike)" : ""));
                }
                List<Row> faulted = vtlab.plan.FaultAxis.apply(ctx.underLoadModel(e.plan(ctx.forExperiments(eo), ctx)), faults);
                rows.addAll(vtlab.plan.LimitAxis.apply(faulted, vtlab.plan.LimitAxis.parse(eo), eo));
                searches.addAll(e.searches(eo, ctx));
            }
        }
        if (rows.isEmpty() && studies.isEmpty() && searches.isEmpty()) throw new UsageError("the options leave no row to run");
        vtlab.plan.LimitAxis.refuse(rows, CoreMap.compute(vtlab.proc.LabAffinity.machineCpus(), o).count(CoreMap.APP),
                vtlab.data.Environment.memTotalKb() * 1024);
        // a search runs rows of its template's load model (capacity: open, constant rates; ab's next step: the A/B's
        // own), which rows of the other model cannot share a generator with
        boolean openSearch = searches.stream().anyMatch(s -> s.template().open());
        boolean open = ctx.open() || openSearch || rows.stream().anyMatch(Row::open); // faults plans open rows itself
        if (openSearch && rows.stream().anyMatch(r -> !r.open())) {
            throw new UsageError("capacity runs open-model rows: run it on its own, not with closed-model experiments");
        }
        if (ctx.rateProfile() != null) refuseWithProfile(rows, searches);
        Generator gen = chooseGenerator(o, chosen, rows, open, ctx.rateProfile() != null);
        return new Plan(List.copyOf(new LinkedHashSet<>(experiments)), o, List.copyOf(chosen), topology, ctx, List.copyOf(rows), List.copyOf(searches),
                List.copyOf(studies), studySeconds, environments, open, gen);
    }

    /** Everything that can be refused is refused here, before any process starts. */
    public static Prepared prepare(Options given, List<String> names) throws UsageError {
        Plan plan = plan(given, names);
        Options o = plan.options();
        vtlab.tier.host.Topology topology = plan.topology();
        List<Experiment> chosen = plan.chosen();
        List<Row> rows = plan.rows();
        List<Search> searches = plan.searches();
        PlanContext ctx = plan.ctx();
        boolean open = plan.open();
        Generator gen = plan.generator();
        if (topology != null) {
            RunAcrossHosts.refuse(topology, chosen.stream().map(Experiment::name).toList(), rows, !searches.isEmpty() || !plan.studies().isEmpty(), gen, o);
        }
        CoreMap cores = Tiers.cores(vtlab.proc.LabAffinity.machineCpus(), o);
        List<String> defaultProbes = Experiment.defaultProbes(chosen, Probes.DEFAULT);
        List<String> probes = topology != null ? RunAcrossHosts.probes(o)
                : RunOptions.NO_PROBES.on(o) ? List.of() : (RunOptions.PROBES.given(o) ? Probes.resolve(RunOptions.PROBES.list(o), defaultProbes) : defaultProbes);
        int port = RunOptions.PORT.integer(o);
        Path results = Path.of(RunOptions.OUT.string(o, LabHome.get().resolve("results").toString()));
        boolean freshSut = RunOptions.FRESH_SUT.on(o);
        String pinThreshold = RunOptions.PIN_THRESHOLD.given(o) ? RunOptions.PIN_THRESHOLD.duration(o, java.time.Duration.ZERO, true).toMillis() + "ms" : null;
        List<PlannedRow> planned = new ArrayList<>();
        for (Row r : rows) planned.add(planned(r, probes, freshSut, pinThreshold));
        vtlab.tier.TierOptions tierOptions = RunOptions.RESEED.on(o) ? vtlab.tier.TierOptions.NONE.with(vtlab.tier.PostgresTier.OPT_RESEED, "true") : vtlab.tier.TierOptions.NONE;
        if (port > 65535) throw new UsageError("--port must be at most 65535");
        List<Row> templates = new ArrayList<>(rows);
        for (Search s : searches) templates.add(s.template());
        preflight(o, templates, rows, topology, port, open, cores);
        // across hosts: the hosts reached last of the quick checks, their work closed again if a later one refuses
        Hosts hosts = hosts(o, topology, rows, planned, gen, cores);
        RunAcrossHosts.Across across = hosts.across();
        gen = hosts.generator();
        cores = hosts.cores();
        try {
            if (!templates.isEmpty()) gen.ensureAvailable();
            installTierTools(templates);
            buildVariants(templates);
        } catch (UsageError | RuntimeException e) {
            if (across != null) across.run().close();
            throw e;
        }
        return new Prepared(plan.experiments(), rows, plan.studies(), plan.studySeconds(), gen, probes, cores,
                port, results, tierOptions, ctx, freshSut, planned, searches, pinThreshold, java.util.Collections.unmodifiableMap(plan.environments()),
                across);
    }

    /**
     * The run's generator: --generator, else the one the experiments name, else each load model's default: wrk closed
     * (the seeds' numbers), oha open (latency from the intended send time); rows with a rate profile vegeta (k6, opt-in,
     * follows them too).
     * Refused when it cannot send the rows' load model or profile.
     */
    static Generator chooseGenerator(Options o, List<Experiment> chosen, List<Row> rows, boolean open, boolean runProfile) throws UsageError {
        java.util.Set<String> wanted = new LinkedHashSet<>();
        chosen.forEach(e -> { if (e.generator() != null) wanted.add(e.generator()); });
        boolean profiled = rows.stream().anyMatch(r -> r.rateProfile() != null); // --rate-profile, or an experiment's spike rows
        String dflt = profiled ? "vegeta" : wanted.size() == 1 ? wanted.iterator().next() : open ? "oha" : "wrk";
        Generator gen = Generators.configured(Generators.OPTION.string(o, dflt), o);
        if (profiled && !gen.followsRateProfile()) {
            throw new UsageError((runProfile ? "--rate-profile: " : "rows with a rate profile (spikes): ") + gen.name()
                    + " sends constant rates only; use --generator " + String.join(" or ", profileGenerators()) + " (or drop --generator)");
        }
        if (open && !gen.models().contains(LoadModel.OPEN)) {
            throw new UsageError(gen.name() + " runs closed-model load only; " + openGenerators());
        }
        if (!open && !gen.models().contains(LoadModel.CLOSED)) {
            throw new UsageError(gen.name() + " runs open-model load only here: add --load-model open --rates R, or use --generator wrk");
        }
        return gen;
    }

    /**
     * The quick checks of this machine before anything starts: the port free, enough open files for the connections,
     * every stack built, no CPU shared by the SUT and the generator, taskset, and cgroups for rows with limits.
     * templates are the rows and the searches' template rows.
     */
    static void preflight(Options o, List<Row> templates, List<Row> rows, vtlab.tier.host.Topology topology, int port, boolean open,
                          CoreMap cores) throws UsageError {
        if (!templates.isEmpty() && topology == null) checkPortFree(port); // across hosts the port is the SUT's host's
        checkFileLimit(templates.stream().mapToInt(Row::concurrency).max().orElse(0), open);
        for (Row r : templates) {
            Stack s = Stack.load(r.stack());
            // a row with a build of its own runs a variant jar, built below (a library its pom has no property of is refused here)
            boolean ownJar = r.build() != null && !StackVariants.isDefault(s, r.build());
            if (!ownJar && !s.built()) throw new UsageError("stack " + s.name() + " is not built (" + s.jar() + "): run ./vtlab build");
        }
        if (!templates.isEmpty() && topology == null) cores.refuseShared(RunOptions.ALLOW_SHARED_CPUS.on(o));
        if (OsPackages.which("taskset").isEmpty()) throw new UsageError("taskset not found: install util-linux");
        if (rows.stream().anyMatch(r -> !r.limits().none())) {
            if (topology != null) throw new UsageError("--cpu-quota/--memory-limit: a SUT in a cgroup runs on this machine only, not with --hosts");
            vtlab.plan.LimitAxis.refuseUnavailable(rows, vtlab.proc.Cgroups.here());
        }
    }

    /** What the hosts step gives the run: the hosts' work (null without --hosts), the run's generator and its CPUs. */
    record Hosts(RunAcrossHosts.Across across, Generator generator, CoreMap cores) {}

    /**
     * The run's hosts step: with --hosts (a topology), each planned row's probes refused unless they read a SUT on
     * another host, then the hosts reached (RunAcrossHosts.connect: the last of the quick checks, refused naming a host
     * that does not answer) and what they give the run: the generator of their load agents and the CPUs placed on
     * them. Without a topology nothing is refused or reached: this machine's generator and cores as given. The caller
     * closes the hosts' work (across.run()) if a later step refuses.
     */
    static Hosts hosts(Options o, vtlab.tier.host.Topology topology, List<Row> rows, List<PlannedRow> planned, Generator gen,
                       CoreMap cores) throws UsageError {
        if (topology == null) return new Hosts(null, gen, cores);
        for (PlannedRow pr : planned) RunAcrossHosts.refuseProbes(pr.probes());
        RunAcrossHosts.Across across = RunAcrossHosts.connect(RunAcrossHosts.file(o), topology, rows, gen, cores, RunOptions.ALLOW_SHARED_CPUS.on(o));
        return new Hosts(across, across.generator(), across.placement().cores());
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

    /** The tools of every tier the rows name (the database server), installed now: before the first row, never inside one. */
    static void installTierTools(List<Row> rows) throws UsageError {
        for (String tier : rows.stream().flatMap(r -> r.tiers().stream()).distinct().toList()) {
            for (Tool t : Tiers.create(tier).tools()) {
                try {
                    t.get();
                } catch (java.io.IOException e) {
                    throw new UsageError("the " + tier + " tier needs " + t.name() + ", which could not be installed: " + e.getMessage());
                }
            }
        }
    }

    /**
     * The jars of rows built with other library versions (Row.build), each combination once, now: last of the
     * checks, since a build takes a minute, and before the first row, never inside one. Reused while fresh.
     */
    static void buildVariants(List<Row> rows) throws UsageError {
        java.util.Set<String> done = new java.util.HashSet<>();
        for (Row r : rows) {
            if (r.build() == null || !done.add(r.stack() + "|" + r.build().spec())) continue;
            StackVariants.ensure(Stack.load(r.stack()), r.build());
        }
    }

    /** A suite part's settings as defaults; under --quick its timing is --quick's (the parts' axes stay). */
    static java.util.Map<String, String> suiteSettings(java.util.Map<String, String> part, Options o) throws UsageError {
        if (!RunOptions.QUICK.on(o)) return part;
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>(part);
        out.keySet().removeAll(java.util.Set.of(PlanContext.REPS.name(), PlanContext.WARMUP.name(), PlanContext.HOLD.name()));
        return out;
    }

    /**
     * A row with its hooks resolved, so the runner needs no experiment: its probes (its own set or the run's, plus
     * what its experiment needs; --pin-threshold as jfr-pinning's option), a fresh JVM or not, the experiment's extra
     * verification, and every registered probe's drains (the pool's idle wait runs whether or not hikari is probed).
     */
    public static PlannedRow planned(Row r, List<String> runProbes, boolean freshSut, String pinThreshold) throws UsageError {
        Experiment e;
        try {
            e = Experiments.byName(r.experiment());
        } catch (UsageError x) {
            e = null; // rows are planned by a known experiment: this is a row made by hand (tests)
        }
        List<String> probes = r.probes(runProbes);
        if (e != null) probes = e.probes(probes);
        // what ran the requests (a virtual row's on platform threads flag it) and the handshakes a full accept queue
        // dropped (connections that began late): beside any probe set, none with --no-probes
        if (!probes.isEmpty()) probes = vtlab.probe.ListenQueueProbe.with(vtlab.probe.ServedProbe.with(probes));
        if (!r.limits().none()) probes = vtlab.probe.ContainerProbe.with(probes); // what the limits did, what the JVM saw
        if (pinThreshold != null) probes = Probes.withOption(probes, "jfr-pinning", "threshold", pinThreshold);
        Probes.validate(probes);
        List<vtlab.plan.Drain> drains = new ArrayList<>();
        for (java.util.function.Supplier<Probe> p : Probes.all().values()) drains.addAll(p.get().drains(r));
        return new PlannedRow(r, probes, freshSut || (e != null && e.freshSutPerRow()), e == null ? RowCheck.NONE : e::verify, drains);
    }

    static void checkPortFree(int port) throws UsageError {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
        } catch (IOException e) {
            throw new UsageError("port " + port + " on 127.0.0.1 is in use; stop what holds it or pass --port");
        }
    }

    /**
     * The generator and the SUT each hold one socket per connection. The JVM raises its own soft limit to the hard
     * limit at start-up and children inherit it; the article's run failed with "too many open files" at 1,000.
     */
    static void checkFileLimit(int connections, boolean open) throws UsageError {
        vtlab.proc.FileLimits.raise(2L * connections + 4096); // as root: room for a SUT's downstream sockets too
        long limit = vtlab.proc.FileLimits.softLimit();
        long needed = connections + 1024L;
        if (limit > 0 && needed > limit) {
            // open model: every request in flight may hold a socket, so the cap is what must fit
            String what = open ? "an in-flight cap of " + connections + " (--max-in-flight) needs" : connections + " connections need";
            throw new UsageError(what + " about " + needed + " open files per process, but the limit is "
                    + limit + " (raise the hard limit: ulimit -Hn / limits.conf)");
        }
    }

    /** What to use instead, for the refusal: the registered generators that run an open-model load, if any. */
    /** The generators that follow a rate profile, by name. */
    static List<String> profileGenerators() {
        List<String> out = new ArrayList<>();
        for (var e : Generators.all().entrySet()) if (e.getValue().get().followsRateProfile()) out.add(e.getKey());
        return out;
    }

    static String openGenerators() {
        List<String> open = new ArrayList<>();
        for (var e : Generators.all().entrySet()) if (e.getValue().get().models().contains(LoadModel.OPEN)) open.add(e.getKey());
        return open.isEmpty() ? "no generator of this lab runs an open-model load"
                : "use --generator " + String.join(" or ", open);
    }

    /** The run's planned length: each row's warm-up, hold and profiled hold, a few seconds each to start, and the studies. */
    static String minutes(List<PlannedRow> rows, long extraSeconds) {
        long s = rows.stream().mapToLong(r -> vtlab.run.ExplainingHold.plannedSeconds(r) + 6).sum() + extraSeconds;
        return s >= 120 ? (s / 60) + " min" : s + " s";
    }
}
