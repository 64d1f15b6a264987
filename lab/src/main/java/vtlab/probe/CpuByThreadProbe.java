package vtlab.probe;

import java.util.List;

import vtlab.data.Column;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Where the SUT's CPU went during the hold, by thread group: request threads (pool workers or virtual-thread
 * carriers), the connector's poller and acceptor, GC and VM, JIT, JFR. Read from /proc per thread by the lab (the SUT
 * pays nothing; across hosts through the host's read session), named from a jcmd Thread.print taken after the load
 * where the SUT runs (/proc names are cut to 15 characters, which
 * makes Tomcat's poller and its workers look alike). Shows what a row's throughput was spent on: a JIT still
 * compiling, a GC share, the poller's share, what a probe's own threads cost.
 */
public final class CpuByThreadProbe implements Probe {
    /** jcmd Thread.print header: "name" ... nid=12345 (decimal on JDK 19+, hex before). */
    private static final Pattern HEADER = Pattern.compile("^\"(.*)\".*\\bnid=(0x[0-9a-fA-F]+|\\d+)");

    static final Column BY_THREAD = vtlab.data.Columns.APP_CPU_BY_THREAD;

    @Override
    public java.util.List<Column> columns() {
        return java.util.List.of(BY_THREAD);
    }

    private Map<Long, Proc.ThreadTicks> start = Map.of();
    private long startNanos;

    @Override
    public String name() {
        return "cpu-threads";
    }

    /** /proc read where the SUT runs, jcmd on its host. */
    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public String description() {
        return "SUT CPU % by thread group over the hold (requests, connector, gc-vm, jit, jfr, other): app_cpu_by_thread";
    }

    @Override
    public void start(ProbeContext ctx) {
        startNanos = System.nanoTime();
        start = Proc.threadTicks(ctx.app());
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) throws Exception {
        double secs = (System.nanoTime() - startNanos) / 1e9;
        Map<Long, Proc.ThreadTicks> end = Proc.threadTicks(ctx.app());
        Map<Long, String> names = names(Jcmd.run(ctx.app(), ctx.row().jdk(), "Thread.print"));
        Map<String, Long> ticks = new HashMap<>();
        end.forEach((tid, t) -> {
            Proc.ThreadTicks before = start.get(tid);
            long d = t.ticks() - (before == null ? 0 : before.ticks());
            // a thread that ended before the dump keeps its /proc name
            if (d > 0) ticks.merge(group(names.getOrDefault(tid, t.name())), d, Long::sum);
        });
        if (secs > 0) out.put(BY_THREAD, render(ticks, secs));
    }

    /** "requests 61.2;connector 18.9;gc-vm 3.1" in % of one core, largest first. */
    static String render(Map<String, Long> ticks, double secs) {
        return ticks.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .map(e -> String.format(Locale.ROOT, "%s %.1f", e.getKey(), CpuProbe.pct(e.getValue(), secs)))
                .collect(Collectors.joining(";"));
    }

    /**
     * The group a JVM thread belongs to, by the names the servers and HotSpot give their threads: connector (Tomcat's
     * poller and acceptor, Jetty's acceptor, Helidon's listener), requests (Tomcat's request pools, the virtual-thread
     * carriers that run Helidon's and every virtual mode's requests, Reactor Netty's event loops), jetty-pool (the jetty
     * stack's QueuedThreadPool: its selectors, and on platform threads the requests too; in front of virtual threads,
     * the selectors alone).
     */
    static String group(String name) {
        if (name.endsWith("-Poller") || name.endsWith("-Acceptor") || name.contains("ClientPoller") || name.contains("-acceptor-")
                || name.startsWith("server-@") && name.endsWith("-listener")) return "connector";
        if (name.startsWith("jetty-qtp-")) return "jetty-pool";
        if (name.contains("-exec-") || name.startsWith("ForkJoinPool-") || name.startsWith("reactor-http-")
                || name.startsWith("parallel-") || name.startsWith("boundedElastic-")) return "requests";
        if (name.startsWith("C1 CompilerThread") || name.startsWith("C2 CompilerThread")) return "jit";
        if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.startsWith("VM ") || name.startsWith("ZGC")
                || name.startsWith("Shenandoah")) return "gc-vm";
        if (name.startsWith("JFR ")) return "jfr";
        return "other";
    }

    static Map<Long, String> names(String threadPrint) {
        Map<Long, String> out = new LinkedHashMap<>();
        for (String line : threadPrint.split("\n")) {
            Matcher m = HEADER.matcher(line);
            if (!m.find()) continue;
            String nid = m.group(2);
            out.put(nid.startsWith("0x") ? Long.parseLong(nid.substring(2), 16) : Long.parseLong(nid), m.group(1));
        }
        return out;
    }
}
