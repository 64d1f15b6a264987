package vtlab.tier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import vtlab.tier.host.Host;
import vtlab.tier.host.HostRun;
import vtlab.proc.LogTail;
import vtlab.tier.host.HostedProcess;
import vtlab.tier.host.TierProcess;
import vtlab.tier.host.TierSite;

/**
 * PostgreSQL on a host of a run across hosts (the topology's pg entry): that host's own server binaries (the newest
 * /usr/lib/postgresql/N/bin, else the folder of postgres on its PATH), a new cluster in the run's work folder there
 * (made, seeded and removed with the run: nothing of a run is kept on a host), the same settings, access rules and
 * generated password as the lab's cluster here ({@link PostgresCluster}), listening on the host's address for the
 * lab and the SUT's host only, pinned to its CPUs there, run and stopped through the run like the SUT
 * ({@link HostedProcess}; pg_ctl's fast stop first). As root there the server runs as the system user `vtlab`
 * (made if missing), and the work folder lets it through (o+x) to its own folder.
 */
final class RemotePostgres implements PgServer {
    static final Duration SHORT = Duration.ofSeconds(30), INITDB = Duration.ofMinutes(3);
    /** Prints the folder of the host's server binaries: the newest /usr/lib/postgresql/N/bin with all three, else postgres's on PATH. */
    static final String FIND_BIN = """
            for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4,4nr); do
              if [ -x "$d/postgres" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; exit 0; fi
            done
            p=$(command -v postgres) || exit 1
            d=${p%/*}
            [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && echo "$d"
            """;
    /** As root: the server's user, made if missing (PostgreSQL refuses to run as root); prints its uid and gid. */
    static final String OS_USER = """
            id -u "$1" >/dev/null 2>&1 || useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$1" || exit 1
            echo "$(id -u "$1") $(id -g "$1")"
            """;

    private final TierSite site;
    private final Host host;
    private final HostRun run;
    private String bin, data;
    private List<String> asUser = List.of();
    private int port;
    private String password;
    private Path log;
    private HostedProcess server;

    RemotePostgres(TierSite site) {
        this.site = site;
        this.host = site.host();
        this.run = site.run();
    }

    /** The host's server binaries, or an IOException saying to install them there. */
    static String bin(Host host) throws IOException, InterruptedException {
        var r = host.run(List.of("sh", "-c", FIND_BIN), SHORT);
        String dir = r.output().strip();
        if (!r.ok() || dir.isEmpty()) {
            throw new IOException(host.name() + " (pg) has no PostgreSQL server (postgres, initdb and pg_ctl in /usr/lib/postgresql/N/bin or on"
                    + " its PATH): install the postgresql package there");
        }
        return dir.lines().toList().getLast();
    }

    void start(String cpus, Path logDir) throws IOException, InterruptedException {
        Files.createDirectories(logDir);
        log = logDir.resolve("pg.log");
        bin = bin(host);
        String work = run.dir(host), dir = work + "/pg";
        data = dir + "/data";
        host.output(List.of("mkdir", "-m", "700", "--", dir), SHORT);
        if (host.output(List.of("id", "-u"), SHORT).strip().equals("0")) {
            String[] ids = host.output(List.of("sh", "-c", OS_USER, "sh", PostgresCluster.OS_USER), SHORT).strip().split("\\s+");
            asUser = PostgresCluster.asUser(Integer.parseInt(ids[0]), Integer.parseInt(ids[1]));
            // the work folder is its owner's alone (mode 700): the server's user may pass through it to its own folder
            host.output(List.of("chmod", "o+x", "--", work), SHORT);
            host.output(List.of("chown", ids[0] + ":" + ids[1], "--", dir), SHORT);
        }
        password = PostgresCluster.newPassword();
        String pwfile = dir + "/password";
        put(password + "\n", pwfile);
        note("creating a PostgreSQL cluster on " + host.name() + " in " + data);
        Files.writeString(log, host.output(as(PostgresCluster.initdbCommand(bin, data, pwfile)), INITDB),
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        put(PostgresCluster.hba(site.clients()), data + "/pg_hba.conf");
        port = run.freePort(host);
        server = HostedProcess.start(run, host, "pg", as(PostgresCluster.serverCommand(bin, data, port, cpus, site.listen())), vtlab.proc.Env.NONE,
                log, true, null);
        PgServer.awaitReady(this, server::alive, () -> "PostgreSQL on " + host.name() + " exited with " + server.exitValue()
                + " during start-up: " + tail(8), PostgresCluster.READY_TIMEOUT);
    }

    /** A command run as the server's user. */
    private List<String> as(List<String> cmd) {
        List<String> all = new ArrayList<>(asUser);
        all.addAll(cmd);
        return all;
    }

    /** A file of the server's, its text written here owner-only, copied there, handed to the server's user; the local copy removed. */
    private void put(String text, String path) throws IOException, InterruptedException {
        Path tmp = Files.createTempFile("vtlab-pg", ".txt"); // rw-------
        try {
            Files.writeString(tmp, text);
            host.copyTo(tmp, path, SHORT);
            host.output(List.of("chmod", "600", "--", path), SHORT);
            if (!asUser.isEmpty()) host.output(List.of("chown", PostgresCluster.OS_USER + ":", "--", path), SHORT);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String password() {
        return password;
    }

    @Override
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + site.endpoint(port) + "/" + database;
    }

    @Override
    public ProcessHandle process() {
        return null;
    }

    @Override
    public TierProcess tierProcess() {
        return server == null ? null : server.tier();
    }

    @Override
    public String tail(int n) {
        return server != null ? server.tail("PostgreSQL", n) : LogTail.of(log, n);
    }

    /** pg_ctl's fast stop there (every session ended, not waited for), then the process group through the run. */
    @Override
    public void close() {
        if (server == null) return;
        try {
            if (server.alive()) {
                var r = host.run(as(PostgresCluster.stopCommand(bin, data)), Duration.ofSeconds(40));
                if (!r.ok()) note("pg_ctl stop on " + host.name() + " failed (" + r.code() + "): " + r.output().strip() + "; stopping its processes");
            }
        } catch (IOException e) {
            note("pg_ctl stop on " + host.name() + " failed (" + e.getMessage() + "); stopping its processes");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.close();
    }

    private static void note(String s) {
        PostgresCluster.note(s);
    }
}
