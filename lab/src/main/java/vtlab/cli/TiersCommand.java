package vtlab.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import vtlab.core.LabHome;
import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.plan.RunOptions;
import vtlab.core.UsageError;
import vtlab.proc.Env;
import vtlab.stack.Stack;
import vtlab.stack.StackData;
import vtlab.proc.Children;
import vtlab.proc.CoreMap;
import vtlab.tier.TierOptions;
import vtlab.tier.tool.Jdk;
import vtlab.tier.RunTier;
import vtlab.tier.Tiers;

/**
 * ./vtlab tiers [pg] [stub]: the lab's own run-scoped tiers (PostgreSQL seeded as a stack declares it, the downstream
 * stub) started on their CPUs of the core map and kept up until Ctrl-C, with the environment a service needs to reach
 * them printed as --env options. For `ab` on a service that needs a database or a downstream, e.g. the lab's own
 * spring-mvc jar measured as a foreign service against the same tiers its experiments use.
 */
final class TiersCommand implements Command {
    /** Every tier a user may start alone, as the tiers declare it. */
    static final List<String> DEFAULT = vtlab.tier.Tiers.startableAlone();
    static final String USAGE = "./vtlab tiers " + DEFAULT.stream().map(n -> "[" + n + "]").collect(java.util.stream.Collectors.joining(" "))
            + " [--data-of STACK] [--reseed]";
    static final Opt DATA_OF = Opt.of("data-of", "spring-mvc", "the stack whose database this is (its schema and seed data)");

    @Override
    public String name() {
        return "tiers";
    }

    @Override
    public String help() {
        return "Usage: " + USAGE + "\n" + """
                  the lab's own PostgreSQL and downstream stub, each on its CPUs of the core map, until Ctrl-C, with
                  the --env options a service needs to reach them (for ./vtlab ab); no name: every tier.
                  --data-of spring-mvc    the stack whose database this is (its schema and seed data)
                  --reseed                rebuild that seed data first
                  --cpus-app, --cpus-load, --cpus-pg, --cpus-stub   core map overrides (taskset lists)
                """;
    }

    @Override
    public java.util.Set<String> options() {
        return java.util.stream.Stream.of(DATA_OF, RunOptions.RESEED, RunOptions.CPUS_APP, RunOptions.CPUS_LOAD, RunOptions.CPUS_PG, RunOptions.CPUS_STUB)
                .map(Opt::name).collect(java.util.stream.Collectors.toSet());
    }

    @Override
    public int run(Options o, List<String> args, PrintStream out) throws Exception {
        List<String> unknown = o.unknown(Main.withHelp(options()));
        if (!unknown.isEmpty()) throw new UsageError("option --" + unknown.getFirst() + " is not known to tiers (usage: " + USAGE + ")");
        List<String> names = args.isEmpty() ? DEFAULT : args;
        for (String n : names) {
            if (!DEFAULT.contains(n)) throw new UsageError("unknown tier '" + n + "' (" + String.join(", ", DEFAULT) + ")");
        }
        String of = DATA_OF.string(o);
        StackData data = Stack.load(of).data().orElse(null); // an unknown stack is refused there
        CoreMap cores = CoreMap.compute(vtlab.proc.LabAffinity.machineCpus(), o);
        TierOptions tierOptions = RunOptions.RESEED.on(o) ? TierOptions.NONE.with(vtlab.tier.PostgresTier.OPT_RESEED, "true") : TierOptions.NONE;
        Path state = LabHome.get().resolve(".vtlab"), logs = state.resolve("tiers-logs");
        Files.createDirectories(logs);

        List<RunTier> running = new ArrayList<>();
        CountDownLatch stopped = new CountDownLatch(1);
        // the lab's own shutdown sequence (Children): the tiers close before it kills what is still alive
        Children.onShutdown(() -> {
            out.println("vtlab: stopping " + String.join(", ", names));
            running.reversed().forEach(RunTier::close);
            stopped.countDown();
        });
        Env env = Env.NONE;
        for (String n : names) {
            out.println("vtlab: starting " + n + " on CPUs " + cores.of(n) + " (logs in " + logs + ")");
            RunTier t = Tiers.create(n);
            running.add(t);
            t.start(new RunTier.Context(cores.of(n), state, logs, Jdk.current(), tierOptions, data));
            env = env.merge(t.sutEnv());
        }
        StringBuilder line = new StringBuilder();
        env.forEach((k, v) -> line.append(" --env ").append(k).append('=').append(v));
        out.println("vtlab: ready; pass to ./vtlab ab:" + line);
        out.println("vtlab: Ctrl-C stops them");
        out.flush();
        stopped.await(); // until the shutdown hook has stopped every tier
        return 0;
    }
}
