package vtlab.tier;

import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;

import vtlab.proc.Env;
import vtlab.stack.StackData;
import vtlab.tier.host.TierProcess;
import vtlab.tier.host.TierSite;
import vtlab.tier.tool.Jdk;

/**
 * A tier that lives for a whole run rather than a row (a database, a downstream stub): started once before the
 * first row that needs it, pinned to its own CPUs, stopped at the end of the run or when the lab is interrupted.
 */
public interface RunTier extends AutoCloseable {
    /** Tier name as used in the core map and the dataset's CPU columns (pg, stub). */
    String name();

    /** Starts the tier and waits until it is ready; throws with the log's last lines if it cannot. */
    void start(Context ctx) throws Exception;

    ProcessHandle process();

    /**
     * The tier's process as the probes read it, where it runs: this machine's handle ({@link #process()}), or a process
     * on a host ({@link TierProcess#on}) for a tier its {@link TierSite} put there; null for a tier without one.
     */
    default TierProcess tierProcess() {
        ProcessHandle h = process();
        return h == null ? null : TierProcess.local(h);
    }

    /** External tools the tier runs, installed before the first row (never inside one). */
    default java.util.List<vtlab.tier.tool.Tool> tools() {
        return java.util.List.of();
    }

    /** Environment the SUT needs to reach this tier (e.g. DB_URL, STUB_URL). */
    Env sutEnv();

    /**
     * The host:port addresses the SUT connects to, as they appear in {@link #sutEnv()}: what a proxy in front of this
     * tier (the fault tier) takes over. Empty for a tier the SUT does not connect to.
     */
    default java.util.List<String> endpoints() {
        return java.util.List.of();
    }

    /**
     * How often statements whose text contains marker have run, for a tier that counts them (a database); empty for
     * others. Lets an experiment prove requests really reach the tier without knowing the tier's class.
     */
    default OptionalLong statementCalls(String marker) throws Exception {
        return OptionalLong.empty();
    }

    /** Stops the tier and everything it started. */
    @Override
    void close();

    /**
     * @param cpus      the CPUs the tier is pinned to
     * @param stateDir  where a tier may keep state between runs (e.g. the database's data directory)
     * @param logDir    where its logs go (the run's raw/ folder)
     * @param options   tier options of the run (e.g. reseed, delayMs)
     * @param data      what the row's stack keeps in a tier (stack.json "data"), or null; a tier applies it only when
     *                  it names that tier
     * @param running   the tiers already started in this run, by name (a proxy fronts them)
     * @param site      where the tier runs and listens ({@link TierSite#here()}: this machine, loopback)
     */
    record Context(String cpus, Path stateDir, Path logDir, Jdk jdk, TierOptions options, StackData data,
                   Map<String, RunTier> running, TierSite site) {
        public Context(String cpus, Path stateDir, Path logDir, Jdk jdk, TierOptions options) {
            this(cpus, stateDir, logDir, jdk, options, null, Map.of());
        }

        public Context(String cpus, Path stateDir, Path logDir, Jdk jdk, TierOptions options, StackData data) {
            this(cpus, stateDir, logDir, jdk, options, data, Map.of());
        }

        /** On this machine, loopback only. */
        public Context(String cpus, Path stateDir, Path logDir, Jdk jdk, TierOptions options, StackData data,
                       Map<String, RunTier> running) {
            this(cpus, stateDir, logDir, jdk, options, data, running, TierSite.here());
        }
    }
}
