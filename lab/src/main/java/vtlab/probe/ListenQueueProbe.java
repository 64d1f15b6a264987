package vtlab.probe;

import java.util.List;

import vtlab.data.Column;

/**
 * Handshakes the kernel dropped in the hold because the SUT's accept queue was full: TcpExt ListenOverflows of the SUT's
 * network namespace (/proc/PID/net/netstat, read where the SUT runs), before the hold's load opens its connections
 * and when it ends. A closed generator opens all its connections at once (wrk: 1,000 in its first milliseconds); a
 * server whose accept queue is shorter (Tomcat's acceptCount 100, Jetty's JDK default 50) drops the rest, and each of
 * those connections waits for the kernel's retry, a second or more, so the hold counts less than the server could do.
 * The counter is the namespace's: a listener other than the SUT in it (the stub, PostgreSQL) counts too, so a
 * non-zero value names the accept queue, the row's note says whose. Added to every row, as the served probe is.
 */
public final class ListenQueueProbe implements Probe {
    public static final String NAME = "listen";
    public static final Column OVERFLOWS = vtlab.data.Columns.LISTEN_OVERFLOWS;
    private Long before, after;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "handshakes dropped by a full accept queue in the hold (TcpExt ListenOverflows of the SUT's network namespace);"
                + " on every row: connections that began a second late make a closed row count less than the server could do";
    }

    @Override
    public List<Column> columns() {
        return List.of(OVERFLOWS);
    }

    /** /proc read where the SUT runs. */
    @Override
    public boolean remote() {
        return true;
    }

    /** The probes with this one (every row gets it: a connection storm the server dropped is part of every row's validity). */
    public static List<String> with(List<String> probes) {
        return Probes.with(probes, NAME);
    }

    /** Before the load: a generator connects in its first milliseconds, before start() could read. */
    @Override
    public void beforeHold(ProbeContext ctx) throws Exception {
        before = overflows(ctx.app().proc("net/netstat"));
    }

    @Override
    public void stop(ProbeContext ctx) throws Exception {
        after = overflows(ctx.app().proc("net/netstat"));
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) {
        if (before != null && after != null && after >= before) out.put(OVERFLOWS, after - before);
    }

    /**
     * ListenOverflows from a /proc net/netstat text (pairs of lines: "TcpExt: name ..." then "TcpExt: value ..."), or
     * null when it has none.
     */
    static Long overflows(String netstat) {
        String[] lines = netstat.split("\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            if (!lines[i].startsWith("TcpExt:") || !lines[i + 1].startsWith("TcpExt:")) continue;
            String[] names = lines[i].trim().split("\\s+"), values = lines[i + 1].trim().split("\\s+");
            for (int k = 1; k < names.length && k < values.length; k++) {
                if (names[k].equals("ListenOverflows")) {
                    try {
                        return Long.parseLong(values[k]);
                    } catch (NumberFormatException e) {
                        return null;
                    }
                }
            }
            return null;
        }
        return null;
    }
}
