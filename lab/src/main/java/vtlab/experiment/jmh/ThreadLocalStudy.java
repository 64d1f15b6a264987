package vtlab.experiment.jmh;


import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import vtlab.data.DataRow;
import vtlab.data.StudyColumns;
import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.stack.ThreadMode.Threads;

/**
 * The Tomcat talk's ThreadLocal question (seed 003): an object that is expensive to create, cached in a ThreadLocal,
 * created anew for each request, or taken from a shared SynchronizedStack, on a platform pool vs a virtual thread per
 * request, at 8/16/32/64 concurrent workers. The talk: "ThreadLocal should be slower than new Object for virtual
 * threads", "SynchronizedStack may be slower under high concurrency", and its own results were inconclusive.
 */
public final class ThreadLocalStudy extends JmhStudy {
    static final List<String> MODES = List.of(Threads.PLATFORM.word, Threads.VIRTUAL.word);
    static final List<String> ALTERNATIVES = List.of("threadLocal", "newObject", "synchronizedStack");

    @Override
    public String name() {
        return "threadlocal";
    }

    @Override
    public String summary() {
        return "JMH (seed 003): ThreadLocal cache vs new object vs SynchronizedStack pool, platform pool vs virtual thread per request";
    }

    static final Opt WORKERS = Opt.of("workers", "8,16,32,64", "concurrent requests (platform: a pool of that many threads)");
    static final Opt MODES_OPT = vtlab.experiment.ThreadModes.OPTION;

    @Override
    protected List<Opt> ownOptions() {
        return List.of(WORKERS, MODES_OPT);
    }

    @Override
    public List<String> axes() {
        List<String> a = new ArrayList<>(List.of("threadLocal, newObject, synchronizedStack (us per request) -> jmh.csv"));
        a.addAll(super.axes());
        return a;
    }

    @Override
    protected String include() {
        return "vtlab\\.bench\\.ThreadLocalCacheBenchmark\\.";
    }

    private static List<Integer> workers(Options o) throws UsageError {
        return WORKERS.ints(o);
    }

    @Override
    protected int benchmarkCount(Options o) throws UsageError {
        return ALTERNATIVES.size() * workers(o).size() * MODES_OPT.chosen(o).size();
    }

    @Override
    protected List<String> jmhParams(Options o) throws UsageError {
        return List.of("-p", "workers=" + workers(o).stream().map(String::valueOf).collect(Collectors.joining(",")),
                "-p", "mode=" + String.join(",", MODES_OPT.chosen(o)));
    }

    @Override
    protected List<String> statements(List<DataRow> rows) {
        List<String> out = new ArrayList<>();
        List<Integer> workers = rows.stream().map(r -> r.text(StudyColumns.WORKERS)).filter(w -> !w.isEmpty())
                .map(Integer::valueOf).distinct().sorted().toList();
        // virtual/platform ratio of each alternative, per worker count
        for (String alt : ALTERNATIVES) {
            List<String> parts = new ArrayList<>();
            for (int w : workers) {
                Optional<DataRow> p = find(rows, alt, Threads.PLATFORM.word, w), v = find(rows, alt, Threads.VIRTUAL.word, w);
                if (p.isPresent() && v.isPresent()) {
                    parts.add(String.format("%d workers %s (%s vs %s)", w, ratio(v.get().num(StudyColumns.SCORE) / p.get().num(StudyColumns.SCORE)),
                            scoreText(v.get()), scoreText(p.get())));
                }
            }
            if (!parts.isEmpty()) out.add(alt + ": virtual/platform time per request " + String.join("; ", parts));
        }
        // the talk's claims, checked where both sides were measured
        List<String> slower = new ArrayList<>(), notSlower = new ArrayList<>();
        for (int w : workers) {
            Optional<DataRow> tl = find(rows, "threadLocal", Threads.VIRTUAL.word, w), no = find(rows, "newObject", Threads.VIRTUAL.word, w);
            if (tl.isEmpty() || no.isEmpty()) continue;
            (tl.get().num(StudyColumns.SCORE) > no.get().num(StudyColumns.SCORE) ? slower : notSlower).add(w + (distinct(tl.get(), no.get()) ? "" : " (within error)"));
        }
        if (!slower.isEmpty() || !notSlower.isEmpty()) {
            out.add("\"ThreadLocal should be slower than new Object for virtual threads\" (every request is a new thread, the cache "
                    + "never hits): slower at " + (slower.isEmpty() ? "no" : String.join(", ", slower)) + " workers"
                    + (notSlower.isEmpty() ? "" : ", not slower at " + String.join(", ", notSlower)));
        }
        if (workers.size() >= 2) {
            int lo = workers.getFirst(), hi = workers.getLast();
            for (String mode : MODES) {
                Optional<DataRow> a = find(rows, "synchronizedStack", mode, lo), b = find(rows, "synchronizedStack", mode, hi);
                if (a.isEmpty() || b.isEmpty()) continue;
                out.add(String.format("\"SynchronizedStack may be slower under high concurrency\", %s: %s at %d workers vs %s at %d%s", mode,
                        scoreText(b.get()), hi, scoreText(a.get()), lo, distinct(a.get(), b.get()) ? "" : " (within error)"));
            }
        }
        // the fastest alternative per mode and worker count
        for (String mode : MODES) {
            List<String> best = new ArrayList<>();
            for (int w : workers) {
                List<DataRow> cell = rows.stream().filter(r -> mode.equals(r.mode()) && String.valueOf(w).equals(r.text(StudyColumns.WORKERS)))
                        .sorted(Comparator.comparingDouble(r -> r.num(StudyColumns.SCORE))).toList();
                if (cell.isEmpty()) continue;
                boolean clear = cell.size() < 2 || distinct(cell.get(0), cell.get(1));
                best.add(w + ": " + cell.getFirst().text(StudyColumns.METHOD) + (clear ? "" : " (within error of " + cell.get(1).text(StudyColumns.METHOD) + ")"));
            }
            if (!best.isEmpty()) out.add("fastest on " + mode + " threads, by workers: " + String.join("; ", best));
        }
        out.add("seed 003 (the Tomcat talk, 20 cores, 11 runs of 60 s): \"results were inconclusive, no clear winner or loser\"");
        return out;
    }

    private static Optional<DataRow> find(List<DataRow> rows, String method, String mode, int workers) {
        return rows.stream().filter(r -> method.equals(r.text(StudyColumns.METHOD)) && mode.equals(r.mode())
                && String.valueOf(workers).equals(r.text(StudyColumns.WORKERS))).findFirst();
    }
}
