package vtlab.tier.tool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Finds a command on PATH and, as root on Debian/Ubuntu, installs the OS package that brings it. */
public final class OsPackages {
    private OsPackages() {}

    public static Optional<Path> which(String command) {
        return which(command, path());
    }

    /** The folders of PATH, in order. */
    static List<Path> path() {
        return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":"))
                .filter(d -> !d.isEmpty()).map(Path::of).toList();
    }

    static Optional<Path> which(String command, List<Path> dirs) {
        return dirs.stream().map(d -> d.resolve(command)).filter(Files::isExecutable).findFirst();
    }

    public static boolean canInstall() {
        return which("apt-get").isPresent() && "root".equals(System.getProperty("user.name"));
    }

    /** apt-get install, or why it could not be done. */
    public static void requireInstall(String pkg) throws IOException {
        if (which("apt-get").isEmpty()) throw new IOException("no apt-get here: install the package " + pkg + " with this system's package manager");
        if (!"root".equals(System.getProperty("user.name"))) throw new IOException("not root: apt-get install " + pkg + " needs root (run it once with sudo)");
        if (!aptInstall(pkg)) throw new IOException("apt-get install " + pkg + " failed (is the Debian package mirror reachable?)");
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
