package vtlab.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.data.Columns;
import vtlab.data.Dataset;
import vtlab.data.Environment;
import vtlab.data.RunDir;
import vtlab.data.RunKept;
import vtlab.load.Generator;
import vtlab.plan.PlanContext;
import vtlab.plan.PlannedRow;
import vtlab.plan.Row;
import vtlab.plan.RunOptions;
import vtlab.plan.Search;
import vtlab.plan.Study;
import vtlab.proc.Children;
import vtlab.proc.CoreMap;
import vtlab.tier.RunTier;
import vtlab.tier.SutHandle;
import vtlab.tier.TierOptions;
import vtlab.tier.host.TierSite;
import vtlab.tier.Tiers;

/**
 * Carries out a plan: run tiers up once, every row in order (see {@link RowRunner}), each finished row appended to
 * matrix.csv at once; the caller writes the summary and report from it. environment.json describes the run for people,
 * kept.json ({@link RunKept}) holds what the lab reads back of it; both say how it ended. Ctrl-C or SIGTERM stops every
 * child and marks the run incomplete; the rows already written stay whole.
 */
public final class Runner {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final PrintStream out;

    public Runner(PrintStream out) {
        this.out = out;
    }

    /**
     * @param searches rows decided as they go (capacity), after the fixed rows; planner resolves each of their rows
     *                 as the fixed ones were resolved
     * @param hosts    the run's hosts (--hosts), asked after a failed row whether they still answer (see {@link HostLoss});
     *                 null: every tier on this machine
     * @param sites    where each run tier runs and listens, by name (--hosts); a tier not named runs here on loopback
     * @param kept     each experiment's entry of kept.json (Experiment.kept), by its name
     */
    public record Config(List<PlannedRow> rows, List<Study.Prepared> studies, long studySeconds, Generator generator,
                         CoreMap cores, int port, Path resultsRoot, Path stateDir, TierOptions tierOptions,
                         Environment environment, List<String> experiments, Map<String, Map<String, Object>> kept, PlanContext plan,
                         List<Search> searches, Planner planner, SutHandle.Launcher launcher, HostLoss.Check hosts, Map<String, TierSite> sites) {
        public Config {
            sites = Map.copyOf(sites);
            kept = Map.copyOf(kept);
        }

        /** A configuration built by name: what a run here without searches or hosts leaves out has its default. */
        public static Builder builder() {
            return new Builder();
        }
    }

    /**
     * {@link Config} by name. Required: rows, generator, cores, resultsRoot, stateDir, environment, plan. Defaults: no
     * studies, no searches (and no planner), no tier options, no experiment's entry to keep, port
     * {@link RunOptions#DEFAULT_PORT}, the SUT started here, no hosts to watch.
     */
    public static final class Builder {
        private List<PlannedRow> rows;
        private List<Study.Prepared> studies = List.of();
        private long studySeconds;
        private Generator generator;
        private CoreMap cores;
        private int port = RunOptions.DEFAULT_PORT;
        private Path resultsRoot, stateDir;
        private TierOptions tierOptions = TierOptions.NONE;
        private Environment environment;
        private List<String> experiments = List.of();
        private Map<String, Map<String, Object>> kept = Map.of();
        private PlanContext plan;
        private List<Search> searches = List.of();
        private Planner planner;
        private SutHandle.Launcher launcher = vtlab.tier.SutProcess::start;
        private HostLoss.Check hosts;
        private Map<String, TierSite> sites = Map.of();

        private Builder() {}

        public Builder rows(List<PlannedRow> rows) {
            this.rows = rows;
            return this;
        }

        /** The studies and the seconds they are expected to take, for the run's estimate. */
        public Builder studies(List<Study.Prepared> studies, long studySeconds) {
            this.studies = studies;
            this.studySeconds = studySeconds;
            return this;
        }

        public Builder generator(Generator generator) {
            this.generator = generator;
            return this;
        }

        public Builder cores(CoreMap cores) {
            this.cores = cores;
            return this;
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Where the run's folder is made, and where the tiers keep their state (PostgreSQL's cluster). */
        public Builder folders(Path resultsRoot, Path stateDir) {
            this.resultsRoot = resultsRoot;
            this.stateDir = stateDir;
            return this;
        }

        public Builder tierOptions(TierOptions tierOptions) {
            this.tierOptions = tierOptions;
            return this;
        }

        public Builder environment(Environment environment) {
            this.environment = environment;
            return this;
        }

        public Builder experiments(List<String> experiments) {
            this.experiments = experiments;
            return this;
        }

        /** Each experiment's entry of kept.json, by its name (RunPlan.kept). */
        public Builder kept(Map<String, Map<String, Object>> kept) {
            this.kept = kept;
            return this;
        }

        public Builder plan(PlanContext plan) {
            this.plan = plan;
            return this;
        }

