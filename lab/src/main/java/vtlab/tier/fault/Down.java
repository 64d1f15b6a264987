package vtlab.tier.fault;

import java.time.Duration;

import vtlab.tier.RunTier;
import vtlab.tier.ToxiproxyTier;

/** The dependency unreachable: new connections refused, open ones cut (the proxy in front of it disabled). */
final class Down implements FaultKind {
    @Override
    public String name() {
        return "down";
    }

    @Override
    public String example() {
        return "stub:down@10s-20s";
    }

    @Override
    public String effect() {
        return "refused, cut";
    }

    @Override
    public boolean throughProxy() {
        return true;
    }

    @Override
    public void check(String target, Duration amount) {
        FaultKind.noAmount(this, amount);
    }

    @Override
    public AutoCloseable begin(Fault f, RunTier proxy) throws Exception {
        return ((ToxiproxyTier) proxy).disable(f.tier());
    }
}
