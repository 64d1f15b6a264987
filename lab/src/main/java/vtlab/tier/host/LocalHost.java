package vtlab.tier.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

/** This machine: commands run as they are, files copied and read directly (the lab's behaviour without --hosts). */
public final class LocalHost implements Host {
    @Override
    public String name() {
        return Topology.LOCAL;
    }

    @Override
    public boolean local() {
        return true;
    }

    @Override
    public List<String> command(List<String> cmd) {
        return List.copyOf(cmd);
    }

    @Override
    public void copyTo(Path file, String path, Duration timeout) throws IOException {
        Files.copy(file, Path.of(path), StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void copyFrom(String path, Path file, Duration timeout) throws IOException {
        Files.copy(Path.of(path), file, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Read directly: no process per sample. */
    @Override
    public String read(String path) throws IOException {
        return Files.readString(Path.of(path));
    }
}
