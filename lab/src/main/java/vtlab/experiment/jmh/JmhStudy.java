package vtlab.experiment.jmh;


import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.StudyColumns;
import vtlab.data.Dataset;
import vtlab.plan.PlanContext;
import vtlab.plan.Study;
import vtlab.proc.Children;
import vtlab.proc.CoreMap;
import vtlab.tier.tool.Jdk;

/**
 * A JMH benchmark class of bench/jmh run through JMH's own runner (java -jar vtlab-jmh.jar REGEX ... -rf json), in a
 * JVM pinned to the app CPUs, once per --jdk. Its JSON results become rows of jmh.csv in the run folder (studies of
 * one run share the file; the study column tells them apart).
 */
public abstract class JmhStudy implements Study {
    public static final String FILE = "jmh.csv";
    /** As the task asks: benchmark, thread_mode, workers, score, error, unit, the @Params; then the run's details. */
    public static final List<String> COLUMNS = List.of(StudyColumns.BENCHMARK.name(), Columns.THREAD_MODE.name(), StudyColumns.WORKERS.name(),
            StudyColumns.SCORE.name(), StudyColumns.ERROR.name(), StudyColumns.UNIT.name(), Columns.PARAMS.name(), StudyColumns.STUDY.name(), StudyColumns.METHOD.name(), "jdk", "jmh_mode", "samples", "ci_low", "ci_high", "forks", "warmup_iterations",
            "warmup_time", "measurement_iterations", "measurement_time", "raw");

    /** JMH's include regex, e.g. vtlab\.bench\.ThreadCostBenchmark\. */
    protected abstract String include();

    /** Benchmarks the regex and the @Param values select, for the time estimate. */
    protected abstract int benchmarkCount(Options o) throws UsageError;

    /** JMH options besides timing, e.g. -p workers=8,16. */
    protected abstract List<String> jmhParams(Options o) throws UsageError;

    /** The statements of findings() from this study's jmh.csv rows of one JDK. */
    protected abstract List<String> statements(List<DataRow> rows);

    public record Timing(int forks, int warmups, int iterations, Duration time) {
        List<String> args() {
            String t = time.toMillis() + "ms";
            return List.of("-f", Integer.toString(forks), "-wi", Integer.toString(warmups), "-i", Integer.toString(iterations),
                    "-w", t, "-r", t);
        }

        long seconds(int benchmarks) {
            // every benchmark is a fresh JVM fork (~2 s to start and hand over its results)
            return (long) benchmarks * forks * ((warmups + iterations) * Math.max(1, time.toSeconds()) + 2);
        }
    }

    /**
     * The article's profile (1 fork, 1 warm-up, 3 iterations of 10 s); --quick keeps 3 iterations (JMH prints no
     * error below 3) of 1 s. --jmh-forks, --jmh-warmups, --jmh-iterations, --jmh-time override either.
     */
    static final Opt FORKS = Opt.of("jmh-forks", "1", "JMH forks per benchmark");
    static final Opt WARMUPS = Opt.of("jmh-warmups", "1", "JMH warm-up iterations");
    static final Opt ITERATIONS = Opt.of("jmh-iterations", "3", "JMH measured iterations");
    static final Opt TIME = Opt.of("jmh-time", "10s", "length of each iteration").quick("1s");
    static final List<Opt> TIMING = List.of(FORKS, WARMUPS, ITERATIONS, TIME);

    public static Timing timing(Options o) throws UsageError {
        return new Timing(FORKS.integer(o), WARMUPS.integer(o), ITERATIONS.integer(o), TIME.duration(o, false));
    }

    /** The study's own options (e.g. --workers); the JMH timing ones are added by {@link #options()}. */
    protected List<Opt> ownOptions() {
        return List.of();
    }

    @Override
    public List<Opt> options() {
        List<Opt> a = new ArrayList<>(ownOptions());
        a.addAll(TIMING);
        return a;
    }

    public static Path jar() {
        return vtlab.core.LabHome.get().resolve("bench/jmh/target/vtlab-jmh.jar");
    }

    /** The options parsed once: what prepare() checked is what execute() runs. */
    record Spec(Timing timing, List<String> jmhParams, int benchmarks) {}

    @Override
    public Prepared prepare(Options o, PlanContext ctx) throws UsageError {
        Spec spec = new Spec(timing(o), jmhParams(o), benchmarkCount(o));
        if (!Files.isRegularFile(jar())) throw new UsageError("the JMH benchmarks are not built (" + jar() + "): run ./vtlab build");
        return new Prepared(this, spec.timing().seconds(spec.benchmarks()) * ctx.jdks().size(), c -> execute(c, spec));
    }

    void execute(Context ctx, Spec spec) throws Exception {
        Timing t = spec.timing();
        StudyCsv csv = new StudyCsv(ctx.runDir().resolve(FILE), COLUMNS);
        int total = spec.benchmarks();
        for (Jdk jdk : ctx.plan().jdks()) {
            String stem = "jmh-" + name() + "-jdk" + jdk.major();
            Path json = ctx.raw().resolve(stem + ".json");
            List<String> cmd = new ArrayList<>(List.of("taskset", "-c", ctx.cores().of(CoreMap.APP), jdk.java().toString(),
                    "-jar", jar().toString(), include()));
            cmd.addAll(t.args());
            cmd.addAll(spec.jmhParams());
            // benchmarks run in JMH's forked JVMs: the --jvm-args go there
            if (!ctx.plan().jvmArgs().isEmpty()) cmd.addAll(List.of("-jvmArgsAppend", String.join(" ", ctx.plan().jvmArgs())));
            cmd.addAll(List.of("-foe", "true", "-rf", "json", "-rff", json.toString()));
            runJmh(cmd, ctx.raw().resolve(stem + ".log"), what -> ctx.progress().accept("jdk" + jdk.major() + " " + what), total);
            for (JmhResult r : JmhResult.parse(Files.readString(json))) csv.append(row(r, jdk, json.getFileName().toString()));
        }
    }

