package vtlab.tier;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import vtlab.load.OsPackages;

/**
 * PostgreSQL as a run tier: the lab's own cluster (data directory under the state folder, its own free port,
 * 127.0.0.1 only, SCRAM password auth with a generated password), never a system cluster. Seeded as the rig does
 * (customers and orders from generate_series) on first use and kept between runs; the "reseed" option rebuilds it.
 * As root the server runs as the unprivileged system user `vtlab` (PostgreSQL refuses to run as root).
 */
public final class PostgresTier implements RunTier {
    public static final String NAME = "pg";
    public static final String DATABASE = "vtlab", USER = "vtlab", OS_USER = "vtlab";
    /** Tier options: reseed=true rebuilds the data; pg.customers / pg.orders size the seed (tests use small ones). */
    public static final String OPT_RESEED = "reseed", OPT_CUSTOMERS = "pg.customers", OPT_ORDERS = "pg.orders";
    public static final long DEFAULT_CUSTOMERS = 100_000, DEFAULT_ORDERS = 1_000_000;
    /** Enough for the largest pool of the pool sweep (800) plus the lab's own sessions. */
    static final int MAX_CONNECTIONS = 1000;
    static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    /** Text by which pg_stat_statements' entry of the spring-mvc order lookup is found. */
    public static final String ORDER_QUERY_MARK = "FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id = $1";

