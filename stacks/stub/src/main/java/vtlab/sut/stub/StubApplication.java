package vtlab.sut.stub;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import reactor.core.publisher.Mono;
import reactor.netty.http.HttpProtocol;

/**
 * The downstream every order-summary request calls: answers after a fixed delay without holding a thread
 * (Mono.delay on Reactor Netty's timer), so the stub itself never caps how many calls are in flight.
 */
@SpringBootApplication
@RestController
public class StubApplication {
    static final long DEFAULT_DELAY_MS = longEnv("STUB_DELAY_MS", 100);
    /**
     * Streams one HTTP/2 connection may carry at once: far above any concurrency the lab sends, so a client that
     * multiplexes its calls (h2c) is never queued by the stub.
     */
    static final long MAX_CONCURRENT_STREAMS = 1_000_000;
    private final AtomicLong served = new AtomicLong();

    public static void main(String[] args) {
        vtlab.sut.kit.ParentWatch.exitWhenParentDies();
        SpringApplication.run(StubApplication.class, args);
    }

    /**
     * HTTP/1.1 and cleartext HTTP/2 (h2c, by upgrade) on the same port: a SUT may send each call on a connection of
     * its own (two sockets per client connection in the SUT) or multiplex them on a few.
     */
    @Bean
    NettyServerCustomizer protocols() {
        return server -> server.protocol(HttpProtocol.HTTP11, HttpProtocol.H2C)
                .http2Settings(h2 -> h2.maxConcurrentStreams(MAX_CONCURRENT_STREAMS));
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
        m.put("protocols", "HTTP/1.1, h2c");
        m.put("h2_max_concurrent_streams", MAX_CONCURRENT_STREAMS);
        m.put("served", served.get());
        m.put("spring_boot_version", org.springframework.boot.SpringBootVersion.getVersion());
        m.putAll(vtlab.sut.kit.RuntimeInfo.jvm());
        return m;
    }

    private static long longEnv(String key, long dflt) {
        String v = System.getenv(key);
        return v == null || v.isBlank() ? dflt : Long.parseLong(v.trim());
    }
}
