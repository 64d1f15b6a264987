package vtlab.tier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.jar.JarFile;

import vtlab.proc.Commands;
import vtlab.tier.tool.Jdk;

/**
 * A Spring Boot jar and its extraction ({@code java -Djarmode=tools -jar APP.jar extract --destination DIR}, Spring
 * Boot 3.3+): the one place the launch lever (ab's run extracted) and the AOT cache extract a jar.
 */
public final class BootJar {
    private BootJar() {}

    /** Whether the jar's manifest names Spring-Boot-Version. */
    public static boolean is(Path jar) {
        try (JarFile j = new JarFile(jar.toFile())) {
            return j.getManifest() != null && j.getManifest().getMainAttributes().getValue("Spring-Boot-Version") != null;
        } catch (IOException e) {
            return false;
        }
    }

    /** Extracts the jar into dir with that JDK; the extracted APP.jar, or why not (the tool's last line) as the exception. */
    public static Path extract(Jdk jdk, Path jar, Path dir) throws IOException, InterruptedException {
        Commands.Result r = Commands.attempt(List.of(jdk.java().toString(), "-Djarmode=tools", "-jar", jar.toString(), "extract",
                "--destination", dir.toString()), Duration.ofMinutes(2));
        Path out = dir.resolve(jar.getFileName());
        if (r.ok() && Files.isRegularFile(out)) return out;
        throw new IOException("java -Djarmode=tools -jar " + jar.getFileName() + " extract failed (exit " + r.code() + "): "
                + r.output().strip().lines().reduce((a, b) -> b).orElse("no output"));
    }
}
