package vtlab.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * Thread memory (seed 004's table): starts N platform or virtual threads that park, waits until every one of them
 * is parked, prints one JSON line and stays up until stdin closes, so a caller can read NMT, RSS and heap of a JVM
 * that holds exactly N idle threads.
 *
 * <pre>java -XX:NativeMemoryTracking=summary -cp vtlab-jmh.jar vtlab.bench.ParkedThreads platform 10000</pre>
 */
public final class ParkedThreads {
    private static volatile boolean released;

    private ParkedThreads() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !(args[0].equals("platform") || args[0].equals("virtual"))) {
            System.err.println("usage: ParkedThreads platform|virtual N");
            System.exit(2);
        }
        String mode = args[0];
        int n = Integer.parseInt(args[1]);
        long t0 = System.nanoTime();
        Thread.Builder builder = mode.equals("platform") ? Thread.ofPlatform().name("parked-", 0) : Thread.ofVirtual().name("parked-", 0);
        CountDownLatch started = new CountDownLatch(n);
        List<Thread> threads = new ArrayList<>(n); // held, so parked virtual threads stay reachable
        for (int i = 0; i < n; i++) {
            threads.add(builder.start(() -> {
                started.countDown();
                while (!released) LockSupport.park();
            }));
        }
        started.await();
        // started is not parked yet: wait until every thread reports WAITING (parked)
        while (threads.stream().anyMatch(t -> t.getState() != Thread.State.WAITING)) Thread.sleep(10);
        long startMs = (System.nanoTime() - t0) / 1_000_000;

        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc(); // heap used = what the threads keep alive, not garbage from starting them
        double heapUsedMb = memory.getHeapMemoryUsage().getUsed() / 1048576.0;
        String stackKb = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption("ThreadStackSize").getValue();
        System.out.println(String.format(Locale.ROOT,
                "{\"mode\":\"%s\",\"threads\":%d,\"parked\":%d,\"pid\":%d,\"start_ms\":%d,\"heap_used_mb\":%.1f,\"thread_stack_size_kb\":%s,\"java_version\":\"%s\"}",
                mode, n, threads.size(), ProcessHandle.current().pid(), startMs, heapUsedMb, stackKb, Runtime.version()));
        System.out.flush();

        awaitStdinClosed();
        released = true;
        threads.forEach(LockSupport::unpark);
        for (Thread t : threads) t.join();
    }

    /** The caller closes our stdin when it has read us (or dies, which closes it too). */
    private static void awaitStdinClosed() {
        try {
            while (System.in.read() >= 0) {
                // nothing to read: any input is ignored
            }
        } catch (IOException e) {
            // closed under us: the same signal
        }
    }
}
