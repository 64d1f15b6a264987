package vtlab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.proc.Cgroups;
import vtlab.proc.ContainerLimits;
import vtlab.stack.Params;
import vtlab.tier.tool.Jdk;

/** --cpu-quota x --memory-limit: rows crossed with the limits, the JVM left to size itself as in a pod unless told. */
class LimitAxisTest {
    static final String CARRIERS = "-D" + PlanContext.CARRIERS_PROPERTY + "=2";

    static Row row() {
        return Row.builder().experiment("servlet").stack("servlet").threadMode("virtual").workload("sleep").concurrency(100).rep(1)
                .jdk(Jdk.current()).params(Params.NONE.with("sleepMs", "50")).warmup(Duration.ZERO).hold(Duration.ofSeconds(5))
                .jvmArgs(List.of("-Xms512m", "-Xmx512m", CARRIERS)).build();
    }

    @Test
    void eachQuotaAndLimitIsARowWithItsLimitsTyped() throws UsageError {
        Options o = vtlab.cli.Main.parse(List.of("--cpu-quota", "0.5,1", "--memory-limit", "256m,none"));
        List<ContainerLimits> limits = LimitAxis.parse(o);
        assertEquals(List.of(new ContainerLimits(0.5, 256L << 20), new ContainerLimits(0.5, null), new ContainerLimits(1.0, 256L << 20),
                new ContainerLimits(1.0, null)), limits);
        List<Row> rows = LimitAxis.apply(List.of(row()), limits, o);
        assertEquals(4, rows.size());
        Row first = rows.getFirst();
        assertEquals(new ContainerLimits(0.5, 256L << 20), first.limits());
        assertEquals("0.5", first.params().get(Row.CPU_QUOTA_PARAM));
        assertEquals("256m", first.params().get(Row.MEMORY_LIMIT_PARAM));
        assertEquals("none", rows.get(1).params().get(Row.MEMORY_LIMIT_PARAM));
        assertTrue(first.scenario().contains("cpu_quota=0.5 memory_limit=256m"), first.scenario());
        assertEquals(List.of(row()), LimitAxis.apply(List.of(row()), LimitAxis.parse(vtlab.cli.Main.parse(List.of())), vtlab.cli.Main.parse(List.of())),
                "no axis: rows as they are");
    }

    @Test
    void withoutJvmArgsTheJvmSizesItselfFromTheLimits() throws UsageError {
        Options none = vtlab.cli.Main.parse(List.of());
        assertEquals(List.of(), LimitAxis.contained(row(), new ContainerLimits(0.5, 256L << 20), none).jvmArgs(), "as in a pod: no heap, no carriers");
        assertEquals(List.of("-Xms512m", "-Xmx512m"), LimitAxis.contained(row(), new ContainerLimits(0.5, null), none).jvmArgs(),
                "no memory limit: the lab's heap stays");
        assertEquals(List.of(CARRIERS), LimitAxis.contained(row(), new ContainerLimits(null, 256L << 20), none).jvmArgs(),
                "no quota: the lab's carriers stay");
        Options told = vtlab.cli.Main.parse(List.of("--jvm-args", "-Xmx512m", "--carriers", "2"));
        assertEquals(row().jvmArgs(), LimitAxis.contained(row(), new ContainerLimits(0.5, 256L << 20), told).jvmArgs(), "told: kept");
        assertEquals(null, LimitAxis.contained(row(), new ContainerLimits(0.5, null), none).carriers());
    }

    @Test
    void aRowItsExperimentLimitedKeepsItsLimits() throws UsageError {
        Options o = vtlab.cli.Main.parse(List.of("--cpu-quota", "1"));
        Row own = LimitAxis.contained(row(), new ContainerLimits(0.5, null), o);
        assertEquals(List.of(own), LimitAxis.apply(List.of(own), LimitAxis.parse(o), o));
    }

    @Test
    void anEmptyValueIsRefusedNotALimitLeftOut() {
        UsageError e = assertThrows(UsageError.class, () -> LimitAxis.parse(vtlab.cli.Main.parse(List.of("--cpu-quota", ","))));
        assertEquals("--cpu-quota ',' has an empty value: give CPUs (0.5,1) or millicores (500m), or none for a row without", e.getMessage());
        assertThrows(UsageError.class, () -> LimitAxis.parse(vtlab.cli.Main.parse(List.of("--cpu-quota", "0.5,,1"))));
        e = assertThrows(UsageError.class, () -> LimitAxis.parse(vtlab.cli.Main.parse(List.of("--memory-limit", "512m,"))));
        assertEquals("--memory-limit '512m,' has an empty value: give sizes (256m,1g), or none for a row without", e.getMessage());
    }

    @Test
    void aMemoryLimitAboveTheMachinesMemoryIsRefused() throws UsageError {
        List<Row> rows = List.of(LimitAxis.contained(row(), new ContainerLimits(null, 32L << 30), vtlab.cli.Main.parse(List.of())));
        UsageError e = assertThrows(UsageError.class, () -> LimitAxis.refuse(rows, 1, 24L << 30));
        assertEquals("--memory-limit 32g is above this machine's memory (MemTotal 24576 MiB): a limit it can never reach limits nothing", e.getMessage());
        LimitAxis.refuse(rows, 1, 48L << 30);
        LimitAxis.refuse(rows, 1, -1024); // MemTotal unknown: not checked
    }

    @Test
    void limitsTheMachineCannotSetAreRefusedInOneLine() throws UsageError {
        List<Row> rows = List.of(LimitAxis.contained(row(), new ContainerLimits(0.5, null), vtlab.cli.Main.parse(List.of())));
        UsageError e = assertThrows(UsageError.class, () -> LimitAxis.refuseUnavailable(rows, Cgroups.of(List.of(), List.of())));
        assertEquals("no cgroup filesystem is mounted (neither v1 cpu/memory nor v2): --cpu-quota needs it", e.getMessage());
        assertThrows(UsageError.class, () -> LimitAxis.refuse(List.of(LimitAxis.contained(row(), new ContainerLimits(2.0, null), vtlab.cli.Main.parse(List.of()))), 1, 24L << 30));
    }
}
