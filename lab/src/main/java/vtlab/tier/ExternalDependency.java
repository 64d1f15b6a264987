package vtlab.tier;

import java.util.List;

import vtlab.proc.Env;

/**
 * A dependency of a user's service that the lab does not start (./vtlab ab --dependency NAME=host:port): a tier only
 * so that the fault proxy, started after it, stands in front of it. Its env is the service's own settings that hold
 * its address; the proxy gives the service the same settings with its own address instead.
 */
public final class ExternalDependency implements RunTier {
    private final String name, endpoint;
    private final Env env;

    /**
     * @param endpoint host:port the service connects to
     * @param env      the service's settings (--env) whose values hold that address
     */
    public ExternalDependency(String name, String endpoint, Env env) {
        this.name = name;
        this.endpoint = endpoint;
        this.env = env;
    }

    @Override
    public String name() {
        return name;
    }

    /** Nothing to start: it runs where the user runs it. */
    @Override
    public void start(Context ctx) {}

    /** No process of the lab's: no CPU column, nothing to stop. */
    @Override
    public ProcessHandle process() {
        return null;
    }

    @Override
    public Env sutEnv() {
        return env;
    }

    @Override
    public List<String> endpoints() {
        return List.of(endpoint);
    }

    @Override
    public void close() {}
}
