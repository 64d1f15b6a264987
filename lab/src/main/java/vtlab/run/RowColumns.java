package vtlab.run;

import java.util.List;

import vtlab.data.Column;
import vtlab.data.Columns;

/** The columns the runner itself fills (declared in data/Columns): what the row is, where it ran, and how the SUT was warmed and drained. */
public final class RowColumns {
    private RowColumns() {}

    public static final Column TS = Columns.TS;
    public static final Column EXPERIMENT = Columns.EXPERIMENT;
    public static final Column STACK = Columns.STACK;
    public static final Column THREAD_MODE = Columns.THREAD_MODE;
    public static final Column WORKLOAD = Columns.WORKLOAD;
    public static final Column CONCURRENCY = Columns.CONCURRENCY;
    public static final Column REP = Columns.REP;
    public static final Column HIKARI_POOL = Columns.HIKARI_POOL;
    public static final Column PATH_MODE = Columns.PATH_MODE;
    public static final Column CONN_MODE = Columns.CONN_MODE;
    public static final Column JDK = Columns.JDK;
    public static final Column CARRIERS = Columns.CARRIERS;
    public static final Column GENERATOR = Columns.GENERATOR;
    public static final Column LOAD_MODEL = Columns.LOAD_MODEL;
    public static final Column TARGET_RPS = Columns.TARGET_RPS;
    public static final Column ACHIEVED_RPS = Columns.ACHIEVED_RPS;
    public static final Column BOUND_RPS = Columns.BOUND_RPS;
    public static final Column BOUND_NOTE = Columns.BOUND_NOTE;
    public static final Column APP_CPUS = Columns.APP_CPUS;
    public static final Column LOAD_CPUS = Columns.LOAD_CPUS;
    public static final Column PARAMS = Columns.PARAMS;
    public static final Column SCENARIO = Columns.SCENARIO;
    public static final Column SUT_JVM = Columns.SUT_JVM;
    public static final Column SUT_LAUNCH = Columns.SUT_LAUNCH;
    public static final Column FORK = Columns.FORK;
    public static final Column ITERATION = Columns.ITERATION;
    public static final Column SUT_LOG = Columns.SUT_LOG;
    public static final Column DRAIN_MS = Columns.DRAIN_MS;
    public static final Column WARMUP_S = Columns.WARMUP_S;
    public static final Column WARMUP_STEADY = Columns.WARMUP_STEADY;
    public static final Column WARMUP_TREND = Columns.WARMUP_TREND;
    public static final Column WARMUP_RPS = Columns.WARMUP_RPS;
    public static final Column WARMUP_JIT_PCT = Columns.WARMUP_JIT_PCT;
    public static final Column WARMUP_JIT_FIRST = Columns.WARMUP_JIT_FIRST;

    public static final Column MODE_PROOF = Columns.MODE_PROOF;

    public static final List<Column> ALL = List.of(TS, EXPERIMENT, STACK, THREAD_MODE, WORKLOAD, CONCURRENCY, REP,
            HIKARI_POOL, PATH_MODE, CONN_MODE, JDK, CARRIERS, GENERATOR, LOAD_MODEL, TARGET_RPS, ACHIEVED_RPS, BOUND_RPS, BOUND_NOTE, APP_CPUS,
            LOAD_CPUS, PARAMS, SCENARIO, SUT_JVM, SUT_LAUNCH, FORK, ITERATION, SUT_LOG, DRAIN_MS, WARMUP_S, WARMUP_STEADY, WARMUP_TREND, WARMUP_RPS, WARMUP_JIT_PCT, WARMUP_JIT_FIRST, MODE_PROOF);
}
