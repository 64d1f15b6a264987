package vtlab.experiment.ab;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.plan.Row;
import vtlab.plan.Search;

/**
 * ab --forks auto: after the planned forks, more forks, configurations interleaved (the one with the fewest forks
 * first: platform, virtual, platform, ...), while a ratio of a scenario is not settled ({@link Verdict.Ratio#settled})
 * and the next fork fits in what is left of --budget. A fork runs its iterations back to back, in its one JVM. The
 * budget is wall time from the A/B's first row on, so each fork's start and warm-up count; a fork that would not end
 * within it is not started. A scenario with a failed fork gets no more (its failure is the verdict's to say, and no
 * gain is claimed from the survivors), nor does one with a single configuration (no ratio to settle).
 */
final class AbForks implements Search {
    /** Forks of a configuration at most: past this a ratio that still is not settled will not be by more of them. */
    static final int MAX_FORKS = 20;

    private final List<Row> configs;
    private final int iterations;
    private final Duration budget;
    private final long forkSeconds;
    private final LongSupplier nowMs;
    private String stopped;
    /** The run's rows before this search, as the last call to next had them (for the status line). */
    private List<DataRow> before = List.of();

    /**
     * @param planned     the A/B's rows as planned (its first forks)
     * @param forkSeconds a fork's estimated wall time: start, warm-up, holds; a fork added here is a later fork, with no
     *                    explaining hold (see {@link AbExperiment#laterForkSeconds})
     */
    AbForks(List<Row> planned, AbExperiment.Forks f, long forkSeconds) {
        this(planned, f, forkSeconds, System::currentTimeMillis);
    }

    AbForks(List<Row> planned, AbExperiment.Forks f, long forkSeconds, LongSupplier nowMs) {
        this.configs = planned.stream().filter(r -> r.fork() == 1 && r.iteration() == 1).toList();
        this.iterations = f.iterations();
        this.budget = f.budget();
        this.forkSeconds = forkSeconds;
        this.nowMs = nowMs;
    }

    @Override
    public String label() {
        return "ab forks";
    }

    @Override
    public Row template() {
        return configs.getFirst();
    }

    /** What the budget leaves after the planned forks, in forks. */
    @Override
    public int expectedRows() {
        long planned = configs.size() * forkSeconds;
        return (int) Math.max(0, (budget.toSeconds() - planned) / Math.max(1, forkSeconds)) * iterations;
    }

    @Override
    public long secondsPerRow() {
        return forkSeconds / Math.max(1, iterations);
    }

    @Override
    public Row next(List<DataRow> measured) {
        return next(List.of(), measured);
    }

    @Override
    public Row next(List<DataRow> before, List<DataRow> measured) {
        this.before = List.copyOf(before);
        List<DataRow> all = new ArrayList<>(before);
        all.addAll(measured);
        // a fork under way runs its next iteration in its JVM, whatever the ratios say
        if (!measured.isEmpty()) {
            DataRow last = measured.getLast();
            int it = (int) last.num(Columns.ITERATION);
            if (!last.failed() && it < iterations) {
                Row c = config(last);
                if (c != null) return AbExperiment.forkRow(c, (int) last.num(Columns.FORK), it + 1, iterations);
            }
        }
        Map<Row, List<DataRow>> byConfig = byConfig(all);
        List<Row> wanted = new ArrayList<>();
        for (Map.Entry<String, List<Row>> s : scenarios().entrySet()) {
            Map<String, List<DataRow>> rows = measured(s.getValue(), byConfig);
            // a failed fork is the verdict's to say, and no ratio (one configuration) has nothing to settle: no more forks
            if (s.getValue().stream().anyMatch(c -> byConfig.get(c).stream().anyMatch(DataRow::failed))) continue;
            List<Verdict.Ratio> ratios = Verdict.ratios(rows, s.getValue().getFirst().open());
            if (ratios.isEmpty() || ratios.stream().allMatch(Verdict.Ratio::settled)) continue;
            for (Row c : s.getValue()) if (forks(byConfig.get(c)) < MAX_FORKS) wanted.add(c);
        }
        if (wanted.isEmpty()) {
            stopped = "every ratio settled (or no fork more can settle it)";
            return null;
        }
        long left = budget.toSeconds() - elapsedSeconds(all);
        if (left < forkSeconds) {
            stopped = String.format(Locale.ROOT, "--budget %s spent (%ds left, a fork takes about %ds): not every ratio is settled",
                    AbExperiment.minutes(budget.toSeconds()), Math.max(0, left), forkSeconds);
            return null;
        }
        // the fewest forks first, in the plan's order on a tie: platform, virtual, platform, ...
        Row c = wanted.stream().min(java.util.Comparator.comparingInt(r -> forks(byConfig.get(r)))).orElseThrow();
        return AbExperiment.forkRow(c, forks(byConfig.get(c)) + 1, 1, iterations);
    }

