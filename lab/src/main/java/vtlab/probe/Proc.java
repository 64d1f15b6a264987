package vtlab.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads Linux /proc: CPU ticks and status fields of a process, cheaply enough to sample every second. */
public final class Proc {
    /** Clock ticks per second of /proc/<pid>/stat times; 100 on every Linux the lab targets (USER_HZ). */
    public static final double HZ = 100.0;

    private Proc() {}

    /** utime + stime of the process, plus those of its exited and waited-for children (cutime + cstime). */
    public static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The command name (field 2) may contain spaces: fields start after the last ')'.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
            // f[0] is field 3 (state); utime is field 14 -> f[11]
            return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
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
}
