package vtlab.tier.host;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import vtlab.proc.Children;
import vtlab.proc.Commands;

/**
 * A machine a tier runs on: this one ({@link LocalHost}, what the lab has always done) or one reached with the user's
 * own ssh ({@link SshHost}). Everything the lab does on a tier's host goes through here, so a remote tier takes the
 * same path as a local one: commands, files there and back, /proc reads for the probes, and the facts
 * environment.json records.
 */
public interface Host {
    /** "local", or the destination as the topology file gives it. */
    String name();

    boolean local();

    /** The command line, run on this machine, that runs cmd (an argv) on the host. */
    List<String> command(List<String> cmd);

    /**
     * Whether the host answers a new session now: null when it does (this machine always does), else why not, in the
     * client's own words. Asked when a session ended on its own (a host lost mid-run) and before the next row.
     */
    default String unreachable() throws InterruptedException {
        return null;
    }

    /** Ends what the lab keeps open to the host between commands (ssh's shared connection); nothing for this machine. */
    default void closeConnection() throws InterruptedException {}

    /** Copies a file of this machine to path on the host (parent folders must exist there, as for scp). */
    void copyTo(Path file, String path, Duration timeout) throws IOException, InterruptedException;

    /** Copies the host's file at path to a file of this machine. */
    void copyFrom(String path, Path file, Duration timeout) throws IOException, InterruptedException;

    /**
     * Copies a folder of this machine, with everything in it, to path on the host (made there; a symlink copied as
     * what it points to, so a JDK whose files link outside its folder arrives whole): tar here piped into tar there,
     * one stream for thousands of files (a JDK), where scp would start a transfer per file.
     */
    default void copyTreeTo(Path dir, String path, Duration timeout) throws IOException, InterruptedException {
        Path err = java.nio.file.Files.createTempFile("vtlab-copy", ".txt");
        try {
            List<Process> pipe = ProcessBuilder.startPipeline(List.of(
                    new ProcessBuilder(treeOut(dir)).redirectError(ProcessBuilder.Redirect.appendTo(err.toFile())),
                    new ProcessBuilder(command(treeIn(path))).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(err.toFile()))));
            pipe.forEach(Children::track);
            Process last = pipe.getLast();
            if (!last.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                pipe.forEach(p -> Children.stop(p.toHandle(), 1000));
                throw new IOException(name() + ": copying " + dir + " to " + path + " did not finish in " + timeout.toSeconds() + " s");
            }
            int out = pipe.getFirst().waitFor(), in = last.exitValue();
            if (out != 0 || in != 0) {
                throw new IOException(name() + ": copying " + dir + " to " + path + " failed (tar here " + out + ", there " + in + "): "
                        + java.nio.file.Files.readString(err).strip());
            }
        } finally {
            java.nio.file.Files.deleteIfExists(err);
        }
    }

    /** tar of a folder's content to stdout, symlinks followed. */
    static List<String> treeOut(Path dir) {
        return List.of("tar", "-C", dir.toString(), "-chf", "-", ".");
    }

    /** On the host: the folder made, stdin's tar unpacked into it. */
    static List<String> treeIn(String path) {
        return List.of("sh", "-c", "mkdir -p -- \"$1\" && tar -C \"$1\" -xf -", "sh", path);
    }

    /** The host for a topology entry. */
    static Host of(HostSpec spec) {
        return spec.isLocal() ? new LocalHost() : new SshHost(spec);
    }

    /** Runs a short command on the host: its exit code and output (stdout and stderr). */
    default Commands.Result run(List<String> cmd, Duration timeout) throws IOException, InterruptedException {
        return Commands.attempt(command(cmd), timeout);
    }

    /** What a short command prints on the host; an IOException with its output when it fails. */
    default String output(List<String> cmd, Duration timeout) throws IOException, InterruptedException {
        Commands.Result r = run(cmd, timeout);
        if (!r.ok()) throw new IOException(name() + ": " + String.join(" ", cmd) + " failed (" + r.code() + "): " + r.output().strip());
        return r.output();
    }

    /** Which of the tools the host does not find on its PATH (command -v), in their order. */
    default List<String> missing(List<String> tools) throws IOException, InterruptedException {
        return output(missingCommand(tools), Duration.ofSeconds(20)).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    /** A command that prints each tool the host does not find on its PATH, one a line. */
    static List<String> missingCommand(List<String> tools) {
        List<String> c = new java.util.ArrayList<>(List.of("sh", "-c", "for t in \"$@\"; do command -v \"$t\" >/dev/null 2>&1 || echo \"$t\"; done", "sh"));
        c.addAll(tools);
        return c;
    }

    /** A file's text on the host (/proc files too: what the probes sample). */
    default String read(String path) throws IOException, InterruptedException {
        return output(List.of("cat", "--", path), Duration.ofSeconds(20));
    }

    /** A long-running process on the host, registered with {@link Children}; stdin and stdout are the caller's. */
    default Process start(List<String> cmd) throws IOException {
        return Children.track(new ProcessBuilder(command(cmd)).redirectError(ProcessBuilder.Redirect.DISCARD).start());
    }

    /** CPU count and model, kernel, JDK and boot id of the host, read from its /proc and its PATH. */
    default HostFacts facts() throws IOException, InterruptedException {
        String cpuinfo = read("/proc/cpuinfo");
        String kernel = read("/proc/sys/kernel/osrelease").strip();
        Commands.Result java = run(List.of("sh", "-c", "java -version 2>&1 | head -n 1"), Duration.ofSeconds(20));
        String jdk = java.ok() && java.output().contains("version") ? java.output().strip() : null;
        return HostFacts.of(cpuinfo, kernel, jdk, read("/proc/sys/kernel/random/boot_id").strip());
    }

    /**
     * How far the host's clock is ahead of this machine's, NTP-style: one session on the host answers each line it
     * reads with its `date +%s.%N`, and every exchange gives offset = remote − (sent + received)/2 within ± half its
     * round trip; the exchange with the shortest round trip is kept. The session is set up before the first
     * exchange, so ssh's handshake is in none of them.
     */
    default ClockOffset clockOffset(int exchanges) throws IOException, InterruptedException {
        Process p = start(List.of("sh", "-c", "while read x; do date +%s.%N; done"));
        try (OutputStream in = p.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
            ClockOffset best = null;
            for (int i = 0; i < exchanges + 1; i++) {
                long sent = epochNanos();
                in.write('\n');
                in.flush();
                String line = out.readLine();
                long received = epochNanos();
                if (line == null) throw new IOException(name() + ": the clock session ended (" + (p.isAlive() ? "no answer" : "exit " + p.waitFor()) + ")");
                if (i == 0) continue; // the first answer waits for the session to come up: not an exchange
                ClockOffset o = ClockOffset.of(sent, parseEpochNanos(line.strip()), received);
                if (best == null || o.uncertaintyMs() < best.uncertaintyMs()) best = o;
            }
            return best;
        } finally {
            Children.stop(p.toHandle(), 2_000);
        }
    }

    private static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** "1700000000.123456789" (date +%s.%N) as nanoseconds since the epoch. */
    static long parseEpochNanos(String s) throws IOException {
        if (!s.matches("\\d+\\.\\d{9}")) throw new IOException("not a date +%s.%N answer: '" + s + "'");
        int dot = s.indexOf('.');
        return Long.parseLong(s.substring(0, dot)) * 1_000_000_000L + Long.parseLong(s.substring(dot + 1));
    }
}
