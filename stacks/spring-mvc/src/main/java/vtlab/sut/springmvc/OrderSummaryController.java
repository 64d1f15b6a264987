package vtlab.sut.springmvc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import javax.sql.DataSource;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.zaxxer.hikari.HikariDataSource;

@RestController
public class OrderSummaryController {
    private final OrderSummaryService service;
    private final PoolWarmup warmup;
    private final DataSource dataSource;
    private final DownstreamClient downstream;
    private final Settings settings;
    private final ApplicationContext context;
    private final Environment env;
    private final PoolSampler sampler;
    private final RequestGate gate;

    public OrderSummaryController(OrderSummaryService service, PoolWarmup warmup, DataSource dataSource,
                                  DownstreamClient downstream, Settings settings, ApplicationContext context, Environment env,
                                  PoolSampler sampler, RequestGate gate) {
        this.service = service;
        this.warmup = warmup;
        this.dataSource = dataSource;
        this.downstream = downstream;
        this.settings = settings;
        this.context = context;
        this.env = env;
        this.sampler = sampler;
        this.gate = gate;
    }

    /**
     * One order's summary. The id "random" draws a uniform id over every seeded order per request, so a load
     * generator that repeats one URL (wrk) still spreads its lookups over the whole table.
     */
    @GetMapping("/api/order-summary/{id}")
    public ResponseEntity<Map<String, Object>> orderSummary(@PathVariable("id") String id) {
        long orderId;
        if (id.equals("random")) {
            orderId = ThreadLocalRandom.current().nextLong(1, warmup.maxOrderId() + 1);
        } else {
            try {
                orderId = Long.parseLong(id);
            } catch (NumberFormatException e) {
                return ResponseEntity.badRequest().body(Map.of("error", "order id must be a number or 'random', not " + id));
            }
        }
        return service.summary(orderId).map(ResponseEntity::ok)
                .orElseGet(() -> ResponseEntity.status(404).body(Map.of("error", "no order " + orderId)));
    }

    /** The article's Spring controller: blocks the request's thread and names it. */
    @GetMapping("/sleep")
    public String sleep(@RequestParam(name = "ms", defaultValue = "50") long ms) throws InterruptedException {
        Thread.sleep(ms);
        return "slept " + ms + " ms on " + Thread.currentThread();
    }

    static volatile double sink;

    /**
     * Computes for ms milliseconds in the service's own code and answers: no sleep, no query, no call, so at enough
     * connections the one core is full of this work (the next step's full-CPU control, NextStepIT).
     */
    @GetMapping("/cpu")
    public ResponseEntity<String> cpu(@RequestParam(name = "ms", defaultValue = "1") long ms) {
        if (ms < 0 || ms > 1_000) return ResponseEntity.badRequest().body("ms must be between 0 and 1000");
        long end = System.nanoTime() + ms * 1_000_000;
        double x = 1;
        while (System.nanoTime() < end) x += Math.sqrt(x);
        sink = x;
        return ResponseEntity.ok("computed " + ms + " ms");
    }

    /** HikariCP's live counters and their maxima since the last reset, read by the lab's hikari probe. */
    @GetMapping("/api/pool")
    public Map<String, Object> pool(@RequestParam(name = "reset", defaultValue = "false") boolean reset) {
        return sampler.read(reset);
    }

    /** What the server really runs with, read back from the live web server (Tomcat or Jetty), Hikari and client objects. */
    @GetMapping("/api/runtime-info")
    public Map<String, Object> runtimeInfo() {
        Map<String, Object> m = new LinkedHashMap<>();
        org.springframework.boot.web.server.WebServer server = ((WebServerApplicationContext) context).getWebServer();
        m.put("stack", WebServerInfo.stack(server));
        m.put("vt_enabled", env.getProperty("spring.threads.virtual.enabled", Boolean.class, false));
        m.putAll(WebServerInfo.of(server, env)); // thread_mode, the request pool, the connection cap, the server's version
        HikariDataSource h = (HikariDataSource) dataSource;
        m.put("hikari_pool", h.getMaximumPoolSize());
        m.put("hikari_min_idle", h.getMinimumIdle());
        m.put("hikari_connection_timeout_ms", h.getConnectionTimeout());
        m.put("hikari_total", h.getHikariPoolMXBean().getTotalConnections());
        m.put("hikari_fill_ms", warmup.fillMillis());
        m.put("db_url", h.getJdbcUrl());
        m.put("conn_mode", settings.connMode());
        m.put("path_mode", settings.pathMode());
        m.put("sync_stripes", settings.synchronizedPath() ? settings.syncStripes() : null);
        m.put("pin_control", settings.pathMode().equals("control") ? vtlab.pin.PinControl.mechanism() : null);
        m.put("downstream_delay_ms", settings.downstreamDelayMs());
        m.put("concurrency_limit", gate.limit());
        m.put("requests_mbean", Requests.NAME);
        m.put("requests_by_path", gate.requests().byPath()); // requests since start by path
        m.put("requests_by_thread", gate.requests().byThread()); // and by the kind of thread that ran them
        m.putAll(downstream.describe());
        m.put("order_query", OrderSummaryService.ORDER_QUERY);
        m.put("orders_max_id", warmup.maxOrderId());
        m.put("spring_boot_version", SpringBootVersion.getVersion());
        m.put("pgjdbc_version", Versions.pgjdbc());
        m.put("hikari_version", Versions.hikari());
        m.putAll(vtlab.sut.kit.RuntimeInfo.jvm()); // the JVM, as every stack reports it
        return m;
    }
}
