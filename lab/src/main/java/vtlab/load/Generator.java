package vtlab.load;

import java.io.IOException;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;

/**
 * An established load generator behind one small interface (like JMH's profilers): selected by name with
 * --generator, it runs a closed-model load (and, where it can, an open one: {@link #models()}) and reports what its own
 * histogram measured.
 */
public interface Generator {
    String name();

    String description();

    /** Finds the tool, installing it from the OS packages when it can; otherwise one line saying what to install. */
    void ensureAvailable() throws UsageError;

    /** The tool's own version string, for environment.json. */
    String version();

    /** The dataset columns this generator's results fill (declared on {@link LoadResult}). */
    default java.util.List<vtlab.data.Column> columns() {
        return LoadResult.COLUMNS;
    }

    /**
     * What its own output gives second by second (oha's SQLite records, k6's CSV); empty where it gives nothing per
     * second at an acceptable cost (hey: see its class). Its results' {@link LoadResult#series()} hold these.
     */
    default java.util.Set<LoadSeries.Kind> seriesKinds() {
        return java.util.EnumSet.noneOf(LoadSeries.Kind.class);
    }

    /** The load models this generator can run; the plan refuses a row whose model it lacks before anything starts. */
    default java.util.Set<LoadModel> models() {
        return java.util.EnumSet.of(LoadModel.CLOSED);
    }

    /** Whether it sends an open load's {@link LoadSpec#profile() rate profile}; the plan refuses a profile to one that does not. */
    default boolean followsRateProfile() {
        return false;
    }

    /**
     * Whether it sends a weighted mix of requests within one load ({@link LoadSpec#mix()}: a scenario file's requests,
     * each its own method, path, headers and body, with values drawn per request); a scenario is refused in one line
     * with one that does not, never sent as one URL.
     */
    default boolean sendsMix() {
        return false;
    }

    /**
     * Whether it measures each request of a mix apart (its own p50/p99 and errors): read from the columns it declares,
     * so that no list of names says it beside them.
     */
    default boolean measuresMixApart() {
        return columns().contains(LoadResult.P99_BY_REQUEST);
    }

    /** How it runs from load agents on other hosts (--hosts), if it can: the models it runs there and its agents. */
    default java.util.Optional<FromAgents> fromAgents() {
        return java.util.Optional.empty();
    }

    /**
     * How a generator runs from load agents on other hosts, as it declares it ({@link #fromAgents()}): the load models
     * it runs there, and the generator its agents over a run's hosts make (vtlab.load.agent.AgentsGenerator's kind).
     */
    record FromAgents(java.util.Set<LoadModel> models, Maker maker) {
        public interface Maker {
            Generator over(vtlab.tier.host.HostRun run, java.util.List<LoadAgent> agents);
        }
    }

    /**
     * Options of this generator's own (k6's --ramp): known to the option check, shown by ./vtlab list, refused with
     * any other generator (vtlab.load.generator.Generators.configured). A generator's own options stay with it rather than on
     * {@link LoadSpec}, which every generator reads.
     */
    default java.util.List<Opt> options() {
        return java.util.List.of();
    }

    /** This generator set up from the run's options (its own {@link #options()}), refusing what it cannot run. */
    default Generator configure(Options o) throws UsageError {
        return this;
    }

    /**
     * Most requests this generator keeps in flight for a load: the spec's connections (closed; open: the cap), or
     * fewer where it opens fewer and queues the rest (oha). Little's law is checked against it.
     */
    default int inFlightLimit(Double rate, int connections) {
        return connections;
    }

    /** Starts the load; the process is tracked so a Ctrl-C stops it. */
    RunningLoad start(LoadSpec spec) throws IOException, LoadException;

    /** A load in progress. */
    interface RunningLoad {
        /** The generator's process where it runs (several agents: a group), for the load's end and the CPU probe. */
        vtlab.tier.host.TierProcess process();

        /** Waits for the end and parses the output; {@link LoadException} if the tool failed. */
        LoadResult await() throws LoadException, InterruptedException;
    }

    class LoadException extends Exception {
        public LoadException(String message) {
            super(message);
        }
    }
}
