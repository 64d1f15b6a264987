package vtlab.probe;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

import vtlab.plan.Row;
import vtlab.tier.host.TierProcess;

/**
 * What a probe may look at: the row, the processes of every tier by tier name (app, load, pg, stub) where they run
 * (this machine or a host of a run across hosts: see {@link Probe#remote()}), the CPU count each tier is pinned to,
 * the SUT's URL and JDK, and where to put raw output.
 */
public record ProbeContext(Row row, Map<String, TierProcess> tiers, Map<String, Integer> tierCpus, URI sutBase,
                           Path rawDir, String stem) {
    public TierProcess app() {
        return tiers.get("app");
    }
}
