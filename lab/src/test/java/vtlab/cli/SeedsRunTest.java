package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.plan.Row;
import vtlab.planning.RunPlan;

/** `run seeds` plans every part of the suite with the suite's settings, within its time budget. */
class SeedsRunTest {
    static RunCommand.Prepared prepare(String... extra) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // not the default: the lab may be measuring on it
        }
        List<String> args = new java.util.ArrayList<>(List.of("run", "seeds", "--port", Integer.toString(port)));
        args.addAll(List.of(extra));
        Options o = vtlab.cli.Main.parse(args);
        return RunCommand.prepare(o, o.positional().subList(1, o.positional().size()));
    }

    static Set<Integer> conc(RunCommand.Prepared p, String experiment) {
        return p.plan().rows().stream().filter(r -> r.experiment().equals(experiment)).map(Row::concurrency).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void everyPartIsPlannedWithTheSuitesSettings() throws Exception {
        RunCommand.Prepared p = prepare();
        assertEquals(List.of("seeds"), p.plan().experiments(), "one run folder, named after the suite");
        assertEquals(Set.of(500, 2500, 10000), conc(p, "order-summary"));
        assertEquals(Set.of(400, 1000), conc(p, "servlet"));
        assertEquals(Set.of(400), conc(p, "spring-sleep"));
        assertEquals(Set.of(2000), conc(p, "reactive"));
        // the pool claim is virtual's pool 100 over pool 50, at a depth where both rows stay valid evidence
        assertEquals(Set.of("50", "100"), p.plan().rows().stream().filter(r -> r.experiment().equals("pool-bottleneck"))
                .map(r -> Integer.toString(r.hikariPool())).collect(Collectors.toSet()));
        assertEquals(Set.of(400), conc(p, "pool-bottleneck"));
        assertTrue(p.plan().rows().stream().filter(r -> r.experiment().equals("pool-bottleneck")).allMatch(r -> r.threadMode().equals("virtual")));
        assertTrue(p.plan().rows().stream().filter(r -> r.experiment().equals("pinning")).allMatch(r -> r.warmup().toSeconds() == 20),
                "the JDK 21 control needs C2 to have compiled it");
        assertEquals(Set.of("footprint", "order-summary", "pinning", "pool-bottleneck", "reactive", "response-size", "servlet", "spring-sleep"),
                p.plan().rows().stream().map(Row::experiment).collect(Collectors.toSet()));
        assertEquals(2, p.plan().studies().size(), "thread-cost and thread-memory");
        long minutes = (p.plan().rows().stream().mapToLong(r -> r.plannedSeconds() + 6).sum() + p.plan().studySeconds()) / 60;
        assertTrue(minutes <= 45, "planned " + minutes + " min: " + RunPlan.minutes(p.plan().planned(), p.plan().studySeconds()));
    }

    @Test
    void quickKeepsTheAxesAndShortensTheTiming() throws Exception {
        RunCommand.Prepared p = prepare("--quick");
        assertEquals(Set.of(500, 2500, 10000), conc(p, "order-summary"));
        assertTrue(p.plan().rows().stream().allMatch(r -> r.hold().toSeconds() <= 5 && r.rep() == 1), "--quick's timing wins over the suite's");
    }
}
