package vtlab.tier;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.OptionalLong;

import vtlab.proc.Env;
import vtlab.stack.StackData;
import vtlab.tier.host.TierProcess;
import vtlab.tier.host.TierSite;

/**
 * PostgreSQL as a run tier: the machine's server binaries running the lab's own cluster ({@link PostgresCluster}),
 * with the data the row's stack declares for this tier applied once and kept between runs ({@link PostgresSeed}); the
 * "reseed" option rebuilds the cluster. On a host of a run across hosts (its context's {@link TierSite}) a cluster of
 * the run in the work folder there instead ({@link RemotePostgres}), seeded for that run. Counts statements through pg_stat_statements so
 * experiments can prove requests really query.
 */
public final class PostgresTier implements RunTier {
    public static final String NAME = "pg";
    /** Across hosts it runs the server binaries of the host (the host's own PostgreSQL). */
    public static final Tiers.Entry TIER = Tiers.Entry.of(NAME, PostgresTier::new).acrossHosts((host, copyJdk) -> requireServer(host));
    public static final String DATABASE = PostgresCluster.DATABASE, USER = PostgresCluster.USER;
    /** Tier option: reseed=true rebuilds the cluster and its data. Seed sizes are options too: pg.<size> (see StackData). */
    public static final String OPT_RESEED = "reseed";

    private PgServer cluster;
    /** Where the SUT reaches it (an IPv6 address in brackets). */
    private String host = TierSite.LOOPBACK;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(Context ctx) throws Exception {
        StackData data = ctx.data() != null && NAME.equals(ctx.data().tier()) ? ctx.data() : null;
        host = ctx.site().endpoint(0).replaceFirst(":0$", "");
        // sizes first: a bad option fails before anything is installed or started
        Map<String, Long> sizes = data == null ? Map.of() : PostgresSeed.sizes(data, NAME, ctx.options());
        if (ctx.site().remote()) {
            RemotePostgres remote = new RemotePostgres(ctx.site());
            cluster = remote;
            remote.start(ctx.cpus(), ctx.logDir());
        } else {
            PostgresCluster here = new PostgresCluster(vtlab.tier.tool.Tools.POSTGRES.get());
            cluster = here;
            here.start(ctx.cpus(), ctx.stateDir(), ctx.logDir(), ctx.options().flag(OPT_RESEED), ctx.site());
        }
        cluster.ensureDatabase(DATABASE);
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            if (data != null) PostgresSeed.apply(c, data, sizes, !ctx.site().remote());
        }
    }

    /** Before anything starts: the server binaries on a host that is to run the database, or an IOException saying to install them. */
    public static void requireServer(vtlab.tier.host.Host host) throws java.io.IOException, InterruptedException {
        RemotePostgres.bin(host);
    }

    @Override
    public java.util.List<vtlab.tier.tool.Tool> tools() {
        return java.util.List.of(vtlab.tier.tool.Tools.POSTGRES);
    }

    @Override
    public ProcessHandle process() {
        return cluster == null ? null : cluster.process();
    }

    /** Read where it runs, its connections' backends with it. */
    @Override
    public TierProcess tierProcess() {
        return cluster == null ? null : cluster.tierProcess();
    }

    @Override
    public Env sutEnv() {
        return Env.NONE.with("DB_URL", jdbcUrl()).with("DB_USER", USER).with("DB_PASSWORD", cluster.password());
    }

    @Override
    public java.util.List<String> endpoints() {
        return java.util.List.of(host + ":" + port());
    }

    /**
     * A session that holds ACCESS EXCLUSIVE locks on every table of the lab's database until what it returns is closed:
     * every query that reads them waits (the SUT's pooled connections with it), as behind a long migration or a stuck
     * transaction (the lock fault, db:lock). Ended by rolling the transaction back.
     */
    public AutoCloseable lockTables() throws SQLException {
        Connection c = connect();
        try {
            c.setAutoCommit(false);
            java.util.List<String> tables = new java.util.ArrayList<>();
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public'")) {
                while (rs.next()) tables.add(rs.getString(1));
            }
            if (tables.isEmpty()) throw new SQLException("the lab's database has no table to lock");
            try (Statement st = c.createStatement()) {
                st.execute("LOCK TABLE " + String.join(", ", tables) + " IN ACCESS EXCLUSIVE MODE");
            }
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return () -> {
            try (c) {
                c.rollback();
            }
        };
    }

    public String jdbcUrl() {
        return cluster.jdbcUrl(DATABASE);
    }

    public int port() {
        return cluster.port();
    }

    public Connection connect() throws SQLException {
        return cluster.connect(DATABASE);
    }

    /** Calls of the statements whose normalized text contains marker (pg_stat_statements), in the lab's database. */
    @Override
    public OptionalLong statementCalls(String marker) throws SQLException {
        try (Connection c = connect(); var st = c.prepareStatement(
                "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
                        + " WHERE d.datname = current_database() AND s.query LIKE ?")) {
            st.setString(1, "%" + marker + "%");
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return OptionalLong.of(rs.getLong(1));
            }
        }
    }

    public String tail(int n) {
        return cluster == null ? "(no log)" : cluster.tail(n);
    }

    @Override
    public void close() {
        if (cluster != null) cluster.close();
    }
}
