package vtlab.tier.host;

import java.nio.file.Path;

/**
 * One entry of the topology file: a role (sut, pg, stub, or one load agent) and where it runs.
 *
 * @param role        sut, pg, stub, load
 * @param destination where ssh reaches it, or null for this machine
 * @param identity    the private key ssh uses (-i), or null for the user's own ssh setup
 * @param knownHosts  a known_hosts file of its own (the test hosts' keys), or null for the user's ~/.ssh/known_hosts
 * @param cpus        the CPUs the role is pinned to on that host (a taskset list), or null for the lab's core map
 * @param copyJdk     jdk = "copy": the JDK the role runs on is copied into the run's work folder there, instead of being
 *                    required at the same path (roles that run Java: sut, stub)
 */
public record HostSpec(String role, Destination destination, Path identity, Path knownHosts, String cpus, boolean copyJdk) {
    /** The JDK at the same path on the host. */
    public HostSpec(String role, Destination destination, Path identity, Path knownHosts, String cpus) {
        this(role, destination, identity, knownHosts, cpus, false);
    }

    public static HostSpec local(String role) {
        return new HostSpec(role, null, null, null, null);
    }

    public boolean isLocal() {
        return destination == null;
    }

    /** "local" or the destination, as the topology file says it. */
    public String where() {
        return isLocal() ? Topology.LOCAL : destination.toString();
    }
}
