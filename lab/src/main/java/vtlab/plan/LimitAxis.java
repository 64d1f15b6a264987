package vtlab.plan;

import java.util.ArrayList;
import java.util.List;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.proc.ContainerLimits;

/**
 * --cpu-quota and --memory-limit: the SUT in a cgroup of its own for each row, with a CFS quota and a memory limit as a
 * container runtime sets a Kubernetes pod's limits (docs/containers.md); two axes like the others (each value a row,
 * "none" a row without that limit), crossed with every experiment's rows. Parsed once here into the row's
 * {@link Row#limits()}; values are refused in one line when they do not parse or a JVM could not start under them.
 * <p>
 * As in a pod, a contained JVM sizes itself from the limits unless told otherwise: without --jvm-args the lab's heap
 * flags (-Xms/-Xmx) are not passed to a row with a memory limit, and without --carriers the carrier count is not
 * passed to a row with a CPU quota (the JVM's default: one per CPU it sees).
 */
public final class LimitAxis {
    public static final Opt CPU_QUOTA = Opt.of("cpu-quota", null, "the SUT in a cgroup with a CPU quota (as limits.cpu of a pod), an axis:\n"
            + "CPUs (0.5,1) or millicores (500m); none: no quota; at most the SUT's CPUs (--cpus-app)").typed(Opt.Type.STRINGS).inScenario("service");
    public static final Opt MEMORY_LIMIT = Opt.of("memory-limit", null, "the SUT in a cgroup with a memory limit (as limits.memory of a pod), an axis:\n"
            + "256m,1g or 512Mi; none: no limit; past it the kernel kills the SUT and the row fails;\n"
            + "without --jvm-args the JVM sizes its heap from it (no -Xms/-Xmx)").typed(Opt.Type.STRINGS).inScenario("service");

    private LimitAxis() {}

    /** Quotas and limits of an axis: each value parsed (null: "none"); empty without the option. */
    static List<Double> cpus(Options o, Opt axis) throws UsageError {
        List<Double> out = new ArrayList<>();
        if (axis.given(o) || axis.dflt() != null) for (String v : values(o, axis)) out.add(v.equals("none") ? null : ContainerLimits.parseCpus(v));
        return out;
    }

    static List<Long> memory(Options o, Opt axis) throws UsageError {
        List<Long> out = new ArrayList<>();
        if (axis.given(o) || axis.dflt() != null) for (String v : values(o, axis)) out.add(v.equals("none") ? null : ContainerLimits.parseMemory(v));
        return out;
    }

    /** An axis's values; one left empty ("--cpu-quota ,", "0.5,,1") is refused: it would silently be no row at all. */
    private static List<String> values(Options o, Opt axis) throws UsageError {
        List<String> out = new ArrayList<>();
        for (String v : axis.given(o) ? axis.every(o) : axis.list(o)) { // as given: Options drops the empty parts
            for (String part : v.split(",", -1)) {
                if (part.isBlank()) {
                    throw new UsageError("--" + axis.name() + " '" + v + "' has an empty value: give " + (axis.name().equals(CPU_QUOTA.name())
                            ? "CPUs (0.5,1) or millicores (500m)" : "sizes (256m,1g)") + ", or none for a row without");
                }
                out.add(part.trim());
            }
        }
        return List.copyOf(new java.util.LinkedHashSet<>(out));
    }

    /**
     * The limits the options cross (--cpu-quota × --memory-limit; declared with defaults, an experiment's own), each
     * parsed; empty when neither axis is given.
     */
    public static List<ContainerLimits> parse(Options o) throws UsageError {
        return parse(o, CPU_QUOTA, MEMORY_LIMIT);
    }

    public static List<ContainerLimits> parse(Options o, Opt cpuAxis, Opt memoryAxis) throws UsageError {
        List<Double> cpus = cpus(o, cpuAxis);
        List<Long> mem = memory(o, memoryAxis);
        if (cpus.isEmpty() && mem.isEmpty()) return List.of();
        if (cpus.isEmpty()) cpus = java.util.Collections.singletonList(null);
        if (mem.isEmpty()) mem = java.util.Collections.singletonList(null);
        List<ContainerLimits> out = new ArrayList<>();
        for (Double c : cpus) for (Long m : mem) out.add(new ContainerLimits(c, m));
        return List.copyOf(out);
    }

    /**
     * Each row once per limits (the rows as they are without any); a row whose experiment set its limits keeps them.
     * A row of an experiment that runs no SUT of its own (ab's service is one: its launcher is the lab's) is limited as
     * any.
     */
    public static List<Row> apply(List<Row> rows, List<ContainerLimits> limits, Options o) {
        if (limits.isEmpty()) return rows;
        List<Row> out = new ArrayList<>();
        for (Row r : rows) {
            if (!r.limits().none()) {
                out.add(r);
                continue;
            }
            for (ContainerLimits l : limits) out.add(l.none() ? r : contained(r, l, o));
        }
        return List.copyOf(out);
    }

    /**
     * The row with its SUT under these limits; its JVM arguments as a pod's: without --jvm-args no heap flags under a
     * memory limit, without --carriers no carrier count under a CPU quota (the JVM sizes both from what it sees).
     */
    public static Row contained(Row r, ContainerLimits l, Options o) {
        List<String> args = new ArrayList<>(r.jvmArgs());
        if (l.memoryBytes() != null && !RunOptions.JVM_ARGS.given(o)) args.removeIf(LimitAxis::heapFlag);
        if (l.cpus() != null && !RunOptions.CARRIERS.given(o)) args.removeIf(a -> a.startsWith("-D" + PlanContext.CARRIERS_PROPERTY + "="));
        return r.withLimits(l, args);
    }

    static boolean heapFlag(String a) {
        return a.startsWith("-Xmx") || a.startsWith("-Xms") || a.startsWith("-XX:MaxHeapSize=") || a.startsWith("-XX:InitialHeapSize=");
    }

    /**
     * Refused in one line when planned: a quota above the SUT's CPUs, a memory limit above the machine's memory
     * (MemTotal: a limit that can never be reached limits nothing).
     *
     * @param machineBytes this machine's memory (/proc/meminfo's MemTotal); 0 or less: not known, not checked
     */
    public static void refuse(List<Row> rows, int appCpus, long machineBytes) throws UsageError {
        for (Row r : rows) {
            r.limits().refuseAbove(appCpus);
            r.limits().refuseMemoryAbove(machineBytes);
        }
    }

    /** Refused in one line before anything starts: limits this machine's cgroups cannot set (a controller missing, not root). */
    public static void refuseUnavailable(List<Row> rows, vtlab.proc.Cgroups cgroups) throws UsageError {
        for (Row r : rows) {
            if (r.limits().none()) continue;
            String why = cgroups.unavailable(r.limits());
            if (why != null) throw new UsageError(why);
        }
    }
}
