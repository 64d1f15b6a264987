package vtlab.bench;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.apache.tomcat.util.collections.SynchronizedStack;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The Tomcat talk's question (seed 003): Tomcat caches objects that are expensive to create in ThreadLocals; with a
 * virtual thread per request that cache never hits. Alternatives: a new object every time, or a shared pool like
 * Tomcat's SynchronizedStack. Each invocation serves {@value #TASKS} requests, at most {@code workers} at a time:
 * platform = a fixed pool of {@code workers} threads (what Tomcat's pool does), virtual = a new virtual thread per
 * request. The score is per request.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@OperationsPerInvocation(ThreadLocalCacheBenchmark.TASKS)
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 1, time = 10)
@Measurement(iterations = 3, time = 10)
public class ThreadLocalCacheBenchmark {
    static final int TASKS = 256;

    @Param({"8", "16", "32", "64"})
    public int workers;

    @Param({"platform", "virtual"})
    public String mode;

    private ExecutorService executor;
    private Semaphore inFlight;
    private final ThreadLocal<Expensive> cache = ThreadLocal.withInitial(Expensive::new);
    private final SynchronizedStack<Expensive> pool = new SynchronizedStack<>();

    /** Stands for what Tomcat caches (regex matchers, mapping data): costly to build, cheap to use. */
    static final class Expensive {
        private final MessageDigest digest;
        private final byte[] scratch = new byte[16 * 1024];

        Expensive() {
            try {
                digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        int use(int request) {
            for (int i = 0; i < 256; i++) scratch[i] = (byte) (request + i);
            digest.update(scratch, 0, 256);
            return digest.digest()[0];
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        executor = switch (mode) {
            case "platform" -> Executors.newFixedThreadPool(workers, Thread.ofPlatform().name("worker-", 0).factory());
            case "virtual" -> Executors.newVirtualThreadPerTaskExecutor();
            default -> throw new IllegalArgumentException("mode must be platform or virtual, not " + mode);
        };
        inFlight = new Semaphore(workers);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        executor.close();
    }

    private interface Request {
        int serve(int request);
    }

    /** Serves TASKS requests with at most `workers` in flight; the result is returned so JMH consumes it. */
    private long serve(Request body) throws InterruptedException {
        LongAdder sink = new LongAdder();
        CountDownLatch done = new CountDownLatch(TASKS);
        for (int i = 0; i < TASKS; i++) {
            int request = i;
            inFlight.acquire();
            executor.execute(() -> {
                try {
                    sink.add(body.serve(request));
                } finally {
                    inFlight.release();
                    done.countDown();
                }
            });
        }
        done.await();
        return sink.sum();
    }

    @Benchmark
    public long threadLocal() throws InterruptedException {
        return serve(request -> cache.get().use(request));
    }

    @Benchmark
    public long newObject() throws InterruptedException {
        return serve(request -> new Expensive().use(request));
    }

    @Benchmark
    public long synchronizedStack() throws InterruptedException {
        return serve(request -> {
            Expensive e = pool.pop();
            if (e == null) e = new Expensive();
            try {
                return e.use(request);
            } finally {
                pool.push(e);
            }
        });
    }
}
