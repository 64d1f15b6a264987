package vtlab.tier;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import vtlab.proc.Children;
import vtlab.proc.Commands;
import vtlab.proc.LoopbackPort;
import vtlab.tier.host.TierSite;

/**
 * The lab's own PostgreSQL cluster on this machine, never a system one: data directory under the state folder (kept
 * between runs), its own free port, 127.0.0.1 only (or this machine's address as a SUT on another host reaches it, its
 * {@link TierSite}), SCRAM password auth with a generated password for the site's clients alone. As root the server
 * runs as the unprivileged system user `vtlab` (PostgreSQL refuses to run as root). Knows nothing of what is stored in
 * it. The commands, settings and access rules are the ones {@link RemotePostgres} runs on a host.
 */
final class PostgresCluster implements PgServer {
    static final String DATABASE = "vtlab", USER = "vtlab", OS_USER = "vtlab";
    /** Enough for the largest pool of the pool sweep (800) plus the lab's own sessions. */
    static final int MAX_CONNECTIONS = 1000;
    static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final Path bin;
    private Path dir, data, log;
    private Process server;
    private int port;
    private String password;
    private List<String> asUser = List.of();
    private Runnable shutdownHook;
    private String listen = TierSite.LOOPBACK;

    PostgresCluster(Path bin) {
        this.bin = bin;
    }

    /** Creates the cluster if needed (or anew when reseed), starts its server pinned to cpus and waits until it answers. */
    void start(String cpus, Path stateDir, Path logDir, boolean reseed) throws IOException, InterruptedException {
        start(cpus, stateDir, logDir, reseed, TierSite.here());
    }

    /** As above, listening where site says and letting its clients in. */
    void start(String cpus, Path stateDir, Path logDir, boolean reseed, TierSite site) throws IOException, InterruptedException {
        listen = site.listen();
        Files.createDirectories(logDir);
        log = logDir.resolve("pg.log");
        dir = stateDir.resolve("pg");
        Files.createDirectories(dir);
        if (isRoot()) {
            int[] ids = ensureOsUser();
            asUser = asUser(ids[0], ids[1]);
            if (!reachableBy(dir, ids)) dir = fallbackDir(stateDir);
            Commands.run(List.of("chown", "-R", ids[0] + ":" + ids[1], dir.toString()), Duration.ofSeconds(60));
        }
        data = dir.resolve("data");
        stopLeftover();
        if (reseed && Files.exists(data)) {
            note("reseed: removing " + data);
            vtlab.core.Folders.deleteTree(data);
        }
        Path passwordFile = dir.resolve("password");
        if (Files.isRegularFile(data.resolve("PG_VERSION")) && Files.isRegularFile(passwordFile)) {
            password = Files.readString(passwordFile).trim();
        } else {
            password = newPassword(passwordFile);
            initdb(passwordFile);
        }
        Files.writeString(data.resolve("pg_hba.conf"), hba(site.clients()));

        port = LoopbackPort.free(listen);
        List<String> cmd = new ArrayList<>(asUser);
        cmd.addAll(serverCommand(bin.toString(), data.toString(), port, cpus, listen));
        Files.writeString(log, "# " + String.join(" ", cmd) + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        server = Children.track(new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
        shutdownHook = this::stopServer;
        Children.onShutdown(shutdownHook);
        awaitReady();
    }

    /** taskset -c CPUS BIN/postgres -D DATA -p PORT -c SETTING=VALUE...: the server on its CPUs, listening on listen. */
    static List<String> serverCommand(String bin, String data, int port, String cpus, String listen) {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus, bin + "/postgres", "-D", data, "-p", Integer.toString(port)));
        serverSettings(listen).forEach((k, v) -> cmd.addAll(List.of("-c", k + "=" + v)));
        return cmd;
    }

