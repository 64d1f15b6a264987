package vtlab.tier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

import vtlab.tier.OsPackages;

/** The machine's PostgreSQL server binaries (postgres, initdb, pg_ctl): found, or installed from the OS packages. */
final class PostgresInstall {
    private PostgresInstall() {}

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
                        .map(d -> d.resolve("bin")).filter(PostgresInstall::hasServer).findFirst();
                if (newest.isPresent()) return newest;
            } catch (IOException ignored) {
                // unreadable: look on PATH
            }
        }
        return OsPackages.which("postgres").map(Path::getParent).filter(PostgresInstall::hasServer);
    }

    static boolean hasServer(Path binDir) {
        return Stream.of("postgres", "initdb", "pg_ctl").allMatch(b -> Files.isExecutable(binDir.resolve(b)));
    }
}
