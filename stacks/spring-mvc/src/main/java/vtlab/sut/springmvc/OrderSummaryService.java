package vtlab.sut.springmvc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The blocking request path: a primary-key lookup of an order joined to its customer, then the downstream call.
 * In released mode the connection returns to the pool right after the query; in held mode both steps run in one
 * transaction, so the connection stays checked out across the call (the "transaction spans an HTTP call" pattern).
 */
public final class OrderSummaryService {
    /** The one query of the endpoint; the lab counts its calls in pg_stat_statements by this text. */
    static final String ORDER_QUERY = "SELECT o.id, o.status, o.total_cents, o.created_at::text AS created_at,"
            + " c.id AS customer_id, c.name, c.email, c.tier"
            + " FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id = ?";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final DownstreamClient downstream;
    private final Settings settings;
    private final Object[] stripes;

    public OrderSummaryService(JdbcTemplate jdbc, TransactionTemplate tx, DownstreamClient downstream, Settings settings) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.downstream = downstream;
        this.settings = settings;
        this.stripes = new Object[settings.syncStripes()];
        for (int i = 0; i < stripes.length; i++) stripes[i] = new Object();
    }

    /** The combined JSON for one order, or empty when the order does not exist. */
    public Optional<Map<String, Object>> summary(long orderId) {
        if (settings.pathMode().equals("control")) {
            // The positive control: the same work, then a short wait behind a frame the JDK cannot unmount past
            // (vtlab.pin.PinControl). The pinned wait is a sleep, which needs no other virtual thread to wake it:
            // pinning the downstream call itself deadlocks a one-carrier SUT (its HTTP client completes on virtual
            // threads that have no carrier left to run on).
            Optional<Map<String, Object>> result = blockingSection(orderId);
            vtlab.pin.PinControl.runPinned(OrderSummaryService::controlPause);
            return result;
        }
        if (!settings.synchronizedPath()) return blockingSection(orderId);
        // Striped so that unrelated ids do not queue on one lock: what is measured is blocking inside a monitor
        // (a pinned carrier before JDK 24, JEP 491), not lock contention.
        synchronized (stripes[(int) Math.floorMod(orderId, (long) stripes.length)]) {
            return blockingSection(orderId);
        }
    }

    /** How long the positive control holds its carrier per request. */
    static final long CONTROL_PIN_MS = 5;

    private static void controlPause() {
        try {
            Thread.sleep(CONTROL_PIN_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Optional<Map<String, Object>> blockingSection(long orderId) {
        if (settings.held()) return tx.execute(status -> lookupAndCall(orderId));
        return lookupAndCall(orderId);
    }

    private Optional<Map<String, Object>> lookupAndCall(long orderId) {
        List<Map<String, Object>> rows = jdbc.query(ORDER_QUERY, (rs, n) -> {
            Map<String, Object> order = new LinkedHashMap<>();
            order.put("id", rs.getLong("id"));
            order.put("status", rs.getString("status"));
            order.put("total_cents", rs.getLong("total_cents"));
            order.put("created_at", rs.getString("created_at"));
            Map<String, Object> customer = new LinkedHashMap<>();
            customer.put("id", rs.getLong("customer_id"));
            customer.put("name", rs.getString("name"));
            customer.put("email", rs.getString("email"));
            customer.put("tier", rs.getString("tier"));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("order", order);
            out.put("customer", customer);
            return out;
        }, orderId);
        if (rows.isEmpty()) return Optional.empty();
        Map<String, Object> out = rows.getFirst();
        out.put("downstream", downstream.call());
        out.put("conn_mode", settings.connMode());
        out.put("path_mode", settings.pathMode());
        out.put("thread", Thread.currentThread().toString());
        return Optional.of(out);
    }
}
