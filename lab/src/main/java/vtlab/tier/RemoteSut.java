package vtlab.tier;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.stack.Stack;
import vtlab.tier.host.Host;
import vtlab.tier.host.HostProcess;
import vtlab.tier.host.HostRun;

/**
 * A system under test on a host of its own (--hosts): the stack's jar copied into the run's work folder there, the
 * row's JDK found there at the same path (test hosts share this machine's files, so their check is a path check; a
 * real host needs that JDK installed at that path), started there pinned with taskset to the host's SUT CPUs,
 * listening on the address the lab reaches the host at ({@link HostRun#address}). Its output comes back into the
 * row's log in raw/ as it is written; it is stopped through the host by its process group ({@link HostProcess}). Its
 * probes run jcmd there and keep their files in the work folder until copied back ({@link Site#on}).
 */
public final class RemoteSut implements SutHandle {
    static final Duration SHORT = Duration.ofSeconds(30);
    private final HostRun run;
    private final HostProcess process;
    private final TierProcess tier;
    private final URI base;
    private final InetSocketAddress address;
    private final Path log;
    private final String runtimeInfoPath, drainPath;

    private RemoteSut(HostRun run, HostProcess process, TierProcess tier, String address, int port, Path log, Stack stack) {
        this.run = run;
        this.process = process;
        this.tier = tier;
        this.base = URI.create("http://" + (address.contains(":") ? "[" + address + "]" : address) + ":" + port);
        this.address = new InetSocketAddress(address, port);
        this.log = log;
        this.runtimeInfoPath = stack.runtimeInfoPath();
        this.drainPath = stack.drainPath();
    }

    /** Starts SUTs on host (the topology's sut) within run. */
    public static Launcher launcher(HostRun run, Host host) {
        return (stack, jdk, jvmArgs, appArgs, env, cpus, port, log) -> {
            try {
                return start(run, host, stack, jdk, jvmArgs, appArgs, env, cpus, port, log);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting the SUT on " + host.name(), e);
            }
        };
    }

    static RemoteSut start(HostRun run, Host host, Stack stack, Jdk jdk, List<String> jvmArgs, List<String> appArgs,
                           Map<String, String> env, String cpus, int port, Path log) throws IOException, InterruptedException {
        if (!stack.built()) throw new IOException("stack " + stack.name() + " is not built: " + stack.jar() + " missing");
        if (stack.launch().command() != null) throw new IOException("stack " + stack.name() + " runs a command of its own: not on another host yet");
        requireJava(host, jdk);
        String address = run.address(host);
        String jar = stageJar(run, host, stack.jar(), stack.name());
        Map<String, String> fullEnv = environment(env, address, port);
        String envFile = run.envFile(host, "sut.env", fullEnv);
        List<String> cmd = command(jdk, jvmArgs, jar, appArgs, cpus);
        Files.createDirectories(log.getParent());
        Files.writeString(log, "# on " + host.name() + ": " + String.join(" ", vtlab.core.Secrets.args(cmd)) + "\n# env "
                + vtlab.core.Secrets.env(fullEnv) + "\n");
        HostProcess p = run.start(host, "sut", cmd, envFile, log);
        try {
            long pid = p.pid();
            return new RemoteSut(run, p, TierProcess.on(run.files(host), pid, p::alive, run.dir(host), cpus), address, port, log, stack);
        } catch (IOException | InterruptedException | RuntimeException e) {
            try {
                run.stop(p);
            } catch (IOException stop) {
                e.addSuppressed(stop);
            }
            if (e instanceof IOException io) throw new IOException(io.getMessage() + ": " + LogTail.of(log, 5), io);
            throw e;
        }
    }

    /**
     * The jar and what its manifest's Class-Path names (the lab's stacks keep their libraries in lib/ beside the jar),
     * copied into folder of the work folder as they lie beside each other here; the jar's path there.
     */
    static String stageJar(HostRun run, Host host, Path jar, String folder) throws IOException, InterruptedException {
        for (String entry : classPath(jar)) run.stage(host, jar.resolveSibling(entry), folder + "/" + entry);
        return run.stage(host, jar, folder + "/" + jar.getFileName());
    }