    /** Runs JMH, keeping its console in the log and reporting each benchmark as it starts. */
    static void runJmh(List<String> cmd, Path log, java.util.function.Consumer<String> progress, int total)
            throws IOException, InterruptedException {
        Process p = Children.track(new ProcessBuilder(cmd).redirectErrorStream(true).start());
        List<String> tail = new ArrayList<>();
        int started = 0;
        String benchmark = null;
        try (Writer w = Files.newBufferedWriter(log, StandardCharsets.UTF_8);
             BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            w.write("# " + String.join(" ", cmd) + "\n");
            for (String line; (line = in.readLine()) != null; ) {
                w.write(line + "\n");
                tail.add(line);
                if (tail.size() > 8) tail.removeFirst();
                if (line.startsWith("# Benchmark: ")) {
                    benchmark = line.substring(line.lastIndexOf('.', line.lastIndexOf('.') - 1) + 1);
                    started++;
                    progress.accept(benchmark + " " + started + "/" + total);
                } else if (line.startsWith("# Parameters: ") && benchmark != null) {
                    progress.accept(benchmark + " " + line.substring("# Parameters: ".length()) + " " + started + "/" + total);
                }
            }
        }
        int code = p.waitFor();
        if (code != 0) throw new IOException("JMH exited with " + code + " (log " + log.getFileName() + "): " + String.join(" | ", tail));
    }

    Map<String, Object> row(JmhResult r, Jdk jdk, String raw) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", r.benchmark());
        m.put("thread_mode", r.threadMode());
        m.put("workers", r.workers());
        m.put("score", r.score());
        m.put("error", r.error());
        m.put("unit", r.unit());
        m.put("params", r.params().cell());
        m.put("study", name());
        m.put("method", r.method());
        m.put("jdk", jdk.major());
        m.put("jmh_mode", r.jmhMode());
        m.put("samples", r.samples());
        m.put("ci_low", r.ciLow());
        m.put("ci_high", r.ciHigh());
        m.put("forks", r.forks());
        m.put("warmup_iterations", r.warmupIterations());
        m.put("warmup_time", r.warmupTime());
        m.put("measurement_iterations", r.measurementIterations());
        m.put("measurement_time", r.measurementTime());
        m.put("raw", raw);
        return m;
    }

    @Override
    public String dataFile() {
        return FILE;
    }

    /** Its section in the report: scores ± error per benchmark and thread mode (all JMH studies share jmh.csv). */
    @Override
    public vtlab.data.StudySection section() {
        return new vtlab.data.StudySection(FILE, "jmh", "JMH", "JMH", "jmh", vtlab.data.StudySection.SCORES, "Scores ± error");
    }

    @Override
    public List<vtlab.data.Finding> findings(Path runDir, List<DataRow> matrixRows) {
        return vtlab.data.Finding.of(Study.findingsFrom(runDir, FILE, this::findingsFrom));
    }

    /** This study's statements from a run folder's jmh.csv (also for a finished run). */
    public List<String> findingsFrom(Path jmhCsv) throws IOException {
        if (!Files.exists(jmhCsv)) return List.of();
        List<DataRow> own = Dataset.rows(jmhCsv).stream().filter(r -> name().equals(r.text(StudyColumns.STUDY))).toList();
        List<String> out = new ArrayList<>();
        Map<String, List<DataRow>> byJdk = own.stream()
                .collect(Collectors.groupingBy(r -> r.text(Columns.JDK), LinkedHashMap::new, Collectors.toList()));
        byJdk.forEach((jdk, rows) -> {
            for (String s : statements(rows)) out.add((byJdk.size() > 1 ? "JDK " + jdk + ": " : "") + s);
        });
        return out;
    }

    // --- helpers for statements ---

    /** "28.5 ± 3.1 us/op", or "28.5 us/op (no error: fewer than 3 iterations)". */
    static String scoreText(DataRow r) {
        double s = r.num(StudyColumns.SCORE), e = r.num(StudyColumns.ERROR);
        String unit = r.text(StudyColumns.UNIT);
        return Double.isNaN(e) ? fmt(s) + " " + unit + " (no error bar: fewer than 3 iterations)" : fmt(s) + " ± " + fmt(e) + " " + unit;
    }

    /** Whether two scores are told apart by their error bars (99.9% intervals that do not overlap). */
    static boolean distinct(DataRow a, DataRow b) {
        double ea = a.num(StudyColumns.ERROR), eb = b.num(StudyColumns.ERROR);
        if (Double.isNaN(ea) || Double.isNaN(eb)) return false;
        return Math.abs(a.num(StudyColumns.SCORE) - b.num(StudyColumns.SCORE)) > ea + eb;
    }

    static String fmt(double d) {
        if (Double.isNaN(d)) return "n/a";
        double a = Math.abs(d);
        return String.format(Locale.ROOT, a >= 100 ? "%,.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f", d);
    }

    static String ratio(double r) {
        return String.format(Locale.ROOT, r >= 10 ? "%.0fx" : "%.1fx", r);
    }
}
