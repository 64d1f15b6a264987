package vtlab.run;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.check.Validity;
import vtlab.data.RowValues;
import vtlab.load.Generator;
import vtlab.load.LoadResult;
import vtlab.plan.PlannedRow;
import vtlab.plan.Row;
import vtlab.plan.VerificationFailed;
import vtlab.proc.CoreMap;
import vtlab.tier.RunTier;
import vtlab.tier.SutHandle;
import vtlab.tier.SutProcess;

/**
 * Carries out one planned row as a list of {@link Phase}s, in this order (a phase's name is the one row_phases_s
 * files its time under, see {@link PhaseClock}):
 * <ol>
 * <li>start ({@link SutUpPhase}): the row's probes and SUT configuration; the SUT kept from the row before if it has
 * that configuration ({@link SutReuse}), else a fresh one; a fork's later iteration has its fork's JVM or fails</li>
 * <li>verify ({@link VerifyPhase}): waits for the SUT's first answer, checks its runtime-info and the endpoint</li>
 * <li>warm-up ({@link WarmUpPhase}): the probes' beforeLoad, the warm-up (discarded) with the thread-mode proof around
 * it; a fork's later iteration: no warm-up, no second proof</li>
 * <li>drain ({@link DrainPhase}): what the warm-up or the row before queued is served first</li>
 * <li>hold ({@link HoldPhase}): the measured load, the probes that do not explain sampling it</li>
 * <li>probes ({@link ProbesPhase}): the hold's numbers and the probes' reading after it</li>
 * <li>profiled-hold ({@link ExplainPhase}, with an explaining probe): a hold of its own, once per configuration</li>
 * <li>validity ({@link ValidityPhase}): series, fault window, the row judged</li>
 * <li>keep ({@link KeepPhase}): the SUT kept for the next row unless the row wants its own JVM or a probe left it unclean</li>
 * </ol>
 * then, also after a failed phase, stop ({@link StopPhase}): a SUT not kept is stopped. Everything the row's experiment
 * decides (probes, a fresh JVM, extra checks, drains) comes resolved in the {@link PlannedRow}.
 */
public final class RowRunner {
    /** A row's values for matrix.csv and its per-second series for series.jsonl (null for a failed row). */
    public record Result(RowValues values, Map<String, List<double[]>> series) {
        public boolean failed() {
            return "failed".equals(values.get(Validity.STATUS));
        }
    }

    /** Hook for a step a row goes through, so the caller can show progress. */
    public interface Steps {
        void step(String what);
    }

    private final Generator generator;
    private final CoreMap cores;
    private final SutReuse suts = new SutReuse();
    private final List<Phase> phases;
    private final StopPhase stop = new StopPhase();

    public RowRunner(Generator generator, CoreMap cores, int port, Duration warmupMax) {
        this(generator, cores, port, warmupMax, SutProcess::start);
    }

    /** @param launcher where the SUT runs: {@link SutProcess#start} here, a host's (--hosts) */
    public RowRunner(Generator generator, CoreMap cores, int port, Duration warmupMax, SutHandle.Launcher launcher) {
        this(generator, cores, port, warmupMax, launcher, VerifyPhase::verifyOverHttp);
    }

    RowRunner(Generator generator, CoreMap cores, int port, Duration warmupMax, SutHandle.Launcher launcher,
              VerifyPhase.Verification verification) {
        this.generator = generator;
        this.cores = cores;
        RowLoad load = new RowLoad(generator, cores);
        // why a SUT configuration did not start: its later rows fail at once instead of waiting out the start-up again
        Map<String, String> startFailures = new HashMap<>();
        ExplainPhase explain = new ExplainPhase(load);
        this.phases = List.of(
                new SutUpPhase(launcher, cores, port, suts, startFailures),
                new VerifyPhase(verification, startFailures),
                new WarmUpPhase(load, warmupMax),
                new DrainPhase(),
                new HoldPhase(load),
                new ProbesPhase(),
                explain,
                new ValidityPhase(generator, cores, explain),
                new KeepPhase(suts));
    }

