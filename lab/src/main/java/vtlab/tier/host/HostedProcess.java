package vtlab.tier.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import vtlab.proc.Env;
import vtlab.proc.LogTail;

/**
 * A tier's process on a host of a run across hosts, what the SUT, the stub and the database there share: its
 * variables in an env file there, the command line (secrets masked) at the head of its log here, started through the
 * run ({@link HostRun#start}: its output streamed into that log), its pid there read before it is handed out (a start
 * that fails is stopped and says the log's last lines), probed there ({@link TierProcess#on}), stopped through the
 * run, and its host's loss said instead of a log that stopped coming back.
 */
public final class HostedProcess {
    private final HostRun run;
    private final HostProcess process;
    private final TierProcess tier;
    private final Path log;

    private HostedProcess(HostRun run, HostProcess process, TierProcess tier, Path log) {
        this.run = run;
        this.process = process;
        this.tier = tier;
        this.log = log;
    }

    /**
     * Starts cmd on host as name (its pid file and env file in the work folder named after it).
     *
     * @param tree whether the probes read its children with it (a server that works in child processes)
     * @param jvmCpus for a JVM, the CPUs it is pinned to: its probes run jcmd there off them ({@link Site#on}); else null
     */
    public static HostedProcess start(HostRun run, Host host, String name, List<String> cmd, Env env, Path log, boolean tree,
                               String jvmCpus)
            throws IOException, InterruptedException {
        String envFile = env.isEmpty() ? null : run.envFile(host, name + ".env", env);
        Files.createDirectories(log.toAbsolutePath().getParent());
        Files.writeString(log, "# on " + host.name() + ": " + String.join(" ", vtlab.core.Secrets.args(cmd)) + "\n"
                + (env.isEmpty() ? "" : "# env " + env.shown() + "\n"), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        HostProcess p = run.start(host, name, cmd, envFile, log);
        try {
            long pid = p.pid();
            TierProcess t = tree ? TierProcess.treeOn(run.files(host), pid, p::alive)
                    : jvmCpus != null ? TierProcess.on(run.files(host), pid, p::alive, run.dir(host), jvmCpus)
                    : TierProcess.on(run.files(host), pid, p::alive);
            return new HostedProcess(run, p, t, log);
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

    public TierProcess tier() {
        return tier;
    }

    public HostProcess process() {
        return process;
    }

    public Host host() {
        return process.host();
    }

    public Path log() {
        return log;
    }

    /** The ssh client lives as long as the process there (the session ends when its output closes). */
    public boolean alive() {
        return process.alive();
    }

    /** The exit code of its client: the process's own, or ssh's 255. */
    public int exitValue() {
        return process.client().exitValue();
    }

    /** The log's last lines; for a process whose host was lost under it, that instead (its log stopped coming back then). */
    public String tail(String what, int n) {
        try {
            String lost = process.lost();
            if (lost != null) return what + " on " + process.host().name() + ": " + lost;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return LogTail.of(log, n);
    }

    /** Stops it there; a failure is said and left to the run's end, which tries again. */
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
