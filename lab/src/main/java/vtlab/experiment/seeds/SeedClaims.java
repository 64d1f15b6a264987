package vtlab.experiment.seeds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;

import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Dataset;
import vtlab.data.Finding;
import vtlab.data.Rows;
import vtlab.data.RunDir;
import vtlab.data.StudyColumns;
import vtlab.data.judge.Judge;
import vtlab.data.judge.Margin;
import vtlab.data.judge.Units;
import vtlab.stack.ThreadMode.Threads;

/**
 * Every claim the seeds make that this lab checks, in one place: the claim in words, the seed's number and hardware
 * (as the seed states them, /work/shared/seeds), and the check that computes this machine's number from the run's
 * rows (matrix.csv, jmh.csv, thread-memory.csv) and gives the verdict. No number of this machine is written here.
 */
public final class SeedClaims {
    private SeedClaims() {}

    public enum Verdict {
        HOLDS("holds"), SHAPE("holds in shape"), NOT("does not hold here"), NO_DATA("not measured");

        public final String words;

        Verdict(String words) {
            this.words = words;
        }
    }

    /**
     * This machine's number in words, the verdict and why (empty when it holds as stated), and the matrix rows it was
     * computed from: the claim's evidence, as data.
     */
    public record Measured(String here, Verdict verdict, String why, List<DataRow> rows, List<vtlab.data.judge.Claim> judged) {
        public Measured {
            rows = rows == null ? List.of() : List.copyOf(rows);
            judged = judged == null ? List.of() : List.copyOf(judged);
        }

        /** A verdict that compared no two sets of forks (a number against the seed's). */
        public Measured(String here, Verdict verdict, String why, List<DataRow> rows) {
            this(here, verdict, why, rows, List.of());
        }

        /** A verdict computed from no matrix row (a study file's, or none). */
        public Measured(String here, Verdict verdict, String why) {
            this(here, verdict, why, List.of());
        }
    }

    /** A run folder's data as the checks read it: typed rows of matrix.csv, jmh.csv and thread-memory.csv. */
    public record Evidence(List<DataRow> rows, List<DataRow> jmh, List<DataRow> threadMemory) {
        public static Evidence of(Path runDir) throws IOException {
            return new Evidence(new RunDir(runDir).rows(), read(runDir.resolve("jmh.csv")), read(runDir.resolve("thread-memory.csv")));
        }

        private static List<DataRow> read(Path f) throws IOException {
            return Files.exists(f) ? Dataset.rows(f) : List.of();
        }

        /** Valid rows (status ok) of an experiment matching all the predicates. */
        List<DataRow> ok(String experiment, Predicate<DataRow> which) {
            return Rows.valid(Rows.ofExperiment(rows, experiment)).stream().filter(which).toList();
        }

        /** Rows that ran (ok or flagged, not failed): for claims about overload, where flags are the point. */
        List<DataRow> ran(String experiment, Predicate<DataRow> which) {
            return Rows.ofExperiment(rows, experiment).stream().filter(r -> !r.failed()).filter(which).toList();
        }
    }

    /** One claim: which seed says it, on what hardware, with what number; and how this run checks it. */
    public record Claim(String claim, String seed, String hardware, String seedNumber, String experiment,
                        Function<Evidence, Measured> check) {}

    static final String HW_000 = "i7-1165G7 (4 cores, 8 threads), 64 GB, JDK 21, hey on the same host";
    static final String HW_002 = "i9-9900K, SUT on 4 cores (8 threads), PostgreSQL 1 core, k6 + stub 3 cores, WSL2, JDK 25";
    static final String HW_003 = "not stated (talk; ThreadLocal tests: 20 cores)";
    static final String HW_004 = "Apple M1 (4+4 cores), 16 GB, JMeter on the same host";

