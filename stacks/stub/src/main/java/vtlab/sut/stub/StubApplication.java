package vtlab.sut.stub;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import reactor.core.publisher.Mono;

/**
 * The downstream every order-summary request calls: answers after a fixed delay without holding a thread
 * (Mono.delay on Reactor Netty's timer), so the stub itself never caps how many calls are in flight.
 */
@SpringBootApplication
@RestController
public class StubApplication {
    static final long DEFAULT_DELAY_MS = longEnv("STUB_DELAY_MS", 100);
    private final AtomicLong served = new AtomicLong();

    public static void main(String[] args) {
        exitWhenParentDies();
        SpringApplication.run(StubApplication.class, args);
    }

    @GetMapping("/delay")
    public Mono<Map<String, Object>> delay(@RequestParam(name = "ms", required = false) Long ms) {
        long delay = ms == null ? DEFAULT_DELAY_MS : Math.max(0, ms);
        return Mono.delay(Duration.ofMillis(delay)).map(tick -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("source", "stub");
            m.put("delay_ms", delay);
            m.put("seq", served.incrementAndGet());
            return m;
        });
    }

    @GetMapping("/runtime-info")
    public Map<String, Object> runtimeInfo() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("stack", "stub");
        m.put("server", "reactor-netty");
        m.put("delay_ms_default", DEFAULT_DELAY_MS);
        m.put("served", served.get());
        m.put("spring_boot_version", org.springframework.boot.SpringBootVersion.getVersion());
        m.put("jdk_version", Runtime.version().toString());
        m.put("jdk_major", Runtime.version().feature());
        m.put("available_processors", Runtime.getRuntime().availableProcessors());
        m.put("heap_max_mb", Runtime.getRuntime().maxMemory() / (1024 * 1024));
        m.put("pid", ProcessHandle.current().pid());
        m.put("jvm_args", ManagementFactory.getRuntimeMXBean().getInputArguments());
        return m;
    }

    private static long longEnv(String key, long dflt) {
        String v = System.getenv(key);
        return v == null || v.isBlank() ? dflt : Long.parseLong(v.trim());
    }

    /** Ends the stub if the lab that started it is gone (e.g. killed with SIGKILL), so no JVM is orphaned. */
    static void exitWhenParentDies() {
        String pid = System.getenv("VTLAB_PARENT_PID");
        if (pid == null) return;
        ProcessHandle.of(Long.parseLong(pid)).ifPresentOrElse(
                parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(3)),
                () -> Runtime.getRuntime().halt(3));
    }
}
