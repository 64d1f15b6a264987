package vtlab.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import vtlab.probe.Probe;
import vtlab.probe.Probes;
import vtlab.proc.CoreMap;
import vtlab.proc.Env;
import vtlab.run.RowRunner.RowFailed;
import vtlab.stack.Stack;
import vtlab.tier.ContainedSut;
import vtlab.tier.RunTier;
import vtlab.tier.StackVariants;
import vtlab.tier.SutHandle;

/**
 * The row's SUT up: its probes and configuration (stack, JDK, JVM options with the probes', environment, limits), then
 * the SUT kept from the row before if it has that configuration ({@link SutReuse}), else a fresh one.
 */
final class SutUpPhase implements Phase {
    private final SutHandle.Launcher launcher;
    private final CoreMap cores;
    private final int port;
    private final SutReuse suts;
    /** Why a SUT configuration did not start (see {@link VerifyPhase}): its later rows fail at once. */
    private final Map<String, String> startFailures;

    SutUpPhase(SutHandle.Launcher launcher, CoreMap cores, int port, SutReuse suts, Map<String, String> startFailures) {
        this.launcher = launcher;
        this.cores = cores;
        this.port = port;
        this.suts = suts;
        this.startFailures = startFailures;
    }

    @Override
    public String name() {
        return "start";
    }

    @Override
    public void run(RowContext c) throws Exception {
        Launch launch = configure(c);
        String failedBefore = startFailures.get(c.config);
        if (failedBefore != null) throw new RowFailed(failedBefore + " (an earlier row's start with the same configuration; not retried)");
        // a fork's first iteration is a fresh JVM whatever ran before; its later ones are that JVM's or nothing
        if (c.row.continuesFork() && !suts.keeps(c.config)) {
            throw new RowFailed("fork " + c.row.fork() + "'s JVM is gone (its iteration before failed or it died): iteration " + c.row.iteration() + " has no warm JVM to run in");
        }
        SutReuse.Acquired got = suts.acquire(c.config, c.planned.freshSut() || c.row.startsFork(), c.steps, () -> ContainedSut.around(launcher, c.row.limits()).start(c.stack, c.row.jdk(),
                launch.jvmArgs(), c.row.appArgs(), launch.env(), cores.of(CoreMap.APP), port, c.raw.resolve(c.stem + ".sut.log")));
        c.sut = got.sut();
        c.out.put(RowColumns.SUT_JVM, got.reused() ? "reused" : "fresh");
        c.out.put(RowColumns.SUT_LOG, c.sut.log().getFileName().toString());
    }

    /** The SUT's JVM options (the row's, then its probes') and environment (the row's, then what the run's tiers add). */
    private record Launch(List<String> jvmArgs, Env env) {}

    /** The row's probes, stack and workload into the context, and its configuration's key; how its SUT is launched. */
    private static Launch configure(RowContext c) throws Exception {
        // a probe that explains (the profiler) never runs in the measured hold: it gets a hold of its own after it
        List<Probe> chosen = Probes.create(c.planned.probes());
        c.probes = new ProbeSession(chosen.stream().filter(p -> !p.explains()).toList());
        c.explainers = new ProbeSession(chosen.stream().filter(Probe::explains).toList());
        // a row with a build runs that build's jar (made before the first row): part of the configuration below
        c.stack = StackVariants.forRow(Stack.load(c.row.stack()), c.row.build());
        c.workload = c.stack.workload(c.row.workload()).withParams(c.row.params());
        List<String> jvmArgs = new ArrayList<>(c.row.jvmArgs());
        jvmArgs.addAll(c.probes.jvmArgs());
        jvmArgs.addAll(c.explainers.jvmArgs());
        Env env = c.runTiers.values().stream().map(RunTier::sutEnv).reduce(c.row.sutEnv(), Env::merge);
        c.config = c.stack.name() + "|" + c.stack.jar() + "|" + c.row.jdk().home() + "|" + jvmArgs + "|" + c.row.appArgs() + "|" + env + "|" + c.row.limits();
        return new Launch(jvmArgs, env);
    }
}
