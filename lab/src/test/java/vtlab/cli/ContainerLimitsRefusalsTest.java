package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** --cpu-quota and --memory-limit refused in one line (exit code 2) before anything starts, on every experiment and ab. */
class ContainerLimitsRefusalsTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "run servlet --cpu-quota 100                     | --cpu-quota 100 is above the SUT's",
            "run servlet --cpu-quota half                    | --cpu-quota takes CPUs (0.5, 1) or millicores (500m), not 'half'",
            "run servlet --memory-limit 16m                  | --memory-limit 16m is below what a JVM starts in (at least 64m)",
            "run containers --memory-limit 8m                | --memory-limit 8m is below what a JVM starts in",
            "run containers --cpu-quota 100                  | --cpu-quota 100 is above the SUT's",
            "run ab --app ../stacks/spring-mvc/target/vtlab-spring-mvc.jar --url /sleep?ms=50 --memory-limit 1k | --memory-limit 1k is below what a JVM starts in"})
    void refusedInOneLine(String args, String message) {
        String got = MainTest.refusal(args.trim().split("\\s+"));
        assertTrue(got.contains(message), got);
    }
}
