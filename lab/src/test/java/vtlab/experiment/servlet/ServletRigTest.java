package vtlab.experiment.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.Settings;
import vtlab.stack.Stack;
import vtlab.tier.tool.Jdk;

/** Every Tomcat row runs with the stack's documented defaults, whichever experiment planned it. */
class ServletRigTest {

    private static List<Row> plan(Experiment e, String... args) throws UsageError {
        List<String> all = new ArrayList<>(List.of("run", e.name(), "--carriers", "3"));
        all.addAll(List.of(args));
        Options o = vtlab.cli.Main.parse(all);
        return e.plan(o, PlanContext.from(o));
    }

    @Test
    void servletIoAndResponseSizeRunTomcatAsServletDoes() throws Exception {
        Row servlet = plan(new ServletExperiment(), "--modes", "virtual").getFirst();
        for (Experiment e : List.of(new ServletIoExperiment(), new ResponseSizeExperiment(), new FootprintExperiment(), new ProbeCostExperiment())) {
            for (Row r : plan(e, "--modes", "virtual")) {
                for (String key : List.of("processor_cache", "max_connections", "thread_mode", "stack")) {
                    assertEquals(servlet.expectInfo().get(key), r.expectInfo().get(key), e.name() + " " + key);
                }
                for (String env : List.of("PROCESSOR_CACHE", "MAX_CONNECTIONS", "MAX_THREADS", "MIN_SPARE_THREADS")) {
                    assertEquals(servlet.sutEnv().get(env), r.sutEnv().get(env), e.name() + " " + env);
                }
                assertEquals(servlet.carriers(), r.carriers(), e.name() + " carriers");
            }
        }
        assertEquals(-1, servlet.expectInfo().get("processor_cache"));
        assertEquals("-1", servlet.sutEnv().get("PROCESSOR_CACHE"));
        assertEquals(8192, servlet.expectInfo().get("max_connections"));
        assertEquals(3, servlet.carriers());
        assertNull(servlet.expectInfo().get("max_threads"));
        assertTrue(servlet.expectInfo().containsKey("max_threads"), "virtual rows expect no pool size");
    }

    @Test
    void platformRowsExpectThePoolAndCallRowsTheStub() throws Exception {
        Row call = plan(new ServletIoExperiment(), "--modes", "platform", "--workloads", "call").getFirst();
        assertEquals(200, call.expectInfo().get("max_threads"));
        assertEquals(25, call.expectInfo().get("min_spare_threads"));
        assertEquals(List.of("stub"), call.tiers());
        Row small = plan(new ServletIoExperiment(), "--modes", "platform", "--workloads", "count", "--max-threads", "10").getFirst();
        assertEquals("10", small.sutEnv().get("MIN_SPARE_THREADS"), "spare threads follow a pool below 25");
        assertEquals(List.of(), small.tiers());
    }

    @Test
    void configureFillsDefaultsAndRefusesUnknownSettings() throws Exception {
        Stack s = Stack.load("servlet");
        Stack.Config c = s.configure("platform", "hello", Settings.NONE.with("processorCache", "200"), Jdk.current().major());
        assertEquals("200", c.env().get("PROCESSOR_CACHE"));
        assertEquals(200, c.expectInfo().get("processor_cache"));
        assertEquals("8192", c.env().get("MAX_CONNECTIONS"));
        UsageError e = assertThrows(UsageError.class, () -> s.configure("platform", "hello", Settings.NONE.with("procesorCache", "1"), Jdk.current().major()));
        assertTrue(e.getMessage().contains("no setting 'procesorCache'"), e.getMessage());
        assertThrows(UsageError.class, () -> s.configure("reactive", "hello", Settings.NONE, Jdk.current().major()));
        Stack mvc = Stack.load("spring-mvc");
        Stack.Config v = mvc.configure("virtual", "sleep", Settings.NONE, Jdk.current().major());
        assertEquals("true", v.env().get("VT_ENABLED"));
        assertEquals(List.of("pg"), v.tiers());
        assertFalse(v.expectInfo().containsKey("downstream_negotiated"), "no call to the stub: nothing negotiated");
        assertEquals(List.of("pg", "stub"), mvc.configure("virtual", "order-summary", Settings.NONE, Jdk.current().major()).tiers());
    }
}
