package vtlab.load.generator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import vtlab.tier.host.HostRun;
import vtlab.load.LoadSpec;
import vtlab.load.LoadModel;
import vtlab.load.LoadAgent;
import vtlab.load.agent.CopiedAgents;
import vtlab.load.agent.LoadAgents;

/**
 * vegeta from several load agents (open model): vegeta has no execution segments, so each agent runs every attacker
 * of the load ({@link VegetaGenerator#attackers}: each request of a mix its own) at rate/n, with its share of the
 * in-flight cap ({@link LoadAgents#connections}); the agents together offer the row's rate. vegeta is one static
 * binary: copied from this machine into each host's work folder, once per run, with the agent's script and targets
 * files. Its results (vegeta's own format, raw/STEM.agentI.vegeta.N.bin) are copied back and encoded here with this
 * machine's vegeta, each result's send time moved onto this machine's clock by the host's offset, so second i of every
 * agent is the same second and their seconds add up; their histograms are merged exactly ({@link LoadAgents#merge}).
 */
public final class VegetaAgents extends CopiedAgents {
    private final VegetaGenerator vegeta;

    VegetaAgents(VegetaGenerator vegeta, HostRun run, List<LoadAgent> agents) {
        super(vegeta, run, agents);
        this.vegeta = vegeta;
    }

    @Override
    protected Path binary() {
        return vegeta.binary();
    }

    @Override
    protected Job job(LoadSpec s, int i, LoadAgent a) throws IOException, InterruptedException {
        if (s.model() != LoadModel.OPEN) throw new IOException("vegeta agents run the open model (closed: wrk agents)");
        if (s.profile() != null) throw new IOException("rate profiles do not run across hosts yet"); // refused before the run too
        String stem = s.stem() + "." + a.name();
        int cap = LoadAgents.connections(s.connections(), agents.size()).get(i);
        double rate = s.rate() / agents.size();
        LoadSpec mine = share(s, cap, rate, a.cpus()).withStem(stem);
        List<VegetaGenerator.Attacker> attackers;
        try {
            attackers = VegetaGenerator.attackers(mine);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage());
        }
        var targets = VegetaGenerator.writeTargets(mine, attackers, null); // agents send no secret header (refused before)
        String dir = run.dir(a.host()), binary = stageBinary(a.host());
        List<String> staged = new ArrayList<>(), remote = new ArrayList<>();
        List<Path> local = new ArrayList<>();
        for (VegetaGenerator.Attacker x : attackers) {
            staged.add(run.stageContent(a.host(), targets.get(x.index()), ".targets.json"));
            Path out = VegetaGenerator.output(mine, x);
            Files.deleteIfExists(out);
            local.add(out);
            remote.add(dir + "/" + out.getFileName());
        }
        Path script = s.rawDir().resolve(stem + ".vegeta.sh");
        Files.writeString(script, VegetaGenerator.script(binary, mine, attackers, staged::get, remote::get));
        List<String> cmd = List.of("sh", run.stageContent(a.host(), script, ".vegeta.sh"));
        Path hlog = s.rawDir().resolve(stem + ".vegeta.hlog");
        double holdS = s.duration().toMillis() / 1000.0;
        String words = String.format(Locale.ROOT, "%.1f req/s (%d attackers), at most %d in flight", rate, attackers.size(), cap);
        return new Job(new Share(a, cap, rate, words, s.rawDir().resolve(stem + ".vegeta.txt")), cmd, (text, raw, startedMs) -> {
            for (int k = 0; k < attackers.size(); k++) fetch(a, remote.get(k), local.get(k), true);
            return VegetaGenerator.parse(vegeta.binary(), text, raw, attackers, local, hlog, holdS, a.onHostClock(startedMs));
        });
    }
}
