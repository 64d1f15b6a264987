package vtlab.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The article's ThreadsBenchmark (seed 000): the same small computation inline, in a new platform thread and in a new
 * virtual thread (started and joined), so the difference is what starting and ending a thread costs. The defaults are
 * the article's (1 fork, 1 warm-up and 3 measured iterations of 10 s); the lab passes its own on the command line.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 1, time = 10)
@Measurement(iterations = 3, time = 10)
public class ThreadCostBenchmark {
    static final long TOKENS = 1024;

    @Benchmark
    public void computeInMainThread() {
        Blackhole.consumeCPU(TOKENS);
    }

    @Benchmark
    public void computeInPlatformThread() throws InterruptedException {
        Thread.ofPlatform().start(() -> Blackhole.consumeCPU(TOKENS)).join();
    }

    @Benchmark
    public void computeInVirtualThread() throws InterruptedException {
        Thread.ofVirtual().start(() -> Blackhole.consumeCPU(TOKENS)).join();
    }
}