    /** The claims, in the seeds' order. */
    public static final List<Claim> ALL = List.of(
            new Claim("virtual thread creation ~15× cheaper than a platform thread's", "000", HW_000,
                    "JMH around consumeCPU(1024): main 2, platform 37, virtual 5 µs/op (overhead 35 vs 3 µs: 11.7×)",
                    "thread-cost", SeedClaims::threadCreation),
            new Claim("HelloWorld servlet: virtual threads ~10% faster than the 200-thread pool (400 workers)", "000", HW_000,
                    "129,554 vs 117,787 req/s (1.10×)", "servlet",
                    ev -> ratio(ev, "servlet", w("hello").and(c(400)), Threads.VIRTUAL.word, Threads.PLATFORM.word, 1.10, 0.95, 1.0)),
            new Claim("Thread.sleep(50) servlet: the 200-thread pool plateaus at 200 / 50 ms = 4,000 req/s", "000", HW_000,
                    "3,968 req/s at 400 workers", "servlet",
                    ev -> near(ev, "servlet", w("sleep").and(Rows.inMode(Threads.PLATFORM)), 3968, 0.05, null)),
            new Claim("Thread.sleep(50) servlet, virtual threads at 400 workers: ~8,000 req/s (the workers' bound)", "000", HW_000,
                    "7,881 req/s, p99 54 ms", "servlet",
                    ev -> near(ev, "servlet", w("sleep").and(c(400)).and(Rows.inMode(Threads.VIRTUAL)), 7881, 0.05,
                            () -> ratio(ev, "servlet", w("sleep").and(c(400)), Threads.VIRTUAL.word, Threads.PLATFORM.word, Double.NaN, 1, 1.5))),
            new Claim("Thread.sleep(50) servlet, virtual threads at 1,000 workers: ~19,700 req/s, 5× the pool", "000", HW_000,
                    "19,673 req/s, p99 57 ms", "servlet",
                    ev -> near(ev, "servlet", w("sleep").and(c(1000)).and(Rows.inMode(Threads.VIRTUAL)), 19673, 0.10,
                            () -> ratio(ev, "servlet", w("sleep").and(c(1000)), Threads.VIRTUAL.word, Threads.PLATFORM.word, Double.NaN, 1, 2))),
            new Claim("after load, Tomcat on virtual threads keeps far fewer OS threads (and ~200 MB less reserved stack)", "000", HW_000,
                    "231 vs 39 threads (5.9×) after 1M requests at 400 workers", "footprint",
                    ev -> ratioOf(ev, "footprint", r -> true, Threads.PLATFORM.word, Threads.VIRTUAL.word, Columns.THREADS_MAX, 5.9, 0.8, 2)),
            new Claim("Spring Boot /sleep(50): spring.threads.virtual.enabled doubles throughput at 400 workers", "000", HW_000,
                    "7,890 vs 3,938 req/s (2.0×)", "spring-sleep",
                    ev -> ratio(ev, "spring-sleep", c(400).and(p("variant", "article")), Threads.VIRTUAL.word, Threads.PLATFORM.word, 2.0, 0.9, 1.2)),
            new Claim("platform threads plateau at the 200-thread wall (200 / 100 ms = 2,000 req/s)", "002", HW_002,
                    "~2,000–2,600 req/s from 500 to 10,000 VUs", "order-summary",
                    SeedClaims::platformWall),
            new Claim("virtual threads ~6× platform at 2,500 concurrent users", "002", HW_002,
                    "13,673 vs 2,226 req/s (6.1×)", "order-summary",
                    ev -> ratio(ev, "order-summary", c(2500), Threads.VIRTUAL.word, Threads.PLATFORM.word, 6.1, 0.85, 1.2)),
            new Claim("10,000 VUs is an overload point: virtual throughput falls below its 2,500-VU level", "002", HW_002,
                    "10,091 vs 13,673 req/s (0.74×)", "order-summary",
                    SeedClaims::overload),
            new Claim("connection held across the call: the HikariCP pool is the ceiling, virtual threads ride it", "002", HW_002,
                    "throughput follows the pool size (chart; no figure in the text)", "pool-bottleneck",
                    ev -> ratioOf(ev, "pool-bottleneck", Rows.inMode(Threads.VIRTUAL), "pool=100", "pool=50", Columns.RPS, 2.0, 0.75, 1.2)),
            new Claim("JEP 491: on JDK 24+ blocking inside synchronized no longer pins (JDK 21 pins)", "002, 003, 004", HW_002,
                    "jdk.VirtualThreadPinned ≈ 0 on the synchronized path on JDK 25", "pinning",
                    SeedClaims::jep491),
            new Claim("bigger responses, smaller difference between virtual and platform threads", "003", HW_003,
                    "shape only (chart)", "response-size",
                    SeedClaims::responseSize),
            new Claim("10,000 platform threads reserve ~10 GB of stack (1 MB each)", "004", HW_004,
                    "10 GB (10,000 × 1 MB)", "thread-memory",
                    SeedClaims::tenThousandThreads),
            new Claim("Spring MVC on virtual threads within ~5% of WebFlux (100 ms wait, 2,000 users)", "004", HW_004,
                    "16,294 vs 17,228 req/s (0.95×)", "reactive",
                    ev -> ratio(ev, "reactive", c(2000), Threads.VIRTUAL.word, "reactive", 0.95, 0.95, 0.8)),
            new Claim("WebFlux ~40% faster than Spring MVC on 2,000 platform threads", "004", HW_004,
                    "17,228 vs 12,342 req/s (1.40×)", "reactive",
                    ev -> ratioOf(ev, "reactive", c(2000), "reactive", "platform-2000", Columns.RPS, 1.40, 0.85, 1.1)));