    /** Stops the SUT kept for the next row, if any (end of run). */
    public void close() {
        suts.close();
    }

    /** The phases' names in order, the stop after them last. */
    List<String> phaseNames() {
        List<String> names = new ArrayList<>(phases.stream().map(Phase::name).toList());
        names.add(stop.name());
        return names;
    }

    public Result run(PlannedRow planned, int index, Path raw, Map<String, RunTier> runTiers, Steps shown)
            throws InterruptedException {
        Row row = planned.row();
        RowContext c = new RowContext(planned, raw, row.fileStem(index), runTiers, new PhaseClock(shown), base(row));
        try {
            for (Phase p : phases) {
                if (p.applies(c)) p.run(c);
            }
            return new Result(c.out, c.series);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            // what the probes had measured before the row failed stays (e.g. the JVM's view of its container limits
            // when the memory limit's OOM killer ended it); the row's status says none of its load figures exist
            if (c.probes != null) c.out.putAll(c.probes.measurements().columns());
            if (c.explainers != null) c.out.putAll(c.explainers.measurements().columns());
            c.out.put(Validity.STATUS, "failed");
            c.out.put(Validity.NOTE, e instanceof RowFailed || e instanceof VerificationFailed || e instanceof Generator.LoadException
                    ? e.getMessage() : e.toString());
            return new Result(c.out, null); // a failed row has no series line
        } finally {
            if (stop.applies(c)) stop.run(c);
            c.steps.into(c.out);
            ProbeSession.into(c.out, c.probes, c.explainers);
        }
    }

    /**
     * The probes' per-second samples and the generator's own (requests, errors, latency: what it declares), one map
     * for series.jsonl; the generator's first, so the report shows load before what it did to the SUT.
     */
    static Map<String, List<double[]>> series(Map<String, List<double[]>> probes, LoadResult r) {
        Map<String, List<double[]>> all = new LinkedHashMap<>(r.series().asSeries());
        probes.forEach(all::putIfAbsent);
        return all;
    }

    static final class RowFailed extends Exception {
        RowFailed(String message) {
            super(message);
        }
    }

    RowValues base(Row row) {
        return new RowValues()
                .put(RowColumns.TS, Instant.now().toString())
                .put(RowColumns.EXPERIMENT, row.experiment())
                .put(RowColumns.STACK, row.stack())
                .put(RowColumns.THREAD_MODE, row.threadMode())
                .put(RowColumns.WORKLOAD, row.workload())
                .put(RowColumns.CONCURRENCY, row.concurrency())
                .put(RowColumns.REP, row.rep())
                .put(RowColumns.FORK, row.fork() > 0 ? row.fork() : null)
                .put(RowColumns.ITERATION, row.fork() > 0 ? row.iteration() : null)
                .put(RowColumns.HIKARI_POOL, row.hikariPool())
                .put(RowColumns.PATH_MODE, row.pathMode())
                .put(RowColumns.CONN_MODE, row.connMode())
                .put(RowColumns.JDK, row.jdk().major())
                .put(RowColumns.CARRIERS, row.carriers())
                .put(RowColumns.GENERATOR, generator.name())
                .put(RowColumns.LOAD_MODEL, row.loadModel())
                .put(RowColumns.TARGET_RPS, row.rate())
                .put(RowColumns.BOUND_RPS, row.boundRps())
                .put(RowColumns.BOUND_NOTE, row.boundNote())
                .put(RowColumns.APP_CPUS, cores.of(CoreMap.APP))
                .put(RowColumns.LOAD_CPUS, cores.of(CoreMap.LOAD))
                .put(RowColumns.PARAMS, row.params().cell())
                .put(RowColumns.SCENARIO, row.scenario());
    }

    /** Requests due but never sent (k6: no free VU; oha: still queued when the hold ended); 0 where none is reported. */
    static long dropped(LoadResult r) {
        return r.dropped() == null ? 0 : r.dropped();
    }
}