        /** Capacity searches, and how a searched row is planned as the fixed rows were. */
        public Builder searches(List<Search> searches, Planner planner) {
            this.searches = searches;
            this.planner = planner;
            return this;
        }

        public Builder launcher(SutHandle.Launcher launcher) {
            this.launcher = launcher;
            return this;
        }

        /** A run across hosts: how a lost host is told, and where each tier runs. */
        public Builder hosts(HostLoss.Check hosts, Map<String, TierSite> sites) {
            this.hosts = hosts;
            this.sites = sites;
            return this;
        }

        public Config build() {
            java.util.Objects.requireNonNull(rows, "rows");
            java.util.Objects.requireNonNull(generator, "generator");
            java.util.Objects.requireNonNull(cores, "cores");
            java.util.Objects.requireNonNull(resultsRoot, "resultsRoot");
            java.util.Objects.requireNonNull(stateDir, "stateDir");
            java.util.Objects.requireNonNull(environment, "environment");
            java.util.Objects.requireNonNull(plan, "plan");
            return new Config(rows, studies, studySeconds, generator, cores, port, resultsRoot, stateDir, tierOptions, environment,
                    experiments, kept, plan, searches, planner, launcher, hosts, sites);
        }
    }

    /**
     * Resolves a searched row into a planned one (its probes, drains, checks) as the plan's fixed rows were: the runner
     * owns this interface and the plan hands it an implementation, so a search extends the plan without the runner
     * calling back into the command.
     */
    public interface Planner {
        PlannedRow planned(Row row) throws Exception;
    }

    /**
     * The run folder, whether the run ended by itself (false: interrupted), how many rows and studies failed, and, for
     * a run stopped because a host was lost (see {@link HostLoss}), why and how many rows were not run (0 and null
     * otherwise).
     */
    public record Outcome(RunDir dir, boolean complete, int failed, int notRun, String stopped) {
        Outcome(RunDir dir, boolean complete, int failed) {
            this(dir, complete, failed, 0, null);
        }
    }