    // --- verdict logic (unit-tested on recorded rows) ---

    /**
     * A ratio claim: holds when this machine's ratio reaches share of the seed's (a seed's "6×" reached as 5.2× holds),
     * holds in shape when it still exceeds shapeMin (the direction and a clear effect), otherwise not.
     */
    static Verdict ofRatio(double here, double seed, double share, double shapeMin) {
        if (Double.isNaN(here)) return Verdict.NO_DATA;
        if (!Double.isNaN(seed) && here >= seed * share) return Verdict.HOLDS;
        return here >= shapeMin ? Verdict.SHAPE : Verdict.NOT;
    }

    /** A number claim: holds within tolerance (a share) of the seed's number. */
    static Verdict ofNumber(double here, double seed, double tolerance) {
        if (Double.isNaN(here)) return Verdict.NO_DATA;
        return Math.abs(here / seed - 1) <= tolerance ? Verdict.HOLDS : Verdict.NOT;
    }

    // --- checks ---

    static Predicate<DataRow> w(String workload) {
        return r -> workload.equals(r.text(Columns.WORKLOAD));
    }

    static Predicate<DataRow> c(int connections) {
        return r -> r.num(Columns.CONCURRENCY) == connections;
    }

    static Predicate<DataRow> p(String key, String value) {
        return r -> value.equals(r.param(key));
    }

    /** The variant a row stands for: its thread mode, with a platform pool's size when set ("platform-2000"), pool=N. */
    static boolean is(DataRow r, String variant) {
        if (variant.startsWith("pool=")) return variant.equals("pool=" + r.text(Columns.HIKARI_POOL));
        if (variant.startsWith("platform-")) {
            return Threads.PLATFORM.word.equals(r.mode()) && variant.equals("platform-" + r.param(Rows.MAX_THREADS));
        }
        if (variant.equals(Threads.PLATFORM.word)) {
            String max = r.param(Rows.MAX_THREADS);
            return Threads.PLATFORM.word.equals(r.mode()) && (max.isEmpty() || max.equals("200"));
        }
        return variant.equals(r.mode());
    }

    static Measured ratio(Evidence ev, String experiment, Predicate<DataRow> which, String a, String b,
                          double seed, double share, double shapeMin) {
        return ratioOf(ev, experiment, which, a, b, Columns.RPS, seed, share, shapeMin);
    }

