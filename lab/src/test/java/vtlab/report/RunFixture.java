package vtlab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.data.Dataset;
import vtlab.data.Findings;
import vtlab.data.RunDir;
import vtlab.data.RunKept;
import vtlab.data.StudySection;

/**
 * Writes a run folder as the runner does (matrix.csv through {@link Dataset}, series.jsonl, environment.json,
 * kept.json) plus the studies' files, with rows chosen by the test: the report's input without running load.
 */
final class RunFixture {
    static final ObjectMapper JSON = new ObjectMapper();
    /** The sections the studies declare, as the CLI writes them into findings.json. */
    static final StudySection JMH = new vtlab.experiment.jmh.ThreadCostStudy().section();
    static final StudySection TM = new vtlab.experiment.jmh.ThreadMemoryStudy().section();
    final Path dir;
    final List<Map<String, Object>> rows = new ArrayList<>();
    final Map<String, Object> env = new LinkedHashMap<>();
    /** How the run ended, as kept.json keeps it; null: no kept.json (a folder written before the lab kept one). */
    RunKept.Status status = RunKept.Status.STARTED.ended(RunKept.Status.COMPLETE);
    /** Series a test gives a row, beside the app_cpu_pct and threads every row gets. */
    final Map<Map<String, Object>, Map<String, List<double[]>>> rowSeries = new java.util.IdentityHashMap<>();

    RunFixture(Path dir) throws IOException {
        this.dir = dir;
        Files.createDirectories(dir.resolve("raw"));
        env.put("status", "complete");
        env.put("started", "2026-01-01T00:00:00Z");
        env.put("command", "./vtlab run servlet");
        env.put("cpus", 2);
        env.put("cpu_model", "Test CPU");
        env.put("core_map", Map.of("app", "0", "load", "1"));
        env.put("jdks", List.of(Map.of("major", 25, "version", "25.0.3", "vendor", "Test", "home", "/jdk")));
    }

