package vtlab.tier.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import vtlab.proc.Commands;

/**
 * One ssh connection per host for all of a process's commands and copies (OpenSSH's ControlMaster), instead of a
 * handshake each: a run across hosts made 67 ssh calls for one row (checks, folders, files, jcmd, its
 * teardown), each 0.3-0.5 s, most of it the key exchange on a test host and more over a real network; through a master each is a few ms.
 * <p>
 * The control socket is named by the destination and the identity and known-hosts files (not ssh's %C, which ignores the
 * key): a command with another key never rides on a connection that key did not open. It lives in a folder of this JVM's
 * own (mode 700). The master stays {@link #PERSIST} after its last session ends; {@link #close} (the end of a run across
 * hosts, and this JVM's exit) ends it at once, so a finished run leaves no ssh session on its hosts.
 */
final class SshMux {
    /** How long a master outlives its last session (a lab killed outright leaves it no longer). */
    static final Duration PERSIST = Duration.ofSeconds(15);
    private static final Duration EXIT_MAX = Duration.ofSeconds(5);
    /** Sockets opened by this JVM, by path: the ssh options that reach each master (for its -O exit). */
    private static final Map<Path, List<String>> OPENED = new ConcurrentHashMap<>();
    private static volatile Path dir;

    private SshMux() {}

    /** The options that route a command through the host's master (made by the first command that finds none). */
    static List<String> options(String key, List<String> reach) {
        Path socket = socket(key);
        if (socket == null) return List.of(); // no folder for sockets: every command opens its own connection, as before
        OPENED.putIfAbsent(socket, List.copyOf(reach));
        return List.of("-o", "ControlMaster=auto", "-o", "ControlPath=" + socket, "-o", "ControlPersist=" + PERSIST.toSeconds());
    }

    /** The options that keep a command off any master: a reachability check must open a connection of its own. */
    static List<String> bypass() {
        return List.of("-o", "ControlMaster=no", "-o", "ControlPath=none");
    }

    /** Ends the master of this key (a run's host at its end); nothing when none runs. */
    static void close(String key) throws InterruptedException {
        Path socket = socket(key);
        if (socket != null) exit(socket);
    }

    /** Ends every master this JVM opened (its exit). */
    static void closeAll() throws InterruptedException {
        for (Path socket : List.copyOf(OPENED.keySet())) exit(socket);
    }

    private static void exit(Path socket) throws InterruptedException {
        List<String> reach = OPENED.remove(socket);
        if (reach == null || !Files.exists(socket)) return;
        List<String> cmd = new ArrayList<>(List.of("ssh", "-o", "ControlPath=" + socket, "-O", "exit"));
        cmd.addAll(reach);
        try {
            Commands.attempt(cmd, EXIT_MAX); // a master already gone is not an error
        } catch (IOException e) {
            // ends on its own PERSIST after its last session
        }
    }

    /** The socket for a key: short (a unix socket's path is at most ~100 bytes), in this JVM's folder; null without one. */
    private static Path socket(String key) {
        Path d = folder();
        return d == null ? null : d.resolve(hash(key));
    }

    private static synchronized Path folder() {
        if (dir != null) return dir;
        try {
            Path d = Path.of("/tmp", "vtlab-ssh-" + ProcessHandle.current().pid());
            if (!Files.isDirectory(d)) Files.createDirectory(d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    closeAll();
                    try (var left = Files.list(d)) {
                        for (Path p : left.toList()) Files.deleteIfExists(p);
                    }
                    Files.deleteIfExists(d);
                } catch (IOException | InterruptedException e) {
                    // the folder is this JVM's: a leftover in /tmp is all it costs
                }
            }, "vtlab-ssh-masters"));
            dir = d;
            return d;
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    static String hash(String key) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