    /**
     * col of variant a over variant b among the experiment's valid rows: two sets of forks, so the ratio is the judge's
     * ({@link Judge#ratio} on fork means, its claim kept for findings.json); the verdict then sets its estimate against
     * the seed's published ratio ({@link #ofRatio}), a number against a number.
     */
    static Measured ratioOf(Evidence ev, String experiment, Predicate<DataRow> which, String a, String b,
                            Column col, double seed, double share, double shapeMin) {
        List<DataRow> rows = ev.ok(experiment, which);
        List<DataRow> ra = rows.stream().filter(r -> is(r, a)).toList(), rb = rows.stream().filter(r -> is(r, b)).toList();
        // why, of the side with no valid row: a variant the run left out is not a failed row
        if (ra.isEmpty() || rb.isEmpty()) return noData(ev, experiment, which.and(r -> is(r, ra.isEmpty() ? a : b)));
        vtlab.data.judge.Claim judged = judged(experiment + ": " + a + " / " + b + " " + unit(col), rb, ra, col);
        double x = Rows.mean(ra, col), y = Rows.mean(rb, col), q = judged.estimate();
        Verdict v = ofRatio(q, seed, share, shapeMin);
        String here = String.format(Locale.ROOT, "%s vs %s (%.2f×)", fmt(x), fmt(y), q);
        List<DataRow> evidence = new ArrayList<>(ra);
        evidence.addAll(rb);
        return new Measured(here, v, v == Verdict.HOLDS ? "" : why(rows), evidence, List.of(judged));
    }

    /** other's col over base's, judged on fork means (a fork's iterations averaged, a row without a fork its own unit). */
    static vtlab.data.judge.Claim judged(String what, List<DataRow> base, List<DataRow> other, Column col) {
        return Judge.ratio(what, forkMeans(base, col), forkMeans(other, col), Margin.DEFAULT);
    }

    static double[] forkMeans(List<DataRow> rows, Column col) {
        return Units.means(rows.stream().map(r -> r.num(col)).toList(),
                rows.stream().map(r -> Double.isNaN(r.num(Columns.FORK)) ? "row " + r.number() : "fork " + (long) r.num(Columns.FORK)).toList());
    }

    static String unit(Column col) {
        return col.equals(Columns.RPS) ? "req/s" : col.name();
    }

    /** A number (mean of the valid rows' throughput) against the seed's; shape: a fallback check when it is off. */
    static Measured near(Evidence ev, String experiment, Predicate<DataRow> which, double seed, double tolerance,
                         java.util.function.Supplier<Measured> shape) {
        List<DataRow> rows = ev.ok(experiment, which);
        if (rows.isEmpty()) return noData(ev, experiment, which);
        double x = Rows.mean(rows, Columns.RPS);
        Verdict v = ofNumber(x, seed, tolerance);
        String here = fmt(x) + " req/s";
        if (v == Verdict.HOLDS) return new Measured(here, v, "", rows);
        Measured s = shape == null ? null : shape.get();
        if (s != null && s.verdict() == Verdict.SHAPE) {
            List<DataRow> evidence = new ArrayList<>(rows);
            s.rows().stream().filter(r -> !evidence.contains(r)).forEach(evidence::add);
            return new Measured(here + "; " + s.here(), Verdict.SHAPE, why(rows), evidence, s.judged());
        }
        return new Measured(here, Verdict.NOT, why(rows), rows);
    }

    static Measured threadCreation(Evidence ev) {
        double main = jmh(ev, "main"), platform = jmh(ev, Threads.PLATFORM.word), virtual = jmh(ev, Threads.VIRTUAL.word);
        if (Double.isNaN(main) || Double.isNaN(platform) || Double.isNaN(virtual)) return new Measured("", Verdict.NO_DATA, "no thread-cost result in jmh.csv");
        double q = (platform - main) / (virtual - main);
        Verdict v = ofRatio(q, 11.7, 0.85, 3);
        return new Measured(String.format(Locale.ROOT, "main %.1f, platform %.1f, virtual %.1f µs/op (overhead %.1f×)", main, platform, virtual, q), v,
                v == Verdict.HOLDS ? "" : "starting an OS thread costs what the kernel and CPU make it: the seed measured another machine");
    }

    private static double jmh(Evidence ev, String mode) {
        return ev.jmh().stream().filter(r -> "thread-cost".equals(r.text(StudyColumns.STUDY)) && mode.equals(r.mode()))
                .mapToDouble(r -> r.num(StudyColumns.SCORE)).average().orElse(Double.NaN);
    }

