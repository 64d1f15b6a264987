package vtlab.tier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import vtlab.core.LabHome;
import vtlab.proc.Children;
import vtlab.tier.tool.Jdk;

/**
 * One library jar from Maven Central by its coordinates, as the lab's library lever runs it in a service's place: the
 * committed Maven wrapper's {@code dependency:copy} (the plugin pinned in the lab's pom), so the artifact is resolved,
 * checksummed and cached as every build of the lab's is; offline first (already in the local repository), online once
 * if that fails. Kept in .vtlab/libs/ARTIFACT-VERSION.jar and reused.
 *
 * @param group    "com.zaxxer"
 * @param artifact "HikariCP"
 * @param version  "7.1.0"
 */
public record MavenArtifact(String group, String artifact, String version) {
    private static final Pattern PART = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final long FETCH_MAX_MINUTES = 5;

    public MavenArtifact {
        for (String p : List.of(group, artifact, version)) {
            if (p == null || !PART.matcher(p).matches()) throw new IllegalArgumentException("not Maven coordinates: " + group + ":" + artifact + ":" + version);
        }
    }

    /** "com.zaxxer:HikariCP:7.1.0", refused when it is not GROUP:ARTIFACT:VERSION. */
    public static MavenArtifact parse(String coordinates) {
        String[] p = coordinates.split(":", -1);
        if (p.length != 3) throw new IllegalArgumentException("not GROUP:ARTIFACT:VERSION: " + coordinates);
        return new MavenArtifact(p[0], p[1], p[2]);
    }

    public String coordinates() {
        return group + ":" + artifact + ":" + version;
    }

    /** ARTIFACT-VERSION.jar, the name Maven gives it. */
    public String fileName() {
        return artifact + "-" + version + ".jar";
    }

    public static Path dir() {
        return LabHome.get().resolve(".vtlab/libs");
    }

    /** The jar, fetched now unless kept; why not (Maven's own first error) as the exception. */
    public Path fetch() throws IOException, InterruptedException {
        Path jar = dir().resolve(fileName());
        if (Files.isRegularFile(jar) && Files.size(jar) > 0) return jar;
        Files.createDirectories(dir());
        Path log = dir().resolve(artifact + "-" + version + ".fetch.log");
        if (maven(true, log) != 0 && maven(false, log) != 0) {
            throw new IOException("Maven could not fetch " + coordinates() + ": " + StackVariants.reason(log) + " (" + log + ")");
        }
        if (!Files.isRegularFile(jar)) throw new IOException("Maven's dependency:copy of " + coordinates() + " left no " + jar);
        return jar;
    }

    /** The wrapper's dependency:copy on the lab's root pom alone (-N: its pluginManagement pins the plugin). */
    List<String> command(Path home, boolean offline) {
        List<String> cmd = new ArrayList<>(List.of(home.resolve("mvnw").toString(), "-B", "-q", "-N"));
        if (offline) cmd.add("-o");
        cmd.addAll(List.of("-f", home.resolve("pom.xml").toString(), "dependency:copy", "-Dartifact=" + coordinates(),
                "-DoutputDirectory=" + dir(), "-Dmdep.overWriteReleases=false"));
        return cmd;
    }

    private int maven(boolean offline, Path log) throws IOException, InterruptedException {
        Path home = LabHome.get();
        ProcessBuilder pb = new ProcessBuilder(command(home, offline)).directory(home.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", Jdk.current().home().toString());
        Process p = Children.track(pb.start());
        if (!p.waitFor(FETCH_MAX_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("fetching " + coordinates() + " took over " + FETCH_MAX_MINUTES + " minutes");
        }
        return p.exitValue();
    }
}
