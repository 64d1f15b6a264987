package vtlab.tier;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import vtlab.tier.host.TierProcess;

/**
 * A running PostgreSQL server of the lab as {@link PostgresTier} uses it: on this machine ({@link PostgresCluster},
 * kept between runs) or on a host of a run across hosts ({@link RemotePostgres}, made in the run's work folder there).
 * The lab reaches either over TCP with the generated password.
 */
interface PgServer extends AutoCloseable {
    int port();

    String password();

    String jdbcUrl(String database);

    /** This machine's handle of the server; null for one on a host. */
    ProcessHandle process();

    /** The server as the probes read it (its connections' backends with it), where it runs. */
    default TierProcess tierProcess() {
        ProcessHandle h = process();
        return h == null ? null : TierProcess.local(h);
    }

    String tail(int n);

    @Override
    void close();

    default Connection connect(String database) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", PostgresCluster.USER);
        p.setProperty("password", password());
        p.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(jdbcUrl(database), p);
    }

    /** Creates the database once; kept with the cluster. */
    default void ensureDatabase(String name) throws SQLException {
        try (Connection c = connect("postgres"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'")) {
            if (!rs.next()) st.execute("CREATE DATABASE " + name);
        }
    }

    /** Waits until the server answers a login, or says why not: it ended (alive false), or no login within timeout. */
    static void awaitReady(PgServer s, java.util.function.BooleanSupplier alive, java.util.function.Supplier<String> ended,
                           java.time.Duration timeout) throws java.io.IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!alive.getAsBoolean()) throw new java.io.IOException(ended.get());
            try (Connection c = s.connect("postgres")) {
                return;
            } catch (SQLException e) {
                last = e;
            }
            Thread.sleep(200);
        }
        throw new java.io.IOException("PostgreSQL not ready after " + timeout.toSeconds() + " s (" + (last == null ? "" : last.getMessage())
                + "): " + s.tail(8));
    }
}
