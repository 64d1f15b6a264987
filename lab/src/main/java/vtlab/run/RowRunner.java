package vtlab.run;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.check.Validity;
import vtlab.load.Generator;
import vtlab.load.LoadResult;
import vtlab.load.LoadSpec;
import vtlab.plan.Row;
import vtlab.probe.Measurements;
import vtlab.probe.Probe;
import vtlab.probe.ProbeContext;
import vtlab.probe.Probes;
import vtlab.stack.Stack;
import vtlab.tier.CoreMap;
import vtlab.tier.RunTier;
import vtlab.tier.SutProcess;

/**
 * Carries out one row: SUT up -> verify -> warm-up (discarded) -> measured load with probes -> SUT down, and turns
 * what was measured into one dataset row. A fresh SUT per row: no JIT, pool or heap state leaks from one row into
 * the next (a platform pool that grew to 200 threads stays grown), at the price of a JVM start-up per row.
 */
public final class RowRunner {
    /** Generator timeout: far above any latency a row should see, so slow answers are measured, not dropped. */
    static final Duration LOAD_TIMEOUT = Duration.ofSeconds(30);

    private final Generator generator;
    private final List<String> probeNames;
    private final CoreMap cores;
    private final int port;
    private final boolean freshSutPerRow;
    private final Duration warmupMax;
    private final Verifier verifier = new Verifier();
    /** The SUT kept from the previous row, and the configuration it was started with. */
    private SutProcess kept;
    private String keptConfig;

    public RowRunner(Generator generator, List<String> probeNames, CoreMap cores, int port, boolean freshSutPerRow,
                     Duration warmupMax) {
        this.generator = generator;
        this.probeNames = probeNames;
        this.cores = cores;
        this.port = port;
        this.freshSutPerRow = freshSutPerRow;
        this.warmupMax = warmupMax;
    }

    /** Stops the SUT kept for the next row, if any (end of run). */
    public void close() {
        if (kept != null) kept.close();
        kept = null;
    }

    /** The run's probes, or the row's own set (probe-cost), plus what its experiment cannot do without (footprint: nmt). */
    List<String> probeNames(Row row) {
        List<String> names = row.probes(probeNames);
        try {
            return vtlab.experiment.Experiments.byName(row.experiment()).probes(names);
        } catch (vtlab.core.UsageError e) {
            return names; // rows are planned by a known experiment: this is a row made by hand (tests)
        }
    }

    /** Hook for a step a row goes through, so the caller can show progress. */
    public interface Steps {
        void step(String what);
    }

