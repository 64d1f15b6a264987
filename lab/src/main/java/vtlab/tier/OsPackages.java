package vtlab.tier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Finds a command on PATH and, as root on Debian/Ubuntu, installs the OS package that brings it. */
public final class OsPackages {
    private OsPackages() {}

    public static Optional<Path> which(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path p = Path.of(dir, command);
            if (Files.isExecutable(p)) return Optional.of(p);
        }
        return Optional.empty();
    }

    public static boolean canInstall() {
        return which("apt-get").isPresent() && "root".equals(System.getProperty("user.name"));
    }

    /** apt-get install, with one `apt-get update` retry when the package lists are missing or stale. */
    public static boolean aptInstall(String pkg) {
        if (!canInstall()) return false;
        System.err.println("vtlab: installing " + pkg + " (apt-get install " + pkg + ")...");
        if (run(List.of("apt-get", "install", "-y", "-qq", pkg))) return true;
        return run(List.of("apt-get", "update", "-qq")) && run(List.of("apt-get", "install", "-y", "-qq", pkg));
    }

    private static boolean run(List<String> cmd) {
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("DEBIAN_FRONTEND", "noninteractive");
            return pb.start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
