package vtlab.tier;

import java.util.Map;

import vtlab.core.NamedValues;

/**
 * The run's options for its tiers by name, immutable: reseed, a seed size per tier ("pg.orders" = 10_000), the stub's
 * delay. Given once to every tier the run starts ({@link RunTier.Context#options}).
 */
public final class TierOptions extends NamedValues<TierOptions> {
    /** No option given: every tier as it starts by default. */
    public static final TierOptions NONE = new TierOptions(Map.of());

    /** These options, in the map's order (copied). */
    public TierOptions(Map<String, String> options) {
        super(options, TierOptions::new);
    }

    /** Whether an on/off option is on ("true"). */
    public boolean flag(String name) {
        return "true".equals(get(name));
    }
}
