package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.data.Dataset;
import vtlab.data.Environment;
import vtlab.plan.PlanContext;
import vtlab.plan.PlannedRow;
import vtlab.proc.CoreMap;
import vtlab.tier.tool.Jdk;
import vtlab.tier.SutHandle;

/**
 * What the runner does after a row failed in a run across hosts: it asks the hosts, goes on when they answer, and stops
 * when one does not, the rows left written as not run (a fake SUT launcher that fails as a lost host makes it fail; no
 * process is started).
 */
class HostLossTest {
    @TempDir
    Path tmp;

    static final String SILENT = "root@10.77.0.13 (load) does not answer: ssh: connect to host 10.77.0.13 port 22: No route to host";
    /** The SUT and the load on hosts of their own: nothing of this JVM is pinned. */
    static final CoreMap CORES = new CoreMap(Map.of(CoreMap.APP, "0", CoreMap.LOAD, "1"), 2,
            Map.of(CoreMap.APP, Set.of("root@10.77.0.11"), CoreMap.LOAD, Set.of("root@10.77.0.12", "root@10.77.0.13")));

    final List<String> asked = new ArrayList<>();
    int starts;

    Runner.Outcome run(HostLoss.Check hosts, ByteArrayOutputStream console) throws Exception {
        SutHandle.Launcher lost = (stack, jdk, jvmArgs, appArgs, env, cpus, port, log) -> {
            starts++;
            throw new IOException("root@10.77.0.11: scp failed (255): ssh: connect to host 10.77.0.11 port 22: No route to host");
        };
        List<PlannedRow> rows = List.of(1, 2, 3).stream().map(rep -> PlannedRow.of(RowRunnerTest.row("platform", rep), List.of())).toList();
        Environment env = new Environment(List.of("run"), Map.of(), CORES, List.of(Jdk.current()), "fake", "0", List.of(), rows.size());
        return new Runner(new PrintStream(console, true)).run(Runner.Config.builder().rows(rows).generator(new RowRunnerTest().new FakeGenerator())
                .cores(CORES).folders(tmp.resolve("results"), tmp.resolve("state")).environment(env).experiments(List.of("servlet"))
                .plan(new PlanContext(List.of(Jdk.current()), List.of(), 0, Duration.ZERO)).launcher(lost).hosts(hosts, Map.of()).build());
    }

    @Test
    void aHostThatDoesNotAnswerAfterAFailedRowStopsTheRunAndTheRestIsNotRun() throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        Runner.Outcome done = run(() -> {
            asked.add("hosts");
            return SILENT;
        }, console);
        assertEquals(1, starts, "the rows after the stop are not started");
        assertEquals(List.of("hosts"), asked);
        assertTrue(done.complete());
        assertEquals(1, done.failed());
        assertEquals(2, done.notRun());
        assertEquals(SILENT, done.stopped());

        List<Map<String, String>> rows = Dataset.read(done.dir().matrix());
        assertEquals(3, rows.size());
        assertTrue(rows.get(0).get("note").contains("No route to host"), rows.get(0).toString());
        for (int i = 1; i < 3; i++) {
            assertEquals("failed", rows.get(i).get("status"));
            assertEquals(Integer.toString(i + 1), rows.get(i).get("rep"), "each row not run keeps its own identity");
            assertEquals("platform", rows.get(i).get("thread_mode"));
            assertEquals("not run: the run stopped: " + SILENT, rows.get(i).get("note"));
        }
        assertTrue(console.toString().contains("vtlab: run stopped after row 1 of 3: " + SILENT + "; 2 rows not run"), console.toString());
        var env = new ObjectMapper().readTree(done.dir().environmentJson().toFile());
        assertEquals("stopped", env.path("status").asText());
        assertEquals(SILENT, env.path("stopped").asText());
        assertEquals(2, env.path("rows_not_run").asInt());
        // what the report's verdicts read: the same facts, kept for the lab
        assertEquals(new vtlab.data.RunKept.Status("stopped", SILENT, 2, Map.of()), vtlab.data.RunKept.read(done.dir()).status());
        assertEquals(Jdk.current().version(), vtlab.data.RunKept.read(done.dir()).jdks().get(Jdk.current().major()), "the rows' JDK, by its exact version");
    }

    @Test
    void hostsThatAnswerAgainLetTheRunGoOnAndARunHereAsksNothing() throws Exception {
        Runner.Outcome done = run(() -> {
            asked.add("hosts");
            return null;
        }, new ByteArrayOutputStream());
        assertEquals(3, starts);
        assertEquals(List.of("hosts", "hosts", "hosts"), asked, "asked after each failed row");
        assertEquals(3, done.failed());
        assertEquals(0, done.notRun());
        assertNull(done.stopped());
        assertEquals("complete-with-failures", new ObjectMapper().readTree(done.dir().environmentJson().toFile()).path("status").asText());
        assertEquals("complete-with-failures", vtlab.data.RunKept.read(done.dir()).status().state());

        starts = 0;
        Runner.Outcome here = run(null, new ByteArrayOutputStream());
        assertEquals(3, starts);
        assertEquals(3, here.failed());
        assertNull(here.stopped());
    }
}
