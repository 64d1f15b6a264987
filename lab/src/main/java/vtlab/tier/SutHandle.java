package vtlab.tier;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

import vtlab.tier.host.TierProcess;
import vtlab.tier.tool.Jdk;

/**
 * A running system under test as the runner uses it ({@link SutProcess} here, {@link RemoteSut} on a host of its own;
 * a fake in the runner's tests).
 */
public interface SutHandle extends AutoCloseable {
    /** The service's JVM as the probes read it, where it runs. */
    TierProcess process();

    URI base();

    Path log();

    boolean alive();

    /** Waits until runtime-info answers; returns its body. */
    String awaitReady(Duration timeout) throws IOException, InterruptedException;

    /** Waits until requests queued by a previous load are served; returns how long it waited. */
    Duration drain(Duration max) throws InterruptedException;

    /** The last lines of the SUT's log, for failure reasons. */
    String tail(int n);

    /** How its JVM was started, the row's sut_launch (jar, aot-cache, command); empty where the lab cannot say. */
    default String launch() {
        return "";
    }

    /** Why the SUT is gone, for the failed row's note ("during warm-up"): the last lines of its log unless it knows better. */
    default String died(String when) {
        return "SUT died " + when + ": " + tail(5);
    }

    @Override
    void close();

    /** Starts a SUT: {@link SutProcess#start} in a run, {@link RemoteSut#launcher} in a run across hosts. */
    interface Launcher {
        SutHandle start(vtlab.stack.Stack stack, Jdk jdk, java.util.List<String> jvmArgs, java.util.List<String> appArgs,
                        vtlab.proc.Env env, String cpus, int port, Path log) throws IOException;
    }
}
