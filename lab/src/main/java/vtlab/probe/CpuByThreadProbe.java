package vtlab.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Where the SUT's CPU went during the hold, by thread group: request threads (pool workers or virtual-thread
 * carriers), the connector's poller and acceptor, GC and VM, JIT, JFR. Read from /proc per thread by the lab (the SUT
 * pays nothing), named from a jcmd Thread.print taken after the load (/proc names are cut to 15 characters, which
 * makes Tomcat's poller and its workers look alike). Shows what a row's throughput was spent on: a JIT still
 * compiling, a GC share, the poller's share, what a probe's own threads cost.
 */
public final class CpuByThreadProbe implements Probe {
    /** jcmd Thread.print header: "name" ... nid=12345 (decimal on JDK 19+, hex before). */
    private static final Pattern HEADER = Pattern.compile("^\"(.*)\".*\\bnid=(0x[0-9a-fA-F]+|\\d+)");

    private Map<Long, Long> startTicks = Map.of();
    private long startNanos;

    @Override
    public String name() {
        return "cpu-threads";
    }

    @Override
    public String description() {
        return "SUT CPU % by thread group over the hold (requests, connector, gc-vm, jit, jfr, other): app_cpu_by_thread";
    }

    @Override
    public void start(ProbeContext ctx) {
        startNanos = System.nanoTime();
        startTicks = ticksByThread(ctx.app().pid());
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) throws Exception {
        double secs = (System.nanoTime() - startNanos) / 1e9;
        Map<Long, Long> end = ticksByThread(ctx.app().pid());
        Map<Long, String> names = names(Jcmd.run(ctx.row().jdk(), ctx.app().pid(), "Thread.print"));
        Map<String, Long> ticks = new HashMap<>();
        end.forEach((tid, t) -> {
            long d = t - startTicks.getOrDefault(tid, 0L);
            if (d > 0) ticks.merge(group(names.getOrDefault(tid, comm(ctx.app().pid(), tid))), d, Long::sum);
        });
        if (secs > 0) out.put("app_cpu_by_thread", render(ticks, secs));
    }

    /** "requests 61.2;connector 18.9;gc-vm 3.1" in % of one core, largest first. */
    static String render(Map<String, Long> ticks, double secs) {
        return ticks.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .map(e -> String.format(Locale.ROOT, "%s %.1f", e.getKey(), CpuProbe.pct(e.getValue(), secs)))
                .collect(Collectors.joining(";"));
    }

    /** The group a JVM thread belongs to, by the names Tomcat, Reactor Netty and HotSpot give their threads. */
    static String group(String name) {
        if (name.endsWith("-Poller") || name.endsWith("-Acceptor") || name.contains("ClientPoller")) return "connector";
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

    /** utime + stime of every live thread of a process, by thread id. */
    static Map<Long, Long> ticksByThread(long pid) {
        Map<Long, Long> out = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            tasks.forEach(t -> {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
                    out.put(Long.parseLong(t.getFileName().toString()), Long.parseLong(f[11]) + Long.parseLong(f[12]));
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read
                }
            });
        } catch (IOException e) {
            // process gone: no reading
        }
        return out;
    }

    /**
     * CPU ticks of the JIT's compiler threads so far (recognised by their /proc names, "C1 CompilerThre", "C2
     * CompilerThre": no jcmd needed, so the warm-up can ask every slice), or -1 when the process is gone.
     */
    public static long jitTicks(long pid) {
        Map<Long, Long> ticks = ticksByThread(pid);
        if (ticks.isEmpty()) return -1;
        long sum = 0;
        for (var e : ticks.entrySet()) {
            String comm = comm(pid, e.getKey());
            if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) sum += e.getValue();
        }
        return sum;
    }

    private static String comm(long pid, long tid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "comm")).strip();
        } catch (IOException e) {
            return "?";
        }
    }
}
