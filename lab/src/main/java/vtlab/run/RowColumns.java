package vtlab.run;

import java.util.List;

import vtlab.data.Column;

/** The columns the runner itself fills: what the row is, where it ran, and how the SUT was warmed and drained. */
public final class RowColumns {
    private RowColumns() {}

    public static final Column TS = Column.text("ts_iso", "when the row started (UTC, ISO-8601)");
    public static final Column EXPERIMENT = Column.text("experiment", "the experiment that planned the row");
    public static final Column STACK = Column.text("stack", "the SUT's stack (stacks/NAME)");
    public static final Column THREAD_MODE = Column.text("thread_mode", "platform or virtual (and variants)");
    public static final Column WORKLOAD = Column.text("workload", "the stack's workload (endpoint)");
    public static final Column CONCURRENCY = Column.integer("concurrency", "connections", "closed-model connections; open model: the in-flight cap (--max-in-flight)");
    public static final Column REP = Column.integer("rep", "", "repetition of the scenario");
    public static final Column HIKARI_POOL = Column.integer("hikari_pool", "connections", "HikariCP pool size (empty: no pool)");
    public static final Column PATH_MODE = Column.text("path_mode", "request path variant (spring rows)");
    public static final Column CONN_MODE = Column.text("conn_mode", "connection variant (spring rows)");
    public static final Column JDK = Column.integer("jdk", "", "JDK major version of the SUT");
    public static final Column CARRIERS = Column.integer("carriers", "threads", "virtual-thread carriers the SUT was started with (empty: JVM default)");
    public static final Column GENERATOR = Column.text("generator", "load generator");
    public static final Column LOAD_MODEL = Column.text("load_model", "closed: each connection sends when its answer arrives; open: sent at target_rps on schedule");
    public static final Column TARGET_RPS = Column.number("target_rps", "req/s", "open model: the rate offered (empty: closed model)");
    public static final Column ACHIEVED_RPS = Column.number("achieved_rps", "req/s", "completed requests per second over the hold (the throughput; open rows: against target_rps)");
    public static final Column BOUND_RPS = Column.number("bound_rps", "req/s", "theoretical throughput ceiling (empty: none derived)");
    public static final Column BOUND_NOTE = Column.text("bound_note", "how the bound was derived");
    public static final Column APP_CPUS = Column.text("app_cpus", "CPUs the SUT is pinned to (taskset list)");
    public static final Column LOAD_CPUS = Column.text("load_cpus", "CPUs the generator is pinned to (taskset list)");
    public static final Column PARAMS = Column.text("params", "the experiment's own axes (k=v;...)");
    public static final Column SCENARIO = Column.text("scenario", "the row's identity without the rep");
    public static final Column SUT_JVM = Column.text("sut_jvm", "fresh (started for this row) or reused (kept from the row before)");
    public static final Column SUT_LOG = Column.text("sut_log", "the SUT's log in raw/");
    public static final Column DRAIN_MS = Column.integer("drain_ms", "ms", "wait before the hold until the previous load's requests were served");
    public static final Column WARMUP_S = Column.integer("warmup_s", "s", "warm-up length (minimum plus slices)");
    public static final Column WARMUP_STEADY = Column.bool("warmup_steady", "the warm-up's rate and JIT settled (empty: no room to check)");
    public static final Column WARMUP_RPS = Column.text("warmup_rps", "rate of each warm-up slice (req/s;...)");
    public static final Column WARMUP_JIT_PCT = Column.text("warmup_jit_pct", "JIT compiler threads' CPU in each warm-up slice (% core;...)");

    public static final Column MODE_PROOF = Column.text("thread_mode_proof",
            "a service without runtime-info: what proved its thread mode under the warm-up's load (requests seen in thread dumps, in JFR execution samples)");

    public static final List<Column> ALL = List.of(TS, EXPERIMENT, STACK, THREAD_MODE, WORKLOAD, CONCURRENCY, REP,
            HIKARI_POOL, PATH_MODE, CONN_MODE, JDK, CARRIERS, GENERATOR, LOAD_MODEL, TARGET_RPS, ACHIEVED_RPS, BOUND_RPS, BOUND_NOTE, APP_CPUS,
            LOAD_CPUS, PARAMS, SCENARIO, SUT_JVM, SUT_LOG, DRAIN_MS, WARMUP_S, WARMUP_STEADY, WARMUP_RPS, WARMUP_JIT_PCT, MODE_PROOF);
}