    /** Seconds since the A/B's first row started (its ts_iso), 0 before any. */
    long elapsedSeconds(List<DataRow> all) {
        Instant first = all.stream().map(n -> n.text(Columns.TS)).filter(t -> !t.isBlank()).map(Instant::parse).min(Instant::compareTo).orElse(null);
        return first == null ? 0 : Math.max(0, (nowMs.getAsLong() - first.toEpochMilli()) / 1000);
    }

    /** The planned configuration a row is of (its scenario), null for a row of none (a next step's). */
    Row config(DataRow n) {
        String scenario = n.text(Columns.SCENARIO);
        return configs.stream().filter(c -> c.scenario().equals(scenario)).findFirst().orElse(null);
    }

    Map<Row, List<DataRow>> byConfig(List<DataRow> all) {
        Map<Row, List<DataRow>> out = new LinkedHashMap<>();
        for (Row c : configs) out.put(c, new ArrayList<>());
        for (DataRow n : all) {
            Row c = config(n);
            if (c != null) out.get(c).add(n);
        }
        return out;
    }

    /** The configurations by scenario (URL, load, JDK), in the plan's order. */
    Map<String, List<Row>> scenarios() {
        Map<String, List<Row>> out = new LinkedHashMap<>();
        for (Row c : configs) out.computeIfAbsent(c.workload() + "|" + c.concurrency() + "|" + c.rate() + "|" + c.jdk().major(), k -> new ArrayList<>()).add(c);
        return out;
    }

    /**
     * The rows each configuration of a scenario is measured by: its ok rows, or where a configuration has none its
     * flagged ones (a busy machine): more forks may still bring ok ones, and the verdict, not this search, says what
     * counts as evidence.
     */
    static Map<String, List<DataRow>> measured(List<Row> scenario, Map<Row, List<DataRow>> byConfig) {
        Map<String, List<DataRow>> rows = new LinkedHashMap<>();
        boolean allOk = scenario.stream().allMatch(c -> byConfig.get(c).stream().anyMatch(DataRow::ok));
        for (Row c : scenario) {
            List<DataRow> use = byConfig.get(c).stream().filter(n -> allOk ? n.ok() : !n.failed()).toList();
            if (!use.isEmpty()) rows.put(Verdict.config(use.getFirst()), use);
        }
        return rows;
    }

    static int forks(List<DataRow> rows) {
        return (int) rows.stream().mapToDouble(n -> n.num(Columns.FORK)).filter(f -> !Double.isNaN(f)).distinct().count();
    }

    /** Each scenario's ratios with their intervals as they tighten, and the budget left (or why it stopped). */
    @Override
    public String status(List<DataRow> measured) {
        List<DataRow> all = new ArrayList<>(before);
        all.addAll(measured);
        String ratios = ratios(all);
        long left = budget.toSeconds() - elapsedSeconds(all);
        return (ratios.isEmpty() ? "no ratio yet" : ratios) + (stopped != null ? "; " + stopped
                : String.format(Locale.ROOT, "; --budget %s left", AbExperiment.minutes(Math.max(0, left))));
    }

    /** The ratios so far over every row, one line: "/x at 200 connections: virtual as shipped / platform 1.80× (95% CI 1.72–1.88×) settled". */
    String ratios(List<DataRow> all) {
        Map<Row, List<DataRow>> byConfig = byConfig(all);
        List<String> out = new ArrayList<>();
        for (List<Row> s : scenarios().values()) {
            Map<String, List<DataRow>> rows = measured(s, byConfig);
            for (Verdict.Ratio r : Verdict.ratios(rows, s.getFirst().open())) {
                out.add(String.format(Locale.ROOT, "%s c=%d: %s%s", s.getFirst().workload(), s.getFirst().concurrency(), r.text(), r.settled() ? " settled" : ""));
            }
        }
        return out.stream().collect(Collectors.joining("; "));
    }
}
