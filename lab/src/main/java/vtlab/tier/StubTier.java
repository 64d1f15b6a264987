package vtlab.tier;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import vtlab.core.UsageError;
import vtlab.proc.Env;
import vtlab.stack.Stack;
import vtlab.proc.Children;
import vtlab.proc.LogTail;
import vtlab.proc.LoopbackPort;
import vtlab.tier.host.HostJdk;
import vtlab.tier.host.HostedProcess;
import vtlab.tier.host.RemoteJava;
import vtlab.tier.host.TierProcess;
import vtlab.tier.host.TierSite;
import vtlab.tier.tool.Jdk;

/**
 * The downstream stub (stacks/stub: WebFlux on Reactor Netty, non-blocking delay) as a run tier on its own CPUs.
 * It runs on the lab's JDK whatever JDK the rows test, so the downstream is the same in every row; where its context's
 * {@link TierSite} says: here, or on a host of a run across hosts ({@link RemoteJava}: its jar copied into the work
 * folder there, that JDK at the same path or copied), listening where the SUT reaches it.
 */
public final class StubTier implements RunTier {
    public static final String NAME = "stub";
    /** Across hosts it runs on the lab's JDK there (at its path, or copied). */
    public static final Tiers.Entry TIER = Tiers.Entry.of(NAME, StubTier::new)
            .acrossHosts((host, copyJdk) -> HostJdk.check(host, Jdk.current(), copyJdk, NAME));
    /** Tier option: the stub's default delay (a SUT may ask for another per call with ?ms=). */
    public static final String OPT_DELAY_MS = "stub.delayMs";
    static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    /** Its heap: the same wherever it runs. */
    static final List<String> HEAP = List.of("-Xms256m", "-Xmx1g");

    private Process process;
    private HostedProcess remote;
    private URI base;
    private Path log;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(Context ctx) throws Exception {
        Stack stack;
        try {
            stack = Stack.load("stub");
        } catch (UsageError e) {
            throw new IOException(e.getMessage(), e);
        }
        if (!stack.built()) throw new IOException("the stub is not built (" + stack.jar() + " missing): run ./vtlab build");
        TierSite site = ctx.site();
        Files.createDirectories(ctx.logDir());
        log = ctx.logDir().resolve("stub.log");
        String delay = ctx.options().get(OPT_DELAY_MS);
        if (site.remote()) {
            int port = site.run().freePort(site.host());
            base = URI.create("http://" + site.endpoint(port));
            remote = RemoteJava.start(site.run(), site.host(), NAME, Jdk.current(), site.copyJdk(), HEAP, stack.jar(), NAME, List.of(),
                    environment(port, site.listen(), delay), ctx.cpus(), log).process();
        } else {
            int port = LoopbackPort.free(site.listen());
            base = URI.create("http://" + site.endpoint(port));
            List<String> cmd = new ArrayList<>(List.of("taskset", "-c", ctx.cpus(), Jdk.current().java().toString()));
            cmd.addAll(HEAP);
            AotCache.Use use = launch(stack, port, site.listen(), delay, ctx.cpus(), log);
            cmd.addAll(use.javaArgs());
            Files.writeString(log, "# " + String.join(" ", cmd) + "\n# launch: " + use.launch() + "\n");
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(stack.dir().toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().putAll(environment(port, site.listen(), delay).asMap());
            pb.environment().put("VTLAB_PARENT_PID", Long.toString(ProcessHandle.current().pid()));
            process = Children.track(pb.start());
        }
        awaitReady(stack.runtimeInfoPath());
    }

    /**
     * How its JVM is told to run the jar: from the JDK 25 AOT cache of its build (a tier, never measured: about 3 s to
     * its first answer on one CPU instead of 8-9), trained on first use with its own options, port and CPUs; from the
     * jar as shipped when it listens where the training's readiness check (loopback) cannot reach it.
     */
    private static AotCache.Use launch(Stack stack, int port, String listen, String delay, String cpus, Path log) throws InterruptedException {
        if (!TierSite.LOOPBACK.equals(listen)) return AotCache.Use.jar(stack, "listening on " + listen);
        return AotCache.forStart(stack, Jdk.current(), HEAP, List.of(), environment(port, listen, delay), cpus, port, log);
    }

    /**
     * Its port, and the address to listen on (Spring's SERVER_ADDRESS over the jar's loopback default): 127.0.0.1, or
     * where a SUT on another host reaches it. No VTLAB_PARENT_PID on a host: the lab's pid means nothing there.
     */
    static Env environment(int port, String address, String delayMs) {
        Env env = Env.NONE.with("PORT", Integer.toString(port)).with("SERVER_PORT", Integer.toString(port)).with("SERVER_ADDRESS", address);
        return delayMs == null ? env : env.with("STUB_DELAY_MS", delayMs);
    }

    private boolean alive() {
        return remote != null ? remote.alive() : process.isAlive();
    }

    private void awaitReady(String infoPath) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!alive()) {
                throw new IOException("the stub" + (remote == null ? "" : " on " + remote.host().name()) + " exited with "
                        + (remote != null ? remote.exitValue() : process.exitValue()) + " during start-up: " + tail(6));
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve(infoPath)).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) return;
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IOException("the stub not ready after " + READY_TIMEOUT.toSeconds() + " s: " + tail(6));
    }

    public URI base() {
        return base;
    }

    @Override
    public ProcessHandle process() {
        return process == null ? null : process.toHandle();
    }

    /** Read where it runs. */
    @Override
    public TierProcess tierProcess() {
        return remote != null ? remote.tier() : RunTier.super.tierProcess();
    }

    @Override
    public List<String> endpoints() {
        return List.of(base.getHost() + ":" + base.getPort());
    }

    /** The SUT appends the path (/delay?ms=N) itself. */
    @Override
    public Env sutEnv() {
        return Env.NONE.with("STUB_URL", base.toString());
    }

    public String tail(int n) {
        return remote != null ? remote.tail("the stub", n) : LogTail.of(log, n);
    }

    @Override
    public void close() {
        if (process != null) Children.stop(process.toHandle(), 10_000);
        if (remote != null) remote.close();
    }

}
