package vtlab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.core.UsageError;

class PlanContextTest {

    @Test
    void autoCarriersFollowTheSutCpusButNeverLeaveOneCarrier() throws Exception {
        assertEquals(2, PlanContext.carriers("auto", 1));
        assertEquals(2, PlanContext.carriers("auto", 2));
        assertEquals(8, PlanContext.carriers("auto", 8));
        assertEquals(1, PlanContext.carriers("1", 1), "an explicit count is taken as it is");
        assertEquals(3, PlanContext.carriers(" 3 ", 8));
    }

    /** --load-model's choices are the load models (declared a floor below vtlab.load, so written out: held equal here). */
    @Test
    void theLoadModelsChoicesAreTheLoadModels() {
        assertEquals(java.util.Arrays.stream(vtlab.load.LoadModel.values()).map(vtlab.load.LoadModel::label).toList(), PlanContext.LOAD_MODEL.choices());
    }

    @Test
    void refusesBadCarrierCounts() {
        for (String bad : List.of("0", "-1", "two", "", "40000")) {
            UsageError e = assertThrows(UsageError.class, () -> PlanContext.carriers(bad, 1), bad);
            assertTrue(e.getMessage().startsWith("--carriers"), e.getMessage());
        }
    }

    @Test
    void everySutGetsTheCarrierCountAfterItsOwnArguments() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "--carriers", "3", "--jvm-args", "-Xmx1g -XX:+UseParallelGC"));
        PlanContext ctx = PlanContext.from(o);
        assertEquals(List.of("-Xmx1g", "-XX:+UseParallelGC", "-Djdk.virtualThreadScheduler.parallelism=3"), ctx.jvmArgs());
        assertEquals(List.of("-Xms2g", "-Djdk.virtualThreadScheduler.parallelism=3"), ctx.withCarriers(List.of("-Xms2g")));
    }

    @Test
    void theCarrierPropertyIsNotAcceptedTwice() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "--jvm-args", "-Djdk.virtualThreadScheduler.parallelism=4"));
        UsageError e = assertThrows(UsageError.class, () -> PlanContext.from(o));
        assertTrue(e.getMessage().contains("--carriers"), e.getMessage());
    }
}
