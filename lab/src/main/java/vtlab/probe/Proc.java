package vtlab.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import vtlab.tier.host.TierProcess;

/**
 * Reads Linux /proc: CPU ticks and status fields of a process, cheaply enough to sample every second. A tier's
 * process ({@link TierProcess}) on this machine is read here directly, as always; one on another host through its
 * host's file session, the same files parsed the same way.
 */
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

    /** The nice value of a process (stat field 19): above 0 it runs at a lower priority than the default; 0 when unread. */
    public static int nice(long pid) {
        try {
            return Integer.parseInt(fieldsAfterName(Files.readString(Path.of("/proc", Long.toString(pid), "stat")))[16]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * Each process at a lower priority than nice (its own nice above it) but those named, by pid: {user ticks, system
     * ticks, its parent's pid}, each with the children it reaped: a build at nice 19 whole, its system time too (a C
     * build's many short compilers: up to half a core), its finished compilers through the make or cargo that waited
     * for them. One pass over /proc; {@link LowerPriorityTicks} keeps them across readings.
     */
    public static java.util.Map<Long, long[]> lowerPriorityProcesses(int nice, java.util.Set<Long> except) {
        java.util.Map<Long, long[]> out = new java.util.HashMap<>();
        try (Stream<Path> all = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) all::iterator) {
                String pid = p.getFileName().toString();
                if (pid.isEmpty() || !Character.isDigit(pid.charAt(0)) || except.contains(Long.parseLong(pid))) continue;
                try {
                    String[] f = fieldsAfterName(Files.readString(p.resolve("stat")));
                    if (Integer.parseInt(f[16]) <= nice) continue;
                    out.put(Long.parseLong(pid), new long[] {Long.parseLong(f[11]) + Long.parseLong(f[13]), Long.parseLong(f[12]) + Long.parseLong(f[14]),
                            Long.parseLong(f[1])});
                } catch (IOException | RuntimeException e) {
                    // it ended between the listing and the read: its parent has its ticks now
                }
            }
        } catch (IOException e) {
            // no /proc: nothing seen
        }
        return out;
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
        return jitTicks(threadTicks(pid));
    }

    /** A JIT compiler thread, by its /proc name (truncated to 15 characters there). */
    static boolean compilerThread(String name) {
        return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
    }

    /** The thread ids of a local process's JIT compiler threads now (empty when it is gone). */
    public static Set<Long> compilerThreadIds(long pid) {
        Set<Long> out = new TreeSet<>();
        threadTicks(pid).forEach((tid, t) -> {
            if (compilerThread(t.name())) out.add(tid);
        });
        return out;
    }

    /** The compiler threads' ticks among a process's threads; -1 for none (the process is gone). */
    static long jitTicks(Map<Long, ThreadTicks> threads) {
        if (threads.isEmpty()) return -1;
        return threads.values().stream().filter(t -> compilerThread(t.name()))
                .mapToLong(ThreadTicks::ticks).sum();
    }

    /**
     * CPU ticks of a tier: each member's (a group of load agents is one tier), a local one with its descendants
     * ({@link #treeTicks(ProcessHandle)}), one on another host alone (the lab execs its processes there, so they have
     * none: a SUT's JVM, an agent's generator) or with its children when they do its work (a database there:
     * {@link TierProcess#children}); 0 for a member that cannot be read.
     */
    public static long treeTicks(TierProcess p) {
        long sum = 0;
        for (TierProcess m : p.members()) {
            if (m.local().isPresent()) {
                sum += treeTicks(m.local().get());
                continue;
            }
            try {
                sum += Math.max(0, ticks(m.proc("stat")));
                for (TierProcess c : m.children()) {
                    try {
                        sum += Math.max(0, ticks(c.proc("stat")));
                    } catch (java.nio.file.NoSuchFileException e) {
                        // a child that ended since the list was read: its ticks went to the parent's cutime
                    }
                }
            } catch (IOException | RuntimeException e) {
                // gone, or its host did not answer: no reading
            }
        }
        return sum;
    }

    /** A numeric field of the tier process's /proc status (VmRSS in kB, Threads), or -1; read where it runs. */
    public static long statusField(TierProcess p, String field) {
        if (p.local().isPresent()) return statusField(p.pid(), field);
        try {
            return statusField(p.proc("status"), field);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * The compiler threads' CPU time so far in nanoseconds, from /proc/PID/task/TID/schedstat (exact, where the 100 Hz
     * ticks of stat tell 2% of a core from 0 only over whole seconds); read where the process runs, from its ticks
     * when it runs on another host; -1 when gone.
     */
    public static long jitNanos(TierProcess p) {
        if (p.local().isEmpty()) {
            long ticks = jitTicks(p);
            return ticks < 0 ? -1 : (long) (ticks * 1e9 / HZ);
        }
        long sum = 0;
        boolean any = false;
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(p.pid()), "task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    any = true;
                    String name = Files.readString(t.resolve("comm")).strip();
                    if (!compilerThread(name)) continue;
                    String sched = Files.readString(t.resolve("schedstat")).strip();
                    sum += Long.parseLong(sched.substring(0, sched.indexOf(' ')));
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read (the JIT starts and ends compiler threads)
                }
            }
        } catch (IOException e) {
            return -1; // process gone
        }
        return any ? sum : -1;
    }

    /** The JIT's compiler threads' ticks so far ({@link #jitTicks(long)}), read where the process runs; -1 when gone. */
    public static long jitTicks(TierProcess p) {
        return jitTicks(threadTicks(p));
    }

    /**
     * Every live thread of the process ({@link #threadTicks(long)}), read where it runs; empty when gone or not read.
     * A thread that ends between the glob and its read fails the whole read there (the JIT starts and ends compiler
     * threads as it needs them): read again, a few times.
     */
    public static Map<Long, ThreadTicks> threadTicks(TierProcess p) {
        if (p.local().isPresent()) return threadTicks(p.pid());
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return threads(p.proc("task/*/stat"));
            } catch (java.nio.file.NoSuchFileException e) {
                // a thread gone under the read, or the process itself: the next read says which
            } catch (IOException | RuntimeException e) {
                return Map.of();
            }
        }
        return Map.of();
    }

    /** utime + stime + cutime + cstime of one stat line. */
    static long ticks(String stat) {
        String[] f = fieldsAfterName(stat);
        return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
    }

    /** A numeric field of a status file's text, or -1. */
    static long statusField(String status, String field) {
        for (String line : status.lines().toList()) {
            if (line.startsWith(field + ":")) return Long.parseLong(line.substring(field.length() + 1).trim().split("\\s+")[0]);
        }
        return -1;
    }

    /** Threads by id from stat lines one after another (task/{@literal *}/stat of a process): the first field is the id. */
    static Map<Long, ThreadTicks> threads(String stats) {
        Map<Long, ThreadTicks> out = new HashMap<>();
        for (String stat : stats.lines().filter(l -> !l.isBlank()).toList()) {
            String[] f = fieldsAfterName(stat);
            String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
            out.put(Long.parseLong(stat.substring(0, stat.indexOf(' '))), new ThreadTicks(name, Long.parseLong(f[11]) + Long.parseLong(f[12])));
        }
        return out;
    }

    /** Ticks over a stretch of seconds as % of one core. */
    public static double pct(long ticks, double seconds) {
        return ticks / HZ / seconds * 100.0;
    }
}