    static Measured platformWall(Evidence ev) {
        List<DataRow> rows = ev.ok("order-summary", r -> is(r, Threads.PLATFORM.word) && r.num(Columns.CONCURRENCY) >= 500);
        if (rows.isEmpty()) return noData(ev, "order-summary", Rows.inMode(Threads.PLATFORM));
        double best = rows.stream().mapToDouble(r -> r.num(Columns.RPS)).max().orElse(Double.NaN);
        double bound = rows.stream().mapToDouble(r -> r.num(Columns.BOUND_RPS)).max().orElse(Double.NaN);
        // a wall: never above the bound, and near it (the seed's rig: 1.0-1.3× the 2,000 req/s, its queries counted)
        Verdict v = best <= bound * 1.05 && best >= bound * 0.8 ? Verdict.HOLDS : best < bound * 0.8 ? Verdict.SHAPE : Verdict.NOT;
        return new Measured(String.format(Locale.ROOT, "at most %s req/s from 500 connections on (%.2f of the %s bound)", fmt(best), best / bound, fmt(bound)),
                v, v == Verdict.HOLDS ? "" : why(rows), rows);
    }

    static Measured overload(Evidence ev) {
        List<DataRow> at2500 = ev.ran("order-summary", c(2500).and(Rows.inMode(Threads.VIRTUAL)));
        List<DataRow> at10k = ev.ran("order-summary", c(10000).and(Rows.inMode(Threads.VIRTUAL)));
        if (at2500.isEmpty() || at10k.isEmpty()) return noData(ev, "order-summary", c(10000));
        double a = Rows.mean(at2500, Columns.RPS), b = Rows.mean(at10k, Columns.RPS);
        // two sets of forks: the ratio is the judge's; the claim is its direction (below 1), as the seed states it
        vtlab.data.judge.Claim judged = judged("order-summary: virtual at 10,000 / at 2,500 connections req/s", at2500, at10k, Columns.RPS);
        Verdict v = judged.estimate() < 1 ? Verdict.HOLDS : Verdict.NOT;
        String flags = String.join(";", at10k.stream().flatMap(r -> r.flags().stream()).distinct().toList());
        List<DataRow> evidence = new ArrayList<>(at2500);
        evidence.addAll(at10k);
        return new Measured(String.format(Locale.ROOT, "%s vs %s req/s (%.2f×)%s", fmt(b), fmt(a), judged.estimate(), flags.isEmpty() ? "" : ", flags " + flags),
                v, v == Verdict.HOLDS ? "" : why(at10k), evidence, List.of(judged));
    }

    static Measured jep491(Evidence ev) {
        List<DataRow> rows = ev.ran("pinning", r -> true);
        double sync25 = pinned(rows, "25", "synchronized"), control25 = pinned(rows, "25", "control"), sync21 = pinned(rows, "21", "synchronized");
        if (Double.isNaN(sync25) || Double.isNaN(control25)) return new Measured("", Verdict.NO_DATA, "no JDK 25 pinning rows");
        String here = String.format(Locale.ROOT, "JDK 25 synchronized %s pinned events (control %s)%s", fmt(sync25), fmt(control25),
                Double.isNaN(sync21) ? "" : ", JDK 21 synchronized " + fmt(sync21));
        if (control25 <= 0) return new Measured(here, Verdict.NO_DATA, "the control recorded no pin: capture did not work", rows);
        // the claim is a change between JDKs: with no JDK 21 row, JDK 25's zero shows nothing changed
        if (Double.isNaN(sync21)) return new Measured(here, Verdict.NO_DATA, "no JDK 21 synchronized row: the pinning JEP 491 removed was not measured", rows);
        if (sync25 > 0) return new Measured(here, Verdict.NOT, "synchronized pinned on JDK 25", rows);
        return new Measured(here, sync21 <= 0 ? Verdict.SHAPE : Verdict.HOLDS, sync21 <= 0 ? "JDK 21 did not pin either" : "", rows);
    }

    private static double pinned(List<DataRow> rows, String jdk, String path) {
        return rows.stream().filter(r -> jdk.equals(r.text(Columns.JDK)) && path.equals(r.text(Columns.PATH_MODE)))
                .mapToDouble(r -> r.num(Columns.PINNED)).filter(d -> !Double.isNaN(d)).average().orElse(Double.NaN);
    }

