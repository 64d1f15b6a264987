package vtlab.tier.host;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * This machine as a remote host whose every command and copy is written down: what a test asserts went through the
 * host (an ssh host runs the same argv there, scp the same copies), not around it.
 */
public final class RecordingHost implements Host {
    /** Each command as the host was asked to run it, and each copy as "to PATH" or "from PATH". */
    public final List<List<String>> commands = new CopyOnWriteArrayList<>();
    public final List<String> copies = new CopyOnWriteArrayList<>();
    private final LocalHost here = new LocalHost();

    @Override
    public String name() {
        return "root@recorded";
    }

    @Override
    public boolean local() {
        return false;
    }

    /** Run by a shell, as ssh's remote shell runs it (a program that is not there: exit 127, not an exception here). */
    @Override
    public List<String> command(List<String> cmd) {
        commands.add(List.copyOf(cmd));
        List<String> c = new java.util.ArrayList<>(List.of("sh", "-c", "exec \"$@\"", "sh"));
        c.addAll(cmd);
        return c;
    }

    @Override
    public void copyTo(Path file, String path, Duration timeout) throws IOException {
        copies.add("to " + path);
        here.copyTo(file, path, timeout);
    }

    @Override
    public void copyFrom(String path, Path file, Duration timeout) throws IOException {
        copies.add("from " + path);
        here.copyFrom(path, file, timeout);
    }
}
