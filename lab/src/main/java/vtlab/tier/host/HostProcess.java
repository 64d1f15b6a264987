package vtlab.tier.host;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import vtlab.proc.Children;
import vtlab.proc.Commands;

/**
 * A long-running process the lab starts on a host (the SUT, a load agent): in a session and process group of its
 * own (setsid), its pid in a file of the run's work folder there, its output streamed back into a file of this
 * machine as it comes. Stopping the local client (ssh) would not stop it: with no terminal there is no SIGHUP, so it
 * is stopped through the host by its group, TERM then KILL ({@link #stop}), at the end of its row, on a failure, and
 * on Ctrl-C ({@link HostRun} stops what is still running). A host lost under it ({@link #lost}) is not sought for the
 * stop: the local client is ended, and the group there is stopped once the host answers again ({@link HostRun}).
 */
public final class HostProcess {
    static final Duration PID_WAIT = Duration.ofSeconds(30);
    /**
     * Starts in the work folder, writes its pid ($$: the session leader setsid made, which exec keeps) and, with an
     * env file, exports its variables (ssh forwards none), then becomes the command.
     */
    static final String WRAPPER = "cd \"$1\" && echo $$ > \"$2\" && if [ -n \"$3\" ]; then set -a && . \"$3\" && set +a; fi && shift 3 && exec \"$@\"";
    /**
     * TERM to the group in the pid file, KILL after 10 s if any of it lives; a group already gone (or no pid file) is
     * not an error. The pid file goes once the group has.
     */
    static final String STOP = """
            p=$(cat "$1" 2>/dev/null) || exit 0
            [ -n "$p" ] || exit 0
            if kill -s TERM -- "-$p" 2>/dev/null; then
              i=0
              while kill -s 0 -- "-$p" 2>/dev/null; do
                i=$((i+1))
                if [ $i -ge 100 ]; then kill -s KILL -- "-$p" 2>/dev/null; break; fi
                sleep 0.1
              done
            fi
            rm -f -- "$1"
            """;

    private final Host host;
    private final FileSession files;
    private final String name, pidFile;
    private final Path output;
    private final Process client;
    private volatile long pid = -1;
    private volatile boolean stopped, stopping;
    private boolean lostAsked;
    private String lost, answer;

    private HostProcess(Host host, FileSession files, String name, String pidFile, Path output, Process client) {
        this.host = host;
        this.files = files;
        this.name = name;
        this.pidFile = pidFile;
        this.output = output;
        this.client = client;
    }

    /**
     * Starts cmd on the host in dir, as name (its pid in dir/name.pid), with the variables of envFile (a file already
     * on the host; null: none), its output and errors appended to output.
     */
    static HostProcess start(Host host, FileSession files, String dir, String name, List<String> cmd, String envFile, Path output)
            throws IOException {
        ProcessBuilder pb = new ProcessBuilder(host.command(command(dir, name, cmd, envFile))).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return new HostProcess(host, files, name, dir + "/" + name + ".pid", output, Children.track(pb.start()));
    }

    /** The command run on the host: setsid -w (it waits, so the session lasts as long as the process) and the wrapper. */
    static List<String> command(String dir, String name, List<String> cmd, String envFile) {
        List<String> c = new ArrayList<>(List.of("setsid", "-w", "sh", "-c", WRAPPER, "sh", dir, name + ".pid", envFile == null ? "" : envFile));
        c.addAll(cmd);
        return c;
    }

    /** The command that stops the group of a pid file (see {@link #STOP}). */
    static List<String> stopCommand(String pidFile) {
        return List.of("sh", "-c", STOP, "sh", pidFile);
    }

    public String name() {
        return name;
    }

    public Host host() {
        return host;
    }

    /** The local client (ssh; or the process itself on this machine): it ends when the process on the host does. */
    public Process client() {
        return client;
    }

    public boolean alive() {
        return client.isAlive();
    }

    /**
     * The pid on the host, from its pid file (read through the host's file session), waited for while the process
     * starts; an IOException when it ended before writing one (its output says why) or never did.
     */
    public long pid() throws IOException, InterruptedException {
        if (pid > 0) return pid;
        long deadline = System.nanoTime() + PID_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            // whether it had ended before the read: a process that wrote its pid file and ended at once is read, not
            // taken for one that never started (seen: HostRunTest's agent that exits 255 at once)
            boolean ended = !client.isAlive();
            try {
                String text = files.read(pidFile).strip();
                if (text.matches("\\d+")) return pid = Long.parseLong(text);
            } catch (java.nio.file.NoSuchFileException e) {
                // not written yet
            }
            if (ended) throw new IOException(host.name() + ": " + name + " ended (" + client.exitValue() + ") before it started");
            Thread.sleep(20);
        }
        throw new IOException(host.name() + ": " + name + " wrote no pid file " + pidFile + " in " + PID_WAIT.toSeconds() + " s");
    }

    /**
     * Why the host was lost under this process, or null: its client (ssh) ended with ssh's own failure (exit 255, e.g.
     * "Timeout, server ... not responding." once the host stayed silent for {@link SshHost#SILENT_MAX}) without the lab
     * stopping it, and a new session does not get through either ({@link Host#unreachable}: a remote command killed by
     * a signal also makes ssh exit 255, but its host answers). Asked of the host once; the answer is kept.
     */
    public synchronized String lost() throws InterruptedException {
        if (lostAsked) return lost;
        if (host.local() || stopping || client.isAlive() || client.exitValue() != 255) return null;
        lostAsked = true;
        String now = host.unreachable();
        if (now != null) {
            answer = now;
            String last = lastLine(output);
            lost = "host unreachable: " + (last.isEmpty() || last.equals(now) ? now : last + " (a new session: " + now + ")");
        }
        return lost;
    }

    /** What a new session to the lost host got (ssh's words), or null: see {@link #lost}. */
    synchronized String answer() {
        return answer;
    }

    /** The last line that is not blank (ssh's own message when ssh failed: it writes it last), or "". */
    static String lastLine(Path file) {
        try {
            List<String> lines = java.nio.file.Files.readAllLines(file).stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
            return lines.isEmpty() ? "" : lines.getLast();
        } catch (IOException | java.io.UncheckedIOException e) {
            return "";
        }
    }

    /**
     * Stops the process's group on the host (see {@link #STOP}), then the local client; once. On a host lost under it
     * only the client is stopped, and an IOException says the group there is left for {@link #stopThere}.
     */
    public synchronized void stop() throws IOException, InterruptedException {
        if (stopped) return;
        String gone = lost();
        stopping = true;
        try {
            if (gone != null) throw new IOException(host.name() + ": " + name + " not stopped there: " + gone);
            stopThere();
        } finally {
            Children.stop(client.toHandle(), 2_000);
        }
    }

    /** The stop through the host alone: for a process whose host answers again after it was lost. */
    synchronized void stopThere() throws IOException, InterruptedException {
        if (stopped) return;
        Commands.Result r = host.run(stopCommand(pidFile), Duration.ofSeconds(30));
        if (!r.ok()) throw new IOException(host.name() + ": could not stop " + name + " (" + r.code() + "): " + r.output().strip());
        stopped = true;
    }
}
