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
        return first(command, path(), p -> true);
    }

    /** The folders of PATH, in order. */
    static List<Path> path() {
        return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":"))
                .filter(d -> !d.isEmpty()).map(Path::of).toList();
    }

    /** The first executable command in these folders, in order, that accept takes. */
    static Optional<Path> first(String command, List<Path> dirs, java.util.function.Predicate<Path> accept) {
        return dirs.stream().map(d -> d.resolve(command)).filter(p -> Files.isExecutable(p) && accept.test(p)).findFirst();
    }

    public static boolean canInstall() {
        return whyNot("a package").isEmpty();
    }

    /** Why this machine cannot apt-get install pkg, or empty when it can. */
    private static Optional<String> whyNot(String pkg) {
        if (which("apt-get").isEmpty()) return Optional.of("no apt-get here: install " + pkg + " with this system's package manager");
        if (!"root".equals(System.getProperty("user.name"))) return Optional.of("not root: apt-get install " + pkg + " needs root (run it once with sudo)");
        return Optional.empty();
    }

    /** apt-get install, or why it could not be done. */
    public static void requireInstall(String pkg) throws IOException {
        Optional<String> why = whyNot(pkg);
        if (why.isPresent()) throw new IOException(why.get());
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
