package vtlab.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

class LabAffinityTest {
    /**
     * A run pins the lab's JVM to its own CPUs; the next run in the same JVM (the end-to-end tests run the CLI
     * in-process) must still divide the whole machine, not the one CPU the lab kept for itself.
     */
    @Test
    void theCoreMapStillSeesTheMachineAfterTheLabPinnedItself() throws Exception {
        int before = Runtime.getRuntime().availableProcessors();
        assertEquals(before, LabAffinity.machineCpus());
        String all = LabAffinity.originalCpuList();
        String first = all.split("[-,]")[0];
        try {
            assertNull(LabAffinity.taskset(first));
            assertEquals(1, Runtime.getRuntime().availableProcessors(), "the JVM's own count follows its affinity");
            assertEquals(before, LabAffinity.machineCpus(), "the core map's does not");
            LabAffinity.unpin();
            assertEquals(before, Runtime.getRuntime().availableProcessors(), "unpinned at the end of a run: what it starts next sees every CPU");
        } finally {
            LabAffinity.taskset(all);
        }
    }

    /**
     * taskset -a fails the whole walk when one thread ends under it, and a JVM always has threads ending (this is how
     * CI failed once). With threads starting and ending all the time, every pin must still succeed.
     */
    @Test
    void pinningSucceedsWhileThreadsComeAndGo() throws Exception {
        String all = LabAffinity.originalCpuList();
        String first = all.split("[-,]")[0];
        AtomicBoolean stop = new AtomicBoolean();
        Thread churn = new Thread(() -> {
            while (!stop.get()) {
                Thread t = new Thread(() -> {});
                t.start();
                try {
                    t.join();
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        churn.start();
        try {
            for (int i = 0; i < 40; i++) {
                assertNull(LabAffinity.taskset(i % 2 == 0 ? first : all), "pin " + i);
            }
        } finally {
            stop.set(true);
            churn.join();
            LabAffinity.taskset(all);
        }
    }
}
