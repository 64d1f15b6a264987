package vtlab.data;

/**
 * The columns of the studies' own datasets (jmh.csv, thread-memory.csv) that more than their study reads (the report,
 * the seeds' claims), each declared once; the studies write them by these names (vtlab.experiment.jmh).
 */
public final class StudyColumns {
    private StudyColumns() {}

    // jmh.csv
    public static final Column STUDY = Column.text("study", "the study that wrote the row (studies of one run share jmh.csv)");
    public static final Column BENCHMARK = Column.text("benchmark", "the JMH benchmark method, fully qualified");
    public static final Column WORKERS = Column.integer("workers", "threads", "the benchmark's workers @Param (empty: none)");
    public static final Column SCORE = Column.number("score", "", "JMH's score, in unit");
    public static final Column ERROR = Column.number("error", "", "JMH's score error (99.9%), in unit");
    public static final Column METHOD = Column.text("method", "the benchmark's method name");
    public static final Column UNIT = Column.text("unit", "the score's unit (us/op, ops/s, ...)");

    // thread-memory.csv
    public static final Column MODE = Column.text("mode", "platform or virtual");
    public static final Column THREADS = Column.integer("threads", "threads", "threads started and parked");
    public static final Column RSS_MB = Column.number("rss_mb", "MB", "the JVM's resident set once all threads were parked");
    public static final Column HEAP_USED_MB = Column.number("heap_used_mb", "MB", "heap in use once all threads were parked");
    public static final Column OS_THREADS = Column.integer("os_threads", "threads", "the JVM's OS threads once all were parked");
    public static final Column THREAD_STACK_SIZE_KB = Column.integer("thread_stack_size_kb", "KB", "the JVM's thread stack size (ThreadStackSize)");
}
