package vtlab.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This machine's cgroups, where the lab makes a group of its own for each contained SUT (see {@link ContainerLimits}):
 * cgroup v1 (a hierarchy per controller, cpu and memory) or v2 (one unified tree), behind one small interface
 * ({@link Group}). A group is made beneath the lab's own group of each controller, as a container runtime nests a
 * container's beneath its pod's, so whatever limits the lab itself stays above the SUT too.
 * <p>
 * The SUT's JVM starts inside its group ({@link Group#enter}: a shell writes its own pid into the group, then execs the
 * command), so the JVM reads its limits at start-up as in a pod. Every group made is removed after its row, on failure
 * and on Ctrl-C too ({@link Children#onShutdown}).
 */
public final class Cgroups {
    /** Which hierarchy carries the controllers: v1 (a mount per controller) or v2 (the unified mount). */
    public enum Version { V1, V2 }

    private static final Set<Group> LIVE = ConcurrentHashMap.newKeySet();
    private static final Runnable CLEANUP = () -> List.copyOf(LIVE).forEach(g -> g.remove());

    static {
        Children.onShutdown(CLEANUP);
    }

    private final Version version;
    /** Controller (cpu, memory) → the directory of the lab's own group in its hierarchy. */
    private final Map<String, Path> own;
    private final String missing;

    private Cgroups(Version version, Map<String, Path> own, String missing) {
        this.version = version;
        this.own = own;
        this.missing = missing;
    }

    /** This machine's, read from /proc/self/mountinfo and /proc/self/cgroup. */
    public static Cgroups here() {
        try {
            return of(Files.readAllLines(Path.of("/proc/self/mountinfo")), Files.readAllLines(Path.of("/proc/self/cgroup")));
        } catch (IOException e) {
            return new Cgroups(null, Map.of(), "no cgroup filesystem here (" + e.getMessage() + ")");
        }
    }

    /**
     * From mountinfo and /proc/self/cgroup lines. v1 when a v1 hierarchy carries cpu or memory (as the JDK decides:
     * a hybrid machine's v1 controllers are the ones that limit), else v2 with the controllers its root enables.
     */
    public static Cgroups of(List<String> mountinfo, List<String> selfCgroup) {
        Map<String, Path> v1 = new LinkedHashMap<>();
        Path unified = null;
        for (String line : mountinfo) {
            String[] halves = line.split(" - ", 2);
            if (halves.length < 2) continue;
            String[] pre = halves[0].split(" "), post = halves[1].split(" ");
            if (pre.length < 5 || post.length < 3) continue;
            String root = pre[3];
            Path mount = Path.of(pre[4]);
            if (post[0].equals("cgroup2")) {
                if (root.equals("/")) unified = mount;
            } else if (post[0].equals("cgroup")) {
                for (String opt : post[2].split(",")) {
                    if ((opt.equals("cpu") || opt.equals("memory")) && root.equals("/")) v1.putIfAbsent(opt, mount);
                }
            }
        }
        Map<String, String> paths = new LinkedHashMap<>();
        for (String line : selfCgroup) {
            String[] f = line.split(":", 3);
            if (f.length < 3) continue;
            if (f[1].isEmpty()) paths.put("", f[2]);
            else for (String c : f[1].split(",")) paths.put(c, f[2]);
        }
        if (!v1.isEmpty()) {
            Map<String, Path> own = new LinkedHashMap<>();
            v1.forEach((c, mount) -> own.put(c, under(mount, paths.getOrDefault(c, "/"))));
            List<String> lack = new ArrayList<>(List.of("cpu", "memory"));
            lack.removeAll(own.keySet());
            return new Cgroups(Version.V1, own, lack.isEmpty() ? null : "no cgroup v1 " + String.join("/", lack) + " controller is mounted");
        }
        if (unified != null) {
            Path dir = under(unified, paths.getOrDefault("", "/"));
            String controllers = read(unified.resolve("cgroup.controllers"));
            Map<String, Path> own = new LinkedHashMap<>();
            for (String c : List.of("cpu", "memory")) if ((" " + controllers + " ").contains(" " + c + " ")) own.put(c, dir);
            List<String> lack = new ArrayList<>(List.of("cpu", "memory"));
            lack.removeAll(own.keySet());
            return new Cgroups(Version.V2, own, lack.isEmpty() ? null : "cgroup v2 at " + unified + " does not offer the " + String.join("/", lack) + " controller");
        }
        return new Cgroups(null, Map.of(), "no cgroup filesystem is mounted (neither v1 cpu/memory nor v2)");
    }

    private static Path under(Path mount, String path) {
        return path.equals("/") ? mount : mount.resolve(path.substring(1));
    }

    public Version version() {
        return version;
    }

    /** The lab's own group of each controller: where the SUTs' groups are made. */
    public java.util.Collection<Path> ownDirs() {
        return List.copyOf(new java.util.LinkedHashSet<>(own.values()));
    }

    /**
     * Why these limits cannot be set here (a controller missing, its files not writable), or null when they can: checked
     * before anything starts.
     */
    public String unavailable(ContainerLimits limits) {
        List<String> need = new ArrayList<>();
        if (limits.cpus() != null) need.add("cpu");
        if (limits.memoryBytes() != null) need.add("memory");
        for (String c : need) {
            Path dir = own.get(c);
            if (dir == null) return (missing == null ? "no " + c + " controller" : missing) + ": " + flag(c) + " needs it";
            if (!Files.isDirectory(dir)) return "the lab's " + c + " cgroup " + dir + " is not there: " + flag(c) + " needs it";
            if (!Files.isWritable(dir)) return "cannot make a cgroup under " + dir + " (not writable; run as root): " + flag(c) + " needs it";
        }
        return null;
    }

    private static String flag(String controller) {
        return controller.equals("cpu") ? "--cpu-quota" : "--memory-limit";
    }

    /**
     * Makes a group named name (beneath the lab's own) with the limits written as a container runtime writes them:
     * cpu.cfs_quota_us/cpu.cfs_period_us or cpu.max, memory.limit_in_bytes or memory.max (and no swap). Removed again if
     * a write fails.
     */
    public Group create(String name, ContainerLimits limits) throws IOException {
        String why = unavailable(limits);
        if (why != null) throw new IOException(why);
        Map<String, Path> dirs = new LinkedHashMap<>();
        if (version == Version.V2) {
            Path d = own.values().iterator().next().resolve(name);
            if (limits.cpus() != null) dirs.put("cpu", d);
            if (limits.memoryBytes() != null) dirs.put("memory", d);
        } else {
            if (limits.cpus() != null) dirs.put("cpu", own.get("cpu").resolve(name));
            if (limits.memoryBytes() != null) dirs.put("memory", own.get("memory").resolve(name));
        }
        Group g = new Group(version, dirs, limits);
        LIVE.add(g);
        try {
            for (Path d : new java.util.LinkedHashSet<>(dirs.values())) Files.createDirectories(d);
            if (version == Version.V2) {
                Path parent = dirs.values().iterator().next().getParent();
                for (String c : dirs.keySet()) write(parent.resolve("cgroup.subtree_control"), "+" + c);
                if (limits.cpus() != null) write(dirs.get("cpu").resolve("cpu.max"), limits.quotaMicros() + " " + ContainerLimits.PERIOD_US);
                if (limits.memoryBytes() != null) {
                    write(dirs.get("memory").resolve("memory.max"), Long.toString(limits.memoryBytes()));
                    Path swap = dirs.get("memory").resolve("memory.swap.max");
                    if (Files.exists(swap)) write(swap, "0");
                }
            } else {
                if (limits.cpus() != null) {
                    write(dirs.get("cpu").resolve("cpu.cfs_period_us"), Long.toString(ContainerLimits.PERIOD_US));
                    write(dirs.get("cpu").resolve("cpu.cfs_quota_us"), Long.toString(limits.quotaMicros()));
                }
                if (limits.memoryBytes() != null) write(dirs.get("memory").resolve("memory.limit_in_bytes"), Long.toString(limits.memoryBytes()));
            }
        } catch (IOException | RuntimeException e) {
            g.remove();
            throw new IOException("could not make cgroup " + name + ": " + e.getMessage(), e);
        }
        return g;
    }

    /** The live group a process runs in, or null: how a probe finds the SUT's group (see {@link Group#note}). */
    public static Group of(long pid) {
        for (Group g : LIVE) if (g.holds(pid)) return g;
        return null;
    }

    /** How many groups the lab has made and not yet removed (tests: nothing left behind). */
    public static int live() {
        return LIVE.size();
    }

    static void write(Path file, String value) throws IOException {
        Files.writeString(file, value);
    }

    static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            return "";
        }
    }

    /** "key value" lines (cpu.stat, memory.stat, memory.events, memory.oom_control) as numbers by key. */
    static Map<String, Long> keyed(String text) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length != 2) continue;
            try {
                out.put(f[0], Long.parseLong(f[1]));
            } catch (NumberFormatException e) {
                // not a counter
            }
        }
        return out;
    }

    /**
     * What the limits did so far, read from the group's files: CFS periods run and throttled and the time throttled
     * (cpu.stat), memory in use, its peak and the limit, how often the limit was hit (failcnt; v2: memory.events max),
     * and OOM kills. A field is -1 where this kernel does not give it.
     */
    public record Stat(long periods, long throttledPeriods, long throttledNanos, long memoryBytes, long memoryPeakBytes,
                       long memoryLimitBytes, long failcnt, long oomKills) {}

    /** One SUT's group, made for a row and removed after it. */
    public static final class Group {
        private final Version version;
        private final Map<String, Path> dirs;
        private final ContainerLimits limits;
        private volatile String note;

        Group(Version version, Map<String, Path> dirs, ContainerLimits limits) {
            this.version = version;
            this.dirs = Map.copyOf(dirs);
            this.limits = limits;
        }

        public ContainerLimits limits() {
            return limits;
        }

        /** The group's directories, by controller. */
        public Map<String, Path> dirs() {
            return dirs;
        }

        /**
         * The command, started inside this group: a shell writes its pid into each of the group's cgroup.procs, then
         * execs the command (which stays that process, so stopping it stops the service).
         */
        public List<String> enter(List<String> command) {
            List<String> out = new ArrayList<>(List.of("sh", "-c",
                    "while [ \"$1\" != -- ]; do echo $$ > \"$1\" || exit 125; shift; done; shift; exec \"$@\"", "vtlab-cgroup"));
            for (Path d : new java.util.LinkedHashSet<>(dirs.values())) out.add(d.resolve("cgroup.procs").toString());
            out.add("--");
            out.addAll(command);
            return out;
        }

        boolean holds(long pid) {
            for (Path d : dirs.values()) {
                for (String line : read(d.resolve("cgroup.procs")).split("\n")) if (line.trim().equals(Long.toString(pid))) return true;
            }
            return false;
        }

        /** What a probe last saw of the process (its requests in flight, its heap), kept for the reason of an OOM kill. */
        public void note(String seen) {
            this.note = seen;
        }

        public String note() {
            return note;
        }

        public Stat stat() {
            Path cpu = dirs.get("cpu"), mem = dirs.get("memory");
            Map<String, Long> c = cpu == null ? Map.of() : keyed(read(cpu.resolve("cpu.stat")));
            long periods = c.getOrDefault("nr_periods", -1L), throttled = c.getOrDefault("nr_throttled", -1L);
            long throttledNs = version == Version.V1 ? c.getOrDefault("throttled_time", -1L)
                    : c.containsKey("throttled_usec") ? c.get("throttled_usec") * 1000 : -1;
            long usage = -1, peak = -1, limit = -1, failcnt = -1, oom = -1;
            if (mem != null) {
                if (version == Version.V1) {
                    usage = number(mem.resolve("memory.usage_in_bytes"));
                    peak = number(mem.resolve("memory.max_usage_in_bytes"));
                    limit = number(mem.resolve("memory.limit_in_bytes"));
                    failcnt = number(mem.resolve("memory.failcnt"));
                    oom = keyed(read(mem.resolve("memory.oom_control"))).getOrDefault("oom_kill", -1L);
                } else {
                    usage = number(mem.resolve("memory.current"));
                    peak = number(mem.resolve("memory.peak"));
                    limit = number(mem.resolve("memory.max"));
                    Map<String, Long> ev = keyed(read(mem.resolve("memory.events")));
                    failcnt = ev.getOrDefault("max", -1L);
                    oom = ev.getOrDefault("oom_kill", -1L);
                }
            }
            return new Stat(periods, throttled, throttledNs, usage, peak, limit, failcnt, oom);
        }

        /** Whether the kernel's OOM killer killed a process of this group (its memory limit). */
        public boolean oomKilled() {
            return stat().oomKills() > 0;
        }

        private static long number(Path f) {
            try {
                return Long.parseLong(read(f));
            } catch (NumberFormatException e) {
                return -1;
            }
        }

        /**
         * Removes the group once its processes are gone (a group with a process in it cannot be removed): waits up to
         * 5 s for them, kills what is left, and says on stderr if it could not. Idempotent.
         */
        public void remove() {
            long deadline = System.currentTimeMillis() + 5_000;
            for (Path d : new java.util.LinkedHashSet<>(dirs.values())) {
                while (Files.isDirectory(d)) {
                    try {
                        Files.delete(d); // rmdir: the kernel removes a cgroup's files with it
                        break;
                    } catch (IOException e) {
                        if (System.currentTimeMillis() > deadline) {
                            System.err.println("vtlab: could not remove cgroup " + d + ": " + e.getMessage());
                            break;
                        }
                        for (String pid : read(d.resolve("cgroup.procs")).split("\n")) {
                            if (!pid.isBlank()) ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
                        }
                        try {
                            Thread.sleep(50);
                        } catch (InterruptedException ie) {
                            Thread.currentThread().interrupt();
                            break;
                        }
                    }
                }
            }
            LIVE.remove(this);
        }
    }
}
