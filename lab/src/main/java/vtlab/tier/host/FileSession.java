package vtlab.tier.host;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import vtlab.tier.Children;

/**
 * A host's files read again and again through one session: the probes read a remote SUT's /proc every second, and an
 * ssh connection per read would cost milliseconds of CPU on both ends each time (on the SUT's host too). One shell
 * on the host answers each path it is sent with the file's text and an end line carrying cat's exit code. A path
 * may be a glob (/proc/PID/task/{@literal *}/stat: every thread's stat, one after another). Opened on the first read,
 * opened again after the session ended (a host that answers again is read again), closed by its owner.
 */
public final class FileSession implements AutoCloseable {
    static final String END = "@@vtlab-end@@";
    /** Paths the shell reads unquoted (so that a glob expands): no spaces, quotes or other shell words. */
    private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9_./*-]+");
    /** Each line read is a path: its text, a line break (so the end line stands alone), then END and cat's code. */
    static final List<String> SCRIPT = List.of("sh", "-c",
            "while IFS= read -r f; do cat -- $f 2>/dev/null; s=$?; echo; echo \"" + END + " $s\"; done");

    private final Host host;
    private Process session;
    private OutputStream in;
    private BufferedReader out;

    public FileSession(Host host) {
        this.host = host;
    }

    public Host host() {
        return host;
    }

    /** The file's text on the host; NoSuchFileException when it is not there (a process gone), IOException when the session fails. */
    public synchronized String read(String path) throws IOException {
        if (!PATH.matcher(path).matches()) throw new IllegalArgumentException("not a plain absolute path: '" + path + "'");
        if (session == null || !session.isAlive()) open();
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
        close();
        throw new IOException(host.name() + ": the read session ended");
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
