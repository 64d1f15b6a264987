package vtlab.data;

import java.util.List;

/**
 * The order authority of matrix.csv, and the one declaration of every column more than its producer reads: what a
 * row is (the runner's), the generator's numbers, the validity checks' verdict, and the probes' columns that
 * findings, checks and the report read. The producers put values through these declarations (the runner's
 * RowColumns, LoadResult, Validity, the probes name them), and every reader reads them through them
 * ({@link DataRow#num}, {@link DataRow#text}): a column's name is written once, here. The seed rig's 23 columns
 * come first, in its order; vtlab's own follow as their components declare them (see vtlab.run.MatrixSchema).
 */
public final class Columns {
    private Columns() {}

    // --- what the row is and where it ran (the runner fills them) ---
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
    public static final Column SUT_LAUNCH = Column.text("sut_launch", "how the SUT's JVM started: jar (as shipped), aot-cache (a JDK 25 AOT cache "
            + "trained once per build: start-up not measured), command (--cmd), or jar (no AOT cache: why)");
    public static final Column FORK = Column.integer("fork", "", "which fresh JVM of its configuration the row ran in (JMH's fork; empty: not forked, reps may share a JVM)");
    public static final Column ITERATION = Column.integer("iteration", "", "which hold of its fork the row is (JMH's iteration: after the first, the fork's warm JVM without a warm-up of its own)");
    public static final Column SUT_LOG = Column.text("sut_log", "the SUT's log in raw/");
    public static final Column DRAIN_MS = Column.integer("drain_ms", "ms", "wait before the hold until the previous load's requests were served");
    public static final Column WARMUP_S = Column.integer("warmup_s", "s", "warm-up length (minimum plus slices)");
    public static final Column WARMUP_STEADY = Column.bool("warmup_steady", "the warm-up's rate and JIT settled (empty: no room to check)");
    public static final Column WARMUP_TREND = Column.text("warmup_trend",
            "why the warm-up ended: the trend of its last 4 slices' rates in words (slope %/slice, 95% CI, CV; empty: no room to check)");
    public static final Column WARMUP_RPS = Column.text("warmup_rps", "rate of each warm-up slice (req/s;...)");
    public static final Column WARMUP_JIT_PCT = Column.text("warmup_jit_pct", "JIT compiler threads' CPU in each warm-up slice (% core;...)");
    public static final Column WARMUP_JIT_FIRST = Column.text("warmup_jit_first",
            "whether the JIT's compiler threads ran before the request threads while warming up (real-time policy, back to normal before the hold), or why not");
    public static final Column MODE_PROOF = Column.text("thread_mode_proof",
            "a service without runtime-info: what proved its thread mode under the warm-up's load (requests seen in thread dumps, in JFR execution samples)");

