package vtlab.load.agent;

import java.nio.file.Path;
import java.util.List;

import vtlab.core.UsageError;
import vtlab.load.Generator;
import vtlab.load.LoadAgent;
import vtlab.tier.host.Host;
import vtlab.tier.host.HostRun;

/**
 * Load agents whose tool is built on this machine and copied into each host's work folder (k6, oha, vegeta): the hosts need
 * only taskset and setsid, the tool must be available here, and its version is this machine's binary's.
 */
public abstract class CopiedAgents extends AgentsGenerator {
    protected CopiedAgents(Generator tool, HostRun run, List<LoadAgent> agents) {
        super(tool, run, agents);
    }

    /** The tool's binary on this machine. */
    protected abstract Path binary();

    /** The binary in the host's work folder (copied once per run and host); its path there. */
    protected String stageBinary(Host host) throws java.io.IOException, InterruptedException {
        return run.stage(host, binary(), "bin/" + tool.name());
    }

    /** The tool itself is built here and copied there. */
    @Override
    public void ensureAvailable() throws UsageError {
        tool.ensureAvailable();
        super.ensureAvailable();
    }

    @Override
    protected List<String> needs() {
        return List.of("taskset", "setsid");
    }

    @Override
    protected String install() {
        return "util-linux";
    }

    @Override
    protected String toolVersion() {
        return tool.version();
    }
}