    /** A load row; status ok unless flags or a failure note say otherwise. */
    Map<String, Object> row(String experiment, String mode, int conc, Integer pool, int rep, double rps, double p99) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("experiment", experiment);
        r.put("stack", "servlet");
        r.put("thread_mode", mode);
        r.put("workload", "sleep");
        r.put("concurrency", conc);
        r.put("rep", rep);
        r.put("hikari_pool", pool);
        r.put("jdk", 25);
        r.put("throughput_rps", rps);
        r.put("p50_ms", p99 / 2);
        r.put("p99_ms", p99);
        r.put("mean_ms", p99 / 2);
        r.put("error_rate", 0.0);
        r.put("app_cpu_pct", 50.0);
        r.put("load_cpu_pct", 30.0);
        r.put("rss_mb_max", mode.equals("virtual") ? 180.0 : 260.0);
        r.put("jvm_threads_max", mode.equals("virtual") ? 25 : 220);
        String params = "sleepMs=100" + (mode.equals("platform") ? ";maxThreads=200" : "");
        r.put("params", params);
        if (mode.equals("platform")) {
            double bound = Math.min(200, conc) / 0.1;
            r.put("bound_rps", bound);
            r.put("bound_ratio", rps / bound);
        }
        r.put("status", "ok");
        r.put("flags", "");
        r.put("note", "");
        r.put("scenario", experiment + " " + mode + " sleep c=" + conc + (pool == null ? "" : " pool=" + pool) + " sleepMs=100 jdk25");
        rows.add(r);
        return r;
    }

    /** Makes a row an open-model one at a rate (the generator's in-flight cap stays in concurrency). */
    static Map<String, Object> open(Map<String, Object> r, double rate) {
        r.put("load_model", "open");
        r.put("target_rps", rate);
        r.put("achieved_rps", r.get("throughput_rps"));
        r.put("scenario", r.get("scenario") + " rate=" + rate);
        return r;
    }

    /**
     * Gives a row its latency histogram as the generators write it (raw/NAME.hlog) from (count, latency ms) pairs,
     * and p50/p99 cells read from that histogram, as the generators fill them.
     */
    Map<String, Object> histogram(Map<String, Object> r, String name, double... countAndMs) throws IOException {
        org.HdrHistogram.Histogram h = vtlab.data.LatencyHistogram.empty();
        for (int i = 0; i + 1 < countAndMs.length; i += 2)
            for (int k = 0; k < countAndMs[i]; k++) vtlab.data.LatencyHistogram.recordSeconds(h, countAndMs[i + 1] / 1000);
        vtlab.data.LatencyHistogram.write(h, dir.resolve("raw").resolve(name + ".hlog"));
        r.put("histogram", name + ".hlog");
        r.put("p50_ms", vtlab.data.LatencyHistogram.ms(h, 50));
        r.put("p99_ms", vtlab.data.LatencyHistogram.ms(h, 99));
        return r;
    }

    /** Gives a row a per-second series: value(second) for seconds 1..seconds of the hold. */
    void series(Map<String, Object> r, String name, int seconds, java.util.function.IntToDoubleFunction value) {
        List<double[]> pts = new ArrayList<>();
        for (int t = 1; t <= seconds; t++) pts.add(new double[] {t, value.applyAsDouble(t)});
        rowSeries.computeIfAbsent(r, k -> new LinkedHashMap<>()).put(name, pts);
    }

    RunFixture write() throws IOException {
        try (Dataset d = new Dataset(dir.resolve("matrix.csv"), vtlab.run.MatrixSchema.full())) {
            for (Map<String, Object> r : rows) d.append(r);
        }
        StringBuilder series = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            Map<String, Object> r = rows.get(i);
            if ("failed".equals(r.get("status"))) continue;
            Map<String, Object> s = new LinkedHashMap<>();
            List<double[]> cpu = new ArrayList<>(), threads = new ArrayList<>();
            for (int t = 1; t <= 5; t++) {
                cpu.add(new double[] {t, 40 + t});
                threads.add(new double[] {t, ((Number) r.get("jvm_threads_max")).doubleValue()});
            }
            s.put("app_cpu_pct", cpu);
            s.put("threads", threads);
            s.putAll(rowSeries.getOrDefault(r, Map.of()));
            String stem = String.format(Locale.ROOT, "%03d-%s-%s-sleep-c%s-r%s", i + 1, r.get("experiment"), r.get("thread_mode"),
                    r.get("concurrency"), r.get("rep"));
            series.append(JSON.writeValueAsString(Map.of("row", stem, "series", s))).append('\n');
        }
        Files.writeString(dir.resolve("series.jsonl"), series);
        JSON.writeValue(dir.resolve("environment.json").toFile(), env);
        if (status != null) new RunKept(Map.of(), Map.of(25, "25.0.3"), status).write(new RunDir(dir));
        return this;
    }

    /** findings.json naming the studies' sections (no findings): what the CLI hands the report. */
    RunFixture studies(StudySection... sections) throws IOException {
        new Findings(List.of(), List.of(sections)).write(dir);
        return this;
    }

    void file(String name, String text) throws IOException {
        Files.writeString(dir.resolve(name), text);
    }

    /**
     * The servlet hero sweep: platform plateaus at its 200-thread bound (2,000 req/s at 100 ms), virtual rises with
     * concurrency; two reps each; at 2,500 one virtual rep is flagged generator-bound (and absurdly high, so a test
     * can tell whether it leaked into a mean), and one platform row failed.
     */
    static RunFixture heroSweep(Path dir) throws IOException {
        RunFixture f = new RunFixture(dir);
        int[] conc = {100, 500, 1000, 2500};
        for (int c : conc) {
            for (int rep = 1; rep <= 2; rep++) {
                double p = Math.min(c, 200) / 0.1 * 0.98 + rep;
                f.row("servlet", "platform", c, null, rep, p, c <= 200 ? 110 : 100.0 * c / 200 * 1.2 + rep);
                double v = c / 0.1 * (c >= 1000 ? 0.8 : 0.97) + rep;
                Map<String, Object> vr = f.row("servlet", "virtual", c, null, rep, v, 120 + c / 100.0 + rep);
                if (c == 2500 && rep == 2) {
                    vr.put("throughput_rps", 99999.0);
                    vr.put("status", "flagged");
                    vr.put("flags", "generator-bound");
                    vr.put("note", "flagged: generator-bound");
                }
            }
        }
        Map<String, Object> failed = f.row("servlet", "platform", 2500, null, 3, 0, 0);
        failed.put("status", "failed");
        failed.put("note", "SUT died during warm-up: java.lang.OutOfMemoryError");
        failed.remove("throughput_rps");
        failed.remove("p99_ms");
        return f;
    }
}
