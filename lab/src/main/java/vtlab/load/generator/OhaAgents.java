package vtlab.load.generator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import vtlab.tier.host.HostRun;
import vtlab.load.LoadSpec;
import vtlab.load.LoadModel;
import vtlab.load.LoadAgent;
import vtlab.load.agent.CopiedAgents;
import vtlab.load.agent.LoadAgents;

/**
 * oha from several load agents (open model): oha has no execution segments, so each agent sends rate/n on its own
 * schedule, with its share of the in-flight cap ({@link LoadAgents#connections}) and the connections oha opens for
 * its rate. oha (Rust) is copied from this machine into each host's work folder, once per run (it needs the host's
 * glibc only); its per-request records (SQLite) are written there and copied back (raw/STEM.agentI.oha.db), read here
 * as a local oha's. Its seconds count from its own start (the agents started together): no clock is involved.
 */
public final class OhaAgents extends CopiedAgents {
    private final OhaGenerator oha;

    OhaAgents(OhaGenerator oha, HostRun run, List<LoadAgent> agents) {
        super(oha, run, agents);
        this.oha = oha;
    }

    @Override
    protected Path binary() {
        return oha.binary();
    }

    /** The connections every agent opens for its rate/n, within its share of the cap, added. */
    @Override
    public int inFlightLimit(Double rate, int cap) {
        if (rate == null) return cap;
        int sum = 0;
        for (int c : LoadAgents.connections(cap, agents.size())) sum += OhaGenerator.connections(rate / agents.size(), c);
        return sum;
    }

    @Override
    protected Job job(LoadSpec s, int i, LoadAgent a) throws IOException, InterruptedException {
        if (s.model() != LoadModel.OPEN) throw new IOException("oha runs the open model only here (closed: wrk agents)");
        String stem = s.stem() + "." + a.name();
        int cap = LoadAgents.connections(s.connections(), agents.size()).get(i);
        double rate = s.rate() / agents.size();
        LoadSpec mine = share(s, cap, rate, a.cpus());
        String dir = run.dir(a.host()), binary = stageBinary(a.host());
        String db = dir + "/" + stem + ".oha.db";
        List<String> cmd = OhaGenerator.command(Path.of(binary), mine, Path.of(db));
        Path localDb = s.rawDir().resolve(stem + ".oha.db"), hlog = s.rawDir().resolve(stem + ".oha.hlog");
        Files.deleteIfExists(localDb);
        double holdS = Math.max(1, s.duration().toSeconds());
        long due = Math.round(rate * holdS);
        String words = String.format(Locale.ROOT, "%.1f req/s, at most %d in flight", rate, OhaGenerator.connections(rate, cap));
        return new Job(new Share(a, cap, rate, words, s.rawDir().resolve(stem + ".oha.txt")), cmd, (text, raw, startedMs) -> {
            fetch(a, db, localDb, false); // oha writes no database when nothing was answered
            return OhaGenerator.parse(text, raw, localDb, hlog, OhaGenerator.LEAD_IN_S, holdS, due);
        });
    }
}