    // --- the generator's numbers (every generator's result, vtlab.load.LoadResult) ---
    public static final Column RPS = Column.number("throughput_rps", "req/s", "completed requests per second over the hold");
    public static final Column P50 = Column.number("p50_ms", "ms", "median latency (generator's histogram)");
    public static final Column P90 = Column.number("p90_ms", "ms", "90th percentile latency");
    public static final Column P95 = Column.number("p95_ms", "ms", "95th percentile latency");
    public static final Column P99 = Column.number("p99_ms", "ms", "99th percentile latency");
    public static final Column P999 = Column.number("p999_ms", "ms", "99.9th percentile latency (empty where the generator has none)");
    public static final Column MAX_MS = Column.number("max_ms", "ms", "slowest request");
    public static final Column MEAN_MS = Column.number("mean_ms", "ms", "mean latency");
    public static final Column ERROR_RATE = Column.number("error_rate", "ratio", "failed requests (socket errors, timeouts, non-2xx/3xx) over all attempted");
    public static final Column HTTP_REQS = Column.integer("http_reqs", "requests", "completed requests in the hold");
    public static final Column DURATION_S = Column.number("duration_s", "s", "length of the hold as the generator measured it");
    public static final Column ERRORS_CONNECT = Column.integer("errors_connect", "count", "connect errors");
    public static final Column ERRORS_READ = Column.integer("errors_read", "count", "read errors");
    public static final Column ERRORS_WRITE = Column.integer("errors_write", "count", "write errors");
    public static final Column ERRORS_TIMEOUT = Column.integer("errors_timeout", "count", "requests that timed out");
    public static final Column ERRORS_STATUS = Column.integer("errors_status", "count", "answers with status >= 400");
    public static final Column RAW = Column.text("raw", "the generator's output file in raw/");
    public static final Column DROPPED = Column.integer("dropped", "requests", "open model: requests not sent on schedule (empty: closed model, or none can be: the generator queues them and counts their wait)");
    public static final Column HISTOGRAM = Column.text("histogram", "the row's whole latency histogram in raw/ (.hlog, microseconds; .hgrm beside it)");
    public static final Column REQUESTS_BY_REQUEST = Column.text("http_reqs_by_request",
            "a mix's answered requests per request name in the hold (vegeta: each request its own attacker), name=count;name=count");
    public static final Column ATTEMPTED_BY_REQUEST = Column.text("attempted_by_request",
            "a mix's requests sent or tried per request name (answered or not), name=count;name=count");
    public static final Column ERRORS_BY_REQUEST = Column.text("errors_by_request",
            "a mix's failed requests per request name (socket errors, timeouts, status >= 400), name=count;name=count");
    public static final Column P50_BY_REQUEST = Column.text("p50_ms_by_request", "a mix's median latency per request name (its own histogram), name=ms;name=ms");
    public static final Column P99_BY_REQUEST = Column.text("p99_ms_by_request", "a mix's 99th percentile latency per request name (its own histogram), name=ms;name=ms");
    public static final Column P999_BY_REQUEST = Column.text("p999_ms_by_request", "a mix's 99.9th percentile latency per request name (its own histogram), name=ms;name=ms");
    public static final Column HISTOGRAM_BY_REQUEST = Column.text("histogram_by_request",
            "each request name's whole latency histogram in raw/ (.hlog, microseconds), name=file;name=file: reps and agents merge exactly");

    // --- the validity checks' verdict (vtlab.check.Validity) ---
    public static final Column BOUND_RATIO = Column.number("bound_ratio", "ratio", "throughput over the theoretical bound (empty: no bound);"
            + " open model: achieved over min(target, bound)");
    public static final Column FLAGS = Column.text("flags", "validity flags (generator-bound;littles-law;errors;...)");
    public static final Column STATUS = Column.text("status", "ok, flagged (a voiding flag) or failed (no numbers)");
    public static final Column NOTE = Column.text("note", "why a row is flagged or failed, and probe errors");

