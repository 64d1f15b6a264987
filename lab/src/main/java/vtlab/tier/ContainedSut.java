package vtlab.tier;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import vtlab.proc.Cgroups;
import vtlab.proc.ContainerLimits;
import vtlab.tier.host.TierProcess;

/**
 * A SUT in a cgroup of its own, as a container runtime starts a pod's container: its JVM started inside the group
 * with the row's CPU quota and memory limit (its cpuset as any SUT's), the group removed once the SUT is stopped. When
 * the kernel's OOM killer ends it, its death says so ("killed by the memory limit at N MB"), with what the
 * {@code container} probe last saw of it (requests in flight, heap).
 */
public final class ContainedSut implements SutHandle {
    private static final AtomicInteger SEQ = new AtomicInteger();

    private final SutProcess sut;
    private final Cgroups.Group group;

    private ContainedSut(SutProcess sut, Cgroups.Group group) {
        this.sut = sut;
        this.group = group;
    }

    /** The launcher itself for a row without limits; else one that starts the SUT here, inside a group made for it. */
    public static SutHandle.Launcher around(SutHandle.Launcher launcher, ContainerLimits limits) {
        if (limits == null || limits.none()) return launcher;
        return (stack, jdk, jvmArgs, appArgs, env, cpus, port, log) -> {
            String name = "vtlab-" + ProcessHandle.current().pid() + "-" + SEQ.incrementAndGet();
            Cgroups.Group g = Cgroups.here().create(name, limits);
            try {
                return new ContainedSut(SutProcess.start(g::enter, stack, jdk, jvmArgs, appArgs, env, cpus, port, log), g);
            } catch (IOException | RuntimeException e) {
                g.remove();
                throw e;
            }
        };
    }

    @Override
    public String launch() {
        return sut.launch();
    }

    public Cgroups.Group group() {
        return group;
    }

    /**
     * "killed by the memory limit at N MB (limit L MB; …what was last seen)" when the OOM killer ended it, else the
     * plain death. N is the group's peak memory use: what it had charged when the kernel killed.
     */
    @Override
    public String died(String when) {
        String killed = killedByLimit();
        return killed == null ? sut.died(when) : killed + " " + when + ": " + tail(3);
    }

    String killedByLimit() {
        Cgroups.Stat s = group.stat();
        if (s.oomKills() <= 0) return null;
        String seen = group.note();
        return "killed by the memory limit at " + (s.memoryPeakBytes() >> 20) + " MB (limit " + group.limits().memorySpec()
                + (seen == null ? "; nothing sampled before it" : "; last seen: " + seen) + ")";
    }

    @Override
    public String awaitReady(Duration timeout) throws IOException, InterruptedException {
        try {
            return sut.awaitReady(timeout);
        } catch (IOException e) {
            String killed = killedByLimit();
            if (killed != null) throw new IOException(killed + " during start-up: " + tail(3), e);
            throw e;
        }
    }

    @Override
    public TierProcess process() {
        return sut.process();
    }

    @Override
    public URI base() {
        return sut.base();
    }

    @Override
    public Path log() {
        return sut.log();
    }

    @Override
    public boolean alive() {
        return sut.alive();
    }

    @Override
    public Duration drain(Duration max) throws InterruptedException {
        return sut.drain(max);
    }

    @Override
    public String tail(int n) {
        return sut.tail(n);
    }

    @Override
    public void close() {
        try {
            sut.close();
        } finally {
            group.remove();
        }
    }
}
