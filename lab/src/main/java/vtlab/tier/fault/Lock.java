package vtlab.tier.fault;

import java.time.Duration;
import java.util.Map;

import vtlab.tier.PostgresTier;
import vtlab.tier.RunTier;

/**
 * The database stalls without a proxy: the pg tier holds ACCESS EXCLUSIVE locks on its tables for the window
 * ({@link PostgresTier#lockTables}), as behind a long migration or a stuck transaction.
 */
final class Lock extends FaultKind {
    Lock() {
        super("lock", "db:lock@10s-15s", "tables locked", false);
    }

    @Override
    public void check(String target, Duration amount) {
        super.check(target, amount);
        if (!PostgresTier.NAME.equals(Fault.TARGETS.get(target))) throw new IllegalArgumentException("only the lab's database (db) can be locked");
    }

    @Override
    public RunTier carrier(Fault f, Map<String, RunTier> running) {
        return running.get(f.tier()) instanceof PostgresTier pg ? pg : null;
    }

    @Override
    public AutoCloseable begin(Fault f, RunTier pg) throws Exception {
        return ((PostgresTier) pg).lockTables();
    }
}