    // --- the probes' columns others read ---
    public static final Column APP_CPU = cpu("app");
    public static final Column LOAD_CPU = cpu("load");
    public static final Column PG_CPU = cpu("pg");
    public static final Column OTHERS_CPU = Column.number("others_cpu_pct", "% core",
            "CPU of every process outside the row's tiers and the lab itself over the hold (this machine; 100 = one core): a build or a browser beside the run");
    public static final Column BACKGROUND_CPU = Column.number("background_cpu_pct", "% core",
            "CPU of processes at a lower priority than the lab's (their nice above its: a build at nice 19 and idle priority), user and system, over the hold (this machine; 100 = one core): the kernel gives them only the time the tiers leave, so it is not in others_cpu_pct");
    public static final Column STEAL_CPU = Column.number("steal_cpu_pct", "% core",
            "CPU time the hypervisor gave to others while this VM's CPUs wanted it (/proc/stat's steal, every CPU) over the hold (100 = one core): a tier's ticks do not show it, its work just took longer");
    public static final Column APP_CPU_BY_THREAD = Column.text("app_cpu_by_thread", "SUT CPU % of one core by thread group over the hold (group pct;...)");
    public static final Column THREADS_MAX = Column.integer("jvm_threads_max", "threads", "SUT OS threads (/proc Threads), max over the hold");
    public static final Column THREADS_IDLE = Column.integer("jvm_threads_idle", "threads", "SUT OS threads before any load");
    public static final Column RSS_MAX = Column.number("rss_mb_max", "MB", "SUT resident set size (VmRSS), max over the hold");
    public static final Column PINNED = Column.integer("pinned_events", "events", "jdk.VirtualThreadPinned events in the hold (virtual rows)");
    public static final Column PINNED_TOTAL_MS = Column.number("pinned_total_ms", "ms", "time virtual threads spent pinned in the hold");
    public static final Column PINNED_MAX_MS = Column.number("pinned_max_ms", "ms", "longest pin in the hold");
    public static final Column PINNED_REASONS = Column.text("pinned_reasons", "pinned reasons with counts (reason:n;...)");
    public static final Column SUT_REQUESTS_PLATFORM = Column.integer("sut_requests_platform", "requests",
            "requests the SUT ran on platform threads in the hold (runtime-info's requests_by_thread; empty: not counted)");
    public static final Column SUT_REQUESTS_VIRTUAL = Column.integer("sut_requests_virtual", "requests",
            "requests the SUT ran on virtual threads in the hold (runtime-info's requests_by_thread; empty: not counted)");
    public static final Column LISTEN_OVERFLOWS = Column.integer("listen_overflows", "handshakes",
            "connection handshakes the kernel dropped in the hold because a listening socket's accept queue was full (TcpExt"
            + " ListenOverflows of the SUT's network namespace, every listener in it): each such connection began a second or more late");
    public static final Column GC_PAUSES = Column.integer("gc_pauses", "pauses", "GC pauses in the hold (the JVM's gc log)");
    public static final Column GC_PAUSE_TOTAL = Column.number("gc_pause_total_ms", "ms", "time the SUT spent in GC pauses in the hold");
    public static final Column GC_PAUSE_MAX = Column.number("gc_pause_max_ms", "ms", "longest GC pause in the hold");
    public static final Column STW_MAX = Column.number("stw_max_ms", "ms", "longest safepoint of any cause in the hold (all threads stopped)");
    public static final Column STW_CAUSE = Column.text("stw_max_cause", "the VM operation of the longest safepoint (e.g. SerialCollectForAllocation)");
    public static final Column LIVE_SET = Column.number("live_set_mb", "MB", "heap in use after a full collection at the row's end (jcmd GC.run after the hold): the data the service keeps (live-set probe)");
    public static final Column HEAP_IN_USE = Column.number("heap_in_use_mb", "MB", "heap in use at the row's end before that full collection: live data and garbage not yet collected (live-set probe)");
    public static final Column HEAP_GROWN = Column.number("heap_grown_mb", "MB", "the heap the collector had grown to (committed) at the row's end (live-set probe)");
    public static final Column GC_COLLECTOR = Column.text("gc_collector", "the SUT's garbage collector as GC.heap_info names it: Serial, Parallel, G1, ZGC (live-set probe)");
    public static final Column HEAP_AFTER_GC = Column.number("heap_after_gc_mb", "MB", "heap in use after the hold's last GC pause");
    public static final Column HEAP_AFTER_GC_SLOPE = Column.number("heap_after_gc_slope_mb_min", "MB/min",
            "least-squares slope of the heap after each GC pause over the hold (a soak's leak signal; empty under 3 pauses)");
    public static final Column HEAP_USED_MAX = Column.number("heap_used_max_mb", "MB", "most heap in use at a one-second sample of the hold (jvm probe)");
    public static final Column SUT_IN_FLIGHT_MAX = Column.integer("sut_in_flight_max", "requests",
            "most requests in the SUT at once in the hold: the SUT's own peak of those its gate let in, not a sample (jvm probe)");
    // what a SUT's JVM made of its container and what the cgroup saw (vtlab.probe.ContainerProbe)
    public static final Column JVM_PROCESSORS = Column.integer("jvm_available_processors", "CPUs", "Runtime.availableProcessors() in the SUT's JVM (container probe)");
    public static final Column JVM_VT_PARALLELISM = Column.integer("jvm_vt_parallelism", "threads", "the virtual-thread scheduler's parallelism (carriers) the SUT's JVM runs with");
    public static final Column JVM_GC = Column.text("jvm_gc", "the collector the SUT's JVM chose or was given (Serial, G1, Parallel, Z, Shenandoah)");
    public static final Column JVM_GC_THREADS = Column.integer("jvm_gc_threads", "threads", "the collector's parallel threads (ParallelGCThreads; Serial: 1)");
    public static final Column JVM_MAX_HEAP = Column.integer("jvm_max_heap_mb", "MB", "the SUT's max heap (MaxHeapSize): its own sizing from the limit without -Xmx");
    public static final Column CG_CPU_QUOTA = Column.number("cg_cpu_quota", "CPUs", "the SUT's CPU quota (cfs quota / period), or empty");
    public static final Column CG_MEMORY_LIMIT = Column.integer("cg_memory_limit_mb", "MB", "the SUT's memory limit, or empty");
    public static final Column CG_PERIODS = Column.integer("cg_periods", "periods", "CFS periods (100 ms) the SUT ran in during the hold");
    public static final Column CG_THROTTLED_PERIODS = Column.integer("cg_throttled_periods", "periods", "CFS periods in which the quota throttled the SUT, hold");
    public static final Column CG_THROTTLED_PCT = Column.number("cg_throttled_pct", "%", "share of the hold's CFS periods that were throttled");
    public static final Column CG_THROTTLED_MS = Column.number("cg_throttled_ms", "ms", "time the SUT's threads waited for the next period (cpu.stat throttled time), hold");
    public static final Column CG_THROTTLED_TOTAL_MS = Column.number("cg_throttled_total_ms", "ms",
            "time throttled from the JVM's start to the hold's end (start-up and warm-up included: a quota slows a JVM's start most)");
    public static final Column CG_MEMORY_MAX = Column.number("cg_memory_max_mb", "MB", "most memory charged to the SUT's cgroup at a sample of the hold (page cache included)");
    public static final Column CG_MEMORY_FAILCNT = Column.integer("cg_memory_failcnt", "times", "times the SUT's memory use hit its limit in the hold (failcnt; v2: memory.events max)");
    public static final Column NMT_COMMITTED = Column.integer("nmt_thread_committed_kb", "KB", "NMT Thread category committed at the end of the hold");
    public static final Column NMT_RESERVED = Column.integer("nmt_thread_reserved_kb", "KB", "NMT Thread category reserved at the end of the hold");
    public static final Column NMT_RESERVED_IDLE = Column.integer("nmt_thread_reserved_kb_idle", "KB", "NMT Thread reserved before any load");
    public static final Column NMT_COMMITTED_IDLE = Column.integer("nmt_thread_committed_kb_idle", "KB", "NMT Thread committed before any load");
    public static final Column PINNED_TOP_FRAME = Column.text("pinned_top_frame",
            "where most pins came from: the frame outside the JDK nearest the pin (a library's or the application's), with its count");
    public static final Column CTXSW_INVOL = Column.integer("ctxsw_invol", "switches", "SUT involuntary context switches in the hold, all threads (/proc)");
    public static final Column CTXSW_VOL = Column.integer("ctxsw_vol", "switches", "SUT voluntary context switches in the hold, all threads (/proc)");
    public static final Column HIKARI_ACTIVE_MAX = Column.integer("hikari_active_max", "connections", "most pooled connections checked out in the hold");
    public static final Column HIKARI_PENDING_MAX = Column.integer("hikari_pending_max", "requests", "most requests waiting for a pooled connection in the hold");

