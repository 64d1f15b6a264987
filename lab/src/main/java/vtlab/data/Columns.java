package vtlab.data;

import java.util.List;

/**
 * The order authority of matrix.csv: the seed rig's 23 columns come first, in its order; vtlab's own follow as their
 * components declare them (see vtlab.run.MatrixSchema).
 */
public final class Columns {
    private Columns() {}

    /** Exactly the seed rig's matrix.csv header (seed 002), so its chart scripts read ours. */
    public static final List<String> SEED = List.of("ts_iso", "thread_mode", "hikari_pool", "path_mode", "conn_mode",
            "concurrency", "rep", "throughput_rps", "p50_ms", "p95_ms", "p99_ms", "p999_ms", "max_ms", "error_rate",
            "http_reqs", "app_cpu_pct", "pg_cpu_pct", "load_cpu_pct", "hikari_active_max", "hikari_pending_max",
            "jvm_threads_max", "rss_mb_max", "pinned_events");
}
