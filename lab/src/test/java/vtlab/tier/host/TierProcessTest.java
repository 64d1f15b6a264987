package vtlab.tier.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import vtlab.proc.Children;

/** A server on a host whose children do its work (PostgreSQL's backends) is read with them; anything else alone. */
class TierProcessTest {
    @Test
    void aServersChildrenAreReadWithItWhereItRuns() throws Exception {
        Process p = Children.track(new ProcessBuilder("sh", "-c", "sleep 30 & sleep 30 & wait").start());
        try (FileSession files = new FileSession(new LocalHost())) {
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (p.toHandle().children().count() < 2 && System.nanoTime() < deadline) Thread.sleep(20);
            Set<Long> expected = p.toHandle().children().map(ProcessHandle::pid).collect(Collectors.toSet());
            TierProcess server = TierProcess.treeOn(files, p.pid(), p::isAlive);
            List<TierProcess> children = server.children();
            assertEquals(expected, children.stream().map(TierProcess::pid).collect(Collectors.toSet()));
            assertEquals(2, expected.size());
            assertTrue(children.getFirst().proc("stat").startsWith(children.getFirst().pid() + " (sleep)"), children.getFirst().proc("stat"));
            assertEquals(List.of(), TierProcess.on(files, p.pid(), p::isAlive).children(), "a JVM or a generator is read alone");
        } finally {
            Children.stop(p.toHandle(), 2_000);
        }
    }
}
