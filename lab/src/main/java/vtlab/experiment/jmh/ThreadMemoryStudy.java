package vtlab.experiment.jmh;


import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.StudyColumns;
import vtlab.data.Dataset;
import vtlab.plan.PlanContext;
import vtlab.plan.Study;
import vtlab.probe.NmtProbe;
import vtlab.probe.Proc;
import vtlab.proc.Children;
import vtlab.proc.CoreMap;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.tool.Jdk;

/**
 * The talk's stack-memory table (seed 004): N threads that park, platform vs virtual, each count in a fresh JVM with
 * Native Memory Tracking, read once all N are parked: NMT Thread reserved/committed, RSS, heap used. The talk: 1,000
 * threads reserve ~1 GB of stack (committed 80 MB), 10,000 threads ~10 GB: reserved, not resident.
 */
public final class ThreadMemoryStudy implements Study {
    public static final String FILE = "thread-memory.csv";
    public static final List<String> COLUMNS = List.of(StudyColumns.MODE.name(), StudyColumns.THREADS.name(), Columns.NMT_RESERVED.name(),
            Columns.NMT_COMMITTED.name(), StudyColumns.RSS_MB.name(), StudyColumns.HEAP_USED_MB.name(), "reserved_kb_per_thread", "committed_kb_per_thread",
            Columns.JDK.name(), StudyColumns.OS_THREADS.name(), "nmt_threads", StudyColumns.THREAD_STACK_SIZE_KB.name(), "start_ms", "raw");
    private static final ObjectMapper JSON = new ObjectMapper();


    @Override
    public String name() {
        return "thread-memory";
    }

    @Override
    public String summary() {
        return "Stack memory (seed 004): N parked platform vs virtual threads, NMT Thread reserved/committed, RSS, heap";
    }

    static final Opt THREADS = Opt.of("threads", "1000,2000,4000,10000", "parked threads, each count in a fresh JVM");
    static final Opt MODES_OPT = vtlab.experiment.ThreadModes.OPTION.withHelp("thread mode; --jvm-args apply (e.g. -Xss512k)");

    @Override
    public List<Opt> options() {
        return List.of(THREADS, MODES_OPT);
    }

    @Override
    public List<String> axes() {
        List<String> a = new ArrayList<>(Study.super.axes());
        a.add("-> thread-memory.csv");
        return a;
    }

    @Override
    public Prepared prepare(Options o, PlanContext ctx) throws UsageError {
        List<Integer> n = THREADS.ints(o);
        List<String> modes = MODES_OPT.chosen(o);
        if (!Files.isRegularFile(JmhStudy.jar())) throw new UsageError("bench/jmh is not built (" + JmhStudy.jar() + "): run ./vtlab build");
        for (Jdk j : ctx.jdks()) if (j.jcmd().isEmpty()) throw new UsageError("JDK " + j.home() + " has no jcmd: thread-memory reads NMT with it");
        // a JVM start, N thread starts, a jcmd: a few seconds each
        return new Prepared(this, ctx.jdks().size() * modes.size() * n.stream().mapToLong(k -> 3 + k / 5000).sum(),
                c -> execute(c, n, modes));
    }

    void execute(Context ctx, List<Integer> counts, List<String> modes) throws Exception {
        StudyCsv csv = new StudyCsv(ctx.runDir().resolve(FILE), COLUMNS);
        int total = ctx.plan().jdks().size() * modes.size() * counts.size(), done = 0;
        for (Jdk jdk : ctx.plan().jdks())
            for (int n : counts)
                for (String mode : modes) {
                    ctx.progress().accept(mode + " " + n + " threads, jdk" + jdk.major() + ": " + (++done) + "/" + total);
                    csv.append(measure(jdk, mode, n, ctx.plan().jvmArgs(), ctx.cores().of(CoreMap.APP), ctx.raw()));
                }
    }