    // --- a fault in the hold (vtlab.run.FaultSchedule) ---
    public static final Column FAULT = Column.text("fault", "the hold's faults as scheduled (TARGET:KIND[=AMOUNT]@FROM-TO, '+' between; empty: none)");
    public static final Column FAULT_FROM = Column.number("fault_from_s", "s", "when the (first) fault began, seconds into the hold, as applied");
    public static final Column FAULT_TO = Column.number("fault_to_s", "s", "when the (last) fault ended, seconds into the hold, as applied");

    // --- what a fault did (vtlab.check.FaultVerdict) ---
    public static final Column P99_BEFORE = Column.number("p99_before_ms", "ms", "fault rows: p99 of the answers before the fault");
    public static final Column P99_DURING = Column.number("p99_during_ms", "ms", "fault rows: p99 of the answers in the fault's window");
    public static final Column P99_AFTER = Column.number("p99_after_ms", "ms", "fault rows: p99 of the answers after the fault, to the hold's end");
    public static final Column RECOVERY_S = Column.number("recovery_s", "s",
            "fault rows: seconds after the fault's end until a second's p99 is back within 10% of before (and stays 3 s); empty: not within the hold");
    public static final Column PEAK_IN_FLIGHT = Column.integer("peak_in_flight", "requests", "fault rows: most requests in the SUT at once from the fault's start on (the SUT's own peak of the requests its gate let in, jvm probe)");
    public static final Column PEAK_LOAD_IN_FLIGHT = Column.integer("peak_load_in_flight", "requests", "fault rows: most requests the generator had under way from the fault's start on");
    public static final Column HEAP_BEFORE = Column.number("heap_before_mb", "MB", "fault rows: most heap in use before the fault");
    public static final Column PEAK_HEAP = Column.number("peak_heap_mb", "MB", "fault rows: most heap in use from the fault's start on");
    public static final Column FAULT_ERRORS_TIMEOUT = Column.integer("fault_errors_timeout", "requests", "fault rows: timeouts from the fault's start on");
    public static final Column FAULT_ERRORS_STATUS = Column.integer("fault_errors_status", "requests", "fault rows: answers >= 400 (5xx: shed or failed) from the fault's start on");
    public static final Column FAULT_ERRORS_CONNECT = Column.integer("fault_errors_connect", "requests", "fault rows: connections refused or not made from the fault's start on");
    public static final Column FAULT_ERRORS_IO = Column.integer("fault_errors_io", "requests", "fault rows: connections reset or cut from the fault's start on");
    public static final Column FAULT_SHED_PCT = Column.number("fault_shed_pct", "%", "fault rows: share of the requests ending from the fault's start on that failed (any kind)");
    public static final Column NEVER_ANSWERED = Column.integer("never_answered", "requests", "requests of the hold never answered: timeouts, connection errors, dropped");
    public static final Column FAULT_VERDICT = Column.text("fault_verdict", "fault rows: what the fault did, in one sentence");


