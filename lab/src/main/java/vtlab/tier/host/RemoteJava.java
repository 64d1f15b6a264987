package vtlab.tier.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import vtlab.proc.Env;
import vtlab.tier.tool.Jdk;

/**
 * A jar run on a host of a run across hosts, what the SUT and the stub share there: the jar and the libraries its
 * manifest's Class-Path names copied into a folder of the work folder as they lie here, the JDK there ({@link HostJdk}:
 * at the same path, or copied), `taskset -c CPUS JAVA JVM_ARGS -jar JAR APP_ARGS` started as a {@link HostedProcess}.
 */
public final class RemoteJava {
    private RemoteJava() {}

    /** A started JVM and the JDK it runs on there (a copy's home, when copied). */
    public record Started(HostedProcess process, Jdk jdk) {}

    public static Started start(HostRun run, Host host, String name, Jdk jdk, boolean copyJdk, List<String> jvmArgs, Path jar, String folder,
                         List<String> appArgs, Env env, String cpus, Path log) throws IOException, InterruptedException {
        Jdk there = HostJdk.on(run, host, jdk, copyJdk);
        String staged = stageJar(run, host, jar, folder);
        return new Started(HostedProcess.start(run, host, name, command(there, jvmArgs, staged, appArgs, cpus), env, log, false, cpus), there);
    }

    /**
     * The jar and what its manifest's Class-Path names (the lab's stacks keep their libraries in lib/ beside the jar),
     * copied into folder of the work folder as they lie beside each other here; the jar's path there.
     */
    static String stageJar(HostRun run, Host host, Path jar, String folder) throws IOException, InterruptedException {
        for (String entry : classPath(jar)) run.stage(host, jar.resolveSibling(entry), folder + "/" + entry);
        return run.stage(host, jar, folder + "/" + jar.getFileName());
    }

    /** The relative entries of a jar's manifest Class-Path (none: an empty list); one that leaves the jar's folder is refused. */
    static List<String> classPath(Path jar) throws IOException {
        try (java.util.jar.JarFile j = new java.util.jar.JarFile(jar.toFile())) {
            java.util.jar.Manifest m = j.getManifest();
            String cp = m == null ? null : m.getMainAttributes().getValue(java.util.jar.Attributes.Name.CLASS_PATH);
            if (cp == null || cp.isBlank()) return List.of();
            List<String> out = new ArrayList<>();
            for (String entry : cp.strip().split("\\s+")) {
                if (entry.startsWith("/") || entry.contains("..") || entry.contains(":")) {
                    throw new IOException(jar + ": Class-Path entry " + entry + " is not a file beside the jar: it cannot be copied to a host");
                }
                out.add(entry);
            }
            return out;
        }
    }

    /** taskset -c CPUS JAVA JVM_ARGS -jar JAR APP_ARGS: the JVM on its CPUs of the host. */
    static List<String> command(Jdk jdk, List<String> jvmArgs, String jar, List<String> appArgs, String cpus) {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus, jdk.java().toString()));
        cmd.addAll(jvmArgs);
        cmd.add("-jar");
        cmd.add(jar);
        cmd.addAll(appArgs);
        return cmd;
    }
}