    static Measured responseSize(Evidence ev) {
        List<DataRow> rows = ev.ok("response-size", r -> true);
        java.util.TreeMap<Double, double[]> bySize = new java.util.TreeMap<>(); // bytes -> {virtual, platform} at the highest concurrency
        double maxConc = rows.stream().mapToDouble(r -> r.num(Columns.CONCURRENCY)).max().orElse(Double.NaN);
        for (DataRow r : rows) {
            if (r.num(Columns.CONCURRENCY) != maxConc) continue;
            double bytes = Double.parseDouble(r.param("bytes").isEmpty() ? "NaN" : r.param("bytes"));
            double[] vp = bySize.computeIfAbsent(bytes, k -> new double[] {Double.NaN, Double.NaN});
            vp[Threads.VIRTUAL.word.equals(r.mode()) ? 0 : 1] = r.num(Columns.RPS);
        }
        bySize.values().removeIf(vp -> Double.isNaN(vp[0]) || Double.isNaN(vp[1]));
        if (bySize.size() < 2) return new Measured("", Verdict.NO_DATA, "needs two response sizes in both modes");
        double small = Math.abs(bySize.firstEntry().getValue()[0] / bySize.firstEntry().getValue()[1] - 1);
        double large = Math.abs(bySize.lastEntry().getValue()[0] / bySize.lastEntry().getValue()[1] - 1);
        String here = String.format(Locale.ROOT, "virtual vs platform at %s connections: %+.1f%% at %s B, %+.1f%% at %s B", fmt(maxConc),
                (bySize.firstEntry().getValue()[0] / bySize.firstEntry().getValue()[1] - 1) * 100, fmt(bySize.firstKey()),
                (bySize.lastEntry().getValue()[0] / bySize.lastEntry().getValue()[1] - 1) * 100, fmt(bySize.lastKey()));
        return new Measured(here, large <= small ? Verdict.HOLDS : Verdict.NOT, large <= small ? "" : "the larger response differs more here; " + why(rows),
                rows.stream().filter(r -> r.num(Columns.CONCURRENCY) == maxConc).toList());
    }

    static Measured tenThousandThreads(Evidence ev) {
        double kb = ev.threadMemory().stream().filter(r -> Threads.PLATFORM.word.equals(r.text(StudyColumns.MODE)) && r.num(StudyColumns.THREADS) == 10000)
                .mapToDouble(r -> r.num(Columns.NMT_RESERVED)).average().orElse(Double.NaN);
        if (Double.isNaN(kb)) return new Measured("", Verdict.NO_DATA, "no 10,000-thread platform row in thread-memory.csv");
        Verdict v = ofNumber(kb, 10_000 * 1024.0, 0.15);
        return new Measured(String.format(Locale.ROOT, "%.1f GB reserved (NMT Thread)", kb / 1024 / 1024), v,
                v == Verdict.HOLDS ? "" : "a thread stack size other than 1 MB here");
    }

    /** Why no valid row answered: the rows failed or were flagged, or the run did not include them. */
    static Measured noData(Evidence ev, String experiment, Predicate<DataRow> which) {
        List<DataRow> any = Rows.ofExperiment(ev.rows(), experiment).stream().filter(which).toList();
        if (any.isEmpty()) return new Measured("", Verdict.NO_DATA, "the run has no " + experiment + " rows for it");
        String flags = String.join(";", any.stream().flatMap(r -> r.flags().stream()).distinct().toList());
        return new Measured("", Verdict.NO_DATA, "its " + experiment + " rows are not valid evidence (" + (flags.isEmpty() ? "failed" : flags) + ")");
    }

    /** The usual reason a many-core seed's number is not reached here: the SUT's CPUs were full. */
    static String why(List<DataRow> rows) {
        double cpu = Rows.max(rows, Columns.APP_CPU);
        long cores = rows.stream().map(r -> r.text(Columns.APP_CPUS)).filter(s -> !s.isEmpty()).findFirst().map(SeedClaims::cpuCount).orElse(0L);
        boolean full = rows.stream().anyMatch(r -> r.flags().contains("app-cpu-bound"));
        if (full) return String.format(Locale.ROOT, "the SUT's CPU was full here (%d CPU, up to %.0f%%); the seed's SUT had several cores", cores, cpu);
        return Double.isNaN(cpu) ? "" : String.format(Locale.ROOT, "SUT CPU up to %.0f%% of %d CPU%s", cpu, cores, cores == 1 ? "" : "s");
    }

