package vtlab.planning;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import vtlab.core.UsageError;
import vtlab.load.Generator;
import vtlab.plan.LimitAxis;
import vtlab.plan.Row;
import vtlab.proc.Cgroups;
import vtlab.proc.FileLimits;
import vtlab.stack.Stack;
import vtlab.tier.StackVariants;
import vtlab.tier.Tiers;
import vtlab.tier.tool.OsPackages;
import vtlab.tier.tool.Tool;

/**
 * What a plan needs of this machine, checked or made ready before the first row: the quick checks ({@link #check}),
 * then what takes longer ({@link #ready}). Unlike {@link RunPlan#of}, these touch the machine: a port is bound, the
 * open-file limit raised, tools installed, jars built.
 */
public final class Preflight {
    private Preflight() {}

    /**
     * The quick checks of this machine before anything starts: the port free, enough open files for the connections,
     * every stack built, no CPU shared by the SUT and the generator, taskset, and cgroups for rows with limits.
     */
    public static void check(RunPlan p) throws UsageError {
        List<Row> templates = p.templates();
        boolean here = p.topology() == null; // across hosts the port and the CPUs are the SUT's host's
        if (!templates.isEmpty() && here) checkPortFree(p.port());
        checkFileLimit(templates.stream().mapToInt(Row::concurrency).max().orElse(0), p.open());
        for (Row r : templates) {
            Stack s = Stack.load(r.stack());
            // a row with a build of its own runs a variant jar, built later (a library its pom has no property of is refused here)
            boolean ownJar = r.build() != null && !StackVariants.isDefault(s, r.build());
            if (!ownJar && !s.built()) throw new UsageError("stack " + s.name() + " is not built (" + s.jar() + "): run ./vtlab build");
        }
        if (!templates.isEmpty() && here) p.cores().refuseShared(p.options().flag("allow-shared-cpus"));
        if (OsPackages.which("taskset").isEmpty()) throw new UsageError("taskset not found: install util-linux");
        if (p.rows().stream().anyMatch(r -> !r.limits().none())) {
            if (!here) throw new UsageError("--cpu-quota/--memory-limit: a SUT in a cgroup runs on this machine only, not with --hosts");
            LimitAxis.refuseUnavailable(p.rows(), Cgroups.here());
        }
    }

    /** Last of the checks, as they take longer: the generator's tools, the tiers' tools, the variant jars. */
    public static void ready(RunPlan p, Generator generator) throws UsageError {
        List<Row> templates = p.templates();
        if (!templates.isEmpty()) generator.ensureAvailable();
        installTierTools(templates);
        buildVariants(templates);
    }

    /** The tools of every tier the rows name (the database server), installed now: before the first row, never inside one. */
    static void installTierTools(List<Row> rows) throws UsageError {
        for (String tier : rows.stream().flatMap(r -> r.tiers().stream()).distinct().toList()) {
            for (Tool t : Tiers.create(tier).tools()) {
                try {
                    t.get();
                } catch (IOException e) {
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
        Set<String> done = new HashSet<>();
        for (Row r : rows) {
            if (r.build() == null || !done.add(r.stack() + "|" + r.build().spec())) continue;
            StackVariants.ensure(Stack.load(r.stack()), r.build());
        }
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
    public static void checkFileLimit(int connections, boolean open) throws UsageError {
        FileLimits.raise(2L * connections + 4096); // as root: room for a SUT's downstream sockets too
        long limit = FileLimits.softLimit();
        long needed = connections + 1024L;
        if (limit > 0 && needed > limit) {
            // open model: every request in flight may hold a socket, so the cap is what must fit
            String what = open ? "an in-flight cap of " + connections + " (--max-in-flight) needs" : connections + " connections need";
            throw new UsageError(what + " about " + needed + " open files per process, but the limit is "
                    + limit + " (raise the hard limit: ulimit -Hn / limits.conf)");
        }
    }
}
