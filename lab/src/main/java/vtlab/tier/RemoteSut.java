package vtlab.tier;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import vtlab.proc.Env;
import vtlab.stack.Stack;
import vtlab.tier.host.Host;
import vtlab.tier.host.HostProcess;
import vtlab.tier.host.HostRun;
import vtlab.tier.host.HostedProcess;
import vtlab.tier.host.RemoteJava;
import vtlab.tier.host.Site;
import vtlab.tier.host.TierProcess;
import vtlab.tier.tool.Jdk;

/**
 * A system under test on a host of its own (--hosts): the stack's jar run there as {@link RemoteJava} runs a jar (the
 * jar and its libraries in the run's work folder, the row's JDK at the same path there or copied when the entry says
 * jdk = "copy"), pinned with taskset to the host's SUT CPUs, listening on the address the lab reaches the host at
 * ({@link HostRun#address}). Its output comes back into the row's log in raw/ as it is written; it is stopped through
 * the host by its process group ({@link HostProcess}). Its probes run jcmd there and keep their files in the work
 * folder until copied back ({@link Site#on}).
 */
public final class RemoteSut implements SutHandle {
    private final HostedProcess process;
    private final Jdk jdk;
    private final URI base;
    private final InetSocketAddress address;
    private final String runtimeInfoPath, drainPath;

    private RemoteSut(HostedProcess process, Jdk jdk, String address, int port, Stack stack) {
        this.process = process;
        this.jdk = jdk;
        this.base = URI.create("http://" + (address.contains(":") ? "[" + address + "]" : address) + ":" + port);
        this.address = new InetSocketAddress(address, port);
        this.runtimeInfoPath = stack.runtimeInfoPath();
        this.drainPath = stack.drainPath();
    }

    /** Starts SUTs on host (the topology's sut) within run, on the row's JDK at the same path there. */
    public static Launcher launcher(HostRun run, Host host) {
        return launcher(run, host, false);
    }

    /** As above; copyJdk: the row's JDK copied into the work folder there (the entry's jdk = "copy"). */
    public static Launcher launcher(HostRun run, Host host, boolean copyJdk) {
        return (stack, jdk, jvmArgs, appArgs, env, cpus, port, log) -> {
            try {
                return start(run, host, copyJdk, stack, jdk, jvmArgs, appArgs, env, cpus, port, log);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting the SUT on " + host.name(), e);
            }
        };
    }

    static RemoteSut start(HostRun run, Host host, boolean copyJdk, Stack stack, Jdk jdk, List<String> jvmArgs, List<String> appArgs,
                           Env env, String cpus, int port, Path log) throws IOException, InterruptedException {
        if (!stack.built()) throw new IOException("stack " + stack.name() + " is not built: " + stack.jar() + " missing");
        if (stack.launch().command() != null) throw new IOException("stack " + stack.name() + " runs a command of its own: not on another host yet");
        String address = run.address(host);
        RemoteJava.Started s = RemoteJava.start(run, host, "sut", jdk, copyJdk, jvmArgs, stack.jar(), stack.name(), appArgs,
                environment(env, address, port), cpus, log);
        return new RemoteSut(s.process(), s.jdk(), address, port, stack);
    }

    /**
     * The row's variables, the port (PORT, SERVER_PORT) and the address to listen on (ADDRESS for the lab's stacks,
     * SERVER_ADDRESS for Spring's): the host's own address, not 127.0.0.1, so the lab and the agents reach it. No
     * VTLAB_PARENT_PID: the lab's pid means nothing on another host (the SUT would take any process there for its parent).
     */
    static Env environment(Env env, String address, int port) {
        return env.with("PORT", Integer.toString(port)).with("SERVER_PORT", Integer.toString(port))
                .with("ADDRESS", address).with("SERVER_ADDRESS", address);
    }

    /** The JDK the SUT runs on, as it sits on its host (a copy's home when the JDK was copied there). */
    public Jdk jdk() {
        return jdk;
    }

    @Override
    public TierProcess process() {
        return process.tier();
    }

    @Override
    public URI base() {
        return base;
    }

    @Override
    public Path log() {
        return process.log();
    }

    @Override
    public boolean alive() {
        return process.alive();
    }

    @Override
    public String awaitReady(Duration timeout) throws IOException, InterruptedException {
        return SutHttp.awaitReady(this, base, runtimeInfoPath, address, timeout,
                () -> "SUT on " + process.host().name() + " exited with " + process.exitValue() + " during start-up: " + tail(5));
    }

    @Override
    public Duration drain(Duration max) throws InterruptedException {
        return SutHttp.drain(base, drainPath, max);
    }

    /** The log's last lines; for a SUT whose host was lost under it, that instead (its log stopped coming back then). */
    @Override
    public String tail(int n) {
        return process.tail("SUT", n);
    }

    @Override
    public void close() {
        process.close();
    }
}
