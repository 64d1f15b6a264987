package vtlab.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/** Reads Linux /proc: CPU ticks and status fields of a process, cheaply enough to sample every second. */
public final class Proc {
    /** Clock ticks per second of /proc/<pid>/stat times; 100 on every Linux the lab targets (USER_HZ). */
    public static final double HZ = 100.0;

    private Proc() {}

    /** utime + stime of the process, plus those of its exited and waited-for children (cutime + cstime). */
    public static long cpuTicks(long pid) {
        try {
            String[] f = fieldsAfterName(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
            return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** One thread of a process: its /proc name (cut to 15 characters by the kernel) and utime + stime so far. */
    public record ThreadTicks(String name, long ticks) {}

    /** Every live thread of a process by thread id, from one read of each /proc/<pid>/task/<tid>/stat; empty when gone. */
    public static Map<Long, ThreadTicks> threadTicks(long pid) {
        Map<Long, ThreadTicks> out = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            tasks.forEach(t -> {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String[] f = fieldsAfterName(stat);
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    out.put(Long.parseLong(t.getFileName().toString()), new ThreadTicks(name, Long.parseLong(f[11]) + Long.parseLong(f[12])));
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
     * The fields of a stat line after the command name: the name (field 2) may contain spaces and parentheses, so
     * fields start after the last ')'. [0] is field 3 (state), [11] utime (field 14), [12] stime, [13] cutime, [14] cstime.
     */
    private static String[] fieldsAfterName(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    }

    /** CPU ticks of a process and all its live descendants (PostgreSQL serves each connection in a child). */
    public static long treeTicks(ProcessHandle p) {
        long sum = Math.max(0, cpuTicks(p.pid()));
        for (ProcessHandle d : p.descendants().toList()) sum += Math.max(0, cpuTicks(d.pid()));
        return sum;
    }

    /** A numeric field of /proc/<pid>/status (e.g. VmRSS in kB, Threads), or -1. */
    public static long statusField(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(field + ":")) return Long.parseLong(line.substring(field.length() + 1).trim().split("\\s+")[0]);
            }
        } catch (IOException | RuntimeException e) {
            // process gone
        }
        return -1;
    }

    /**
     * CPU ticks of the JIT's compiler threads so far (recognised by their /proc names, "C1 CompilerThre", "C2
     * CompilerThre": no jcmd needed, so the warm-up can ask every slice), or -1 when the process is gone.
     */
    public static long jitTicks(long pid) {
        Map<Long, ThreadTicks> threads = threadTicks(pid);
        if (threads.isEmpty()) return -1;
        return threads.values().stream().filter(t -> t.name().startsWith("C1 CompilerThre") || t.name().startsWith("C2 CompilerThre"))
                .mapToLong(ThreadTicks::ticks).sum();
    }

    /** Ticks over a stretch of seconds as % of one core. */
    public static double pct(long ticks, double seconds) {
        return ticks / HZ / seconds * 100.0;
    }
}
