package vtlab.tier.tool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/** PostgreSQL's server binaries (postgres, initdb, pg_ctl): the folder that holds them, the newest major first. */
public final class PostgresServer implements Tool {
    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public String pinned() {
        return null;
    }

    @Override
    public String source() {
        return "Debian package postgresql (server binaries only, no system cluster)";
    }

    /** The newest /usr/lib/postgresql/N/bin with a server, else the folder of the postgres on PATH. */
    @Override
    public Optional<Path> find() {
        Path root = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(root)) {
            try (Stream<Path> s = Files.list(root)) {
                Optional<Path> newest = s.filter(d -> d.getFileName().toString().matches("\\d+"))
                        .sorted(Comparator.comparingInt((Path d) -> Integer.parseInt(d.getFileName().toString())).reversed())
                        .map(d -> d.resolve("bin")).filter(PostgresServer::hasServer).findFirst();
                if (newest.isPresent()) return newest;
            } catch (IOException ignored) {
                // unreadable: look on PATH
            }
        }
        return OsPackages.which("postgres").map(Path::getParent).filter(PostgresServer::hasServer);
    }

    public static boolean hasServer(Path binDir) {
        return Stream.of("postgres", "initdb", "pg_ctl").allMatch(b -> Files.isExecutable(binDir.resolve(b)));
    }

    @Override
    public String versionAt(Path binDir) {
        return AptTool.firstLine(RegistryTools.output(binDir.resolve("postgres"), "--version"));
    }

    @Override
    public Path install() throws IOException {
        // Debian's package would also create and start a system cluster; the lab only wants the binaries. A drop-in
        // (not createcluster.conf itself, a conffile of postgresql-common) says so before the install.
        Path conf = Path.of("/etc/postgresql-common/createcluster.d/vtlab-no-main-cluster.conf");
        if (OsPackages.canInstall() && !Files.exists(conf)) {
            Files.createDirectories(conf.getParent());
            Files.writeString(conf, "# written by vtlab before installing PostgreSQL: binaries only, no system cluster\n"
                    + "create_main_cluster = false\n");
        }
        OsPackages.requireInstall("postgresql");
        return find().orElseThrow(() -> new IOException("apt-get install postgresql left no server binaries in /usr/lib/postgresql/*/bin"));
    }
}
