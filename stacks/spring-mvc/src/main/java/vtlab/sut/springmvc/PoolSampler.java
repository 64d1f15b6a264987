package vtlab.sut.springmvc;

import java.util.LinkedHashMap;
import java.util.Map;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;

/**
 * HikariCP's active and waiting counts sampled every 10 ms inside the SUT, keeping the maxima since the last reset:
 * the lab's probe asks over HTTP, and under load its request may wait behind hundreds of others, so the peaks
 * must be caught here rather than by the probe's own polling.
 */
public final class PoolSampler {
    static final long PERIOD_MS = 10;
    private final HikariDataSource dataSource;
    private int activeMax, pendingMax;
    private long samples;

    PoolSampler(HikariDataSource dataSource) {
        this.dataSource = dataSource;
        Thread t = Thread.ofPlatform().daemon().name("vtlab-pool-sampler").unstarted(this::loop);
        t.start();
    }

    private void loop() {
        while (true) {
            HikariPoolMXBean p = dataSource.getHikariPoolMXBean();
            if (p != null) record(p.getActiveConnections(), p.getThreadsAwaitingConnection());
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    synchronized void record(int active, int pending) {
        activeMax = Math.max(activeMax, active);
        pendingMax = Math.max(pendingMax, pending);
        samples++;
    }

    /** Current counts and the maxima since the last reset; reset=true starts a new window. */
    public synchronized Map<String, Object> read(boolean reset) {
        HikariPoolMXBean p = dataSource.getHikariPoolMXBean();
        Map<String, Object> m = new LinkedHashMap<>();
        int active = p == null ? 0 : p.getActiveConnections(), pending = p == null ? 0 : p.getThreadsAwaitingConnection();
        m.put("active", active);
        m.put("idle", p == null ? 0 : p.getIdleConnections());
        m.put("total", p == null ? 0 : p.getTotalConnections());
        m.put("pending", pending);
        m.put("max", dataSource.getMaximumPoolSize());
        m.put("active_max", Math.max(activeMax, active));
        m.put("pending_max", Math.max(pendingMax, pending));
        m.put("samples", samples);
        m.put("sample_period_ms", PERIOD_MS);
        if (reset) {
            activeMax = active;
            pendingMax = pending;
            samples = 0;
        }
        return m;
    }
}
