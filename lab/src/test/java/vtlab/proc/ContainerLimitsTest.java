package vtlab.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vtlab.core.UsageError;

/** --cpu-quota and --memory-limit as Docker and Kubernetes write them; what a JVM cannot start in is refused in one line. */
class ContainerLimitsTest {

    @ParameterizedTest
    @CsvSource({"0.5, 0.5", "1, 1", "1.5, 1.5", "500m, 0.5", "250m, 0.25", "2000m, 2"})
    void cpusAsNumbersOrMillicores(String given, double cpus) throws UsageError {
        assertEquals(cpus, ContainerLimits.parseCpus(given), 1e-9);
    }

    @ParameterizedTest
    @CsvSource({"512m, 536870912", "1g, 1073741824", "512Mi, 536870912", "1Gi, 1073741824", "500M, 500000000",
            "1G, 1000000000", "262144k, 268435456", "67108864, 67108864", "1.5g, 1610612736"})
    void memoryAsDockerAndKubernetesWriteIt(String given, long bytes) throws UsageError {
        assertEquals(bytes, ContainerLimits.parseMemory(given));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"half | --cpu-quota takes CPUs", "0 | --cpu-quota must be at least", "-1 | --cpu-quota must be at least",
            "5m | --cpu-quota must be at least"})
    void badQuotasAreRefused(String given, String message) {
        UsageError e = assertThrows(UsageError.class, () -> ContainerLimits.parseCpus(given));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"lots | --memory-limit takes a size", "32m | --memory-limit 32m is below what a JVM starts in",
            "1000k | is below what a JVM starts in", "-1g | --memory-limit takes a size"})
    void badLimitsAreRefused(String given, String message) {
        UsageError e = assertThrows(UsageError.class, () -> ContainerLimits.parseMemory(given));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void aQuotaAboveTheSutsCpusIsRefused() throws UsageError {
        new ContainerLimits(1.0, null).refuseAbove(1);
        UsageError e = assertThrows(UsageError.class, () -> new ContainerLimits(1.5, null).refuseAbove(1));
        assertEquals("--cpu-quota 1.5 is above the SUT's 1 CPU (--cpus-app): a quota it cannot use up limits nothing", e.getMessage());
    }

    @Test
    void writtenAsGiven() {
        ContainerLimits l = new ContainerLimits(0.5, 512L << 20);
        assertEquals(50_000, l.quotaMicros());
        assertEquals("0.5", l.cpuSpec());
        assertEquals("512m", l.memorySpec());
        assertEquals("cpu=0.5 mem=512m", l.toString());
        assertEquals("cpu=1 mem=1g", new ContainerLimits(1.0, 1L << 30).toString());
        assertEquals("none", ContainerLimits.NONE.toString());
        assertEquals(-1, ContainerLimits.NONE.quotaMicros());
    }
}
