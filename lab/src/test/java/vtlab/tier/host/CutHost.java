package vtlab.tier.host;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * This machine as a remote host that a test can cut off: while up, commands run here as they are (the commands an ssh
 * host runs); while refused, every command fails as ssh does when it cannot get through (exit 255 and its message);
 * while silent, every command hangs without a word (a pulled cable, before ssh gives up).
 */
final class CutHost implements Host {
    enum State { UP, REFUSED, SILENT }

    static final String NO_ROUTE = "ssh: connect to host cut port 22: No route to host";
    volatile State state = State.UP;

    @Override
    public String name() {
        return "root@cut";
    }

    @Override
    public boolean local() {
        return false;
    }

    @Override
    public List<String> command(List<String> cmd) {
        return switch (state) {
            case UP -> List.copyOf(cmd);
            case REFUSED -> List.of("sh", "-c", "echo '" + NO_ROUTE + "' >&2; exit 255");
            case SILENT -> List.of("sleep", "60");
        };
    }

    @Override
    public String unreachable() {
        return state == State.UP ? null : NO_ROUTE;
    }

    @Override
    public void copyTo(Path file, String path, Duration timeout) throws IOException {
        if (state != State.UP) throw new IOException(NO_ROUTE);
        new LocalHost().copyTo(file, path, timeout);
    }

    @Override
    public void copyFrom(String path, Path file, Duration timeout) throws IOException {
        if (state != State.UP) throw new IOException(NO_ROUTE);
        new LocalHost().copyFrom(path, file, timeout);
    }
}
