package vtlab.planning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.cli.Main;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.PlannedRow;
import vtlab.plan.Row;
import vtlab.plan.Search;
import vtlab.run.Runner;

/** A run's plan is a value of its options: planned whole, refused in one line, with nothing of the machine touched. */
class RunPlanTest {
    static RunPlan plan(String... args) throws UsageError {
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(List.of(args));
        Options o = Main.parse(all);
        return RunPlan.of(o, o.positional().subList(1, o.positional().size()));
    }

    /** The plan binds no port: one in use is planned, and refused by the machine's check after it. */
    @Test
    void aPortInUseIsPlannedAndRefusedByThePreflightOnly() throws Exception {
        try (ServerSocket held = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            RunPlan p = plan("servlet", "--workloads", "sleep", "--modes", "platform", "--conc", "10", "--port", Integer.toString(held.getLocalPort()));
            assertEquals(held.getLocalPort(), p.port());
            UsageError e = assertThrows(UsageError.class, () -> Preflight.check(p));
            assertTrue(e.getMessage().contains("port " + held.getLocalPort() + " on 127.0.0.1 is in use"), e.getMessage());
        }
    }

    @Test
    void noNameIsTheDemoUnderItsDefaults() throws Exception {
        RunPlan p = plan();
        assertEquals(List.of(LabOptions.DEMO_EXPERIMENT), p.experiments());
        assertEquals(LabOptions.DEMO.get("hold"), p.options().string("hold", null));
        assertTrue(p.line(p.generator().name()).startsWith("vtlab: " + p.rows().size() + " rows of servlet, about "), p.line(p.generator().name()));
    }

    /** Every fixed row is planned with the plan's hooks, in order: the run's probes, --fresh-sut. */
    @Test
    void everyRowIsPlannedWithTheRunsHooks() throws Exception {
        RunPlan p = plan("servlet", "--workloads", "sleep", "--modes", "platform,virtual", "--conc", "10", "--fresh-sut", "--probes", "cpu");
        assertEquals(p.rows(), p.planned().stream().map(PlannedRow::row).toList());
        assertTrue(p.planned().stream().allMatch(PlannedRow::freshSut));
        assertEquals(List.of("cpu"), p.probes());
        assertTrue(p.planned().stream().allMatch(r -> r.probes().contains("cpu")), p.planned().getFirst().probes().toString());
        RunPlan none = plan("servlet", "--workloads", "sleep", "--modes", "platform", "--conc", "10", "--no-probes");
        assertTrue(none.planned().stream().allMatch(r -> r.probes().isEmpty()), "no probes, not even the ones beside every set");
    }

    /** A search's rows are planned by the runner as it goes, through the plan's hooks (the runner's Planner). */
    @Test
    void aSearchsRowsArePlannedByTheHooksTheRunnerIsHanded() throws Exception {
        RunPlan p = plan("capacity");
        assertTrue(p.rows().isEmpty() && !p.searches().isEmpty(), "capacity searches");
        Search s = p.searches().getFirst();
        assertEquals(p.searches().stream().map(Search::template).toList(), p.templates(), "the machine is checked for the searches' rows too");
        Runner.Planner planner = p.hooks();
        Row step = s.next(List.of(), List.of());
        assertNotNull(step);
        assertTrue(planner.planned(step).freshSut(), "a capacity step runs in a fresh JVM");
    }

    @Test
    void refusalsAreOneLineBeforeAnythingStarts() {
        UsageError unknown = assertThrows(UsageError.class, () -> plan("servlet", "--bogus", "1"));
        assertEquals("option --bogus is not known to servlet (see ./vtlab list)", unknown.getMessage());
        UsageError port = assertThrows(UsageError.class, () -> plan("servlet", "--port", "70000"));
        assertEquals("--port must be at most 65535", port.getMessage());
        assertThrows(UsageError.class, () -> plan("servlet", "--fail-on", "nonsense"));
    }

    /** The same options plan the same rows: a plan depends on nothing but them (and the machine's CPUs). */
    @Test
    void theSameOptionsPlanTheSameRows() throws Exception {
        String[] args = {"servlet", "--workloads", "sleep", "--modes", "platform,virtual", "--conc", "10,20"};
        assertEquals(plan(args).rows(), plan(args).rows());
    }
}