    /** "0" -> 1, "0-3" -> 4, "0,2" -> 2. */
    static long cpuCount(String list) {
        long n = 0;
        for (String part : list.split("[,;]")) {
            String[] ab = part.trim().split("-");
            if (ab[0].isEmpty()) continue;
            n += ab.length == 2 ? Long.parseLong(ab[1]) - Long.parseLong(ab[0]) + 1 : 1;
        }
        return n;
    }

    static String fmt(double d) {
        return Double.isNaN(d) ? "" : d >= 100 || d == Math.rint(d) ? String.format(Locale.ROOT, "%,.0f", d) : String.format(Locale.ROOT, "%.2f", d);
    }

    /** Each claim checked against a run: the table's lines. */
    public static List<Checked> check(Evidence ev) {
        return check(ev, ALL);
    }

    /**
     * The verdicts of the claims an experiment's rows check (those whose {@link Claim#experiment} is its name), one
     * {@link #line} each, computed from its rows of matrix.csv: for that experiment's findings, which state these claims
     * through this table and never judge them in words of their own. None when no claim names the experiment.
     */
    public static List<String> linesFor(String experiment, List<DataRow> rows) {
        return Finding.texts(findingsFor(experiment, rows));
    }

    /** As {@link #linesFor}, each verdict with the rows it was computed from (rows read back from matrix.csv: their numbers there). */
    public static List<Finding> findingsFor(String experiment, List<DataRow> rows) {
        List<Claim> own = ALL.stream().filter(c -> c.experiment().equals(experiment)).toList();
        return check(new Evidence(rows, List.of(), List.of()), own).stream().map(SeedClaims::finding).toList();
    }

    static List<Checked> check(Evidence ev, List<Claim> claims) {
        List<Checked> out = new ArrayList<>();
        for (Claim c : claims) {
            Measured m;
            try {
                m = c.check().apply(ev);
            } catch (RuntimeException e) {
                m = new Measured("", Verdict.NO_DATA, "check failed: " + e);
            }
            out.add(new Checked(c, m));
        }
        return out;
    }

    public record Checked(Claim claim, Measured measured) {}

    /** The claims table as markdown, for the README. */
    public static String markdown(List<Checked> checked) {
        StringBuilder sb = new StringBuilder("| claim | seed | seed's number (hardware) | this machine | verdict |\n|---|---|---|---|---|\n");
        for (Checked c : checked) {
            Measured m = c.measured();
            sb.append("| ").append(cell(c.claim().claim())).append(" | ").append(c.claim().seed()).append(" | ")
                    .append(cell(c.claim().seedNumber())).append(" (").append(cell(c.claim().hardware())).append(") | ")
                    .append(cell(m.here())).append(" (`").append(c.claim().experiment()).append("`) | **").append(m.verdict().words).append("**")
                    .append(m.why().isEmpty() ? "" : ": " + cell(m.why())).append(" |\n");
        }
        return sb.toString();
    }

    /**
     * An experiment's findings whose lines state its declared claims ({@link #linesFor}): those lines carry the rows
     * their verdicts were computed from, the others none.
     */
    public static List<Finding> withVerdicts(String experiment, List<DataRow> rows, List<String> lines) {
        List<Finding> claims = findingsFor(experiment, rows);
        return lines.stream().map(l -> claims.stream().filter(c -> c.text().equals(l)).findFirst().orElse(Finding.of(l))).toList();
    }

    /** A claim's line with the matrix rows its verdict was computed from. */
    public static Finding finding(Checked c) {
        return Finding.of(line(c), c.measured().rows()).withClaims(c.measured().judged());
    }

    /** One line per claim, for the summary and the report's findings. */
    public static String line(Checked c) {
        Measured m = c.measured();
        return "[" + m.verdict().words + "] " + c.claim().claim() + " — seed " + c.claim().seed() + ": " + c.claim().seedNumber()
                + " (" + c.claim().hardware() + "); here: " + (m.here().isEmpty() ? "—" : m.here()) + " (" + c.claim().experiment() + ")"
                + (m.why().isEmpty() ? "" : "; " + m.why());
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
