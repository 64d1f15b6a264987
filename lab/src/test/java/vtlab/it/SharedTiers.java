package vtlab.it;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import vtlab.stack.Stack;
import vtlab.tier.TierOptions;
import vtlab.tier.tool.Jdk;
import vtlab.tier.PostgresTier;
import vtlab.tier.RunTier;
import vtlab.tier.StubTier;

/**
 * PostgreSQL with the small seed and the stub, for the end-to-end tests that talk to them directly rather than through
 * a run (SpringMvcIT, AbIT): each started once, on first use, and both stopped when the whole test plan has run (the
 * root context's store closes them). Each test class started its own before: an initdb and seed, a Spring Boot start
 * on one core, 4-6 s apiece, in three places. On the load CPU, as a run's core map puts them.
 * A test parameter of this type gets them: {@code @ExtendWith(SharedTiers.Resolver.class)}.
 */
final class SharedTiers implements AutoCloseable {
    static final TierOptions SMALL_SEED = new TierOptions(Map.of("pg.customers", "1000", "pg.orders", "10000"));
    static final String CPUS = "1";

    private final Path state;
    private PostgresTier pg;
    private StubTier stub;

    private SharedTiers(Path state) {
        this.state = state;
    }

    /** Started now if no test started it before; its rows are the small seed's (queries count from any baseline). */
    synchronized PostgresTier pg() throws Exception {
        if (pg == null) {
            PostgresTier t = new PostgresTier();
            try {
                t.start(new RunTier.Context(CPUS, state, state.resolve("logs"), Jdk.current(), SMALL_SEED, Stack.load("spring-mvc").data().orElseThrow()));
            } catch (Exception e) {
                t.close();
                throw e;
            }
            pg = t;
        }
        return pg;
    }

    synchronized StubTier stub() throws Exception {
        if (stub == null) {
            StubTier t = new StubTier();
            try {
                t.start(new RunTier.Context(CPUS, state, state.resolve("logs"), Jdk.current(), TierOptions.NONE));
            } catch (Exception e) {
                t.close();
                throw e;
            }
            stub = t;
        }
        return stub;
    }

    @Override
    public synchronized void close() throws Exception {
        try {
            if (stub != null) stub.close();
            if (pg != null) pg.close();
        } finally {
            SpringMvcIT.deleteTree(state);
        }
    }

    /** Resolves a SharedTiers parameter to the one instance of the test plan. */
    static final class Resolver implements ParameterResolver {
        @Override
        public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
            return p.getParameter().getType() == SharedTiers.class;
        }

        @Override
        public Object resolveParameter(ParameterContext p, ExtensionContext c) {
            return c.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).computeIfAbsent(SharedTiers.class, k -> {
                try {
                    return new SharedTiers(SpringMvcIT.stateDir());
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, SharedTiers.class);
        }
    }
}
