package vtlab.tier.fault;

import vtlab.tier.RunTier;
import vtlab.tier.ToxiproxyTier;

/** The dependency unreachable: new connections refused, open ones cut (the proxy in front of it disabled). */
final class Down extends FaultKind {
    Down() {
        super("down", "stub:down@10s-20s", "refused, cut", true);
    }

    @Override
    public AutoCloseable begin(Fault f, RunTier proxy) throws Exception {
        return ((ToxiproxyTier) proxy).disable(f.tier());
    }
}
