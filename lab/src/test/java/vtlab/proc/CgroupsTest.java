package vtlab.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which cgroup hierarchy carries the limits, where the SUT's group goes, and why it cannot be made, from mountinfo. */
class CgroupsTest {
    static final ContainerLimits BOTH = new ContainerLimits(0.5, 256L << 20);

    @Test
    void v1WithCpuAndMemoryMountedIsUsedBeneathTheLabsOwnGroups(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("cpu"));
        Files.createDirectories(root.resolve("memory/pod/abc"));
        Cgroups c = Cgroups.of(List.of(
                "32 31 0:29 / " + root.resolve("cpu") + " rw,relatime - cgroup cgroup rw,cpu",
                "33 31 0:30 / " + root.resolve("cpuacct") + " rw,relatime - cgroup cgroup rw,cpuacct",
                "35 31 0:32 / " + root.resolve("memory") + " rw,relatime - cgroup cgroup rw,memory",
                "41 31 0:38 / " + root.resolve("unified") + " rw,relatime - cgroup2 cgroup2 rw"),
                List.of("4:memory:/pod/abc", "2:cpuacct:/", "1:cpu:/", "0::/"));
        assertEquals(Cgroups.Version.V1, c.version());
        assertNull(c.unavailable(BOTH));
        Cgroups.Group g = c.create("vtlab-test", BOTH);
        try {
            assertEquals(root.resolve("memory/pod/abc/vtlab-test"), g.dirs().get("memory"));
            assertEquals("50000", Files.readString(root.resolve("cpu/vtlab-test/cpu.cfs_quota_us")));
            assertEquals("100000", Files.readString(root.resolve("cpu/vtlab-test/cpu.cfs_period_us")));
            assertEquals(Long.toString(256L << 20), Files.readString(root.resolve("memory/pod/abc/vtlab-test/memory.limit_in_bytes")));
            List<String> cmd = g.enter(List.of("java", "-version"));
            assertEquals(List.of("sh", "-c"), cmd.subList(0, 2));
            assertTrue(cmd.containsAll(List.of(root.resolve("cpu/vtlab-test/cgroup.procs").toString(), "--", "java", "-version")), cmd.toString());
            Files.writeString(root.resolve("cpu/vtlab-test/cpu.stat"), "nr_periods 40\nnr_throttled 12\nthrottled_time 345000000\n");
            Files.writeString(root.resolve("memory/pod/abc/vtlab-test/memory.oom_control"), "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
            Cgroups.Stat s = g.stat();
            assertEquals(40, s.periods());
            assertEquals(12, s.throttledPeriods());
            assertEquals(345_000_000L, s.throttledNanos());
            assertTrue(g.oomKilled());
        } finally {
            // a temp dir is no cgroup: its files do not go with rmdir, so the test clears them first
            for (Path d : g.dirs().values()) try (var files = Files.list(d)) {
                for (Path f : files.toList()) Files.delete(f);
            }
            g.remove();
        }
        assertTrue(Files.notExists(root.resolve("cpu/vtlab-test")));
        assertEquals(0, Cgroups.live());
    }

    @Test
    void v2NeedsItsControllersEnabled(@TempDir Path root) throws Exception {
        Files.writeString(root.resolve("cgroup.controllers"), "cpuset cpu io memory pids");
        Cgroups c = Cgroups.of(List.of("30 23 0:26 / " + root + " rw,nosuid - cgroup2 cgroup2 rw"), List.of("0::/"));
        assertEquals(Cgroups.Version.V2, c.version());
        assertNull(c.unavailable(BOTH));
        Files.writeString(root.resolve("cgroup.controllers"), "hugetlb");
        Cgroups without = Cgroups.of(List.of("30 23 0:26 / " + root + " rw,nosuid - cgroup2 cgroup2 rw"), List.of("0::/"));
        assertEquals("cgroup v2 at " + root + " does not offer the cpu/memory controller: --cpu-quota needs it", without.unavailable(BOTH));
    }

    @Test
    void noControllerAtAllIsSaidInOneLine() {
        Cgroups c = Cgroups.of(List.of("22 1 0:5 / /proc rw - proc proc rw"), List.of());
        assertEquals("no cgroup filesystem is mounted (neither v1 cpu/memory nor v2): --memory-limit needs it",
                c.unavailable(new ContainerLimits(null, 256L << 20)));
    }

    @Test
    void aV1MachineWithoutTheMemoryHierarchySaysWhichIsMissing(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("cpu"));
        Cgroups c = Cgroups.of(List.of("32 31 0:29 / " + root.resolve("cpu") + " rw - cgroup cgroup rw,cpu"), List.of("1:cpu:/"));
        assertNull(c.unavailable(new ContainerLimits(0.5, null)));
        assertEquals("no cgroup v1 memory controller is mounted: --memory-limit needs it", c.unavailable(BOTH));
    }
}