    /** One fresh JVM holding n parked threads, read, then released (stdin closed). */
    static Map<String, Object> measure(Jdk jdk, String mode, int n, List<String> jvmArgs, String cpus, Path raw)
            throws IOException, InterruptedException {
        String stem = String.format(Locale.ROOT, "thread-memory-jdk%d-%s-%d", jdk.major(), mode, n);
        Path log = raw.resolve(stem + ".log");
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus, jdk.java().toString()));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-XX:NativeMemoryTracking=summary", "-cp", JmhStudy.jar().toString(), "vtlab.bench.ParkedThreads", mode,
                Integer.toString(n)));
        Files.writeString(log, "# " + String.join(" ", cmd) + "\n");
        Process p = Children.track(new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
        try {
            JsonNode ready = awaitReady(p, log, 120_000);
            String nmt = NmtProbe.summary(jdk, p.pid());
            Files.writeString(raw.resolve(stem + ".nmt.txt"), nmt);
            NmtProbe.Reading r = NmtProbe.parse(nmt);
            if (r == null) throw new IOException("no Thread category in NMT output of " + mode + " " + n + ": " + nmt.strip().lines().findFirst().orElse(""));
            long rssKb = Proc.statusField(p.pid(), "VmRSS");
            long osThreads = Proc.statusField(p.pid(), "Threads");
            Map<String, Object> row = new LinkedHashMap<>();
            row.put(StudyColumns.MODE.name(), mode);
            row.put(StudyColumns.THREADS.name(), n);
            row.put(Columns.NMT_RESERVED.name(), r.reservedKb());
            row.put(Columns.NMT_COMMITTED.name(), r.committedKb());
            row.put(StudyColumns.RSS_MB.name(), rssKb < 0 ? null : Math.round(rssKb / 102.4) / 10.0);
            row.put(StudyColumns.HEAP_USED_MB.name(), ready.path("heap_used_mb").asDouble());
            row.put("reserved_kb_per_thread", (double) r.reservedKb() / n);
            row.put("committed_kb_per_thread", (double) r.committedKb() / n);
            row.put(Columns.JDK.name(), jdk.major());
            row.put(StudyColumns.OS_THREADS.name(), osThreads < 0 ? null : osThreads);
            row.put("nmt_threads", r.threads());
            row.put(StudyColumns.THREAD_STACK_SIZE_KB.name(), ready.path("thread_stack_size_kb").asLong());
            row.put("start_ms", ready.path("start_ms").asLong());
            row.put("raw", stem + ".nmt.txt");
            return row;
        } finally {
            p.getOutputStream().close(); // the program's signal to release its threads and exit
            if (!p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) Children.stop(p.toHandle(), 2_000);
        }
    }

    /** The JSON line ParkedThreads prints once every thread is parked. */
    static JsonNode awaitReady(Process p, Path log, long timeoutMs) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            for (String line : Files.readAllLines(log)) {
                if (line.startsWith("{") && line.contains("\"parked\"")) return JSON.readTree(line);
            }
            if (!p.isAlive()) throw new IOException("ParkedThreads exited with " + p.exitValue() + ": " + lastLines(log));
            Thread.sleep(100);
        }
        throw new IOException("ParkedThreads did not report its threads parked within " + timeoutMs / 1000 + " s: " + lastLines(log));
    }

    private static String lastLines(Path log) throws IOException {
        List<String> l = Files.readAllLines(log);
        return String.join(" | ", l.subList(Math.max(0, l.size() - 5), l.size()));
    }

    @Override
    public String dataFile() {
        return FILE;
    }

    /** Its section in the report: memory against the thread count per mode. */
    @Override
    public vtlab.data.StudySection section() {
        return new vtlab.data.StudySection(FILE, "thread-memory", "Thread memory", "thread memory", "tm", vtlab.data.StudySection.THREAD_MEMORY,
                "Memory per thread count");
    }

    @Override
    public List<vtlab.data.Finding> findings(Path runDir, List<DataRow> matrixRows) {
        return vtlab.data.Finding.of(Study.findingsFrom(runDir, FILE, ThreadMemoryStudy::findingsFrom));
    }

    /** Statements from a run folder's thread-memory.csv (also for a finished run). */
    public static List<String> findingsFrom(Path file) throws IOException {
        if (!Files.exists(file)) return List.of();
        List<DataRow> rows = Dataset.rows(file);
        List<String> out = new ArrayList<>();
        Map<String, List<DataRow>> byJdk = rows.stream()
                .collect(Collectors.groupingBy(r -> r.text(Columns.JDK), LinkedHashMap::new, Collectors.toList()));
        byJdk.forEach((jdk, jr) -> {
            String prefix = byJdk.size() > 1 ? "JDK " + jdk + ": " : "";
            int max = jr.stream().mapToInt(r -> Integer.parseInt(r.text(StudyColumns.THREADS))).max().orElse(0);
            Optional<DataRow> p = find(jr, Threads.PLATFORM.word, max), v = find(jr, Threads.VIRTUAL.word, max);
            p.ifPresent(r -> {
                double reservedKb = r.num(Columns.NMT_RESERVED), committedKb = r.num(Columns.NMT_COMMITTED);
                double stackKb = r.num(StudyColumns.THREAD_STACK_SIZE_KB);
                double expectedKb = max * stackKb;
                out.add(prefix + String.format(Locale.ROOT, "at %,d platform threads NMT Thread reserved %s = %.2fx %,d x the %,.0f KiB "
                        + "thread stack size (%s); committed only %s (%.1f%% of reserved, %.0f KiB per thread); RSS %s",
                        max, size(reservedKb), reservedKb / expectedKb, max, stackKb, size(expectedKb), size(committedKb),
                        committedKb / reservedKb * 100, committedKb / max, size(r.num(StudyColumns.RSS_MB) * 1024)));
            });
            v.ifPresent(r -> {
                double reservedKb = r.num(Columns.NMT_RESERVED);
                String vs = p.map(pr -> String.format(Locale.ROOT, " = %.2f%% of platform's %s (%s)", reservedKb / pr.num(Columns.NMT_RESERVED) * 100,
                        size(pr.num(Columns.NMT_RESERVED)), reservedKb / pr.num(Columns.NMT_RESERVED) < 0.01 ? "under 1%, as claimed" : "NOT under 1%"))
                        .orElse("");
                out.add(prefix + String.format(Locale.ROOT, "at %,d virtual threads NMT Thread reserved %s%s, committed %s, over %s OS threads (carriers and "
                        + "the JVM's own); their stacks live on the heap: heap used %.1f MiB, RSS %s", max, size(reservedKb), vs,
                        size(r.num(Columns.NMT_COMMITTED)), r.text(StudyColumns.OS_THREADS), r.num(StudyColumns.HEAP_USED_MB), size(r.num(StudyColumns.RSS_MB) * 1024)));
            });
            List<String> table = new ArrayList<>();
            for (DataRow r : jr) {
                if (!Threads.PLATFORM.word.equals(r.text(StudyColumns.MODE))) continue;
                table.add(String.format(Locale.ROOT, "%,d: %s / %s", Integer.parseInt(r.text(StudyColumns.THREADS)), size(r.num(Columns.NMT_RESERVED)),
                        size(r.num(Columns.NMT_COMMITTED))));
            }
            if (!table.isEmpty()) out.add(prefix + "platform reserved / committed by thread count: " + String.join("; ", table)
                    + " (seed 004, stack only: 1,000 -> 1.03 GiB / 78 MiB, 2,000 -> 2.01 GiB / 152 MiB, 4,000 -> 3.96 GiB / 270 MiB; 10,000 threads = 10 GB)");
        });
        return out;
    }

    private static Optional<DataRow> find(List<DataRow> rows, String mode, int threads) {
        return rows.stream().filter(r -> mode.equals(r.text(StudyColumns.MODE)) && String.valueOf(threads).equals(r.text(StudyColumns.THREADS))).findFirst();
    }

    /** KB as KiB, MiB or GiB, e.g. 9.81 GiB (NMT counts in KiB). */
    static String size(double kb) {
        if (Double.isNaN(kb)) return "n/a";
        if (kb >= 1024 * 1024) return String.format(Locale.ROOT, "%.2f GiB", kb / (1024 * 1024));
        if (kb >= 1024) return String.format(Locale.ROOT, "%.1f MiB", kb / 1024);
        return String.format(Locale.ROOT, "%.0f KiB", kb);
    }
}