    /**
     * The known JDK issues (vtlab.check.KnownLibraries.JDK) of each JDK the rows run on, by its exact version
     * (25.0.3): affected or not, for environment.json; a JDK whose release has none known is left out.
     */
    static Map<String, String> jdkKnownIssues(List<PlannedRow> rows) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (PlannedRow r : rows) {
            String version = r.row().jdk().version();
            String line = version == null || version.isBlank() ? null : vtlab.check.KnownLibraries.jdkLine(version);
            if (line != null) out.put(version, line);
        }
        return out;
    }

    public Outcome run(Config c) throws IOException, InterruptedException {
        RunDir dir = RunDir.create(c.resultsRoot(), c.experiments());
        Environment env = c.environment();
        String labCpus = vtlab.proc.LabAffinity.pin(c.cores(), out);
        env.set("lab_cpus", labCpus == null ? "unpinned" : labCpus);
        env.set("jdk_known_issues", jdkKnownIssues(c.rows()));
        // kept.json first: a folder whose environment.json this runner wrote has the file the lab reads back
        AtomicReference<RunKept> kept = new AtomicReference<>(RunKept.planned(c.kept(), jdks(c)));
        kept.get().write(dir);
        env.write(dir.environmentJson());
        out.println("vtlab: core map  " + c.cores() + (labCpus == null ? "" : "  lab=" + labCpus));
        out.println("vtlab: results   " + dir.dir());

        Runnable markInterrupted = markInterrupted(env, kept, dir);
        Children.onShutdown(markInterrupted);

        Map<String, RunTier> runTiers = new LinkedHashMap<>();
        long plannedSeconds = c.rows().stream().mapToLong(ExplainingHold::plannedSeconds).sum() + c.studySeconds()
                + c.searches().stream().mapToLong(s -> s.expectedRows() * s.secondsPerRow()).sum();
        int steps = c.rows().size() + c.studies().size() + c.searches().stream().mapToInt(Search::expectedRows).sum();
        Progress progress = new Progress(out, Progress.isTerminal(), steps, plannedSeconds);
        if (!c.searches().isEmpty() && c.searches().stream().allMatch(s -> s.budgetSeconds() > 0)) {
            progress.budget(c.searches().stream().mapToLong(Search::budgetSeconds).sum() + c.studySeconds());
        }
        RowRunner rowRunner = null;
        Pass pass;
        try (Dataset data = new Dataset(dir.matrix(), MatrixSchema.full())) {
            rowRunner = new RowRunner(c.generator(), c.cores(), c.port(), c.plan().warmupMax(), c.launcher());
            pass = new Pass(c, dir, data, progress, rowRunner, runTiers, env, kept);
            pass.rows();
            if (pass.stopped == null) pass.searches();
            pass.studies();
        } finally {
            progress.finish();
            if (rowRunner != null) rowRunner.close();
            runTiers.values().forEach(RunTier::close);
            // what this JVM starts next (a later run in the same JVM, a command the tests launch) gets every CPU back
            if (labCpus != null) vtlab.proc.LabAffinity.unpin();
        }
        int failed = pass.failed, notRun = pass.notRun;
        String stopped = pass.stopped;
        // SIGTERM can stop the rows before the shutdown hook gets to its callbacks: mark the run here as well, never
        // as complete (the hook may still be stopping the tiers when this thread gets here)
        if (Children.shuttingDown()) {
            markInterrupted.run();
            return new Outcome(dir, false, failed);
        }
        Children.removeOnShutdown(markInterrupted);
        String status = stopped != null ? RunKept.Status.STOPPED : failed == 0 ? RunKept.Status.COMPLETE : RunKept.Status.COMPLETE_WITH_FAILURES;
        env.set("status", status);
        env.set("rows_failed", failed);
        env.set("ended", Instant.now().toString());
        kept.updateAndGet(k -> k.with(k.status().ended(status))).write(dir);
        env.write(dir.environmentJson());
        return new Outcome(dir, true, failed, notRun, stopped);
    }

    /** The JDKs the rows and the searches' rows run on: kept.json keeps each one's exact version. */
    static List<vtlab.tier.tool.Jdk> jdks(Config c) {
        return java.util.stream.Stream.concat(c.rows().stream().map(r -> r.row().jdk()), c.searches().stream().map(s -> s.template().jdk()))
                .distinct().toList();
    }

    /** Marks the run folder incomplete (environment.json, kept.json, an INCOMPLETE file) once, whoever calls it first. */
    private static Runnable markInterrupted(Environment env, AtomicReference<RunKept> kept, RunDir dir) {
        AtomicBoolean marked = new AtomicBoolean();
        return () -> {
            if (marked.getAndSet(true)) return; // the hook and this thread may both get here
            env.set("status", RunKept.Status.INCOMPLETE);
            env.set("ended", Instant.now().toString());
            try {
                kept.updateAndGet(k -> k.with(k.status().ended(RunKept.Status.INCOMPLETE))).write(dir);
                env.write(dir.environmentJson());
                Files.writeString(dir.dir().resolve("INCOMPLETE"), "interrupted at " + Instant.now() + "; matrix.csv holds every finished row\n");
            } catch (IOException ignored) {
                // best effort while the JVM is stopping
            }
            System.err.println("\nvtlab: interrupted; stopping every tier. Finished rows are in " + dir.matrix());
        };
    }

    /** One run's three loops (planned rows, capacity searches, studies) over one dataset, and what they counted. */
    private final class Pass {
        final Config c;
        final RunDir dir;
        final Dataset data;
        final Progress progress;
        final RowRunner rowRunner;
        final Map<String, RunTier> runTiers;
        final Environment env;
        /** kept.json's as the run goes: why it stopped, each failed study (written as the run ends). */
        final AtomicReference<RunKept> kept;
        int index, failed, notRun;
        /** Every row run so far, as matrix.csv holds it: what a search that starts from the plan's rows reads. */
        final List<vtlab.data.DataRow> done = new java.util.ArrayList<>();
        /** Why the run stopped before its end (a host lost), or null. */
        String stopped;

        Pass(Config c, RunDir dir, Dataset data, Progress progress, RowRunner rowRunner, Map<String, RunTier> runTiers, Environment env,
             AtomicReference<RunKept> kept) {
            this.c = c;
            this.dir = dir;
            this.data = data;
            this.progress = progress;
            this.rowRunner = rowRunner;
            this.runTiers = runTiers;
            this.env = env;
            this.kept = kept;
        }

        /** The planned rows in order; a lost host stops them, the rows left written as not run. */
        void rows() throws IOException, InterruptedException {
            HostLoss loss = new HostLoss(c.hosts());
            for (int i = 0; i < c.rows().size(); i++) {
                RowRunner.Result result = runRow(c.rows().get(i));
                if (result == null) break;
                if (!result.failed()) continue;
                failed++;
                if (loss.stopsAfter(result)) {
                    for (PlannedRow rest : c.rows().subList(i + 1, c.rows().size())) data.append(loss.notRun(rowRunner.base(rest.row())));
                    out.println(loss.line(i + 1, c.rows().size()));
                    env.set("stopped", loss.why());
                    env.set("rows_not_run", loss.notRun());
                    kept.updateAndGet(k -> k.with(k.status().stoppedEarly(loss.why(), loss.notRun())));
                    break;
                }
            }
            stopped = loss.why();
            notRun = loss.notRun();
        }

        /** Each search asks for its next row from the rows it measured, until it has its answer. */
        void searches() throws IOException, InterruptedException {
            for (Search search : c.searches()) {
                List<vtlab.data.DataRow> before = List.copyOf(done), measured = new java.util.ArrayList<>();
                Row next;
                while (!Children.shuttingDown() && (next = search.next(before, List.copyOf(measured))) != null) {
                    PlannedRow planned;
                    try {
                        planned = c.planner().planned(next);
                    } catch (Exception e) {
                        throw new IOException(search.label() + ": cannot plan " + next.label() + ": " + e.getMessage(), e);
                    }
                    RowRunner.Result result = runRow(planned);
                    if (result == null) break;
                    if (result.failed() && search.failedRowsFailTheRun()) failed++;
                    measured.add(vtlab.data.DataRow.of(result.values().asText()));
                    progress.step(search.label(), search.status(List.copyOf(measured)));
                }
            }
        }

        /**
         * The pass's next row (numbered on from the last): its tiers up, run, appended to matrix.csv at once; null
         * when Ctrl-C cut it short (not a result).
         */
        RowRunner.Result runRow(PlannedRow planned) throws IOException, InterruptedException {
            Row row = planned.row();
            int n = ++index;
            long plannedS = ExplainingHold.plannedSeconds(planned);
            progress.rowStarted(plannedS);
            startTiers(row, runTiers, c, dir, progress);
            RowRunner.Result result = rowRunner.run(planned, n, dir.raw(), runTiers, what -> progress.step(row.label(), what));
            if (Children.shuttingDown()) return null;
            data.append(result.values());
            done.add(new vtlab.data.DataRow(n, result.values().asText()));
            if (result.series() != null) appendSeries(dir, row.fileStem(n), result.series());
            progress.rowDone(plannedS, describe(row, result.values()));
            return result;
        }

        /** The studies (JMH and the like), each writing its own dataset; a failed one is counted and named. */
        void studies() {
            for (Study.Prepared prepared : c.studies()) {
                if (Children.shuttingDown() || stopped != null) break;
                Study study = prepared.study();
                long est = prepared.seconds();
                try {
                    prepared.execution().run(new Study.Context(c.plan(), dir.dir(), dir.raw(), c.cores(), out,
                            what -> progress.step(study.name(), what)));
                    progress.rowDone(est, study.name() + " done");
                } catch (Exception e) {
                    if (Children.shuttingDown()) break;
                    failed++;
                    env.set("failed_" + study.name(), e.toString());
                    kept.updateAndGet(k -> k.with(k.status().studyFailed(study.name(), e.toString())));
                    progress.rowDone(est, study.name() + "  FAILED: " + e.getMessage());
                }
            }
        }
    }

    private static void startTiers(Row row, Map<String, RunTier> running, Config c, RunDir dir, Progress progress) throws IOException {
        Set<String> wanted = new LinkedHashSet<>(row.tiers());
        for (String name : wanted) {
            if (running.containsKey(name)) continue;
            progress.step(row.label(), "starting tier " + name);
            RunTier t = Tiers.create(name);
            Map<String, RunTier> before = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(running));
            running.put(name, t);
            try {
                // the data the row's stack keeps in a tier (pg: schema and seed); a tier ignores data not meant for it
                var data = vtlab.stack.Stack.load(row.stack()).data().orElse(null);
                t.start(new RunTier.Context(c.cores().of(name), c.stateDir(), dir.raw(), row.jdk(), c.tierOptions(), data, before,
                        c.sites().getOrDefault(name, TierSite.here())));
            } catch (Exception e) {
                throw new IOException("tier " + name + " failed to start: " + e.getMessage(), e);
            }
        }
    }

    private static void appendSeries(RunDir dir, String stem, Map<String, List<double[]>> series) throws IOException {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("row", stem);
        line.put("series", series);
        Files.writeString(dir.series(), JSON.writeValueAsString(line) + "\n", java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }

    static String describe(Row row, vtlab.data.RowValues r) {
        String what = row.label();
        if ("failed".equals(r.get(Columns.STATUS))) return what + "  FAILED: " + r.get(Columns.NOTE);
        String s = String.format(java.util.Locale.ROOT, "%s  %,.0f req/s  p99 %.1f ms", what,
                ((Number) r.get(Columns.RPS)).doubleValue(), ((Number) r.get(Columns.P99)).doubleValue());
        if (r.get(Columns.BOUND_RATIO) instanceof Number b) s += String.format(java.util.Locale.ROOT, "  %.0f%% of bound", b.doubleValue() * 100);
        if (r.get(PhaseClock.READY_S) instanceof Number ready) s += String.format(java.util.Locale.ROOT, "  started and warm in %.0f s", ready.doubleValue());
        String flags = (String) r.get(Columns.FLAGS);
        return flags == null || flags.isEmpty() ? s : s + "  [" + flags + "]";
    }
}
