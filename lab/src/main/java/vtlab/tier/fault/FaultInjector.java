package vtlab.tier.fault;

/**
 * A tier that can bring a fault about (the proxy in front of a dependency, the database itself for a lock). The
 * runner's schedule asks each running tier whether it injects a fault, before the hold starts.
 */
public interface FaultInjector {
    boolean injects(Fault f);

    /** Starts the fault now; closing what it returns ends it (the dependency as before). */
    Active inject(Fault f) throws Exception;

    /** A fault under way. */
    interface Active extends AutoCloseable {
        @Override
        void close() throws Exception;
    }
}
