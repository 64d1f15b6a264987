package vtlab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.experiment.registry.Experiments;
import vtlab.load.LoadAgent;
import vtlab.load.LoadModel;
import vtlab.load.Generator;
import vtlab.load.agent.AgentsGenerator;
import vtlab.load.generator.Generators;
import vtlab.plan.Experiment;
import vtlab.plan.Row;
import vtlab.plan.RunOptions;
import vtlab.probe.Probes;
import vtlab.proc.CoreMap;
import vtlab.tier.tool.Jdk;
import vtlab.tier.host.HostJdk;
import vtlab.tier.RemoteSut;
import vtlab.tier.SutHandle;
import vtlab.tier.Tiers;
import vtlab.tier.host.TierSite;
import vtlab.tier.host.Host;
import vtlab.tier.host.HostRun;
import vtlab.tier.host.HostSpec;
import vtlab.tier.host.HostSurvey;
import vtlab.tier.host.LocalHost;
import vtlab.tier.host.Placement;
import vtlab.tier.host.Topology;

/**
 * ./vtlab run --hosts FILE: the SUT on a host of its own, load from the topology's agents, PostgreSQL and the stub here
 * or on hosts of their own (docs/design.md, "Beyond one machine"). What is run across hosts so far: the rows of the
 * experiments that say so ({@link Experiment#acrossHosts}: servlet and spring-mvc's spring-sleep, order-summary and
 * pool-bottleneck) with the tiers that say so ({@link Tiers.Entry#acrossHosts}: pg and the stub), closed-model with
 * wrk agents and open-model with k6 or oha agents, probed where each process runs (/proc, and jcmd/JFR/NMT on the
 * SUT's host; the probes that say so, Probe.remote()). Everything else is refused in one line before anything starts,
 * as are a host that does not answer, CPUs a host does not have, and a JDK or tool missing there.
 */
final class RunAcrossHosts {
    private RunAcrossHosts() {}

    /**
     * A run across hosts, prepared: its topology file, the hosts' survey (environment.json's "hosts"), where the CPUs
     * are, the work on the hosts (closed at the run's end), the generator (the run's, from the agents) and the SUT's launcher.
     */
    public record Across(Path file, Topology topology, HostRun run, List<Map<String, Object>> survey, Placement placement,
                         Generator generator, SutHandle.Launcher launcher, Map<String, TierSite> sites) {
        /** One line per role for the run's start. */
        List<String> describe() {
            List<String> out = new ArrayList<>();
            out.add("vtlab: across hosts (" + file + "): SUT on " + topology.sut().where() + " cpus " + placement.cores().of(CoreMap.APP)
                    + (topology.sut().copyJdk() ? " (JDK copied there)" : ""));
            List<LoadAgent> agents = ((AgentsGenerator) generator).agents();
            for (LoadAgent a : agents) out.add("vtlab:   load " + a.name() + " on " + a.host().name() + " cpus " + a.cpus());
            sites.forEach((name, s) -> out.add("vtlab:   " + name + " on " + s.where() + " cpus " + placement.cores().of(name)
                    + ", listening on " + s.listen() + (s.copyJdk() ? " (JDK copied there)" : "")));
            return out;
        }
    }

    /** The topology of --hosts, or null without it; a file that is not one is refused in one line. */
    static Topology read(Options o) throws UsageError {
        if (!RunOptions.HOSTS.given(o)) return null;
        return Topology.read(file(o));
    }

    static Path file(Options o) {
        return Path.of(RunOptions.HOSTS.string(o, "")).toAbsolutePath();
    }

    /** What a run across hosts does not do yet, refused before any host is reached. */
    static void refuse(Topology t, List<String> experiments, List<Row> rows, boolean searchesOrStudies, Generator gen, Options o)
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
        for (Opt opt : List.of(RunOptions.CPUS_APP, RunOptions.CPUS_LOAD)) {
            if (opt.given(o)) throw new UsageError("--hosts: the SUT's and the agents' CPUs are the topology file's (cpus = \"...\" in an entry), not --" + opt.name());
        }
        // what each generator declares it runs from load agents
        if (gen.fromAgents().isEmpty()) {
            throw new UsageError("--hosts: load agents run " + String.join(", ", Generators.onAgents(LoadModel.CLOSED)) + " (closed model), "
                    + String.join(" or ", Generators.onAgents(LoadModel.OPEN)) + " (open model) so far, not " + gen.name());
        }
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
    static List<String> probes(Options o) throws UsageError {
        if (RunOptions.NO_PROBES.on(o)) return List.of();
        if (!RunOptions.PROBES.given(o)) return Probes.DEFAULT.stream().filter(RunAcrossHosts::remote).toList();
        return refuseProbes(Probes.resolve(RunOptions.PROBES.list(o), Probes.DEFAULT.stream().filter(RunAcrossHosts::remote).toList()));
    }

    /** The probes, each one that can read a SUT on another host; else refused by name. */
    static List<String> refuseProbes(List<String> probes) throws UsageError {
        for (String spec : probes) {
            if (!remote(spec)) {
                throw new UsageError("--hosts: probe " + Probes.name(spec) + " reads the SUT through this machine (JMX by the local attach API, or its /proc"
                        + " directly): not across hosts yet, remote JMX is not built (" + String.join(", ", Probes.all().keySet().stream().filter(RunAcrossHosts::remote).toList())
                        + " are)");
            }
        }
        return probes;
    }