    // --- the validity checks' other columns (vtlab.check.Validity) ---
    public static final Column LITTLE_RATIO = Column.number("littles_law_ratio", "ratio", "throughput x mean latency over connections (1 = closed model held);"
            + " open model: target rate x mean latency over the in-flight cap (below 0.9 = model kept open)");
    public static final Column LITTLE_OK = Column.bool("littles_law_ok", "Little's law ratio within tolerance on the low side (open model: below 0.9)");
    public static final Column GENERATOR_BOUND = Column.bool("generator_bound", "the generator saturated its cores (empty: no CPU reading)");

    // --- the profiled hold that explains a row (vtlab.run.ExplainingHold, vtlab.probe.ProfileProbe; read by RequestTime) ---
    public static final Column PROFILED_HOLD_S = Column.integer("profiled_hold_s", "s",
            "the profiled hold that explains the row, after its measured hold on the same SUT and load (empty: none); time_* and profile_* come from it");
    public static final Column PROFILED_RPS = Column.number("profiled_rps", "req/s", "throughput of the profiled hold: not the row's (achieved_rps is), shown for what profiling cost");
    public static final Column PROFILED_P99 = Column.number("profiled_p99_ms", "ms", "p99 latency of the profiled hold: not the row's (p99_ms is), shown for what profiling cost");
    public static final Column PROFILE_COST_RPS = Column.number("profile_cost_rps_pct", "%",
            "throughput of the profiled hold against the measured one, in percent (-17: the profiler cost 17% of it)");
    public static final Column PROFILE_COST_P99 = Column.number("profile_cost_p99_pct", "%",
            "p99 latency of the profiled hold against the measured one, in percent (+100: twice as slow while profiled)");
    public static final Column TIME_TOP = Column.text("time_top_cause", "the largest measured share of request time (profile probe): cpu, runqueue, monitor, park, pool_wait, db, downstream, sleep or gc (never other: see time_top_dominant)");
    public static final Column TIME_DOMINANT = Column.bool("time_top_dominant", "whether the largest cause dominates (at least half the request time, or twice the next); false: no single cause does, the verdict names the two largest");
    public static final Column TIME_TAIL = Column.text("time_tail", "what the slowest 1% of the profiled hold's requests waited on: waits of at least half its p99 (each enough alone), by cause with count, longest and what");
    public static final Column PROFILE_FLAME = Column.text("profile_flame", "a CPU flame graph of the SUT over the profiled hold in raw/ (interactive HTML; JFR's execution samples drawn by async-profiler's converter)");
    public static final Column PROFILE_JFR = Column.text("profile_jfr", "the profile probe's recording in raw/ (.jfr; the breakdown with every cause's evidence in .profile.txt)");
    public static final Column TIME_QUEUE = Column.text("time_queue_cause", "the bottleneck: the largest queue in front of the request's own work (runqueue, thread_wait, pool_wait, monitor, park or gc) when it is 10% of request time or more; empty: working, not waiting (profile probe)");
    public static final Column TIME_QUEUE_EVIDENCE = Column.text("time_queue_evidence", "what the bottleneck queued for: the lock's class, the pool, the threads, the CPU's busy share, the pauses");
    public static final Column TIME_SERVER = Column.number("time_server_pct", "%", "the server's own share of request time: requests its request threads held (thread dumps, both thread models) over the client's request time; the rest is time_outside_pct (profile probe)");
    public static final Column TIME_OWN = Column.number("time_own_pct", "%", "the request's own work as a share of request time (cpu, db, downstream, sleep): the floor of its latency, not a bottleneck (profile probe)");
    public static final Column TIME_EVIDENCE = Column.text("time_top_evidence", "what the largest cause was: the top frame and owner, the lock's class, the socket's peer, the pauses");
    public static final Column TIME_CPU_SAMPLES = Column.integer("time_cpu_samples", "samples", "execution samples of request threads that time_cpu_owners' shares stand on");
    public static final Column TIME_CPU_OWNERS = Column.text("time_cpu_owners", "request threads' execution samples by owner of their leaf-most frame outside the JDK (owner pct;...)");

    /** A tier's CPU column (app, load, pg, stub, toxiproxy), vtlab.probe.CpuProbe's. */
    public static Column cpu(String tier) {
        return Column.number(tier + "_cpu_pct", "% core", "CPU of the " + tier + " tier's processes over the hold, 100 = one core");
    }

    /** Exactly the seed rig's matrix.csv header (seed 002), so its chart scripts read ours. */
    public static final List<String> SEED = List.of(TS.name(), THREAD_MODE.name(), HIKARI_POOL.name(), PATH_MODE.name(), CONN_MODE.name(),
            CONCURRENCY.name(), REP.name(), RPS.name(), P50.name(), P95.name(), P99.name(), P999.name(), MAX_MS.name(), ERROR_RATE.name(),
            HTTP_REQS.name(), APP_CPU.name(), PG_CPU.name(), LOAD_CPU.name(), HIKARI_ACTIVE_MAX.name(), HIKARI_PENDING_MAX.name(),
            THREADS_MAX.name(), RSS_MAX.name(), PINNED.name());
}
