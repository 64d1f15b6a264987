package vtlab.tier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

import vtlab.cli.UsageError;

/** A Java runtime the lab can start a SUT with; read from its `release` file, no JVM start needed. */
public record Jdk(Path home, int major, String version, String vendor) {

    public Path java() {
        return home.resolve("bin/java");
    }

    /** jcmd of this JDK, if it has one (a bare runtime may not). */
    public Optional<Path> jcmd() {
        Path p = home.resolve("bin/jcmd");
        return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }

    public String label() {
        return major + " (" + version + (vendor.isEmpty() ? "" : ", " + vendor) + ")";
    }

    public static Optional<Jdk> at(Path home) {
        Path release = home.resolve("release");
        if (!Files.isExecutable(home.resolve("bin/java")) || !Files.isRegularFile(release)) return Optional.empty();
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(release)) {
            p.load(r);
        } catch (IOException e) {
            return Optional.empty();
        }
        String version = unquote(p.getProperty("JAVA_VERSION", ""));
        String vendor = unquote(p.getProperty("IMPLEMENTOR", ""));
        if (version.isEmpty()) return Optional.empty();
        try {
            int major = Integer.parseInt(version.split("[.+-]")[0]);
            return Optional.of(new Jdk(home.toAbsolutePath().normalize(), major, version, vendor));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String unquote(String s) {
        return s.startsWith("\"") && s.endsWith("\"") && s.length() >= 2 ? s.substring(1, s.length() - 1) : s;
    }

    /** The JDK running the lab (found by the launcher). */
    public static Jdk current() {
        String home = System.getProperty("vtlab.java", System.getProperty("java.home"));
        return at(Path.of(home)).orElseGet(() -> new Jdk(Path.of(home), Runtime.version().feature(),
                Runtime.version().toString(), System.getProperty("java.vendor", "")));
    }

    /** Every JDK >= 21 in the usual places, newest first; a JDK met twice (symlinks) is listed once. */
    public static List<Jdk> discover() {
        List<Path> roots = new ArrayList<>(List.of(Path.of("/usr/lib/jvm"), Path.of("/usr/java"), Path.of("/opt/java"),
                Path.of(System.getProperty("user.home"), ".sdkman/candidates/java"),
                Path.of(System.getProperty("user.home"), ".jdks"),
                Path.of(System.getProperty("vtlab.home", "."), ".vtlab/jdks")));
        Map<Path, Jdk> found = new LinkedHashMap<>();
        Jdk self = current();
        found.put(real(self.home()), self);
        for (Path root : roots) {
            if (!Files.isDirectory(root)) continue;
            try (Stream<Path> s = Files.list(root)) {
                s.forEach(d -> at(d).filter(j -> j.major() >= 21).ifPresent(j -> found.putIfAbsent(real(d), j)));
            } catch (IOException ignored) {
                // an unreadable folder simply has no JDK for us
            }
        }
        return found.values().stream().sorted(Comparator.comparingInt(Jdk::major).reversed()).toList();
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p;
        }
    }

    /** --jdk accepts a JDK folder or a major version found by {@link #discover()}. */
    public static Jdk resolve(String spec) throws UsageError {
        if (spec.matches("\\d+")) {
            int major = Integer.parseInt(spec);
            return discover().stream().filter(j -> j.major() == major).findFirst().orElseThrow(() -> new UsageError(
                    "--jdk " + spec + ": no JDK " + spec + " found (./vtlab doctor lists the JDKs it sees)"));
        }
        Jdk j = at(Path.of(spec)).orElseThrow(() -> new UsageError("--jdk " + spec + ": not a JDK folder (no bin/java and release file)"));
        if (j.major() < 21) throw new UsageError("--jdk " + spec + ": JDK " + j.major() + " has no virtual threads; 21 or newer is needed");
        return j;
    }
}
