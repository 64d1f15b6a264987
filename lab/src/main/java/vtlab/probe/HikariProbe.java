package vtlab.probe;

import java.util.List;

import vtlab.data.Column;
import vtlab.data.Columns;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * HikariCP's busiest moments during the hold: the most connections checked out (hikari_active_max) and the most
 * requests waiting for one (hikari_pending_max). The SUT samples its pool every 10 ms and keeps the maxima
 * (GET /api/pool, reset when the hold starts), because this probe's own request can queue behind the load; the
 * probe reads the current counts once a second for the series. Only rows with a Hikari pool (spring-mvc) have one.
 * A service from the command line (./vtlab ab) has no /api/pool: its pools' MBeans (a Spring Boot jar is started with
 * spring.datasource.hikari.register-mbeans=true) are read over the local attach API instead, once a second, and the
 * maxima are those of the samples; a service without HikariCP leaves the columns empty.
 */
public final class HikariProbe implements Probe {
    static final String PATH = "/api/pool";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    static final Column ACTIVE_MAX = Columns.HIKARI_ACTIVE_MAX;
    static final Column PENDING_MAX = Columns.HIKARI_PENDING_MAX;
    private boolean active;
    private java.util.concurrent.CompletableFuture<Void> inFlight;
    private HikariMBeans mbeans;
    private int activeMax, pendingMax;

    @Override
    public java.util.List<Column> columns() {
        return java.util.List.of(ACTIVE_MAX, PENDING_MAX);
    }

    /** Rows with a pool wait for it to go idle before the hold, probe selected or not (see {@link #awaitIdle}). */
    @Override
    public java.util.List<vtlab.plan.Drain> drains(vtlab.plan.Row row) {
        return row.hikariPool() == null ? java.util.List.of() : java.util.List.of(vtlab.plan.Drain.of("the pool", HikariProbe::awaitIdle));
    }

    @Override
    public String name() {
        return "hikari";
    }

    @Override
    public String description() {
        return "HikariCP active and pending connections (max over the hold), for SUTs with a pool (spring-mvc)";
    }

    /** A service without /api/pool: attached before the warm-up, so the JMX agent's start-up is not in the hold. */
    @Override
    public void beforeLoad(ProbeContext ctx, Measurements out) throws Exception {
        if (ctx.row().hikariPool() == null && !vtlab.stack.Stack.load(ctx.row().stack()).reportsRuntimeInfo()) {
            mbeans = HikariMBeans.attach(ctx.app().pid());
        }
    }

    @Override
    public void start(ProbeContext ctx) throws Exception {
        active = ctx.row().hikariPool() != null;
        if (active) read(ctx.sutBase(), true); // a new window: peaks of warm-up and verification do not count
    }

    /** Asynchronous: under load the answer may take seconds, and the runner's sampling loop must not wait for it. */
    @Override
    public void sample(ProbeContext ctx, double second, Measurements out) throws Exception {
        if (mbeans != null) {
            int[] now = mbeans.read();
            activeMax = Math.max(activeMax, now[0]);
            pendingMax = Math.max(pendingMax, now[1]);
            out.point("hikari_active", second, now[0]);
            out.point("hikari_pending", second, now[1]);
            return;
        }
        if (!active || (inFlight != null && !inFlight.isDone())) return;
        inFlight = http.sendAsync(HttpRequest.newBuilder(ctx.sutBase().resolve(PATH)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString()).thenAccept(r -> {
                    if (r.statusCode() != 200) return;
                    try {
                        JsonNode n = JSON.readTree(r.body());
                        out.point("hikari_active", second, n.path("active").asDouble());
                        out.point("hikari_pending", second, n.path("pending").asDouble());
                    } catch (IOException e) {
                        // a garbled sample is skipped; the maxima come from finish()
                    }
                });
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) throws Exception {
        if (mbeans != null) {
            try (HikariMBeans m = mbeans) {
                out.put(ACTIVE_MAX, activeMax);
                out.put(PENDING_MAX, pendingMax);
            } finally {
                mbeans = null;
            }
            return;
        }
        if (!active) return;
        if (inFlight != null) inFlight.cancel(true);
        JsonNode n = read(ctx.sutBase(), false);
        if (!n.hasNonNull("active_max")) throw new IOException(PATH + " reports no active_max: " + n);
        out.put(ACTIVE_MAX, n.get("active_max").asInt());
        out.put(PENDING_MAX, n.path("pending_max").asInt());
    }

    /**
     * Waits until no request holds or waits for a pooled connection; false if that took longer than max. The
     * runner's drain (runtime-info answering fast again) misses virtual threads queued on the pool: runtime-info
     * needs no connection, so it answers at once while a warm-up's worth of requests still waits (seen: 3,745
     * waiting at the start of a 2,000-connection hold, eating the first seconds of the pool's capacity).
     */
    public static boolean awaitIdle(URI base, Duration max) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve(PATH)).timeout(max).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && idle(JSON.readTree(r.body()))) return true;
            } catch (IOException e) {
                // no answer is no proof of idleness: ask again
            }
            Thread.sleep(100);
        }
        return false;
    }

    static boolean idle(JsonNode pool) {
        return pool.hasNonNull("active") && pool.get("active").asInt() == 0 && pool.path("pending").asInt(-1) == 0;
    }

    private JsonNode read(URI base, boolean reset) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve(PATH + (reset ? "?reset=true" : "")))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new IOException(PATH + " answered " + r.statusCode());
        return JSON.readTree(r.body());
    }
}