    private static boolean remote(String spec) {
        var p = Probes.all().get(Probes.name(spec));
        return p != null && p.get().remote();
    }

    /**
     * Reaches every host (refused naming one that does not answer), places the CPUs, checks the SUT's host (taskset,
     * setsid, each row's JDK at its path or copyable there), sets up the agents (whose tools the generator's
     * ensureAvailable checks) and places the rows' tiers ({@link #sites}).
     */
    static Across connect(Path file, Topology t, List<Row> rows, Generator gen, CoreMap local, boolean allowShared) throws UsageError {
        try {
            List<HostSurvey.Entry> survey = HostSurvey.survey(t);
            for (HostSurvey.Entry e : survey) {
                if (!e.reached()) {
                    throw new UsageError("--hosts " + file + ": " + e.host() + " (" + String.join(",", e.specs().stream().map(HostSpec::role).toList())
                            + ") does not answer: " + e.error().strip().lines().findFirst().orElse(""));
                }
            }
            Placement placement = Placement.of(t, survey, local, new LocalHost().read("/proc/sys/kernel/random/boot_id").strip());
            String shared = placement.cores().shared();
            if (shared != null && !allowShared) {
                throw new UsageError("--hosts: the SUT (cpus " + placement.cores().of(CoreMap.APP) + ") and load agents (cpus " + placement.cores().of(CoreMap.LOAD)
                        + ") share CPU " + shared + " of one machine: give them disjoint cpus in " + file + ", or pass --allow-shared-cpus");
            }
            HostRun run = new HostRun(t);
            try {
                Host sut = run.host(t.sut());
                List<String> missing = sut.missing(List.of("taskset", "setsid"));
                if (!missing.isEmpty()) throw new UsageError("--hosts: the SUT's host " + sut.name() + " has no " + String.join(", ", missing) + " (util-linux)");
                for (Jdk jdk : rows.stream().map(Row::jdk).distinct().toList()) {
                    try {
                        HostJdk.check(sut, jdk, t.sut().copyJdk(), Topology.SUT);
                    } catch (IOException e) {
                        throw new UsageError("--hosts: " + e.getMessage());
                    }
                }
                Map<String, TierSite> sites = sites(t, run, rows);
                List<LoadAgent> agents = new ArrayList<>();
                for (int i = 0; i < t.load().size(); i++) {
                    HostSpec spec = t.load().get(i);
                    // its clock against ours: k6 stamps its records with it
                    double offset = survey.stream().filter(e -> e.host().equals(spec.where())).findFirst().map(e -> e.clock().offsetMs()).orElse(0.0);
                    agents.add(new LoadAgent("agent" + (i + 1), run.host(spec), placement.agentCpus().get(i), offset));
                }
                return new Across(file, t, run, survey.stream().map(HostSurvey.Entry::toMap).toList(), placement,
                        Generators.overAgents(gen, run, agents), RemoteSut.launcher(run, sut, t.sut().copyJdk()), sites);
            } catch (UsageError | IOException | RuntimeException e) {
                run.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UsageError("--hosts: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UsageError("interrupted while reaching the hosts");
        }
    }

    /**
     * Where each tier the rows use runs and listens. One of this machine listens on this machine's address as the SUT's
     * host sees it (the client side of its $SSH_CONNECTION: 10.77.0.1 for test hosts), one on a host on that host's
     * address; each lets in the lab and the SUT's host. A tier's host is checked here: taskset and setsid, and what the
     * tier declares it needs there ({@link Tiers.HostCheck}: the stub's JDK, the lab's at its path or copied;
     * PostgreSQL's server binaries).
     */
    static Map<String, TierSite> sites(Topology t, HostRun run, List<Row> rows) throws UsageError, IOException, InterruptedException {
        Map<String, TierSite> sites = new java.util.LinkedHashMap<>();
        List<String> used = rows.stream().flatMap(r -> r.tiers().stream()).distinct().filter(Tiers::acrossHosts).toList();
        if (used.isEmpty()) return sites;
        Host sut = run.host(t.sut());
        String sutAddress = run.address(sut);
        for (String name : used) {
            HostSpec s = t.of(name);
            if (s.isLocal()) {
                String here = run.clientAddress(sut);
                sites.put(name, TierSite.here(here, List.of(here, sutAddress)));
                continue;
            }
            Host h = run.host(s);
            List<String> missing = h.missing(List.of("taskset", "setsid"));
            if (!missing.isEmpty()) throw new UsageError("--hosts: " + name + "'s host " + h.name() + " has no " + String.join(", ", missing) + " (util-linux)");
            try {
                Tiers.hostCheck(name).check(h, s.copyJdk());
            } catch (IOException e) {
                throw new UsageError("--hosts: " + e.getMessage());
            }
            String address = run.address(h);
            sites.put(name, TierSite.on(run, h, address, List.of(address, sutAddress, run.clientAddress(h)), s.copyJdk()));
        }
        return sites;
    }
}