    /** The relative entries of a jar's manifest Class-Path (none: an empty list); one that leaves the jar's folder is refused. */
    static List<String> classPath(Path jar) throws IOException {
        try (java.util.jar.JarFile j = new java.util.jar.JarFile(jar.toFile())) {
            java.util.jar.Manifest m = j.getManifest();
            String cp = m == null ? null : m.getMainAttributes().getValue(java.util.jar.Attributes.Name.CLASS_PATH);
            if (cp == null || cp.isBlank()) return List.of();
            List<String> out = new ArrayList<>();
            for (String entry : cp.strip().split("\\s+")) {
                if (entry.startsWith("/") || entry.contains("..") || entry.contains(":")) {
                    throw new IOException(jar + ": Class-Path entry " + entry + " is not a file beside the jar: it cannot be copied to a host");
                }
                out.add(entry);
            }
            return out;
        }
    }

    /** The row's JDK at the same path on the host, or an IOException saying what to install where. */
    public static void requireJava(Host host, Jdk jdk) throws IOException, InterruptedException {
        if (!host.run(List.of("test", "-x", jdk.java().toString()), SHORT).ok()) {
            throw new IOException(host.name() + " has no " + jdk.java() + ": install JDK " + jdk.major()
                    + " there at " + jdk.home() + " (copying a JDK to a host is not built yet)");
        }
    }

    /**
     * The row's variables, the port (PORT, SERVER_PORT) and the address to listen on (ADDRESS for the lab's stacks,
     * SERVER_ADDRESS for Spring's): the host's own address, not 127.0.0.1, so the lab and the agents reach it. No
     * VTLAB_PARENT_PID: the lab's pid means nothing on another host (the SUT would take any process there for its parent).
     */
    static Map<String, String> environment(Map<String, String> env, String address, int port) {
        Map<String, String> all = new LinkedHashMap<>(env);
        all.put("PORT", Integer.toString(port));
        all.put("SERVER_PORT", Integer.toString(port));
        all.put("ADDRESS", address);
        all.put("SERVER_ADDRESS", address);
        return all;
    }

    /** taskset -c CPUS JAVA JVM_ARGS -jar JAR APP_ARGS: the JVM on the host's SUT CPUs. */
    static List<String> command(Jdk jdk, List<String> jvmArgs, String jar, List<String> appArgs, String cpus) {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus, jdk.java().toString()));
        cmd.addAll(jvmArgs);
        cmd.add("-jar");
        cmd.add(jar);
        cmd.addAll(appArgs);
        return cmd;
    }

    @Override
    public TierProcess process() {
        return tier;
    }

    @Override
    public URI base() {
        return base;
    }

    @Override
    public Path log() {
        return log;
    }

    /** The ssh client lives as long as the JVM there (the session ends when its output closes). */
    @Override
    public boolean alive() {
        return process.alive();
    }

    @Override
    public String awaitReady(Duration timeout) throws IOException, InterruptedException {
        return SutHttp.awaitReady(this, base, runtimeInfoPath, address, timeout,
                () -> "SUT on " + process.host().name() + " exited with " + process.client().exitValue() + " during start-up: " + tail(5));
    }

    @Override
    public Duration drain(Duration max) throws InterruptedException {
        return SutHttp.drain(base, drainPath, max);
    }

    /** The log's last lines; for a SUT whose host was lost under it, that instead (its log stopped coming back then). */
    @Override
    public String tail(int n) {
        try {
            String lost = process.lost();
            if (lost != null) return "SUT on " + process.host().name() + ": " + lost;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return LogTail.of(log, n);
    }

    @Override
    public void close() {
        try {
            run.stop(process);
        } catch (IOException e) {
            System.err.println("vtlab: " + e.getMessage() + " (the run's end tries again)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
