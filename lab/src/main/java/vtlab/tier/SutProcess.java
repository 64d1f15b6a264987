package vtlab.tier;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import vtlab.proc.Env;
import vtlab.stack.Stack;
import vtlab.proc.Children;
import vtlab.proc.LogTail;
import vtlab.tier.host.TierProcess;
import vtlab.tier.tool.Jdk;

/** A system under test as its own JVM, pinned to its CPUs, reachable on 127.0.0.1:port. */
public final class SutProcess implements SutHandle {
    private final Process process;
    private final URI base;
    private final Path log;
    private final String runtimeInfoPath;
    private final String drainPath;
    private final int port;
    /** How its JVM started, for the row's sut_launch: jar, aot-cache, command. */
    private final String launch;

    private SutProcess(Process process, int port, Path log, Stack stack, String launch) {
        this.process = process;
        this.launch = launch;
        this.port = port;
        this.base = URI.create("http://127.0.0.1:" + port);
        this.log = log;
        this.runtimeInfoPath = stack.runtimeInfoPath();
        this.drainPath = stack.drainPath();
    }

    /**
     * The lab's stacks: java -jar with the lab's JVM options. A stack with a command (./vtlab ab --cmd) runs it through
     * sh, the lab's JVM options in JAVA_TOOL_OPTIONS (which every JVM reads) and the row's JDK first on PATH; both
     * under taskset, so the service and every process it starts stay on the SUT's CPUs.
     */
    public static SutProcess start(Stack stack, Jdk jdk, List<String> jvmArgs, List<String> appArgs, Env env,
                                   String cpus, int port, Path log) throws IOException {
        if (!stack.built()) throw new IOException("stack " + stack.name() + " is not built: " + stack.jar() + " missing");
        AotCache.Use use;
        try { // trained on first use, on this row's CPUs and port, before the row's own JVM starts there
            use = AotCache.forStart(stack, jdk, jvmArgs, appArgs, env, cpus, port, log);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while training the AOT cache", e);
        }
        return start(java.util.function.UnaryOperator.identity(), stack, use, jdk, jvmArgs, appArgs, env, cpus, port, log);
    }

    /**
     * As {@link #start(Stack, Jdk, List, List, Env, String, int, Path)}, the command wrapped (started in a cgroup:
     * {@link ContainedSut}), from the jar as shipped: a container row measures memory, which a mapped cache would change.
     */
    static SutProcess start(java.util.function.UnaryOperator<List<String>> wrap, Stack stack, Jdk jdk, List<String> jvmArgs,
                            List<String> appArgs, Env env, String cpus, int port, Path log) throws IOException {
        return start(wrap, stack, AotCache.Use.jar(stack, null), jdk, jvmArgs, appArgs, env, cpus, port, log);
    }

    private static SutProcess start(java.util.function.UnaryOperator<List<String>> wrap, Stack stack, AotCache.Use use, Jdk jdk,
                                    List<String> jvmArgs, List<String> appArgs, Env env, String cpus, int port, Path log) throws IOException {
        if (!stack.built()) throw new IOException("stack " + stack.name() + " is not built: " + stack.jar() + " missing");
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus));
        Env fullEnv = env;
        String command = stack.launch().command();
        if (command == null) {
            cmd.add(jdk.java().toString());
            cmd.addAll(jvmArgs);
            cmd.addAll(use.javaArgs());
        } else {
            // exec: the shell becomes the command, so stopping the process stops the service ("$@": the mode's args)
            cmd.addAll(List.of("sh", "-c", "exec " + command + " \"$@\"", "sh"));
            String own = env.getOrDefault("JAVA_TOOL_OPTIONS", "");
            fullEnv = fullEnv.with("JAVA_TOOL_OPTIONS", (own + " " + String.join(" ", jvmArgs)).strip())
                    .with("JAVA_HOME", jdk.home().toString())
                    .with("PATH", jdk.home().resolve("bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        }
        cmd.addAll(appArgs);
        cmd = wrap.apply(cmd);
        Files.createDirectories(log.getParent());
        Files.writeString(log, "# " + String.join(" ", vtlab.core.Secrets.args(cmd)) + "\n# env " + fullEnv.shown() + "\n");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(stack.dir().toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(fullEnv.asMap());
        pb.environment().put("PORT", Integer.toString(port));
        pb.environment().put("SERVER_PORT", Integer.toString(port));
        pb.environment().put("VTLAB_PARENT_PID", Long.toString(ProcessHandle.current().pid()));
        Process p = Children.track(pb.start());
        return new SutProcess(p, port, log, stack, command == null ? use.launch() : "command");
    }

    /**
     * The service's JVM: the process started, or (a command that forks, e.g. a script that is not exec'd) its first
     * descendant running java, which is what jcmd and /proc probes must read.
     */
    @Override
    public TierProcess process() {
        ProcessHandle own = process.toHandle();
        if (isJava(own)) return TierProcess.local(own);
        return TierProcess.local(own.descendants().filter(SutProcess::isJava).findFirst().orElse(own));
    }

    private static boolean isJava(ProcessHandle h) {
        return h.info().command().map(c -> c.endsWith("/java")).orElse(false);
    }

    @Override
    public URI base() {
        return base;
    }

    @Override
    public Path log() {
        return log;
    }

    @Override
    public boolean alive() {
        return process.isAlive();
    }

    @Override
    public String awaitReady(Duration timeout) throws IOException, InterruptedException {
        return SutHttp.awaitReady(this, base, runtimeInfoPath, new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port),
                timeout, () -> "SUT exited with " + process.exitValue() + " during start-up: " + tail(5));
    }

    @Override
    public Duration drain(Duration max) throws InterruptedException {
        return SutHttp.drain(base, drainPath, max);
    }

    @Override
    public String tail(int n) {
        return LogTail.of(log, n);
    }

    /** SIGTERM, then up to max for the JVM to finish exiting (writing an AOT cache: {@link AotCache}); stopped either way. */
    boolean stopAndAwait(Duration max) throws InterruptedException {
        process.destroy();
        boolean done = process.waitFor(max.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        close();
        return done;
    }

    /** How it started; a cache the JVM refused (it then loads every class from the jar) is said with the JVM's reason. */
    @Override
    public String launch() {
        if (!launch.equals("aot-cache")) return launch;
        String refused = AotCache.refusal(log);
        return refused == null ? launch : "jar (the JVM refused the AOT cache: " + refused + ")";
    }

    @Override
    public void close() {
        Children.stop(process.toHandle(), 10_000);
    }
}
