package vtlab.tier;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.proc.CoreMap;
import vtlab.tier.host.Host;

/**
 * Run-scoped tiers by name, as rows name them in Row.tiers(). Each tier declares itself ({@link Entry}, a constant of
 * its class) and is registered here in one line; a row's own dependencies (./vtlab ab --dependency) are registered
 * as the run plans them.
 */
public final class Tiers {
    /**
     * What a tier says of itself before one is made: its name, how to make one, for a tier the core map gives no CPUs
     * of its own the tier whose CPUs it runs on (null: its own entry), and, for a tier that runs across hosts (on the
     * host its topology entry names), what it needs of that host (null: it does not run across hosts yet).
     */
    public record Entry(String name, Supplier<RunTier> make, String cpusOf, HostCheck acrossHosts) {
        public static Entry of(String name, Supplier<RunTier> make) {
            return new Entry(name, make, null, null);
        }

        /** This tier on another's CPUs (the fault proxy beside the stub). */
        public Entry onCpusOf(String tier) {
            return new Entry(name, make, tier, acrossHosts);
        }

        /** This tier runs across hosts, on a host that passes check. */
        public Entry acrossHosts(HostCheck check) {
            return new Entry(name, make, cpusOf, check);
        }
    }

    /** What a tier needs of a host it is to run on, checked before anything starts: an IOException says what is missing. */
    public interface HostCheck {
        /** @param copyJdk whether the run copies this machine's JDK there (the topology entry's jdk = "copy") */
        void check(Host host, boolean copyJdk) throws IOException, InterruptedException;
    }

    /** The lab's own tiers, in the order of their CPU columns. */
    private static final List<Entry> BUILT_IN = List.of(PostgresTier.TIER, StubTier.TIER, ToxiproxyTier.TIER);
    private static final Map<String, Supplier<RunTier>> ALL = new LinkedHashMap<>();

    static {
        for (Entry e : BUILT_IN) register(e.name(), e.make());
    }

    private Tiers() {}

    public static void register(String name, Supplier<RunTier> tier) {
        ALL.put(name, tier);
    }

    public static RunTier create(String name) {
        Supplier<RunTier> t = ALL.get(name);
        if (t == null) throw new IllegalArgumentException("no run tier named " + name);
        return t.get();
    }

    /** The names of the lab's own tiers (pg, stub, toxiproxy), not those a run registers for its rows. */
    public static List<String> builtIn() {
        return BUILT_IN.stream().map(Entry::name).toList();
    }

    /**
     * The lab's own tiers a user may start alone (`./vtlab tiers`): those on CPUs of their own. A tier placed on
     * another's CPUs serves that one (the fault proxy in front of the stub) and starts with its row.
     */
    public static List<String> startableAlone() {
        return BUILT_IN.stream().filter(e -> e.cpusOf() == null).map(Entry::name).toList();
    }

    /** Whether the tier that is name runs across hosts (a tier a run registers for its rows does not). */
    public static boolean acrossHosts(String name) {
        return entry(name).map(e -> e.acrossHosts() != null).orElse(false);
    }

    /** What the tier that is name needs of a host it is to run on; IllegalArgumentException for one that does not run across hosts. */
    public static HostCheck hostCheck(String name) {
        return entry(name).map(Entry::acrossHosts).orElseThrow(() -> new IllegalArgumentException("tier " + name + " does not run across hosts"));
    }

    private static java.util.Optional<Entry> entry(String name) {
        return BUILT_IN.stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /**
     * This machine's core map (CoreMap.compute) with an entry for each tier that runs on another's CPUs, as that tier
     * declares ({@link Entry#cpusOf}).
     */
    public static CoreMap cores(int machineCpus, Options o) throws UsageError {
        Map<String, String> beside = new LinkedHashMap<>();
        for (Entry e : BUILT_IN) if (e.cpusOf() != null) beside.put(e.name(), e.cpusOf());
        return CoreMap.compute(machineCpus, o, beside);
    }
}
