package vtlab.sut.webflux;

import java.util.List;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import reactor.core.publisher.Mono;
import vtlab.sut.kit.RuntimeInfo;
import reactor.netty.resources.LoopResources;

/**
 * Seed 004's non-blocking contenders on one Reactor Netty server: WebFlux with Mono.delay (/delay), the same wait as a
 * Kotlin suspend function (/co/delay), and blocking code on virtual threads behind Netty (/vt/sleep, the "loom-netty"
 * approach). THREAD_MODE (reactive | coroutine | virtual-netty) picks the variant /sleep runs ({@link SleepRoute});
 * only virtual-netty creates the virtual-thread executor, so the other two carry nothing but Netty's event loops and
 * the timers.
 */
@SpringBootApplication
@RestController
public class WebfluxApplication {
    static final List<String> MODES = List.of("reactive", "coroutine", "virtual-netty");

    private final Mode mode;
    private final VirtualNettyConfig virtualNetty;
    private final SleepRoute sleepRoute;
    private final CountRequests requests;

    WebfluxApplication(Mode mode, VirtualNettyConfig virtualNetty, SleepRoute sleepRoute, CountRequests requests) {
        this.requests = requests;
        this.mode = mode;
        this.virtualNetty = virtualNetty;
        this.sleepRoute = sleepRoute;
    }

    public static void main(String[] args) {
        vtlab.sut.kit.ParentWatch.exitWhenParentDies();
        eventLoops(System.getenv("EVENT_LOOPS"));
        SpringApplication.run(WebfluxApplication.class, args);
    }

    /**
     * EVENT_LOOPS: Reactor Netty's event loops (reactor.netty.ioWorkerCount, read once when LoopResources loads, so
     * set before Spring starts). Its own default is max(CPUs, 4): four loops on a one-CPU server, where one loop served
     * 2–5x the hello requests (docs/results.md). Absent: Reactor Netty's default.
     */
    static void eventLoops(String value) {
        if (value == null || value.isBlank()) return;
        int n;
        try {
            n = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("EVENT_LOOPS must be a whole number, not '" + value + "'");
        }
        if (n < 1) throw new IllegalArgumentException("EVENT_LOOPS must be 1 or more, not " + n);
        System.setProperty("reactor.netty.ioWorkerCount", Integer.toString(n));
    }

    /** Runs on the event loop (a Mono, so the blocking-execution predicate never applies to it). */
    @GetMapping("/runtime-info")
    public Mono<Map<String, Object>> runtimeInfo() {
        return Mono.fromSupplier(this::info);
    }

    Map<String, Object> info() {
        Map<String, Object> m = RuntimeInfo.of("webflux", mode.name());
        m.put("server", "reactor-netty");
        m.put("sleep_handler", sleepRoute.target());
        m.put("transport", LoopResources.hasNativeSupport() ? "native" : "nio");
        // Reactor Netty's worker count (default max(available processors, 4), or EVENT_LOOPS); the loops start with the first connection
        m.put("event_loop_threads", LoopResources.DEFAULT_IO_WORKER_COUNT);
        m.put("event_loop_threads_live", RuntimeInfo.liveThreads("reactor-http-"));
        m.put("blocking_executor", virtualNetty.executorName());
        m.put("max_threads", null); // nothing caps the requests in flight: no request holds a thread while it waits
        m.put("spring_boot_version", org.springframework.boot.SpringBootVersion.getVersion());
        m.put("kotlin_version", kotlin.KotlinVersion.CURRENT.toString());
        // requests as they reach the server (on its event loops: the thread that runs a virtual-netty handler is not the one counted)
        return RuntimeInfo.requests(m, requests.counter());
    }
}
