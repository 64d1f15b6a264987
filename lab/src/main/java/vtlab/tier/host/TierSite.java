package vtlab.tier.host;

import java.util.List;

/**
 * Where a run tier runs (docs/design.md, "Beyond one machine"): this machine, or a host of a run across hosts (the
 * run's {@link HostRun} and that {@link Host}); the address it listens on, where the SUT and the lab reach it; and
 * the addresses its clients connect from (what the database lets in). A tier reads it from its context and starts
 * where it says, so where a tier runs sits beneath the tiers, not in the runner.
 *
 * @param copyJdk whether a JVM tier there runs on a copy of its JDK in the run's work folder (the entry's jdk = "copy")
 */
public record TierSite(HostRun run, Host host, String listen, List<String> clients, boolean copyJdk) {
    public static final String LOOPBACK = "127.0.0.1";

    public TierSite {
        clients = List.copyOf(new java.util.LinkedHashSet<>(clients));
        if (host != null && !host.local() && run == null) throw new IllegalArgumentException("a tier on " + host.name() + " needs its run");
    }

    /** This machine, loopback only: the lab without --hosts. */
    public static TierSite here() {
        return new TierSite(null, null, LOOPBACK, List.of(LOOPBACK), false);
    }

    /** This machine, listening on listen (this machine's address as the SUT's host reaches it), for those clients. */
    public static TierSite here(String listen, List<String> clients) {
        return new TierSite(null, null, listen, clients, false);
    }

    /** A host of the run, listening on its address there. */
    public static TierSite on(HostRun run, Host host, String listen, List<String> clients, boolean copyJdk) {
        return new TierSite(run, host, listen, clients, copyJdk);
    }

    public boolean remote() {
        return host != null && !host.local();
    }

    /** "local" or the host's name, for messages. */
    public String where() {
        return remote() ? host.name() : vtlab.tier.host.Topology.LOCAL;
    }

    /** host:port for a URL or an endpoint (an IPv6 address in brackets). */
    public String endpoint(int port) {
        return (listen.contains(":") ? "[" + listen + "]" : listen) + ":" + port;
    }
}
