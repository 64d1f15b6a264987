package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.plan.VerificationFailed;
import vtlab.probe.ThreadDump;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.tool.Jdk;

/** The thread-mode proof of a service without runtime-info, on a real JSON thread dump of this JVM. */
class ThreadModeCheckTest {
    @TempDir
    Path dir;

    /** Stands for a request handler of the service: its frame is in the service's package (this one). */
    static void serveRequest(CountDownLatch started, CountDownLatch done) {
        started.countDown();
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void countsRequestsInFlightByKindOfThreadInARealDump() throws Exception {
        CountDownLatch started = new CountDownLatch(5), done = new CountDownLatch(1);
        for (int i = 0; i < 3; i++) Thread.ofVirtual().start(() -> serveRequest(started, done));
        for (int i = 0; i < 2; i++) Thread.ofPlatform().start(() -> serveRequest(started, done));
        started.await();
        try {
            Path dump = ThreadDump.take(Jdk.current(), ProcessHandle.current().pid(), dir.resolve("d.json"));
            ThreadModeCheck.Seen seen = ThreadModeCheck.count(Files.readString(dump), List.of(ThreadModeCheckTest.class.getName() + ".serveRequest"));
            assertEquals(new ThreadModeCheck.Seen(3, 2, 0), seen, "the platform ones in the service's own frames, none in a server's");
            // no frame of the service's package: no request seen (server frames alone would not match this JVM)
            assertEquals(new ThreadModeCheck.Seen(0, 0), ThreadModeCheck.count(Files.readString(dump), List.of("com.nosuch.")));
        } finally {
            done.countDown();
        }
    }

    /** Stands for a busy request handler (an endpoint answering in microseconds): on CPU, never waiting. */
    static void serveBusily(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        double x = 1;
        while (System.nanoTime() < end) x = Math.sqrt(x + 1);
        if (x == 0) System.out.println(x);
    }

    /** The JFR witness on a real recording of this JVM: samples of request frames, by the sampled thread's kind. */
    @Test
    void countsExecutionSamplesOfRequestsByKindOfThreadInARealRecording() throws Exception {
        Path jfr = dir.resolve("mode.jfr");
        try (jdk.jfr.Recording r = new jdk.jfr.Recording(jdk.jfr.Configuration.create(new java.io.StringReader(ThreadModeCheck.settings())))) {
            r.start();
            Thread v = Thread.ofVirtual().start(() -> serveBusily(400));
            Thread p = Thread.ofPlatform().start(() -> serveBusily(400));
            v.join();
            p.join();
            r.stop();
            r.dump(jfr);
        }
        ThreadModeCheck.Seen seen = ThreadModeCheck.samples(jfr, List.of(ThreadModeCheckTest.class.getName() + ".serveBusily"));
        assertTrue(seen.virtual() > 0 && seen.platform() > 0, "both kinds sampled: " + seen);
        assertEquals(new ThreadModeCheck.Seen(0, 0), ThreadModeCheck.samples(jfr, List.of("com.nosuch.")));
    }

    static ThreadModeCheck.Tried tried(int dumps) {
        return new ThreadModeCheck.Tried(dumps, 2, java.time.Duration.ofSeconds(7), null);
    }

    static final ThreadModeCheck.Seen NONE = new ThreadModeCheck.Seen(0, 0);

    @Test
    void aVirtualRowWithRequestsOnPlatformThreadsOnlyFails() {
        VerificationFailed e = assertThrows(VerificationFailed.class, () -> ThreadModeCheck.verdict(Threads.VIRTUAL, new ThreadModeCheck.Seen(0, 12), NONE, tried(1)));
        assertTrue(e.getMessage().startsWith("virtual threads not in effect: 0 request(s) on virtual threads, 12 on platform threads"), e.getMessage());
        // either witness alone convicts
        assertThrows(VerificationFailed.class, () -> ThreadModeCheck.verdict(Threads.VIRTUAL, NONE, new ThreadModeCheck.Seen(0, 30), tried(3)));
        assertThrows(VerificationFailed.class, () -> ThreadModeCheck.verdict(Threads.PLATFORM, new ThreadModeCheck.Seen(3, 0), NONE, tried(1)));
        assertThrows(VerificationFailed.class, () -> ThreadModeCheck.verdict(Threads.PLATFORM, NONE, new ThreadModeCheck.Seen(2, 40), tried(6)));
    }

    @Test
    void nothingSeenByEitherWitnessOverTheWholeWarmUpSaysWhatWasTriedAndWhatToDo() {
        VerificationFailed none = assertThrows(VerificationFailed.class, () -> ThreadModeCheck.verdict(Threads.VIRTUAL, NONE, NONE, tried(6)));
        assertTrue(none.getMessage().startsWith("no request seen under load over the whole 7 s warm-up (2 slice(s))"), none.getMessage());
        assertTrue(none.getMessage().contains("in 6 thread dump(s); 0 JFR execution sample(s)"), none.getMessage());
        assertTrue(none.getMessage().contains(ThreadModeCheck.UNPROVEN) && none.getMessage().contains("longer --warmup"), none.getMessage());
        VerificationFailed noJfr = assertThrows(VerificationFailed.class, () -> ThreadModeCheck.verdict(Threads.PLATFORM, NONE, NONE,
                new ThreadModeCheck.Tried(3, 1, java.time.Duration.ofSeconds(2), "JFR could not start: no such recording")));
        assertTrue(noJfr.getMessage().contains("no JFR samples (JFR could not start: no such recording)"), noJfr.getMessage());
    }

    /** A thread of jcmd's JSON dump, as Thread.dump_to_file -format=json writes it. */
    static String thread(boolean virtual, String... frames) {
        return "{\"tid\": \"1\", \"name\": \"\", \"virtual\": " + virtual + ", \"stack\": [" + String.join(", ",
                java.util.Arrays.stream(frames).map(f -> "\"" + f + "\"").toList()) + "]}";
    }

    /**
     * Requests on virtual threads and on platform threads in a server's request path: mixed, which passes verification
     * (virtual threads are in effect) and is named first in the proof, where the row's validity flags it. A platform
     * thread in the service's own package only (its scheduler's, say) is not a request path of the server's.
     */
    @Test
    void aVirtualRowWithRequestsOnPlatformThreadsTooIsMixed() throws Exception {
        String json = "{\"threadDump\": {\"threadContainers\": [{\"container\": \"<root>\", \"threads\": ["
                + thread(true, "java.base/java.lang.VirtualThread.run(VirtualThread.java:466)", "org.apache.coyote.AbstractProtocol$ConnectionHandler.process(AbstractProtocol.java:903)",
                        "com.shop.OrderController.get(OrderController.java:20)") + ", "
                + thread(false, "org.apache.coyote.http11.Http11Processor.service(Http11Processor.java:397)", "com.shop.OrderController.get(OrderController.java:20)") + ", "
                + thread(false, "com.shop.Nightly.run(Nightly.java:9)") + ", "
                + thread(false, "java.base/java.lang.Thread.sleep(Thread.java:500)") + "]}]}}";
        List<String> frames = new java.util.ArrayList<>(ThreadModeCheck.SERVER_FRAMES);
        frames.add("com.shop.");
        ThreadModeCheck.Seen seen = ThreadModeCheck.count(json, frames);
        assertEquals(new ThreadModeCheck.Seen(1, 2, 1), seen);
        ThreadModeCheck.verdict(Threads.VIRTUAL, seen, NONE, tried(1)); // passes: virtual threads are in effect
        assertTrue(ThreadModeCheck.mixed(Threads.VIRTUAL, seen));
        assertTrue(!ThreadModeCheck.mixed(Threads.VIRTUAL, new ThreadModeCheck.Seen(1, 1, 0)), "a platform thread in the service's package only");
        assertTrue(!ThreadModeCheck.mixed(Threads.VIRTUAL, new ThreadModeCheck.Seen(40, 0)));
        assertTrue(!ThreadModeCheck.mixed(Threads.PLATFORM, new ThreadModeCheck.Seen(0, 40)));
    }

    /**
     * A SUT whose every jcmd answers but JFR.stop, which times out: alive or exited, as given. Nothing runs; the
     * recording is only as the check knows it.
     */
    static vtlab.tier.host.TierProcess stopTimesOut(boolean alive) {
        vtlab.tier.host.Site site = new vtlab.tier.host.Site() {
            @Override
            public String jcmd(Jdk jdk, long pid, List<String> command) throws java.io.IOException {
                if (command.getFirst().equals("JFR.stop")) throw new java.io.IOException("jcmd JFR.stop: no answer from " + pid + " within 60 s");
                return "";
            }

            @Override
            public String path(Path file) {
                return file.toString();
            }

            @Override
            public String send(Path file) {
                return file.toString();
            }

            @Override
            public void fetch(Path file) {}
        };
        return new vtlab.tier.host.TierProcess() {
            @Override
            public long pid() {
                return 4242;
            }

            @Override
            public boolean alive() {
                return alive;
            }

            @Override
            public java.util.Optional<ProcessHandle> local() {
                return java.util.Optional.empty();
            }

            @Override
            public String proc(String file) throws java.io.IOException {
                throw new java.io.IOException("no /proc here");
            }

            @Override
            public vtlab.tier.host.Site site() {
                return site;
            }
        };
    }

    /**
     * A recording the check cannot stop in a SUT that still runs would sample every 10 ms into the measured hold: the
     * row fails and says so. A SUT that exited records nothing any more: its row fails on that, not here.
     */
    @Test
    void aRecordingThatCannotBeStoppedInARunningSutFailsTheRow() throws Exception {
        vtlab.tier.host.TierProcess running = stopTimesOut(true);
        ThreadModeCheck check = new ThreadModeCheck(vtlab.stack.ThreadMode.Threads.VIRTUAL, List.of("com.shop."));
        check.begin(Jdk.current(), running, dir, "r1");
        Exception e = assertThrows(Exception.class, () -> check.stop(Jdk.current(), running), "a running SUT's recording left on is ignored");
        assertTrue(e instanceof RowRunner.RowFailed, e.toString());
        assertTrue(e.getMessage().contains("could not be stopped") && e.getMessage().contains("no answer from 4242 within 60 s")
                && e.getMessage().contains("measured hold"), e.getMessage());
        vtlab.tier.host.TierProcess exited = stopTimesOut(false);
        ThreadModeCheck gone = new ThreadModeCheck(vtlab.stack.ThreadMode.Threads.VIRTUAL, List.of("com.shop."));
        gone.begin(Jdk.current(), exited, dir, "r2");
        gone.stop(Jdk.current(), exited);
    }

    @Test
    void eachModeSeenAsItShouldPasses() throws Exception {
        ThreadModeCheck.verdict(Threads.VIRTUAL, new ThreadModeCheck.Seen(40, 0), NONE, tried(1));
        ThreadModeCheck.verdict(Threads.PLATFORM, new ThreadModeCheck.Seen(0, 40), NONE, tried(1));
        // the dumps missed a fast endpoint; the samples caught it
        ThreadModeCheck.verdict(Threads.VIRTUAL, NONE, new ThreadModeCheck.Seen(25, 0), tried(6));
        ThreadModeCheck.verdict(Threads.PLATFORM, NONE, new ThreadModeCheck.Seen(0, 25), tried(6));
    }
}