    public Map<String, Object> run(Row row, int index, java.nio.file.Path raw, Map<String, RunTier> runTiers,
                                   Steps steps) throws InterruptedException {
        Map<String, Object> out = base(row);
        String stem = row.fileStem(index);
        List<Probe> probes = Probes.create(probeNames(row));
        SutProcess sut = null;
        try {
            Stack stack = Stack.load(row.stack());
            Stack.Workload w = stack.workload(row.workload()).withParams(row.params());
            List<String> jvmArgs = new ArrayList<>(row.jvmArgs());
            probes.forEach(p -> jvmArgs.addAll(p.jvmArgs()));
            Map<String, String> env = new LinkedHashMap<>(row.sutEnv());
            runTiers.values().forEach(t -> env.putAll(t.sutEnv()));

            // Consecutive rows with the same SUT configuration share one JVM (warm JIT, grown pools: a server's steady
            // state), unless the experiment or --fresh-sut asks for a new JVM per row (idle readings, isolation).
            String config = stack.name() + "|" + row.jdk().home() + "|" + jvmArgs + "|" + env;
            boolean fresh = freshSutPerRow || vtlab.experiment.Experiments.byName(row.experiment()).freshSutPerRow();
            if (kept != null && (fresh || !config.equals(keptConfig) || !kept.alive())) {
                steps.step("stopping SUT");
                close();
            }
            if (kept != null) {
                sut = kept;
                kept = null;
                out.put("sut_jvm", "reused");
            } else {
                steps.step("starting SUT");
                sut = SutProcess.start(stack, row.jdk(), jvmArgs, env, cores.of(CoreMap.APP), port, raw.resolve(stem + ".sut.log"));
                out.put("sut_jvm", "fresh");
            }
            out.put("sut_log", sut.log().getFileName().toString());
            String info = sut.awaitReady(Duration.ofSeconds(90));
            java.nio.file.Files.writeString(raw.resolve(stem + ".runtime-info.json"), info);

            steps.step("verifying");
            JsonNode runtime = verifier.verifyConfig(info, row);
            URI url = sut.base().resolve(w.pathFor(row.params()));
            verifier.verifyEndpoint(url, w);
            vtlab.experiment.Experiments.byName(row.experiment()).verify(row, sut.base(), runTiers);
            Measurements m = new Measurements();
            List<String> probeErrors = new ArrayList<>();
            Map<String, ProcessHandle> idleTiers = new LinkedHashMap<>();
            idleTiers.put("app", sut.handle());
            runTiers.forEach((name, t) -> idleTiers.put(name, t.process()));
            ProbeContext idle = new ProbeContext(row, idleTiers, Map.of(), sut.base(), raw, stem);
            for (Probe p : probes) guard(p, probeErrors, () -> p.beforeLoad(idle, m));

            int threads = cores.count(CoreMap.LOAD);
            if (!row.warmup().isZero()) {
                SutProcess warming = sut;
                WarmUp.Result warm = WarmUp.run(row.warmup(), warmupMax, (d, slice) -> {
                    steps.step(slice == 0 ? "warming up " + d.toSeconds() + "s" : "warming up: +" + d.toSeconds() + "s until the rate settles");
                    LoadSpec spec = new LoadSpec(url, w.method(), w.body(), row.concurrency(), threads, d,
                            LOAD_TIMEOUT, cores.of(CoreMap.LOAD), raw, stem + ".warmup" + (slice == 0 ? "" : "-" + slice));
                    long jit0 = vtlab.probe.CpuByThreadProbe.jitTicks(warming.handle().pid()), t0 = System.nanoTime();
                    double rps = generator.start(spec).await().rps();
                    if (!warming.alive()) throw new RowFailed("SUT died during warm-up: " + warming.tail(5));
                    long jit1 = vtlab.probe.CpuByThreadProbe.jitTicks(warming.handle().pid());
                    double jitPct = jit0 < 0 || jit1 < 0 ? Double.NaN : vtlab.probe.CpuProbe.pct(jit1 - jit0, (System.nanoTime() - t0) / 1e9);
                    return new WarmUp.Slice(rps, jitPct);
                });
                out.put("warmup_s", warm.total().toSeconds());
                out.put("warmup_steady", warm.steady());
                out.put("warmup_rps", warm.slices().stream().map(v -> String.format(java.util.Locale.ROOT, "%.0f", v.rps()))
                        .collect(Collectors.joining(";")));
                out.put("warmup_jit_pct", warm.slices().stream().map(v -> String.format(java.util.Locale.ROOT, "%.1f", v.jitPct()))
                        .collect(Collectors.joining(";")));
            }
            // the warm-up's (or the previous row's) queued requests would otherwise eat into the measured hold
            steps.step("draining");
            long drain0 = System.nanoTime();
            sut.drain(Duration.ofSeconds(60));
            if (row.hikariPool() != null && !vtlab.probe.HikariProbe.awaitIdle(sut.base(), Duration.ofSeconds(60))) {
                steps.step("the pool did not go idle in 60 s; measuring anyway");
            }
            out.put("drain_ms", (System.nanoTime() - drain0) / 1_000_000);

            steps.step("measuring " + row.hold().toSeconds() + "s");
            LoadSpec spec = new LoadSpec(url, w.method(), w.body(), row.concurrency(), threads, row.hold(), LOAD_TIMEOUT,
                    cores.of(CoreMap.LOAD), raw, stem);
            Generator.RunningLoad load = generator.start(spec);
            Map<String, ProcessHandle> tiers = new LinkedHashMap<>();
            tiers.put("app", sut.handle());
            tiers.put("load", load.process());
            runTiers.forEach((name, t) -> tiers.put(name, t.process()));
            Map<String, Integer> tierCpus = tiers.keySet().stream().collect(Collectors.toMap(t -> t, cores::count));
            ProbeContext ctx = new ProbeContext(row, tiers, tierCpus, sut.base(), raw, stem);
            for (Probe p : probes) guard(p, probeErrors, () -> p.start(ctx));
            long t0 = System.nanoTime();
            while (load.process().isAlive()) {
                Thread.sleep(1000);
                if (!load.process().isAlive()) break; // a partial last second would read as a drop in every series
                double second = (System.nanoTime() - t0) / 1e9;
                for (Probe p : probes) guard(p, probeErrors, () -> p.sample(ctx, second, m));
            }
            LoadResult r = load.await();
            if (!sut.alive()) throw new RowFailed("SUT died during the measured load: " + sut.tail(5));
            for (Probe p : probes) guard(p, probeErrors, () -> p.finish(ctx, m));
            if (!sut.alive()) throw new RowFailed("SUT died while probes read it: " + sut.tail(5));

            out.putAll(m.columns());
            out.put("series", m.series());
            fill(out, row, r, runtime, probeErrors);
            if (!fresh) {
                kept = sut;
                keptConfig = config;
                sut = null;
            }
            return out;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            out.put("status", "failed");
            out.put("note", e instanceof RowFailed || e instanceof Verifier.VerificationFailed || e instanceof Generator.LoadException
                    ? e.getMessage() : e.toString());
            return out;
        } finally {
            if (sut != null) {
                steps.step("stopping SUT");
                sut.close();
            }
        }
    }

