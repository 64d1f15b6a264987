package vtlab.tier.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A build the launcher started before the lab (./vtlab test starts oha's first) is waited for, not started again:
 * setup returns its binary once that process has ended, and forgets the pid file.
 */
class EarlierBuildTest {
    @TempDir
    Path home;

    @Test
    void setupWaitsForTheBuildStartedBeforeItAndTakesItsBinary() throws Exception {
        String before = System.getProperty("vtlab.home");
        System.setProperty("vtlab.home", home.toString());
        try {
            Path tools = Files.createDirectories(home.resolve(".vtlab/tools/bin")).getParent();
            assertNull(RegistryTools.awaitEarlierBuild("fakeoha", "fakeoha", tools.resolve("fakeoha-build.log")), "no pid file: no earlier build");
            // a "cargo" that runs for a second and leaves the binary, as cargo install does at its end
            Path cargo = Files.copy(Path.of("/bin/sh"), home.resolve("cargo"), StandardCopyOption.COPY_ATTRIBUTES);
            Path binary = tools.resolve("bin/fakeoha");
            Process p = new ProcessBuilder(cargo.toString(), "-c", "sleep 1; printf '#!/bin/sh\\n' > " + binary + "; chmod +x " + binary).start();
            Files.writeString(tools.resolve("fakeoha-build.pid"), Long.toString(p.pid()));
            assertTrue(RegistryTools.earlierBuildInFlight("fakeoha"), "in flight while it runs: setup waits for it last");
            assertFalse(RegistryTools.earlierBuildInFlight("wrk"), "no pid file, no build elsewhere");
            Path got = RegistryTools.awaitEarlierBuild("fakeoha", "fakeoha", tools.resolve("fakeoha-build.log"));
            assertFalse(p.isAlive(), "returned once that build ended");
            assertEquals(binary, got);
            assertFalse(Files.exists(tools.resolve("fakeoha-build.pid")), "the pid file is forgotten");
            assertFalse(RegistryTools.earlierBuildInFlight("fakeoha"), "ended");
        } finally {
            if (before == null) System.clearProperty("vtlab.home");
            else System.setProperty("vtlab.home", before);
        }
    }

    /**
     * The wait ends with the build though a blocking task holds the JVM's common pool (one worker on 2 CPUs): an
     * end-to-end test's watcher loop held it on a busy machine, and the lab, waiting through onExit() (completed on that
     * pool), sat 20 minutes on a build long ended.
     */
    @Test
    void theWaitEndsWithTheBuildWhileABlockingTaskHoldsTheCommonPool() throws Exception {
        String before = System.getProperty("vtlab.home");
        System.setProperty("vtlab.home", home.toString());
        java.util.concurrent.atomic.AtomicBoolean hold = new java.util.concurrent.atomic.AtomicBoolean(true);
        int workers = java.util.concurrent.ForkJoinPool.getCommonPoolParallelism();
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(workers);
        try {
            for (int i = 0; i < workers; i++) {
                java.util.concurrent.CompletableFuture.runAsync(() -> {
                    held.countDown();
                    while (hold.get()) {
                        try {
                            Thread.sleep(20); // not a managed block: the pool cannot tell it waits
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
            }
            assertTrue(held.await(10, java.util.concurrent.TimeUnit.SECONDS), "every worker of the common pool held");
            Path tools = Files.createDirectories(home.resolve(".vtlab/tools/bin")).getParent();
            Path cargo = Files.copy(Path.of("/bin/sh"), home.resolve("cargo"), StandardCopyOption.COPY_ATTRIBUTES);
            Path binary = tools.resolve("bin/fakeoha");
            Process p = new ProcessBuilder(cargo.toString(), "-c", "sleep 1; printf '#!/bin/sh\\n' > " + binary + "; chmod +x " + binary).start();
            Files.writeString(tools.resolve("fakeoha-build.pid"), Long.toString(p.pid()));
            Path got = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(15),
                    () -> RegistryTools.awaitEarlierBuild("fakeoha", "fakeoha", tools.resolve("fakeoha-build.log")),
                    "the wait must end with the build, not with its 20-minute limit");
            assertEquals(binary, got);
        } finally {
            hold.set(false);
            if (before == null) System.clearProperty("vtlab.home");
            else System.setProperty("vtlab.home", before);
        }
    }
}
