package vtlab.tier;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** Run-scoped tiers by name, as rows name them in Row.tiers(). */
public final class Tiers {
    private static final Map<String, Supplier<RunTier>> ALL = new LinkedHashMap<>();

    static {
        register(PostgresTier.NAME, PostgresTier::new);
        register(StubTier.NAME, StubTier::new);
        register(vtlab.tier.fault.ToxiproxyTier.NAME, vtlab.tier.fault.ToxiproxyTier::new);
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
}