    private Path bin, dir, data, log;
    private Process server;
    private int port;
    private String password;
    private List<String> asUser = List.of();
    private Runnable shutdownHook;
    private long customers, orders;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(Context ctx) throws Exception {
        customers = longOption(ctx.options(), OPT_CUSTOMERS, DEFAULT_CUSTOMERS);
        orders = longOption(ctx.options(), OPT_ORDERS, DEFAULT_ORDERS);
        bin = serverBinaries();
        Files.createDirectories(ctx.logDir());
        log = ctx.logDir().resolve("pg.log");
        dir = ctx.stateDir().resolve("pg");
        Files.createDirectories(dir);
        if (isRoot()) {
            int[] ids = ensureOsUser();
            asUser = List.of("setpriv", "--reuid=" + ids[0], "--regid=" + ids[1], "--clear-groups", "--");
            if (!reachableBy(dir, ids)) dir = fallbackDir(ctx.stateDir());
            run(List.of("chown", "-R", ids[0] + ":" + ids[1], dir.toString()), Duration.ofSeconds(60));
        }
        data = dir.resolve("data");
        stopLeftover();
        if ("true".equals(ctx.options().get(OPT_RESEED)) && Files.exists(data)) {
            note("reseed: removing " + data);
            deleteTree(data);
        }
        Path passwordFile = dir.resolve("password");
        if (Files.isRegularFile(data.resolve("PG_VERSION")) && Files.isRegularFile(passwordFile)) {
            password = Files.readString(passwordFile).trim();
        } else {
            password = newPassword(passwordFile);
            initdb(passwordFile);
        }
        Files.writeString(data.resolve("pg_hba.conf"), """
                # vtlab: TCP on loopback only, SCRAM passwords; no Unix socket, no trust
                host all all 127.0.0.1/32 scram-sha-256
                """);

        port = freePort();
        List<String> cmd = new ArrayList<>(asUser);
        cmd.addAll(List.of("taskset", "-c", ctx.cpus(), bin.resolve("postgres").toString(), "-D", data.toString(),
                "-p", Integer.toString(port)));
        serverSettings().forEach((k, v) -> cmd.addAll(List.of("-c", k + "=" + v)));
        Files.writeString(log, "# " + String.join(" ", cmd) + "\n", java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        server = Children.track(new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
        shutdownHook = this::stopServer;
        Children.onShutdown(shutdownHook);
        awaitReady();
        seed();
    }

    /** Server settings given on the command line, so a kept data directory always runs with the current ones. */
    static Map<String, String> serverSettings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("listen_addresses", "127.0.0.1");
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
    public ProcessHandle process() {
        return server == null ? null : server.toHandle();
    }

    @Override
    public Map<String, String> sutEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DB_URL", jdbcUrl());
        env.put("DB_USER", USER);
        env.put("DB_PASSWORD", password);
        return env;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return data;
    }

    public long seededOrders() {
        return orders;
    }

    public Connection connect() throws SQLException {
        return connect(DATABASE);
    }

    Connection connect(String database) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", USER);
        p.setProperty("password", password);
        p.setProperty("connectTimeout", "5");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database, p);
    }

    /** How often the spring-mvc order lookup has run (pg_stat_statements), to prove requests really query. */
    public long orderQueryCalls() throws SQLException {
        try (Connection c = connect(); var st = c.prepareStatement(
                "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
                        + " WHERE d.datname = current_database() AND s.query LIKE ?")) {
            st.setString(1, "%" + ORDER_QUERY_MARK + "%");
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
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
            cmd.addAll(List.of(bin.resolve("pg_ctl").toString(), "stop", "-D", data.toString(), "-m", "fast", "-w", "-t", "30"));
            run(cmd, Duration.ofSeconds(40));
            server.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            note("pg_ctl stop failed (" + e.getMessage() + "); stopping the server's processes");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (server.isAlive()) Children.stop(server.toHandle(), 10_000);
    }

    // ---- start-up steps

    /** Newest /usr/lib/postgresql/N/bin with a server, else the one on PATH, else installed from the OS packages. */
    static Path serverBinaries() throws IOException {
        Optional<Path> found = findServerBinaries();
        if (found.isEmpty() && OsPackages.canInstall()) {
            // Debian's package would also create and start a system cluster; the lab only wants the binaries. A drop-in
            // (not createcluster.conf itself, a conffile of postgresql-common) says so before the install.
            Path conf = Path.of("/etc/postgresql-common/createcluster.d/vtlab-no-main-cluster.conf");
            if (!Files.exists(conf)) {
                Files.createDirectories(conf.getParent());
                Files.writeString(conf, "# written by vtlab before installing PostgreSQL: binaries only, no system cluster\n"
                        + "create_main_cluster = false\n");
            }
            if (OsPackages.aptInstall("postgresql")) found = findServerBinaries();
        }
        return found.orElseThrow(() -> new IOException("PostgreSQL server binaries (postgres, initdb, pg_ctl) not found in "
                + "/usr/lib/postgresql/*/bin or on PATH, and not installable here: install PostgreSQL "
                + "(apt-get install postgresql, dnf install postgresql-server, brew install postgresql)"));
    }

    static Optional<Path> findServerBinaries() {
        Path root = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(root)) {
            try (Stream<Path> s = Files.list(root)) {
                Optional<Path> newest = s.filter(d -> d.getFileName().toString().matches("\\d+"))
                        .sorted(Comparator.comparingInt((Path d) -> Integer.parseInt(d.getFileName().toString())).reversed())
                        .map(d -> d.resolve("bin")).filter(PostgresTier::hasServer).findFirst();
                if (newest.isPresent()) return newest;
            } catch (IOException ignored) {
                // unreadable: look on PATH
            }
        }
        return OsPackages.which("postgres").map(Path::getParent).filter(PostgresTier::hasServer);
    }

    static boolean hasServer(Path binDir) {
        return Stream.of("postgres", "initdb", "pg_ctl").allMatch(b -> Files.isExecutable(binDir.resolve(b)));
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** The system user the server runs as when the lab is root; created once. Returns {uid, gid}. */
    static int[] ensureOsUser() throws IOException, InterruptedException {
        if (!attempt(List.of("id", "-u", OS_USER), Duration.ofSeconds(10)).ok()) {
            note("creating system user '" + OS_USER + "' to run PostgreSQL (it refuses to run as root)");
            run(List.of("useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
                    OS_USER), Duration.ofSeconds(30));
        }
        int uid = Integer.parseInt(run(List.of("id", "-u", OS_USER), Duration.ofSeconds(10)).trim());
        int gid = Integer.parseInt(run(List.of("id", "-g", OS_USER), Duration.ofSeconds(10)).trim());
        return new int[] {uid, gid};
    }

    /** Whether the server's user can reach dir: every parent must be searchable by it (a home under /root is not). */
    static boolean reachableBy(Path dir, int[] ids) throws IOException, InterruptedException {
        return attempt(List.of("setpriv", "--reuid=" + ids[0], "--regid=" + ids[1], "--clear-groups", "--", "test", "-x",
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
        cmd.addAll(List.of(bin.resolve("pg_ctl").toString(), "stop", "-D", data.toString(), "-m", "fast", "-w", "-t", "30"));
        if (!attempt(cmd, Duration.ofSeconds(40)).ok()) Children.stop(h.get(), 10_000);
    }

    /** A generated password, kept beside the data (owner-only) so a kept cluster is reachable by the next run. */
    private String newPassword(Path f) throws IOException, InterruptedException {
        byte[] b = new byte[18];
        new SecureRandom().nextBytes(b);
        String pw = HexFormat.of().formatHex(b);
        Files.deleteIfExists(f);
        Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(f, pw + "\n");
        if (!asUser.isEmpty()) run(List.of("chown", OS_USER + ":", f.toString()), Duration.ofSeconds(10));
        return pw;
    }

    private void initdb(Path passwordFile) throws IOException, InterruptedException {
        note("creating the PostgreSQL cluster in " + data);
        if (Files.exists(data)) deleteTree(data);
        List<String> cmd = new ArrayList<>(asUser);
        cmd.addAll(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER, "--pwfile=" + passwordFile,
                "--auth-host=scram-sha-256", "--auth-local=scram-sha-256", "-E", "UTF8", "--no-locale"));
        String out = run(cmd, Duration.ofMinutes(3));
        Files.writeString(log, out, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) throw new IOException("PostgreSQL exited with " + server.exitValue() + " during start-up: " + tail(8));
            try (Connection c = connect("postgres")) {
                return;
            } catch (SQLException e) {
                last = e;
            }
            Thread.sleep(200);
        }
        throw new IOException("PostgreSQL not ready after " + READY_TIMEOUT.toSeconds() + " s (" + (last == null ? "" : last.getMessage())
                + "): " + tail(8));
    }

    /** Schema and data as in the rig, created once; a seed of another size (or --reseed) rebuilds them. */
    private void seed() throws SQLException {
        try (Connection c = connect("postgres"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
            if (!rs.next()) st.execute("CREATE DATABASE " + DATABASE);
        }
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            if (seededWith(st, customers, orders)) return;
            note("seeding " + customers + " customers and " + orders + " orders (once; kept for later runs)");
            long t0 = System.nanoTime();
            c.setAutoCommit(false);
            for (String sql : seedSql(customers, orders)) st.execute(sql);
            c.commit();
            c.setAutoCommit(true);
            st.execute("VACUUM ANALYZE customers");
            st.execute("VACUUM ANALYZE orders");
            note("seeded in " + (System.nanoTime() - t0) / 1_000_000_000 + " s");
        }
    }

    private static boolean seededWith(Statement st, long customers, long orders) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT customers, orders FROM vtlab_seed")) {
            return rs.next() && rs.getLong(1) == customers && rs.getLong(2) == orders;
        } catch (SQLException e) {
            return false; // no seed table yet
        }
    }

    /** Tables filled first and indexed after (faster than loading into indexed tables); the marker row last. */
    static List<String> seedSql(long customers, long orders) {
        return List.of(
                "SET LOCAL synchronous_commit = off",
                "DROP TABLE IF EXISTS vtlab_seed, orders, customers",
                "CREATE TABLE customers (id bigint NOT NULL, name text NOT NULL, email text NOT NULL, tier text NOT NULL,"
                        + " created_at timestamptz NOT NULL)",
                "CREATE TABLE orders (id bigint NOT NULL, customer_id bigint NOT NULL, status text NOT NULL,"
                        + " total_cents bigint NOT NULL, created_at timestamptz NOT NULL)",
                "INSERT INTO customers SELECT g, 'Customer ' || g, 'customer' || g || '@example.com',"
                        + " (ARRAY['bronze','silver','gold'])[1 + g % 3], timestamptz '2024-01-01' + (g % 1000) * interval '1 day'"
                        + " FROM generate_series(1, " + customers + "::bigint) g",
                "INSERT INTO orders SELECT g, 1 + (g * 7919) % " + customers + ","
                        + " (ARRAY['NEW','PAID','SHIPPED','DELIVERED','CANCELLED'])[1 + g % 5], 100 + (g * 37) % 100000,"
                        + " timestamptz '2024-01-01' + (g % 525600) * interval '1 minute'"
                        + " FROM generate_series(1, " + orders + "::bigint) g",
                "ALTER TABLE customers ADD PRIMARY KEY (id)",
                "ALTER TABLE orders ADD PRIMARY KEY (id)",
                "ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers (id)",
                "CREATE INDEX orders_customer_id ON orders (customer_id)",
                "CREATE TABLE vtlab_seed (customers bigint NOT NULL, orders bigint NOT NULL, seeded_at timestamptz NOT NULL)",
                "INSERT INTO vtlab_seed VALUES (" + customers + ", " + orders + ", now())");
    }

    // ---- helpers

    public String tail(int n) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static long longOption(Map<String, String> options, String key, long dflt) {
        String v = options.get(key);
        if (v == null || v.isBlank()) return dflt;
        long n = Long.parseLong(v.trim().replace("_", ""));
        if (n < 1) throw new IllegalArgumentException(key + " must be positive, not " + n);
        return n;
    }

    private static void note(String s) {
        System.err.println("vtlab: pg: " + s);
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(f);
        }
    }

    record Result(int code, String output) {
        boolean ok() {
            return code == 0;
        }
    }

    /** Runs a short command; its output on failure goes into the exception. */
    static String run(List<String> cmd, Duration timeout) throws IOException, InterruptedException {
        Result r = attempt(cmd, timeout);
        if (!r.ok()) throw new IOException(String.join(" ", cmd) + " failed (" + r.code() + "): " + r.output().strip());
        return r.output();
    }

    /** Runs a short command and returns its exit code and output (via a file, so a hung command cannot block us). */
    static Result attempt(List<String> cmd, Duration timeout) throws IOException, InterruptedException {
        Path out = Files.createTempFile("vtlab-cmd", ".txt");
        try {
            Process p = Children.track(new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start());
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                Children.stop(p.toHandle(), 1000);
                throw new IOException(String.join(" ", cmd) + " did not finish in " + timeout.toSeconds() + " s");
            }
            return new Result(p.exitValue(), Files.readString(out));
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
