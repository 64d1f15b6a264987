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
public abstract class FaultKind {
    private final String name, example, effect;
    private final boolean throughProxy;

    /**
     * @param name         its word: stub:latency=2s@10s-30s is a latency
     * @param example      a whole fault of this kind as a user writes one (in the refusal of a fault that does not
     *                     parse, and in --help)
     * @param effect       what the SUT sees of it, a few words for --help ("each answer later")
     * @param throughProxy whether it goes through the fault proxy in front of the dependency (the row gets the proxy
     *                     tier, started after what it fronts); otherwise the dependency's own tier carries it
     */
    protected FaultKind(String name, String example, String effect, boolean throughProxy) {
        this.name = name;
        this.example = example;
        this.effect = effect;
        this.throughProxy = throughProxy;
    }

    public final String name() {
        return name;
    }

    public final String example() {
        return example;
    }

    public final String effect() {
        return effect;
    }

    public final boolean throughProxy() {
        return throughProxy;
    }

    /**
     * Refuses what cannot be written for it: its amount (null when none was given) missing or given in vain, a target
     * (as written: stub, db, a dependency's name) it cannot act on; IllegalArgumentException with the reason alone.
     * By default it takes no amount and any target.
     */
    public void check(String target, Duration amount) {
        if (amount != null) throw new IllegalArgumentException(name + " takes no amount");
    }

    /**
     * The running tier (by name) that carries f, or null when none of them can: the proxy when it fronts f's
     * dependency, else the dependency's own tier.
     */
    public RunTier carrier(Fault f, Map<String, RunTier> running) {
        if (!throughProxy) return running.get(f.tier());
        return running.get(ToxiproxyTier.NAME) instanceof ToxiproxyTier p && p.fronts(f.tier()) ? p : null;
    }

    /** Begins f on its carrier now; closing what it returns ends it (the dependency as before). */
    public abstract AutoCloseable begin(Fault f, RunTier carrier) throws Exception;

    @Override
    public String toString() {
        return name;
    }
}
