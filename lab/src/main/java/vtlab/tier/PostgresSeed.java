package vtlab.tier;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import vtlab.stack.StackData;

/**
 * Applies a stack's data (schema + seed SQL with its sizes) to the lab's database once, and keeps it between runs:
 * a marker table holds a digest of the applied statements, so the same data is not loaded again while another size
 * or changed SQL rebuilds it.
 */
final class PostgresSeed {
    static final String MARKER_TABLE = "vtlab_seed";

    private PostgresSeed() {}

    /** The seed's sizes: the stack's defaults, each overridden by the tier option "tier.size" (e.g. pg.orders=10_000). */
    static Map<String, Long> sizes(StackData data, String tier, TierOptions options) {
        Map<String, Long> out = new LinkedHashMap<>();
        data.sizes().forEach((k, v) -> out.put(k, longOption(options, tier + "." + k, v)));
        return out;
    }

    static long longOption(TierOptions options, String key, long dflt) {
        String v = options.get(key);
        if (v == null || v.isBlank()) return dflt;
        long n = Long.parseLong(v.trim().replace("_", ""));
        if (n < 1) throw new IllegalArgumentException(key + " must be positive, not " + n);
        return n;
    }

    /**
     * Everything the data's (re)build runs in one transaction: schema, then seed, the marker row last (so only a
     * complete load is marked). The sizes are numbers, so filling them into the text cannot inject SQL.
     */
    static List<String> statements(String schemaSql, String seedSql, Map<String, Long> sizes) {
        List<String> out = new ArrayList<>();
        out.add("SET LOCAL synchronous_commit = off");
        out.add("DROP TABLE IF EXISTS " + MARKER_TABLE);
        for (String s : split(schemaSql)) out.add(render(s, sizes));
        for (String s : split(seedSql)) out.add(render(s, sizes));
        String digest = digest(out);
        out.add("CREATE TABLE " + MARKER_TABLE + " (digest text NOT NULL, sizes text NOT NULL, seeded_at timestamptz NOT NULL)");
        out.add("INSERT INTO " + MARKER_TABLE + " VALUES ('" + digest + "', '" + describe(sizes) + "', now())");
        return out;
    }

    /** Fills {size} placeholders; one left unfilled is an error in the stack's SQL, not a silent literal. */
    static String render(String sql, Map<String, Long> sizes) {
        String out = sql;
        for (var e : sizes.entrySet()) out = out.replace("{" + e.getKey() + "}", Long.toString(e.getValue()));
        if (out.matches("(?s).*\\{[a-zA-Z][a-zA-Z0-9_]*}.*")) throw new IllegalStateException("unfilled placeholder in: " + out);
        return out;
    }

    /**
     * A SQL script's statements, split at semicolons outside quotes and comments; comments are dropped. Enough for
     * schema and seed files (no dollar-quoted function bodies).
     */
    static List<String> split(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int n = script.length();
        for (int i = 0; i < n; i++) {
            char ch = script.charAt(i);
            if (ch == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                while (i < n && script.charAt(i) != '\n') i++;
                cur.append('\n');
            } else if (ch == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
                int end = script.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 1;
                cur.append(' ');
            } else if (ch == '\'' || ch == '"') {
                int j = i + 1;
                while (j < n && script.charAt(j) != ch) j++;
                cur.append(script, i, Math.min(j + 1, n));
                i = j; // a doubled quote ('') reads as two adjacent literals: same text
            } else if (ch == ';') {
                add(out, cur);
            } else {
                cur.append(ch);
            }
        }
        add(out, cur);
        return out;
    }

    private static void add(List<String> out, StringBuilder cur) {
        String s = cur.toString().strip();
        if (!s.isEmpty()) out.add(s);
        cur.setLength(0);
    }

    static String digest(List<String> statements) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(String.join(";\n", statements).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String describe(Map<String, Long> sizes) {
        return sizes.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
    }

    /** Loads the data unless this very data is there already; then vacuums and analyzes its tables. */
    static void apply(Connection c, StackData data, Map<String, Long> sizes) throws IOException, SQLException {
        apply(c, data, sizes, true);
    }

    /** @param kept whether the cluster outlives the run (this machine's), or is the run's own (on a host) */
    static void apply(Connection c, StackData data, Map<String, Long> sizes, boolean kept) throws IOException, SQLException {
        List<String> sql = statements(Files.readString(data.schema()), Files.readString(data.seed()), sizes);
        String digest = digest(sql.subList(0, sql.size() - 2));
        try (Statement st = c.createStatement()) {
            if (seeded(st, digest)) return;
            PostgresCluster.note("seeding " + data.stack() + "'s data (" + describe(sizes) + (kept ? "; once, kept for later runs)" : "; for this run)"));
            long t0 = System.nanoTime();
            c.setAutoCommit(false);
            for (String s : sql) st.execute(s);
            c.commit();
            c.setAutoCommit(true);
            // VACUUM cannot run in a transaction: after the commit, for every table the data made
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public'")) {
                while (rs.next()) tables.add(rs.getString(1));
            }
            for (String t : tables) st.execute("VACUUM ANALYZE " + t);
            PostgresCluster.note("seeded in " + (System.nanoTime() - t0) / 1_000_000_000 + " s");
        }
    }

    private static boolean seeded(Statement st, String digest) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT digest FROM " + MARKER_TABLE)) {
            return rs.next() && digest.equals(rs.getString(1));
        } catch (SQLException e) {
            return false; // no marker table yet (or one of an older layout): load
        }
    }
}