    private interface ProbeStep {
        void run() throws Exception;
    }

    /** A failing probe costs its own columns, not the row: the error is noted. */
    private static void guard(Probe p, List<String> errors, ProbeStep step) {
        try {
            step.run();
        } catch (Exception e) {
            String msg = p.name() + ": " + e.getMessage();
            if (!errors.contains(msg)) errors.add(msg);
        }
    }

    static final class RowFailed extends Exception {
        RowFailed(String message) {
            super(message);
        }
    }

    Map<String, Object> base(Row row) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ts_iso", Instant.now().toString());
        out.put("experiment", row.experiment());
        out.put("stack", row.stack());
        out.put("thread_mode", row.threadMode());
        out.put("workload", row.workload());
        out.put("concurrency", row.concurrency());
        out.put("rep", row.rep());
        out.put("hikari_pool", row.hikariPool());
        out.put("path_mode", row.pathMode());
        out.put("conn_mode", row.connMode());
        out.put("jdk", row.jdk().major());
        out.put("carriers", row.carriers());
        out.put("generator", generator.name());
        out.put("load_model", "closed");
        out.put("bound_rps", row.boundRps());
        out.put("bound_note", row.boundNote());
        out.put("app_cpus", cores.of(CoreMap.APP));
        out.put("load_cpus", cores.of(CoreMap.LOAD));
        out.put("params", row.params().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(";")));
        out.put("scenario", row.scenario());
        return out;
    }

    /** Generator numbers and validity checks into the row. */
    void fill(Map<String, Object> out, Row row, LoadResult r, JsonNode runtime, List<String> probeErrors) {
        double rps = r.rps();
        out.put("throughput_rps", rps);
        out.put("p50_ms", r.p50Ms());
        out.put("p90_ms", r.p90Ms());
        out.put("p95_ms", r.p95Ms());
        out.put("p99_ms", r.p99Ms());
        out.put("p999_ms", r.p999Ms());
        out.put("max_ms", r.maxMs());
        out.put("mean_ms", r.meanMs());
        out.put("error_rate", r.errorRate());
        out.put("http_reqs", r.requests());
        out.put("duration_s", r.durationS());
        out.put("errors_connect", r.errConnect());
        out.put("errors_read", r.errRead());
        out.put("errors_write", r.errWrite());
        out.put("errors_timeout", r.errTimeout());
        out.put("errors_status", r.errStatus());
        out.put("raw", r.raw().getFileName().toString());

        Double boundRatio = Validity.boundRatio(rps, row.boundRps());
        out.put("bound_ratio", boundRatio);
        double little = Validity.littlesLawRatio(row.concurrency(), rps, r.meanMs());
        out.put("littles_law_ratio", little);
        out.put("littles_law_ok", Validity.littlesLawOk(little));
        Double loadCpu = num(out.get("load_cpu_pct")), appCpu = num(out.get("app_cpu_pct"));
        boolean genBound = Validity.saturated(loadCpu, cores.count(CoreMap.LOAD));
        out.put("generator_bound", loadCpu == null ? null : genBound);
        Integer maxConn = runtime.hasNonNull("max_connections") ? runtime.get("max_connections").asInt() : null;
        List<String> flags = Validity.flags(new Validity.Inputs(row.concurrency(), rps, r.errorRate(), little, loadCpu,
                cores.count(CoreMap.LOAD), appCpu, cores.count(CoreMap.APP), maxConn, row.boundRps()));
        // a warm-up that never settled: the hold may still include JIT or pool growth (not voiding: it is a caveat)
        if (Boolean.FALSE.equals(out.get("warmup_steady"))) flags = concat(flags, "warmup-not-steady");
        out.put("flags", String.join(";", flags));
        boolean voided = flags.stream().anyMatch(Validity::voids);
        out.put("status", voided ? "flagged" : "ok");
        List<String> notes = new ArrayList<>();
        if (voided) notes.add("flagged: " + flags.stream().filter(Validity::voids).collect(Collectors.joining(", ")));
        if (!probeErrors.isEmpty()) notes.add("probe errors: " + String.join("; ", probeErrors));
        out.put("note", String.join(" | ", notes));
    }

    private static List<String> concat(List<String> list, String item) {
        List<String> all = new ArrayList<>(list);
        all.add(item);
        return all;
    }

    static Double num(Object o) {
        return o instanceof Number n ? n.doubleValue() : null;
    }
}
