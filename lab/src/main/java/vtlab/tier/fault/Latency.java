package vtlab.tier.fault;

import java.time.Duration;
import java.util.Map;

import vtlab.tier.RunTier;
import vtlab.tier.ToxiproxyTier;

/** Each answer of the dependency delayed by the amount: a latency toxic on the proxy's answers (downstream). */
final class Latency extends FaultKind {
    Latency() {
        super("latency", "stub:latency=2s@10s-30s", "each answer later", true);
    }

    @Override
    public void check(String target, Duration amount) {
        if (amount == null || amount.isZero()) throw new IllegalArgumentException("latency needs its amount, e.g. latency=500ms");
    }

    @Override
    public AutoCloseable begin(Fault f, RunTier proxy) throws Exception {
        return ((ToxiproxyTier) proxy).toxic(f.tier(), "latency", Map.of("latency", f.amount().toMillis(), "jitter", 0));
    }
}
