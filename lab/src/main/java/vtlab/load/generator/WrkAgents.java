package vtlab.load.generator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import vtlab.tier.host.HostRun;
import vtlab.load.LoadSpec;
import vtlab.load.LoadAgent;
import vtlab.load.agent.AgentsGenerator;
import vtlab.load.agent.LoadAgents;

/**
 * wrk from several load agents (closed model): the row's connections split between them ({@link LoadAgents#connections}),
 * each agent's wrk with its share and a thread per CPU of its own, its script copied there; its output parsed here into
 * its own histogram (raw/STEM.agentI.wrk.hlog); the rest as every agent ({@link AgentsGenerator}). wrk must be on each
 * agent host's PATH (a Debian package there: apt-get install wrk), with taskset and setsid.
 */
public final class WrkAgents extends AgentsGenerator {
    private final WrkGenerator wrk;

    /** @param wrk the run's wrk, configured (its per-second switch applies to every agent) */
    WrkAgents(WrkGenerator wrk, HostRun run, List<LoadAgent> agents) {
        super(wrk, run, agents);
        this.wrk = wrk;
    }

    @Override
    protected List<String> needs() {
        return List.of("wrk", "taskset", "setsid");
    }

    @Override
    protected String install() {
        return "wrk: apt-get install wrk; taskset and setsid: util-linux";
    }

    @Override
    protected String toolVersion() throws IOException, InterruptedException {
        return agents.getFirst().host().output(List.of("sh", "-c", "wrk -v 2>&1 | head -n 1"), SHORT).strip().replaceAll("\\s+Copyright.*", "");
    }

    @Override
    protected Job job(LoadSpec s, int i, LoadAgent a) throws IOException, InterruptedException {
        int connections = LoadAgents.connections(s.connections(), agents.size()).get(i);
        String stem = s.stem() + "." + a.name();
        LoadSpec mine = share(s, connections, null, a.cpus());
        Path lua = s.rawDir().resolve(stem + ".wrk.lua");
        Files.writeString(lua, wrk.script(mine, null));
        List<String> cmd = WrkGenerator.command("wrk", mine, run.stageContent(a.host(), lua, ".wrk.lua"));
        Path hlog = s.rawDir().resolve(stem + ".wrk.hlog");
        return new Job(new Share(a, connections, null, connections + " connections", s.rawDir().resolve(stem + ".wrk.txt")), cmd,
                (text, raw, startedMs) -> WrkGenerator.parse(text, raw, hlog));
    }
}
