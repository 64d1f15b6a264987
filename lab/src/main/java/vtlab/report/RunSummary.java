package vtlab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Grouping;
import vtlab.data.Rows;
import vtlab.data.judge.Stats;
import vtlab.data.judge.Units;

/**
 * summary.json: per experiment, scenario and thread-mode variant, the numbers of summary.txt with their noise (mean,
 * 95% CI and every rep of throughput; p50/p99 of the reps' merged histograms), bound, ratio, flags and threshold
 * breaches, plus the failed rows and the run's environment (environment.json copied as it is, for tools: no reader
 * of summary.json decides from it). Written once at the end of a run; summary.txt, the report's summary table and
 * compare read it back. Its schema is in docs/outputs-and-schema.md ("summary.json").
 */
public record RunSummary(JsonNode environment, String failOn, List<Entry> entries, List<Failed> failed, List<Breach> breaches,
                         List<String> notes) {
    public static final String FILE = "summary.json";
    /** Bumped when a field changes meaning or goes away (readers check it). */
    public static final int SCHEMA = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * A value over reps: the mean with its 95% CI (NaN with one rep), each rep's value, (max - min) / mean in %, and the
     * mean of each fork (a fresh JVM: the unit every comparison judges by; each rep's own value for a run before forks).
     */
    public record Stat(double mean, double low, double high, List<Double> reps, double spreadPct, List<Double> forks) {
        static Stat of(List<Double> reps) {
            Stats.Interval i = Stats.mean95(reps.stream().mapToDouble(Double::doubleValue).toArray());
            var s = reps.stream().mapToDouble(Double::doubleValue).filter(d -> !Double.isNaN(d)).summaryStatistics();
            double spread = s.getCount() < 2 || s.getAverage() == 0 ? Double.NaN : (s.getMax() - s.getMin()) / s.getAverage() * 100;
            return new Stat(i.mean(), i.low(), i.high(), List.copyOf(reps), spread, List.copyOf(reps));
        }

        /** The fork means as the judge takes them. */
        public double[] forkValues() {
            return forks.stream().mapToDouble(Double::doubleValue).toArray();
        }

        /**
         * Over forks: a fork's iterations share one JVM, so they are one sample of the noise between JVMs, not several;
         * the mean, CI and spread are over each fork's mean (a row without a fork, from a run before forks, is a fork of
         * its own), the reps are every row's value.
         */
        static Stat ofForks(List<Double> values, List<String> forks) {
            List<Double> means = java.util.Arrays.stream(Units.means(values, forks)).boxed().toList();
            Stat s = of(means);
            return new Stat(s.mean(), s.low(), s.high(), List.copyOf(values), s.spreadPct(), means);
        }

        /** Half the CI in % of the mean, NaN without a CI. */
        public double ciPct() {
            return (high - low) / 2 / mean * 100;
        }

        public double[] values() {
            return reps.stream().mapToDouble(Double::doubleValue).toArray();
        }
    }

    /**
     * A percentile of the scenario: of the reps' merged histogram when merged, else the mean of the reps' cells; forks:
     * each fork's mean of its reps' own percentile (the unit a comparison judges by).
     */
    public record Latency(double ms, boolean merged, List<Double> reps, List<Double> forks) {
        public double[] forkValues() {
            return forks.stream().mapToDouble(Double::doubleValue).toArray();
        }
    }

    /**
     * One line of the summary. The numbers are over the reps with status ok, or over the flagged ones when none is ok
     * (then evidence is false: shown, never compared); failed reps have no numbers.
     */
    public record Entry(String experiment, String scenario, String compareKey, String jdk, String stack, String variant,
                        List<Integer> rows, int ok, int flagged, int failed, Stat throughput, Latency p50, Latency p99,
                        double boundRps, double boundRatio, double vsPlatform, double threadsMax, double appCpuPct, double rssMb,
                        List<String> flags, List<String> breached) {
        public boolean evidence() {
            return ok > 0;
        }

        /** Whether it has numbers (a rep that is ok or flagged): a line whose reps all failed has none. */
        public boolean measured() {
            return ok + flagged > 0;
        }
    }

    public record Failed(String experiment, int row, String scenario, String rep, String note) {}

    public record Breach(int row, String scenario, String rep, List<String> terms) {}

    public boolean breached() {
        return !breaches.isEmpty();
    }

    /**
     * From matrix rows (in file order: row k is rows.get(k - 1)) and their histograms.
     *
     * @param environment environment.json, copied into summary.json as it is (null: none)
     * @param failOn      the --fail-on text, null without
     * @param breaches    per matrix row number, the thresholds it breached in words
     */
    public static RunSummary of(List<DataRow> rows, Histograms histograms, JsonNode environment, String failOn,
                                Map<Integer, List<String>> breaches) {
        Map<DataRow, Integer> index = new java.util.IdentityHashMap<>();
        for (int i = 0; i < rows.size(); i++) index.put(rows.get(i), i + 1);
        List<Entry> entries = new ArrayList<>();
        List<Failed> failed = new ArrayList<>();
        Map<String, List<DataRow>> byExperiment = rows.stream()
                .collect(Collectors.groupingBy(DataRow::experiment, LinkedHashMap::new, Collectors.toList()));
        byExperiment.forEach((exp, expRows) -> {
            Map<String, List<DataRow>> groups = expRows.stream()
                    .collect(Collectors.groupingBy(Grouping::comparison, LinkedHashMap::new, Collectors.toList()));
            groups.forEach((g, gRows) -> {
                // the same mode on several stacks (servers: jetty virtual, helidon virtual) is a variant per stack
                boolean sharedNames = gRows.stream().collect(Collectors.groupingBy(Grouping::variant,
                        Collectors.mapping(r -> r.text(Columns.STACK), Collectors.toSet()))).values().stream().anyMatch(st -> st.size() > 1);
                Map<String, List<DataRow>> variants = gRows.stream()
                        .collect(Collectors.groupingBy(r -> Grouping.variant(r, sharedNames), LinkedHashMap::new, Collectors.toList()));
                double platformRps = variants.entrySet().stream().filter(e -> e.getKey().startsWith(Grouping.PLATFORM))
                        .map(e -> Rows.mean(measured(e.getValue()), Columns.RPS)).filter(d -> !Double.isNaN(d)).findFirst().orElse(Double.NaN);
                variants.forEach((v, vRows) -> {
                    List<DataRow> m = measured(vRows);
                    int ok = (int) vRows.stream().filter(DataRow::ok).count(), fl = (int) vRows.stream().filter(DataRow::flagged).count();
                    int fa = (int) vRows.stream().filter(DataRow::failed).count();
                    // every rep failed: a line without numbers (compare shows it as failed; summary.txt lists the rows)
                    Stat rps = Stat.ofForks(m.stream().map(r -> r.num(Columns.RPS)).toList(), m.stream().map(r -> r.text(Columns.FORK)).toList());
                    DataRow first = vRows.getFirst();
                    List<String> flags = vRows.stream().flatMap(r -> r.flags().stream()).distinct().toList();
                    List<String> broke = vRows.stream().flatMap(r -> breaches.getOrDefault(index.get(r), List.of()).stream()).distinct().toList();
                    entries.add(new Entry(exp, Grouping.comparisonLabel(g), Grouping.scenario(first, false), first.text(Columns.JDK),
                            vRows.stream().map(r -> r.text(Columns.STACK)).distinct().collect(Collectors.joining("+")), v,
                            vRows.stream().map(index::get).toList(), ok, fl, fa, rps,
                            latency(m, histograms, 50, Columns.P50), latency(m, histograms, 99, Columns.P99),
                            Rows.mean(m, Columns.BOUND_RPS), Rows.mean(m, Columns.BOUND_RATIO), rps.mean() / platformRps,
                            Rows.mean(m, Columns.THREADS_MAX), Rows.mean(m, Columns.APP_CPU), Rows.mean(m, Columns.RSS_MAX), flags, broke));
                });
            });
            for (DataRow f : expRows) {
                if (f.failed()) failed.add(new Failed(exp, index.get(f), f.text(Columns.SCENARIO), f.text(Columns.REP), f.text(Columns.NOTE)));
            }
        });
        List<Breach> br = new ArrayList<>();
        breaches.forEach((k, terms) -> {
            if (terms.isEmpty() || k < 1 || k > rows.size()) return;
            DataRow r = rows.get(k - 1);
            br.add(new Breach(k, r.text(Columns.SCENARIO), r.text(Columns.REP), List.copyOf(terms)));
        });
        br.sort(java.util.Comparator.comparingInt(Breach::row));
        return new RunSummary(environment == null ? NullNode.getInstance() : environment, failOn, entries, failed, br,
                List.copyOf(histograms.problems()));
    }

    /** The reps a line stands on: the ok ones, else the flagged ones (shown, not evidence). */
    static List<DataRow> measured(List<DataRow> rows) {
        List<DataRow> ok = Rows.valid(rows);
        return ok.isEmpty() ? rows.stream().filter(DataRow::flagged).toList() : ok;
    }

    private static Latency latency(List<DataRow> rows, Histograms h, double percentile, Column col) {
        boolean merged = h.merged(rows) != null;
        List<Double> reps = rows.stream().map(r -> r.num(col)).toList();
        return new Latency(h.ms(rows, percentile, col), merged, reps,
                java.util.Arrays.stream(Units.means(reps, rows.stream().map(r -> r.text(Columns.FORK)).toList())).boxed().toList());
    }

    /** The summary of a run folder: its summary.json when there is one, else derived from its rows (older runs). */
    public static RunSummary of(RunData d) {
        Path f = d.dir().resolve(FILE);
        if (Files.exists(f)) {
            try {
                return read(f);
            } catch (IOException | RuntimeException e) {
                d.problems().add(FILE + ": " + e.getMessage() + " (derived from matrix.csv instead)");
            }
        }
        return of(d.rows(), d.histograms(), d.environment(), null, Map.of());
    }

    public void write(Path runDir) throws IOException {
        Files.writeString(runDir.resolve(FILE), JSON.writeValueAsString(toJson()) + "\n");
    }

    ObjectNode toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA);
        root.set("environment", environment);
        ObjectNode th = root.putObject("thresholds");
        if (failOn == null) th.putNull("fail_on");
        else th.put("fail_on", failOn);
        th.put("breached", breached());
        ArrayNode bs = th.putArray("breaches");
        for (Breach b : breaches) {
            ObjectNode o = bs.addObject().put("row", b.row()).put("scenario", b.scenario()).put("rep", b.rep());
            b.terms().forEach(o.putArray("terms")::add);
        }
        ArrayNode sc = root.putArray("scenarios");
        for (Entry e : entries) {
            ObjectNode o = sc.addObject().put("experiment", e.experiment()).put("scenario", e.scenario()).put("compare_key", e.compareKey())
                    .put("jdk", e.jdk()).put("stack", e.stack()).put("variant", e.variant());
            e.rows().forEach(o.putArray("rows")::add);
            o.put("reps_ok", e.ok()).put("reps_flagged", e.flagged()).put("reps_failed", e.failed()).put("evidence", e.evidence());
            ObjectNode t = o.putObject("throughput_rps");
            num(t, "mean", e.throughput().mean());
            ArrayNode ci = t.putArray("ci95");
            if (Double.isNaN(e.throughput().low())) t.putNull("ci95");
            else ci.add(e.throughput().low()).add(e.throughput().high());
            reps(t, e.throughput().reps());
            nums(t.putArray("fork_means"), e.throughput().forks());
            num(t, "spread_pct", e.throughput().spreadPct());
            latencyJson(o.putObject("p50_ms"), e.p50());
            latencyJson(o.putObject("p99_ms"), e.p99());
            num(o, "bound_rps", e.boundRps());
            num(o, "bound_ratio", e.boundRatio());
            num(o, "vs_platform", e.vsPlatform());
            num(o, "threads_max", e.threadsMax());
            num(o, "app_cpu_pct", e.appCpuPct());
            num(o, "rss_mb_max", e.rssMb());
            e.flags().forEach(o.putArray("flags")::add);
            e.breached().forEach(o.putArray("thresholds_breached")::add);
        }
        ArrayNode fa = root.putArray("failed_rows");
        for (Failed f : failed) fa.addObject().put("experiment", f.experiment()).put("row", f.row()).put("scenario", f.scenario())
                .put("rep", f.rep()).put("note", f.note());
        notes.forEach(root.putArray("notes")::add);
        return root;
    }

    private static void latencyJson(ObjectNode o, Latency l) {
        num(o, "value", l.ms());
        o.put("merged_histogram", l.merged());
        reps(o, l.reps());
        nums(o.putArray("fork_means"), l.forks());
    }

    private static void nums(ArrayNode a, List<Double> values) {
        for (double d : values) {
            if (Double.isNaN(d)) a.addNull();
            else a.add(d);
        }
    }

    private static void reps(ObjectNode o, List<Double> reps) {
        ArrayNode a = o.putArray("reps");
        for (double d : reps) {
            if (Double.isNaN(d)) a.addNull();
            else a.add(d);
        }
    }

    /** NaN (not measured) as null: JSON has no NaN. */
    private static void num(ObjectNode o, String k, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) o.putNull(k);
        else o.put(k, v);
    }

    static RunSummary read(Path f) throws IOException {
        JsonNode root = JSON.readTree(f.toFile());
        if (root == null || root.path("schema").asInt(-1) != SCHEMA) {
            throw new IOException("schema " + (root == null ? "?" : root.path("schema").asText("?")) + ", this build reads " + SCHEMA);
        }
        JsonNode th = root.path("thresholds");
        List<Breach> breaches = new ArrayList<>();
        for (JsonNode b : th.path("breaches")) breaches.add(new Breach(b.path("row").asInt(), b.path("scenario").asText(), b.path("rep").asText(), texts(b.path("terms"))));
        List<Entry> entries = new ArrayList<>();
        for (JsonNode o : root.path("scenarios")) {
            JsonNode t = o.path("throughput_rps"), ci = t.path("ci95");
            List<Integer> rows = new ArrayList<>();
            o.path("rows").forEach(n -> rows.add(n.asInt()));
            Stat rps = new Stat(num(t.path("mean")), ci.isArray() ? num(ci.path(0)) : Double.NaN, ci.isArray() ? num(ci.path(1)) : Double.NaN,
                    nums(t.path("reps")), num(t.path("spread_pct")), forks(t));
            entries.add(new Entry(o.path("experiment").asText(), o.path("scenario").asText(), o.path("compare_key").asText(), o.path("jdk").asText(),
                    o.path("stack").asText(), o.path("variant").asText(), rows, o.path("reps_ok").asInt(), o.path("reps_flagged").asInt(),
                    o.path("reps_failed").asInt(), rps, latency(o.path("p50_ms")), latency(o.path("p99_ms")), num(o.path("bound_rps")),
                    num(o.path("bound_ratio")), num(o.path("vs_platform")), num(o.path("threads_max")), num(o.path("app_cpu_pct")),
                    num(o.path("rss_mb_max")), texts(o.path("flags")), texts(o.path("thresholds_breached"))));
        }
        List<Failed> failed = new ArrayList<>();
        for (JsonNode o : root.path("failed_rows")) {
            failed.add(new Failed(o.path("experiment").asText(), o.path("row").asInt(), o.path("scenario").asText(), o.path("rep").asText(), o.path("note").asText()));
        }
        return new RunSummary(root.path("environment"), th.path("fail_on").isTextual() ? th.path("fail_on").asText() : null, entries, failed,
                breaches, texts(root.path("notes")));
    }

    private static Latency latency(JsonNode o) {
        return new Latency(num(o.path("value")), o.path("merged_histogram").asBoolean(), nums(o.path("reps")), forks(o));
    }

    /** fork_means, or for a summary.json written before they were kept its reps (each then taken as a fork: as it was judged). */
    private static List<Double> forks(JsonNode o) {
        return o.has("fork_means") ? nums(o.path("fork_means")) : nums(o.path("reps"));
    }

    private static double num(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    private static List<Double> nums(JsonNode a) {
        List<Double> out = new ArrayList<>();
        a.forEach(n -> out.add(num(n)));
        return out;
    }

    private static List<String> texts(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asText()));
        return out;
    }
}
