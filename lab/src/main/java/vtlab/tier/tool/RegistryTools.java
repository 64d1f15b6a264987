package vtlab.tier.tool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import vtlab.core.LabHome;
import vtlab.proc.Children;
import vtlab.proc.Env;
import vtlab.proc.LogTail;

/**
 * Builds tools from a language registry (oha from crates.io, k6 from the Go module proxy) at a pinned version into
 * .vtlab/tools/bin: nothing installed by hand, and a fresh clone gets the same binaries. {@link Tools} says which.
 */
public final class RegistryTools {
    private static final Duration BUILD_MAX = Duration.ofMinutes(20);

    private RegistryTools() {}

    /** Where the lab keeps the tools it built. */
    public static Path bin() {
        return LabHome.get().resolve(".vtlab/tools/bin");
    }

    /** A tool the lab built, or null. */
    public static Path built(String name) {
        Path p = bin().resolve(name);
        return Files.isExecutable(p) ? p : null;
    }

    /** A command's exit code and what it printed (stdout and stderr, trimmed). */
    private record Ran(List<String> cmd, int exit, String out) {}

    private static Ran run(Path binary, String... args) throws IOException {
        List<String> cmd = new java.util.ArrayList<>(List.of(binary.toString()));
        cmd.addAll(List.of(args));
        Process p = Children.track(new ProcessBuilder(cmd).redirectErrorStream(true).start());
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        try {
            return new Ran(cmd, p.waitFor(), out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd));
        }
    }

    /**
     * What a binary prints for these arguments whatever its exit code (wrk -v exits 1), or null if it cannot run:
     * for reading a version.
     */
    public static String output(Path binary, String... args) {
        try {
            return run(binary, args).out();
        } catch (IOException e) {
            return null;
        }
    }

    /** What a command prints, or an IOException with its last line when it fails. */
    static String outputOrThrow(Path binary, String... args) throws IOException {
        Ran r = run(binary, args);
        if (r.exit() != 0) throw new IOException(String.join(" ", r.cmd().subList(0, Math.min(4, r.cmd().size()))) + " failed: "
                + r.out().lines().reduce((a, b) -> b).orElse("(no output)"));
        return r.out();
    }

    /** cargo, on PATH or where rustup puts it. */
    static Optional<Path> cargo() {
        return OsPackages.which("cargo").or(() -> executable(Path.of(System.getProperty("user.home"), ".cargo/bin/cargo")));
    }

    /** go, on PATH or where the Go tarball puts it. */
    static Optional<Path> go() {
        return OsPackages.which("go").or(() -> executable(Path.of("/usr/local/go/bin/go")));
    }

    private static Optional<Path> executable(Path p) {
        return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }

    /** cargo install CRATE --version V --locked into .vtlab/tools; the binary, or why not. */
    public static Path cargoInstall(String crate, String version, String binary) throws IOException {
        Path cargo = cargo().orElseThrow(() -> new IOException("cargo not found: install Rust (rustup) to let the lab build " + crate + " " + version));
        return build(binary, crate + " " + version + " (cargo install, a few minutes)", List.of(cargo.toString(), "install", crate,
                "--version", version, "--locked", "--root", bin().getParent().toString()), Env.NONE);
    }

    /**
     * The binary of a build the launcher started before the lab was built (./vtlab test starts oha's first: BINARY-build.pid
     * beside its log), once that build has ended; null when there is none, or it left no binary (this build then runs
     * and says why).
     */
    static Path awaitEarlierBuild(String binary, String what, Path log) throws IOException {
        Path pidFile = earlierBuildPidFile(binary);
        if (!Files.isRegularFile(pidFile)) return null;
        try {
            java.util.Optional<ProcessHandle> running = earlierBuild(pidFile);
            if (running.isPresent()) {
                System.err.println("vtlab: waiting for the build of " + what + " started before the lab's (log: " + log + ")");
                vtlab.proc.Exits.await(running.get(), BUILD_MAX); // a build that never ends: this one runs
            }
        } catch (NumberFormatException e) {
            // a pid file that names nothing: this one runs
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the build of " + what);
        } finally {
            Files.deleteIfExists(pidFile);
        }
        return built(binary);
    }

    /** Whether the build of BINARY the launcher started before the lab (its pid file) is still running. */
    static boolean earlierBuildInFlight(String binary) {
        try {
            return earlierBuild(earlierBuildPidFile(binary)).isPresent();
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }

    private static Path earlierBuildPidFile(String binary) {
        return bin().getParent().resolve(binary + "-build.pid");
    }

    /** The cargo or go process a pid file names, while it runs (a reused pid names another command). */
    private static java.util.Optional<ProcessHandle> earlierBuild(Path pidFile) throws IOException {
        if (!Files.isRegularFile(pidFile)) return java.util.Optional.empty();
        return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                .filter(h -> h.info().command().map(c -> c.endsWith("cargo") || c.endsWith("go")).orElse(false));
    }

    /** go install MODULE@VERSION into .vtlab/tools/bin; the binary, or why not. */
    public static Path goInstall(String module, String version, String binary) throws IOException {
        return goInstall(module, version, binary, binary);
    }

    /**
     * As {@link #goInstall(String, String, String)} for a command whose package directory names the binary too
     * generically (toxiproxy's cmd/server builds "server"): renamed to binary once built.
     */
    public static Path goInstall(String module, String version, String builtAs, String binary) throws IOException {
        Path go = go().orElseThrow(() -> new IOException("go not found: install Go to let the lab build " + module + "@" + version));
        Path built = build(builtAs, module + "@" + version + " (go install, a few minutes)", List.of(go.toString(), "install", module + "@" + version),
                Env.NONE.with("GOBIN", bin().toString()).with("CGO_ENABLED", "0"));
        return builtAs.equals(binary) ? built : Files.move(built, bin().resolve(binary), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The version of the main module a Go binary was built from (`go version -m`: "mod MODULE vX.Y.Z"), or null: for a
     * binary that prints none of its own (toxiproxy-server built with go install says "version git").
     */
    public static String goModuleVersion(Path binary, String module) {
        Optional<Path> go = go();
        if (go.isEmpty()) return null;
        String out = output(go.get(), "version", "-m", binary.toString());
        if (out == null) return null;
        for (String line : out.lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 3 && f[0].equals("mod") && f[1].equals(module)) return f[2];
        }
        return null;
    }

    private static Path build(String binary, String what, List<String> cmd, Env env) throws IOException {
        Files.createDirectories(bin());
        Path log = bin().getParent().resolve(binary + "-build.log");
        Path earlier = awaitEarlierBuild(binary, what, log);
        if (earlier != null) return earlier;
        System.err.println("vtlab: building " + what + " into " + bin() + " (log: " + log + ")");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env.asMap());
        try {
            Process p = Children.track(pb.start());
            if (!p.waitFor(BUILD_MAX.toMinutes(), java.util.concurrent.TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IOException("building " + what + " took over " + BUILD_MAX.toMinutes() + " minutes: see " + log);
            }
            if (p.exitValue() != 0) throw new IOException("building " + what + " failed: " + LogTail.of(log, 3) + " (" + log + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while building " + what);
        }
        Path built = built(binary);
        if (built == null) throw new IOException("building " + what + " left no " + bin().resolve(binary));
        return built;
    }
}
