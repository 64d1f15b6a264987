package vtlab.data;

import java.util.ArrayList;
import java.util.List;

/** The columns of matrix.csv: the seed rig's 23, in its order, then vtlab's own. */
public final class Columns {
    private Columns() {}

    /** Exactly the seed rig's matrix.csv header (seed 002), so its chart scripts read ours. */
    public static final List<String> SEED = List.of("ts_iso", "thread_mode", "hikari_pool", "path_mode", "conn_mode",
            "concurrency", "rep", "throughput_rps", "p50_ms", "p95_ms", "p99_ms", "p999_ms", "max_ms", "error_rate",
            "http_reqs", "app_cpu_pct", "pg_cpu_pct", "load_cpu_pct", "hikari_active_max", "hikari_pending_max",
            "jvm_threads_max", "rss_mb_max", "pinned_events");

    public static final List<String> VTLAB = List.of("experiment", "stack", "workload", "jdk", "generator",
            "load_model", "bound_rps", "bound_ratio", "littles_law_ok", "generator_bound", "nmt_thread_reserved_kb",
            "nmt_thread_committed_kb", "status", "note", "mean_ms", "p90_ms", "duration_s", "errors_connect",
            "errors_read", "errors_write", "errors_timeout", "errors_status", "stub_cpu_pct", "app_cpus", "load_cpus",
            "bound_note", "littles_law_ratio", "flags", "params", "scenario", "raw",
            "nmt_thread_reserved_kb_idle", "nmt_thread_committed_kb_idle", "jvm_threads_idle",
            "pinned_total_ms", "pinned_max_ms", "pinned_reasons", "vthreads_dump", "sut_jvm", "sut_log", "drain_ms",
            "carriers", "warmup_s", "warmup_steady", "warmup_rps", "app_cpu_by_thread", "warmup_jit_pct");

    public static final List<String> ALL;

    static {
        List<String> all = new ArrayList<>(SEED);
        all.addAll(VTLAB);
        ALL = List.copyOf(all);
    }
}
