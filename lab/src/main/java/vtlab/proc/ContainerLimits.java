package vtlab.proc;

import java.util.Locale;

import vtlab.core.UsageError;

/**
 * A SUT's container limits as Kubernetes sets them through its container runtime: a CPU quota (limits.cpu, CFS
 * quota over a 100 ms period) and a memory limit (limits.memory, the cgroup's hard limit: the kernel's OOM killer
 * past it). Parsed once when a row is planned; {@link #NONE} for a SUT that runs as today (its cpuset only).
 *
 * @param cpus        the quota in CPUs (0.5: 50 ms of CPU time per 100 ms period), or null for none
 * @param memoryBytes the memory limit in bytes, or null for none
 */
public record ContainerLimits(Double cpus, Long memoryBytes) {
    public static final ContainerLimits NONE = new ContainerLimits(null, null);

    /** The CFS period a container runtime writes (Docker's and the kubelet's default, 100 ms). */
    public static final long PERIOD_US = 100_000;

    /** The kernel refuses a quota below 1 ms per period. */
    static final double MIN_CPUS = 0.01;

    /**
     * The lab's floor for a memory limit: `java -version` alone was charged 22 MB here (JDK 25, 0.5 CPU), and a server
     * needs its heap, metaspace and code cache besides; a limit below this is refused rather than run into a start-up
     * kill.
     */
    public static final long MIN_MEMORY = 64L << 20;

    public ContainerLimits {
        if (cpus != null && !(cpus >= MIN_CPUS)) throw new IllegalArgumentException("a CPU quota must be at least " + MIN_CPUS);
        if (memoryBytes != null && memoryBytes < MIN_MEMORY) throw new IllegalArgumentException("a memory limit must be at least 64m");
    }

    public boolean none() {
        return cpus == null && memoryBytes == null;
    }

    /** The quota in microseconds per {@link #PERIOD_US}, or -1 (none). */
    public long quotaMicros() {
        return cpus == null ? -1 : Math.round(cpus * PERIOD_US);
    }

    /** As written on the command line and in the dataset: "0.5" CPUs, "512m" (mebibytes; "1g" when whole gibibytes). */
    public String cpuSpec() {
        return cpus == null ? null : cpus == Math.rint(cpus) ? Long.toString(cpus.longValue()) : String.format(Locale.ROOT, "%s", cpus);
    }

    public String memorySpec() {
        if (memoryBytes == null) return null;
        long mb = memoryBytes >> 20;
        if (memoryBytes == mb << 20) return mb % 1024 == 0 ? (mb / 1024) + "g" : mb + "m";
        return Long.toString(memoryBytes);
    }

    public Long memoryMb() {
        return memoryBytes == null ? null : memoryBytes >> 20;
    }

    @Override
    public String toString() {
        if (none()) return "none";
        StringBuilder b = new StringBuilder();
        if (cpus != null) b.append("cpu=").append(cpuSpec());
        if (memoryBytes != null) b.append(b.isEmpty() ? "" : " ").append("mem=").append(memorySpec());
        return b.toString();
    }

    /**
     * --cpu-quota's value: CPUs as a number (0.5, 1, 1.5) or Kubernetes millicores (500m). Refused in one line when it
     * is not one or is below the kernel's 1 ms per 100 ms.
     */
    public static double parseCpus(String s) throws UsageError {
        String v = s.trim();
        double cpus;
        try {
            cpus = v.endsWith("m") ? Double.parseDouble(v.substring(0, v.length() - 1)) / 1000 : Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new UsageError("--cpu-quota takes CPUs (0.5, 1) or millicores (500m), not '" + v + "'");
        }
        if (!(cpus >= MIN_CPUS) || Double.isInfinite(cpus)) {
            throw new UsageError("--cpu-quota must be at least " + MIN_CPUS + " CPUs (10m: the kernel's 1 ms per 100 ms period), not '" + v + "'");
        }
        return cpus;
    }

    /**
     * --memory-limit's value: bytes with a suffix as Docker (512m, 1g, 65536k) or Kubernetes (512Mi, 1Gi, 500M, 1G)
     * writes it; refused in one line when it is not one or is below what a JVM starts in ({@link #MIN_MEMORY}).
     */
    public static long parseMemory(String s) throws UsageError {
        String v = s.trim();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?)([kKmMgG]i?|[kmg]|)[bB]?").matcher(v);
        if (!m.matches()) throw new UsageError("--memory-limit takes a size (256m, 1g, 512Mi, 1Gi), not '" + v + "'");
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2);
        double mult = switch (unit) {
            case "" -> 1;
            case "k", "K", "Ki", "ki" -> 1024;
            case "m", "Mi", "mi" -> 1024 * 1024;
            case "g", "Gi", "gi" -> 1024.0 * 1024 * 1024;
            case "M" -> 1e6; // Kubernetes: M and G are decimal, Mi and Gi binary; Docker's m and g binary
            case "G" -> 1e9;
            default -> throw new UsageError("--memory-limit: unknown unit '" + unit + "' in '" + v + "'");
        };
        long bytes = Math.round(n * mult);
        if (bytes < MIN_MEMORY) {
            throw new UsageError("--memory-limit " + v + " is below what a JVM starts in (at least 64m)");
        }
        return bytes;
    }

    /** Refused in one line: a memory limit above this machine's memory (MemTotal) could never be reached, so it limits nothing. */
    public void refuseMemoryAbove(long machineBytes) throws UsageError {
        if (memoryBytes != null && machineBytes > 0 && memoryBytes > machineBytes) {
            throw new UsageError("--memory-limit " + memorySpec() + " is above this machine's memory (MemTotal " + (machineBytes >> 20)
                    + " MiB): a limit it can never reach limits nothing");
        }
    }

    /** Refused in one line: a quota above the CPUs the SUT is pinned to could never be used up, so it limits nothing. */
    public void refuseAbove(int appCpus) throws UsageError {
        if (cpus != null && cpus > appCpus) {
            throw new UsageError("--cpu-quota " + cpuSpec() + " is above the SUT's " + appCpus + " CPU" + (appCpus == 1 ? "" : "s")
                    + " (--cpus-app): a quota it cannot use up limits nothing");
        }
    }
}
