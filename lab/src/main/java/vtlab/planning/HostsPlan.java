package vtlab.planning;

import java.nio.file.Path;
import java.util.List;

import vtlab.plan.RunOptions;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.experiment.registry.Experiments;
import vtlab.load.Generator;
import vtlab.load.LoadModel;
import vtlab.load.generator.Generators;
import vtlab.plan.Experiment;
import vtlab.plan.Row;
import vtlab.probe.Probes;
import vtlab.tier.Tiers;
import vtlab.tier.host.Topology;

/**
 * What a run across hosts (--hosts) plans without reaching a host: the topology file read, what does not run across
 * hosts yet refused, the probes that can read a SUT on another host. The command reaches the hosts after.
 */
public final class HostsPlan {
    private HostsPlan() {}

    /** The topology of --hosts, or null without it; a file that is not one is refused in one line. */
    public static Topology read(Options o) throws UsageError {
        if (!RunOptions.HOSTS.given(o)) return null;
        return Topology.read(file(o));
    }

    public static Path file(Options o) {
        return Path.of(RunOptions.HOSTS.string(o, "")).toAbsolutePath();
    }

    /** What a run across hosts does not do yet, refused before any host is reached. */
    public static void refuse(Topology t, List<String> experiments, List<Row> rows, boolean searchesOrStudies, Generator gen, Options o)
            throws UsageError {
        if (t.sut().isLocal()) throw new UsageError("--hosts: sut is local, which is the lab without --hosts: give it a host (sut = \"user@host\")");
        for (String e : experiments) {
            Experiment x = Experiments.all().get(e);
            if (x == null || !x.acrossHosts()) {
                throw new UsageError("--hosts: " + e + " does not run across hosts yet (" + String.join(", ", Experiments.all().values().stream()
                        .filter(Experiment::acrossHosts).map(Experiment::name).toList()) + " do)");
            }
        }
        if (searchesOrStudies) throw new UsageError("--hosts: searches and studies do not run across hosts yet");
        for (String opt : List.of("cpus-app", "cpus-load")) {
            if (o.has(opt)) throw new UsageError("--hosts: the SUT's and the agents' CPUs are the topology file's (cpus = \"...\" in an entry), not --" + opt);
        }
        // what each generator declares it runs from load agents
        if (gen.fromAgents().isEmpty()) {
            throw new UsageError("--hosts: load agents run " + String.join(", ", Generators.onAgents(LoadModel.CLOSED)) + " (closed model), "
                    + String.join(" or ", Generators.onAgents(LoadModel.OPEN)) + " (open model) so far, not " + gen.name());
        }
        refuseRows(t, rows, gen);
    }

    /** The rows' load models, rate profiles, tiers and connections, each against the agents that would send them. */
    private static void refuseRows(Topology t, List<Row> rows, Generator gen) throws UsageError {
        for (Row r : rows) {
            LoadModel model = r.open() ? LoadModel.OPEN : LoadModel.CLOSED;
            if (!gen.fromAgents().get().models().contains(model)) {
                throw new UsageError("--hosts: " + (r.open() ? "open" : "closed") + "-model agents run " + String.join(", ", Generators.onAgents(model))
                        + " so far, not " + gen.name() + " (row " + r.label() + ")");
            }
            if (r.rateProfile() != null) throw new UsageError("--hosts: rows with a rate profile do not run across hosts yet (row " + r.label() + ")");
        }
        int agents = t.load().size();
        for (Row r : rows) {
            for (String tier : r.tiers()) {
                if (!Tiers.acrossHosts(tier)) throw new UsageError("--hosts: rows with the " + tier + " tier do not run across hosts yet (row " + r.label() + ")");
            }
            if (r.concurrency() < agents) {
                throw new UsageError("--hosts: " + agents + " load agents need at least " + agents + " connections, row " + r.label() + " has " + r.concurrency());
            }
        }
    }

    /**
     * The probes of a run across hosts: without --probes the default set less those that cannot read a SUT on
     * another host (hikari: JMX), so the same as a local run's for the rows that run across hosts; one given that
     * cannot is refused by name.
     */
    public static List<String> probes(Options o) throws UsageError {
        return refuseProbes(LabOptions.probes(o, Probes.DEFAULT.stream().filter(HostsPlan::remote).toList()));
    }

    /** The probes, each one that can read a SUT on another host; else refused by name. */
    public static List<String> refuseProbes(List<String> probes) throws UsageError {
        for (String spec : probes) {
            if (!remote(spec)) {
                throw new UsageError("--hosts: probe " + Probes.name(spec) + " reads the SUT through this machine (JMX by the local attach API, or its /proc"
                        + " directly): not across hosts yet, remote JMX is not built (" + String.join(", ", Probes.all().keySet().stream().filter(HostsPlan::remote).toList())
                        + " are)");
            }
        }
        return probes;
    }

    private static boolean remote(String spec) {
        var p = Probes.all().get(Probes.name(spec));
        return p != null && p.get().remote();
    }
}
