package vtlab.tier.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import vtlab.proc.Commands;
import vtlab.tier.tool.Jdk;

/**
 * A JDK on the host a JVM tier runs on (the SUT, the stub): installed there at the same path as here (the default; test
 * hosts share this machine's files, so for them that is a path check), or, when the topology entry says jdk = "copy",
 * this machine's JDK folder copied into the run's work folder there, once per run and host, and run from there.
 */
public final class HostJdk {
    static final Duration SHORT = Duration.ofSeconds(30);

    private HostJdk() {}

    /**
     * Before anything starts: whether the JDK can run on the host as the entry asks, else an IOException saying in one
     * line what to do. At the same path: it must be there. Copied: the host needs tar, and a JDK built for another
     * machine (its release file's OS_ARCH) is refused rather than copied to fail there.
     *
     * @param entry the topology entry, for the message ("sut", "stub")
     */
    public static void check(Host host, Jdk jdk, boolean copy, String entry) throws IOException, InterruptedException {
        if (!copy) {
            if (!host.run(List.of("test", "-x", jdk.java().toString()), SHORT).ok()) {
                throw new IOException(host.name() + " (" + entry + ") has no " + jdk.java() + ": install JDK " + jdk.major() + " there at "
                        + jdk.home() + ", or add jdk = \"copy\" to the " + entry + " entry to copy this machine's there");
            }
            return;
        }
        List<String> missing = host.missing(List.of("tar"));
        if (!missing.isEmpty()) throw new IOException(host.name() + " (" + entry + ") has no tar: the JDK cannot be copied there (jdk = \"copy\")");
        if (vtlab.tier.tool.OsPackages.which("tar").isEmpty()) throw new IOException("this machine has no tar: the JDK cannot be copied to " + host.name());
        String arch = arch(jdk.home());
        if (arch != null) {
            String there = machine(host.output(List.of("uname", "-m"), SHORT).strip());
            if (!arch.equals(there)) {
                throw new IOException("JDK " + jdk.home() + " is built for " + arch + ", " + host.name() + " (" + entry + ") is " + there
                        + ": a copy cannot run there; install a JDK " + jdk.major() + " for " + there + " there at " + jdk.home() + " instead");
            }
        }
    }

    /**
     * The JDK as the host runs it: this one at its path, or its copy in the work folder (copied on the first ask of the
     * run for that host, then checked to start there).
     */
    static Jdk on(HostRun run, Host host, Jdk jdk, boolean copy) throws IOException, InterruptedException {
        if (!copy) {
            check(host, jdk, false, "the JVM's");
            return jdk;
        }
        String home = run.stageTree(host, jdk.home(), folder(jdk.home()));
        Jdk there = new Jdk(Path.of(home), jdk.major(), jdk.version(), jdk.vendor());
        Commands.Result r = host.run(List.of(there.java().toString(), "-version"), SHORT);
        if (!r.ok()) {
            throw new IOException(host.name() + ": the JDK copied to " + home + " does not start there (" + r.code() + "): "
                    + r.output().strip().lines().findFirst().orElse(""));
        }
        return there;
    }

    /** Where a copied JDK lives in the work folder: its folder's name and a digest of its path (two JDKs never share one). */
    static String folder(Path home) {
        Path abs = home.toAbsolutePath().normalize();
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(abs.toString().getBytes(StandardCharsets.UTF_8));
            return "jdks/" + abs.getFileName() + "-" + java.util.HexFormat.of().formatHex(d, 0, 4);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The machine a JDK is built for (its release file's OS_ARCH, as uname -m names it), or null when it does not say. */
    static String arch(Path home) {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release)) return null;
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(release)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
        String a = p.getProperty("OS_ARCH", "").replace("\"", "").strip();
        return a.isEmpty() ? null : machine(a);
    }

    /** uname -m's name for an architecture (Java and Debian say amd64 and arm64). */
    static String machine(String arch) {
        return switch (arch) {
            case "amd64" -> "x86_64";
            case "arm64" -> "aarch64";
            default -> arch;
        };
    }
}
