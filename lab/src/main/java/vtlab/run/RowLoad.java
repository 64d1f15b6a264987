package vtlab.run;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import vtlab.load.Generator;
import vtlab.load.LoadModel;
import vtlab.load.LoadResult;
import vtlab.load.LoadSpec;
import vtlab.plan.Row;
import vtlab.probe.ProbeContext;
import vtlab.proc.CoreMap;
import vtlab.run.RowRunner.RowFailed;
import vtlab.run.RowRunner.Steps;
import vtlab.stack.Stack;
import vtlab.tier.RunTier;
import vtlab.tier.SutHandle;
import vtlab.tier.host.TierProcess;

/** A row's load on its SUT (warm-up slices and holds alike) from the generator on the load CPUs. */
final class RowLoad {
    /** Generator timeout: far above any latency a row should see, so slow answers are measured, not dropped. */
    static final Duration LOAD_TIMEOUT = Duration.ofSeconds(30);
    /** How often the probes sample in the hold, and how often the load's end is looked for meanwhile. */
    static final Duration SAMPLE_EVERY = Duration.ofSeconds(1), LOAD_END_POLL = Duration.ofMillis(25);

    final Generator generator;
    final CoreMap cores;

    RowLoad(Generator generator, CoreMap cores) {
        this.generator = generator;
        this.cores = cores;
    }

    /** A hold: the load, the probes started with it and sampled about once a second. */
    LoadResult measure(Row row, SutHandle sut, URI url, Stack.Workload w, Path raw, String stem, Map<String, RunTier> runTiers,
                       ProbeSession probes, Steps steps, FaultSchedule faults, Duration hold) throws Exception {
        steps.step("measuring " + hold.toSeconds() + "s" + (faults.any() ? ", fault " + faults.spec() : ""));
        // the hold follows the row's rate profile, if any; warm-up slices run at its mean, so their rates can settle
        // (an explaining hold shorter than the row's runs at the profile's mean: the profile's seconds are the row's)
        // the probes see the hold they run in (a profiled hold may be shorter than the row's: at most 20 s)
        Row held = hold.equals(row.hold()) ? row : row.withHold(hold);
        probes.beforeHold(probeContext(held, tiers(sut, null, runTiers), sut, raw, stem));
        Generator.RunningLoad load = generator.start(spec(row, url, w, hold, raw, stem).withProfile(hold.equals(row.hold()) ? row.rateProfile() : null));
        ProbeContext ctx = probeContext(held, tiers(sut, load.process(), runTiers), sut, raw, stem);
        probes.start(ctx);
        long t0 = System.nanoTime();
        LoadResult r;
        try (faults) {
            faults.start(t0);
            long holdS = hold.toSeconds();
            // a partial last second would read as a drop in every series: no sample once the load has ended
            while (aliveAfter(load.process(), SAMPLE_EVERY)) {
                double at = (System.nanoTime() - t0) / 1e9;
                probes.sample(ctx, at);
                // a long hold (a soak) says where it is, so a user sees it move
                if (holdS >= 120 && (long) at % 30 == 0) steps.step("measuring " + holdS + "s: " + (long) at + " s done, " + Math.max(0, holdS - (long) at) + " s to go");
            }
            r = load.await();
        }
        if (!sut.alive()) throw new RowFailed(sut.died("during the measured load"));
        probes.finish(ctx);
        if (!sut.alive()) throw new RowFailed(sut.died("while probes read it"));
        return r;
    }

    /** The probes' view of a hold: its tiers' processes and the CPUs each is pinned to. */
    private ProbeContext probeContext(Row held, Map<String, TierProcess> tiers, SutHandle sut, Path raw, String stem) {
        return new ProbeContext(held, tiers, tiers.keySet().stream().collect(Collectors.toMap(t -> t, cores::count)), sut.base(), raw, stem);
    }

    /**
     * Waits for the given time; true if the process is still alive then, false as soon as it ends. A whole-second sleep
     * past the load's end cost every row up to a second (~0.6 s on average) before its probes finished.
     */
    static boolean aliveAfter(TierProcess p, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (p.alive()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) return true;
            Thread.sleep(Math.max(1, Math.min(LOAD_END_POLL.toMillis(), left / 1_000_000)));
        }
        return false;
    }

    LoadSpec spec(Row row, URI url, Stack.Workload w, Duration d, Path raw, String stem) {
        // warm-up and hold alike: an open row is warmed at its own rate
        LoadSpec s = new LoadSpec(url, w.request(), row.concurrency(), cores.count(CoreMap.LOAD), d, LOAD_TIMEOUT,
                cores.of(CoreMap.LOAD), raw, stem, row.open() ? LoadModel.OPEN : LoadModel.CLOSED, row.rate()).withMix(w.mix());
        // a fault holds answers back: in flight can jump to the cap within a second
        return row.open() && !row.faults().isEmpty() ? s.withBursts() : s;
    }

    /** Processes by tier name: app, load (once the hold runs), then the run's tiers. */
    static Map<String, TierProcess> tiers(SutHandle sut, TierProcess load, Map<String, RunTier> runTiers) {
        Map<String, TierProcess> tiers = new LinkedHashMap<>();
        tiers.put("app", sut.process());
        if (load != null) tiers.put("load", load);
        runTiers.forEach((name, t) -> {
            TierProcess p = t.tierProcess(); // read where it runs; a dependency the lab did not start has none
            if (p != null) tiers.put(name, p);
        });
        return tiers;
    }
}
