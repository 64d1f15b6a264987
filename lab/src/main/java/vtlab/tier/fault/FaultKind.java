package vtlab.tier.fault;

import java.time.Duration;
import java.util.Map;

import vtlab.tier.RunTier;
import vtlab.tier.ToxiproxyTier;

/**
 * What a fault does, declared by the kind itself (as a JMH profiler or a k6 executor declares itself): its word in
 * TARGET:KIND[=AMOUNT]@FROM-TO and what it accepts there, whether it goes through the fault proxy, which running tier
 * carries it, and how that tier begins it and ends it. One class per kind in this package, listed once in
 * {@link Fault#KINDS}: the parser, the refusals, --help, the fault axis and the runner's schedule read them from there.
 */
public interface FaultKind {
    /** Its word: stub:latency=2s@10s-30s is a latency. */
    String name();

    /** A whole fault of this kind as a user writes one (in the refusal of a fault that does not parse, and in --help). */
    String example();

    /** What the SUT sees of it, a few words for --help ("each answer later"). */
    String effect();

    /**
     * Whether it goes through the fault proxy in front of the dependency (the row gets the proxy tier, started after
     * what it fronts); otherwise the dependency's own tier carries it.
     */
    boolean throughProxy();

    /**
     * Refuses what cannot be written for it: its amount (null when none was given) missing or given in vain, a target
     * (as written: stub, db, a dependency's name) it cannot act on; IllegalArgumentException with the reason alone.
     */
    void check(String target, Duration amount);

    /**
     * The running tier (by name) that carries f, or null when none of them can: the proxy when it fronts f's
     * dependency, else the dependency's own tier.
     */
    default RunTier carrier(Fault f, Map<String, RunTier> running) {
        if (!throughProxy()) return running.get(f.tier());
        return running.get(ToxiproxyTier.NAME) instanceof ToxiproxyTier p && p.fronts(f.tier()) ? p : null;
    }

    /** Begins f on its carrier now; closing what it returns ends it (the dependency as before). */
    AutoCloseable begin(Fault f, RunTier carrier) throws Exception;

    /** The refusal of an amount given to a kind that takes none. */
    static void noAmount(FaultKind k, Duration amount) {
        if (amount != null) throw new IllegalArgumentException(k.name() + " takes no amount");
    }
}
