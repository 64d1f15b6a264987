package vtlab.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class LabAffinityTest {
    private static void taskset(String cpus) throws Exception {
        Process p = new ProcessBuilder(List.of("taskset", "-a", "-p", "-c", cpus, Long.toString(ProcessHandle.current().pid())))
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertEquals(0, p.waitFor(), "taskset");
    }

    /**
     * A run pins the lab's JVM to its own CPUs; the next run in the same JVM (the end-to-end tests run the CLI
     * in-process) must still divide the whole machine, not the one CPU the lab kept for itself.
     */
    @Test
    void theCoreMapStillSeesTheMachineAfterTheLabPinnedItself() throws Exception {
        int before = Runtime.getRuntime().availableProcessors();
        assertEquals(before, LabAffinity.machineCpus());
        String all = "0-" + (before - 1);
        try {
            taskset("0");
            assertEquals(1, Runtime.getRuntime().availableProcessors(), "the JVM's own count follows its affinity");
            assertEquals(before, LabAffinity.machineCpus(), "the core map's does not");
            LabAffinity.unpin();
            assertEquals(before, Runtime.getRuntime().availableProcessors(), "unpinned at the end of a run: what it starts next sees every CPU");
        } finally {
            taskset(all);
        }
    }
}
