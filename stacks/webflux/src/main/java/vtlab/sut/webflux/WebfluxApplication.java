package vtlab.sut.webflux;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import reactor.core.publisher.Mono;
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

    WebfluxApplication(Mode mode, VirtualNettyConfig virtualNetty, SleepRoute sleepRoute) {
        this.mode = mode;
        this.virtualNetty = virtualNetty;
        this.sleepRoute = sleepRoute;
    }

    public static void main(String[] args) {
        exitWhenParentDies();
        SpringApplication.run(WebfluxApplication.class, args);
    }

    /** Runs on the event loop (a Mono, so the blocking-execution predicate never applies to it). */
    @GetMapping("/runtime-info")
    public Mono<Map<String, Object>> runtimeInfo() {
        return Mono.fromSupplier(this::info);
    }

    Map<String, Object> info() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("stack", "webflux");
        m.put("thread_mode", mode.name());
        m.put("server", "reactor-netty");
        m.put("sleep_handler", sleepRoute.target());
        m.put("transport", LoopResources.hasNativeSupport() ? "native" : "nio");
        // Reactor Netty's default worker count: max(available processors, 4); the loops start with the first connection.
        m.put("event_loop_threads", LoopResources.DEFAULT_IO_WORKER_COUNT);
        m.put("event_loop_threads_live", liveThreads("reactor-http-"));
        m.put("blocking_executor", virtualNetty.executorName());
        m.put("max_threads", null); // nothing caps the requests in flight: no request holds a thread while it waits
        m.put("spring_boot_version", org.springframework.boot.SpringBootVersion.getVersion());
        m.put("kotlin_version", kotlin.KotlinVersion.CURRENT.toString());
        m.put("jdk_version", Runtime.version().toString());
        m.put("jdk_major", Runtime.version().feature());
        m.put("available_processors", Runtime.getRuntime().availableProcessors());
        m.put("heap_max_mb", Runtime.getRuntime().maxMemory() / (1024 * 1024));
        m.put("pid", ProcessHandle.current().pid());
        m.put("jvm_args", ManagementFactory.getRuntimeMXBean().getInputArguments());
        m.put("uptime_ms", ManagementFactory.getRuntimeMXBean().getUptime());
        return m;
    }

    static long liveThreads(String namePrefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(namePrefix)).count();
    }

    /** Ends this server if the lab that started it is gone (e.g. killed with SIGKILL), so no JVM is orphaned. */
    static void exitWhenParentDies() {
        String pid = System.getenv("VTLAB_PARENT_PID");
        if (pid == null) return;
        ProcessHandle.of(Long.parseLong(pid)).ifPresentOrElse(
                parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(3)),
                () -> Runtime.getRuntime().halt(3));
    }
}
