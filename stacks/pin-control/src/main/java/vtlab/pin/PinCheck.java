package vtlab.pin;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingStream;

/**
 * The control as a long-running SUT leaves it: calls {@link PinControl#runPinned} on virtual threads until C2 has
 * compiled it (JFR's jdk.Compilation at level 4), then pins {@code measured} more times, all recorded in one JFR
 * file with jdk.VirtualThreadPinned at a zero threshold. Prints {@code compiled-at <epoch ms>}: the calls after it
 * ran compiled code. Every call takes the same path (the same action, which parks), so the compiled code is never
 * left through a branch the warm-up did not take.
 * <p>
 * {@code java -XX:CompileCommand=dontinline,vtlab.pin.PinControl::runPinned -cp vtlab-pin-control.jar
 * vtlab.pin.PinCheck OUT.jfr [measured]}; dontinline keeps runPinned a compilation of its own to wait for (inlined
 * into a caller, its lock is removed all the same). Exits 1 when C2 did not compile it within a minute.
 */
public final class PinCheck {
    private PinCheck() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int measured = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        CountDownLatch compiled = new CountDownLatch(1);
        Runnable park = () -> LockSupport.parkNanos(50_000);
        try (Recording r = new Recording(); RecordingStream compilations = new RecordingStream()) {
            r.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            r.enable("jdk.Compilation").withThreshold(Duration.ZERO);
            compilations.enable("jdk.Compilation").withThreshold(Duration.ZERO);
            compilations.onEvent("jdk.Compilation", e -> {
                RecordedMethod m = e.getValue("method");
                if (m != null && m.getType().getName().equals(PinControl.class.getName()) && m.getName().equals("runPinned")
                        && e.getInt("compileLevel") == 4 && e.getBoolean("succeded")) compiled.countDown();
            });
            compilations.setMaxAge(Duration.ofSeconds(10));
            compilations.startAsync();
            r.start();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            int calls = 0;
            while (compiled.getCount() > 0) {
                if (System.nanoTime() > deadline) {
                    System.out.println("not compiled by C2 after " + calls + " calls");
                    System.exit(1);
                }
                pin(park, 64);
                calls += 64;
            }
            Thread.sleep(100); // the warm-up's last pins end before the mark
            Instant at = Instant.now();
            for (int i = 0; i < measured; i++) pin(park, 1);
            r.stop();
            r.dump(out);
            System.out.println("compiled-at " + at.toEpochMilli() + " after " + calls + " calls");
        }
    }

    /** n virtual threads at once, each running the control once. */
    private static void pin(Runnable action, int n) throws InterruptedException {
        List<Thread> threads = new ArrayList<>(n);
        for (int i = 0; i < n; i++) threads.add(Thread.ofVirtual().start(() -> PinControl.runPinned(action)));
        for (Thread t : threads) t.join();
    }
}
