package vtlab.tier.host;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import vtlab.proc.Children;

/**
 * A host's files read again and again through one session: the probes read a remote SUT's /proc every second, and an
 * ssh connection per read would cost milliseconds of CPU on both ends each time (on the SUT's host too). One shell
 * on the host answers each path it is sent with the file's text and an end line carrying cat's exit code. A path
 * may be a glob (/proc/PID/task/{@literal *}/stat: every thread's stat, one after another). Opened on the first read,
 * opened again after the session ended (a host that answers again is read again), closed by its owner. A read never
 * blocks its caller (the row's probe loop) for long: one not answered within {@link #ANSWER} ends the session, and
 * after a failed read the next ones fail at once for {@link #BACK_OFF} (a lost host costs a probe sample, not its
 * second), then the session is opened again.
 */
public final class FileSession implements AutoCloseable {
    static final String END = "@@vtlab-end@@";
    /** Paths the shell reads unquoted (so that a glob expands): no spaces, quotes or other shell words. */
    private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9_./*-]+");
    /** Each line read is a path: its text, a line break (so the end line stands alone), then END and cat's code. */
    static final List<String> SCRIPT = List.of("sh", "-c",
            "while IFS= read -r f; do cat -- $f 2>/dev/null; s=$?; echo; echo \"" + END + " $s\"; done");

    /** A read's answer: /proc takes milliseconds; a session's first read adds the ssh handshake. */
    static final Duration ANSWER = Duration.ofSeconds(10), BACK_OFF = Duration.ofSeconds(10);
    /** Ends the session of a read that does not answer in time (its blocked readLine then sees the end). */
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "vtlab-read-watchdog");
        t.setDaemon(true);
        return t;
    });

    private final Host host;
    private final Duration answer, backOff;
    private Process session;
    private OutputStream in;
    private BufferedReader out;
    private String failure;
    private long failedAt;

    public FileSession(Host host) {
        this(host, ANSWER, BACK_OFF);
    }

    FileSession(Host host, Duration answer, Duration backOff) {
        this.host = host;
        this.answer = answer;
        this.backOff = backOff;
    }

    public Host host() {
        return host;
    }

    /**
     * The file's text on the host; NoSuchFileException when it is not there (a process gone), IOException when the
     * session fails, does not answer within its time, or failed less than the back-off ago.
     */
    public synchronized String read(String path) throws IOException {
        if (!PATH.matcher(path).matches()) throw new IllegalArgumentException("not a plain absolute path: '" + path + "'");
        if (failure != null) {
            long ago = System.nanoTime() - failedAt;
            if (ago < backOff.toNanos()) throw new IOException(host.name() + ": not read (" + failure + " " + ago / 1_000_000_000L + " s ago)");
            failure = null;
        }
        if (session == null || !session.isAlive()) open();
        Process s = session;
        AtomicBoolean late = new AtomicBoolean();
        ScheduledFuture<?> watchdog = WATCHDOG.schedule(() -> {
            late.set(true);
            s.destroyForcibly(); // its output closes: the readLine below returns
        }, answer.toMillis(), TimeUnit.MILLISECONDS);
        try {
            in.write((path + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            List<String> lines = new ArrayList<>();
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith(END + " ")) {
                    if (!line.equals(END + " 0")) throw new NoSuchFileException(host.name() + ": " + path);
                    return text(lines);
                }
                lines.add(line);
            }
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            // a session gone under the write (broken pipe) or the read: failed like an ended one, below
        } finally {
            watchdog.cancel(false);
        }
        close();
        failure = late.get() ? "no answer in " + (answer.toMillis() % 1000 == 0 ? answer.toSeconds() + " s" : answer.toMillis() + " ms")
                : "the read session ended";
        failedAt = System.nanoTime();
        throw new IOException(host.name() + ": " + failure);
    }

    /**
     * The lines before the end line: the file's text and the echo's line break, split at line breaks, so joined with
     * line breaks they are the file's text exactly ("a\n" gives "a", "": the echo's break ended the file's last line).
     */
    static String text(List<String> lines) {
        return String.join("\n", lines);
    }

    private void open() throws IOException {
        close();
        session = Children.track(new ProcessBuilder(host.command(SCRIPT)).redirectError(ProcessBuilder.Redirect.DISCARD).start());
        in = session.getOutputStream();
        out = new BufferedReader(new InputStreamReader(session.getInputStream(), StandardCharsets.UTF_8));
    }

    @Override
    public synchronized void close() {
        if (session == null) return;
        try {
            in.close(); // the shell reads EOF and ends, and ssh with it
        } catch (IOException ignored) {
            // already gone
        }
        Children.stop(session.toHandle(), 2_000);
        session = null;
    }
}
