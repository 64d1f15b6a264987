package vtlab.load;

import vtlab.tier.host.Host;

/**
 * A load agent (a host of the topology's load role): its name in raw/ and in messages, its host, the CPUs it is pinned
 * to there, and its host's clock against this machine's (ms ahead; {@link vtlab.tier.host.HostSurvey}), which moves
 * stamps of its clock onto ours.
 */
public record LoadAgent(String name, Host host, String cpus, double clockOffsetMs) {
    public LoadAgent(String name, Host host, String cpus) {
        this(name, host, cpus, 0);
    }

    /** A moment of this machine's clock (epoch ms) on this agent's host's clock, which is clockOffsetMs ahead. */
    public long onHostClock(long localMs) {
        return onHostClock(localMs, clockOffsetMs);
    }

    /** A moment of this machine's clock (epoch ms) on a host's clock that is offsetMs ahead. */
    public static long onHostClock(long localMs, double offsetMs) {
        return localMs + Math.round(offsetMs);
    }
}