    /** initdb of a new cluster whose one user is {@link #USER}, its password in pwfile, SCRAM for every login. */
    static List<String> initdbCommand(String bin, String data, String pwfile) {
        return List.of(bin + "/initdb", "-D", data, "-U", USER, "--pwfile=" + pwfile, "--auth-host=scram-sha-256",
                "--auth-local=scram-sha-256", "-E", "UTF8", "--no-locale");
    }

    /** pg_ctl's fast stop (sessions ended, no wait for clients to leave), waited for up to 30 s. */
    static List<String> stopCommand(String bin, String data) {
        return List.of(bin + "/pg_ctl", "stop", "-D", data, "-m", "fast", "-w", "-t", "30");
    }

    /** setpriv to the server's user (uid, gid): what the commands run through as root. */
    static List<String> asUser(int uid, int gid) {
        return List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--");
    }

    /**
     * pg_hba.conf: TCP from the given addresses only (127.0.0.1; the SUT's host and the lab when a SUT on another host
     * connects), SCRAM passwords; no Unix socket, no trust.
     */
    static String hba(List<String> clients) {
        StringBuilder sb = new StringBuilder("# vtlab: TCP from the lab and the SUT only, SCRAM passwords; no Unix socket, no trust\n");
        for (String c : new java.util.LinkedHashSet<>(clients)) {
            sb.append("host all all ").append(c).append(c.contains(":") ? "/128" : "/32").append(" scram-sha-256\n");
        }
        return sb.toString();
    }

    /** Server settings given on the command line, so a kept data directory always runs with the current ones. */
    static Map<String, String> serverSettings() {
        return serverSettings(TierSite.LOOPBACK);
    }

