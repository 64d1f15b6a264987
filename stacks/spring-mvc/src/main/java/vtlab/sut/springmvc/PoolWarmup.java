package vtlab.sut.springmvc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;

/**
 * Opens the whole fixed-size pool before Tomcat starts (so before runtime-info answers and the lab sends load):
 * a pool still opening connections under load would be measured as a slow database. Also reads the id range the
 * random-order workload draws from.
 */
public final class PoolWarmup implements SmartInitializingSingleton {
    private static final Logger LOG = LoggerFactory.getLogger(PoolWarmup.class);
    static final Duration FILL_TIMEOUT = Duration.ofSeconds(120);

    private final DataSource dataSource;
    private volatile long maxOrderId;
    private volatile long fillMillis;

    PoolWarmup(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public void afterSingletonsInstantiated() {
        long t0 = System.nanoTime();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT coalesce(max(id), 0) FROM orders")) {
            rs.next();
            maxOrderId = rs.getLong(1);
        } catch (Exception e) {
            throw new IllegalStateException("database not usable: " + e.getMessage(), e);
        }
        if (maxOrderId < 1) throw new IllegalStateException("the orders table is empty: nothing to look up");
        if (dataSource instanceof HikariDataSource h) {
            HikariPoolMXBean pool = h.getHikariPoolMXBean();
            long deadline = System.nanoTime() + FILL_TIMEOUT.toNanos();
            while (pool.getTotalConnections() < h.getMaximumPoolSize()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("pool opened " + pool.getTotalConnections() + " of " + h.getMaximumPoolSize()
                            + " connections in " + FILL_TIMEOUT.toSeconds() + " s");
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while the pool filled", e);
                }
            }
        }
        fillMillis = (System.nanoTime() - t0) / 1_000_000;
        LOG.info("pool ready in {} ms; orders 1..{}", fillMillis, maxOrderId);
    }

    public long maxOrderId() {
        return maxOrderId;
    }

    public long fillMillis() {
        return fillMillis;
    }
}