    static Map<String, String> serverSettings(String listen) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("listen_addresses", listen);
        s.put("unix_socket_directories", "");
        s.put("max_connections", Integer.toString(MAX_CONNECTIONS));
        s.put("shared_buffers", "256MB");
        s.put("password_encryption", "scram-sha-256");
        s.put("shared_preload_libraries", "pg_stat_statements");
        s.put("pg_stat_statements.track", "top");
        // single-row lookups need no parallel workers, and their dynamic shared memory can hit a small /dev/shm
        s.put("max_parallel_workers_per_gather", "0");
        s.put("huge_pages", "off");
        s.put("log_min_messages", "warning");
        return s;
    }

    @Override
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + (listen.contains(":") ? "[" + listen + "]" : listen) + ":" + port + "/" + database;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String password() {
        return password;
    }

    Path dataDir() {
        return data;
    }

    @Override
    public ProcessHandle process() {
        return server == null ? null : server.toHandle();
    }

    @Override
    public void close() {
        if (shutdownHook != null) Children.removeOnShutdown(shutdownHook);
        stopServer();
    }

    private void stopServer() {
        if (server == null || !server.isAlive()) return;
        try {
            List<String> cmd = new ArrayList<>(asUser);
            cmd.addAll(stopCommand(bin.toString(), data.toString()));
            Commands.run(cmd, Duration.ofSeconds(40));
            server.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            note("pg_ctl stop failed (" + e.getMessage() + "); stopping the server's processes");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (server.isAlive()) Children.stop(server.toHandle(), 10_000);
    }

    // ---- start-up steps

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** The system user the server runs as when the lab is root; created once. Returns {uid, gid}. */
    static int[] ensureOsUser() throws IOException, InterruptedException {
        if (!Commands.attempt(List.of("id", "-u", OS_USER), Duration.ofSeconds(10)).ok()) {
            note("creating system user '" + OS_USER + "' to run PostgreSQL (it refuses to run as root)");
            Commands.run(List.of("useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
                    OS_USER), Duration.ofSeconds(30));
        }
        int uid = Integer.parseInt(Commands.run(List.of("id", "-u", OS_USER), Duration.ofSeconds(10)).trim());
        int gid = Integer.parseInt(Commands.run(List.of("id", "-g", OS_USER), Duration.ofSeconds(10)).trim());
        return new int[] {uid, gid};
    }

    /** Whether the server's user can reach dir: every parent must be searchable by it (a home under /root is not). */
    static boolean reachableBy(Path dir, int[] ids) throws IOException, InterruptedException {
        return Commands.attempt(List.of("setpriv", "--reuid=" + ids[0], "--regid=" + ids[1], "--clear-groups", "--", "test", "-x",
                dir.toAbsolutePath().getParent().toString()), Duration.ofSeconds(10)).ok();
    }

    /** A data folder the server's user can reach, keyed by the state folder so two checkouts do not share one. */
    static Path fallbackDir(Path stateDir) throws IOException {
        String key = HexFormat.of().formatHex(stateDir.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
        key = key.length() > 32 ? key.substring(key.length() - 32) : key;
        Path d = Path.of("/var/lib/vtlab", "pg-" + key);
        Files.createDirectories(d);
        Files.writeString(stateDir.resolve("pg").resolve("WHERE"), "data lives in " + d + " (the server's user cannot reach this folder)\n");
        note("the server's user cannot reach " + stateDir + "; data goes to " + d);
        return d;
    }

    /** A server left by a killed run still holds the data directory: stop it; a stale lock file is removed. */
    private void stopLeftover() throws IOException, InterruptedException {
        Path pidFile = data.resolve("postmaster.pid");
        if (!Files.isRegularFile(pidFile)) return;
        long pid;
        try {
            pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().trim());
        } catch (RuntimeException e) {
            Files.deleteIfExists(pidFile);
            return;
        }
        Optional<ProcessHandle> h = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false));
        if (h.isEmpty()) {
            note("removing the stale " + pidFile + " of a server that is gone (pid " + pid + ")");
            Files.deleteIfExists(pidFile);
            return;
        }
        // The lab starts the server as its own child: a server whose parent is still a live JVM belongs to a run in
        // progress (or a test); one left by a killed run has been handed to init or a subreaper.
        Optional<ProcessHandle> owner = h.get().parent().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false));
        if (owner.isPresent()) {
            throw new IOException("the lab's PostgreSQL in " + data + " is in use by another vtlab run (pid " + owner.get().pid()
                    + "); wait for it to finish");
        }
        note("stopping the server a previous run left behind (pid " + pid + ")");
        List<String> cmd = new ArrayList<>(asUser);
        cmd.addAll(stopCommand(bin.toString(), data.toString()));
        if (!Commands.attempt(cmd, Duration.ofSeconds(40)).ok()) Children.stop(h.get(), 10_000);
    }

    /** A generated password, kept beside the data (owner-only) so a kept cluster is reachable by the next run. */
    private String newPassword(Path f) throws IOException, InterruptedException {
        String pw = newPassword();
        Files.deleteIfExists(f);
        Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(f, pw + "\n");
        if (!asUser.isEmpty()) Commands.run(List.of("chown", OS_USER + ":", f.toString()), Duration.ofSeconds(10));
        return pw;
    }

    /** A generated password: 18 random bytes in hex. */
    static String newPassword() {
        byte[] b = new byte[18];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private void initdb(Path passwordFile) throws IOException, InterruptedException {
        note("creating the PostgreSQL cluster in " + data);
        if (Files.exists(data)) vtlab.core.Folders.deleteTree(data);
        List<String> cmd = new ArrayList<>(asUser);
        cmd.addAll(initdbCommand(bin.toString(), data.toString(), passwordFile.toString()));
        String out = Commands.run(cmd, Duration.ofMinutes(3));
        Files.writeString(log, out, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private void awaitReady() throws IOException, InterruptedException {
        PgServer.awaitReady(this, server::isAlive, () -> "PostgreSQL exited with " + server.exitValue() + " during start-up: " + tail(8), READY_TIMEOUT);
    }

    // ---- helpers

    @Override
    public String tail(int n) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }


    static void note(String s) {
        System.err.println("vtlab: pg: " + s);
    }

}
