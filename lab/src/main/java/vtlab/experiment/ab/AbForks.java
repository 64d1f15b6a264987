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
import vtlab.data.judge.Judge;
import vtlab.plan.Row;
import vtlab.plan.Search;

/**
 * ab --forks auto: after the planned forks, more forks, configurations interleaved (the one with the fewest forks
 * first: platform, virtual, platform, ...), while a ratio of a scenario is not settled ({@link Verdict.Ratio#settled})
 * and the next fork fits in what is left of --budget. Adding forks until a ratio looks settled is a sequential test:
 * each look is a chance of a false claim, so the looks are capped ({@link #MAX_LOOKS}: one a fork a side, from two
 * forks on) and each is judged at 97.5% ({@link Judge#SEQUENTIAL_LEVEL}: the simulated false-claim rate of this rule is
 * in docs/results.md). A fork runs its iterations back to back, in its one JVM. The
 * budget is wall time from the A/B's first row on, so each fork's start and warm-up count; a fork that would not end
 * within it is not started. A scenario with a failed fork gets no more (its failure is the verdict's to say, and no
 * gain is claimed from the survivors), nor does one with a single configuration (no ratio to settle).
 */
final class AbForks implements Search {
    /**
     * Looks at a ratio at most: one after each fork a side from two forks on (2 to 6 forks a side when the run starts
     * with one), each at {@link Judge#SEQUENTIAL_LEVEL}; more looks would cost forks a coffee break's --budget rarely
     * buys (docs/ab.md, "Stopping").
     */
    static final int MAX_LOOKS = 5;
    /** How the search judges a ratio: as the verdict of a --forks auto run does, each look at 97.5% (the margin settles nothing). */
    static final Judging LOOKS = new Judging(vtlab.data.judge.Margin.DEFAULT, Judge.SEQUENTIAL_LEVEL);

    /** How much more than its forks so far a configuration's next fork is reckoned to take: a fork may run longer than the ones before. */
    static final double COST_MARGIN = 1.25;

    /** Forks of a configuration at most: its first look's forks and one a look after it. */
    private final int maxForks;

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
        this.maxForks = Math.max(2, f.forks()) + MAX_LOOKS - 1;
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

    /** --budget counts from the A/B's first row: the fixed forks are inside it. */
    @Override
    public long budgetSeconds() {
        return budget.toSeconds();
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
            // a ratio refused (a p99 over too few requests) is not settled by more forks of the same holds
            List<Verdict.Ratio> ratios = Verdict.ratios(rows, rows, Map.of(), s.getValue().getFirst().open(), LOOKS).stream()
                    .filter(r -> r.claim().refused() == null).toList();
            // the ok rows only (the verdict's own): a scenario with a configuration of flagged rows only gets more forks, which may bring ok ones
            boolean judged = rows.size() == s.getValue().size();
            if (judged && (ratios.isEmpty() || ratios.stream().allMatch(Verdict.Ratio::settled))) continue;
            for (Row c : s.getValue()) if (forks(byConfig.get(c)) < maxForks) wanted.add(c);
        }
        if (wanted.isEmpty()) {
            stopped = "every ratio settled (or no fork more can settle it)";
            return null;
        }
        long left = budget.toSeconds() - elapsedSeconds(all);
        // the fewest forks first, in the plan's order on a tie: platform, virtual, platform, ...
        Row c = wanted.stream().min(java.util.Comparator.comparingInt(r -> forks(byConfig.get(r)))).orElseThrow();
        long cost = nextForkSeconds(byConfig.get(c), all);
        if (left < cost) {
            stopped = String.format(Locale.ROOT, "--budget %s spent (%ds left, a fork takes about %ds): not every ratio is settled",
                    AbExperiment.minutes(budget.toSeconds()), Math.max(0, left), cost);
            return null;
        }
        return AbExperiment.forkRow(c, forks(byConfig.get(c)) + 1, 1, iterations);
    }

    /**
     * What the configuration's next fork is reckoned to take: the longest of its later forks so far (a fork's first row's
     * start to the start of the row after its last, in the run's order), with {@link #COST_MARGIN}; the plan's estimate
     * before it has one.
     */
    long nextForkSeconds(List<DataRow> mine, List<DataRow> all) {
        List<DataRow> ordered = all.stream().filter(n -> !n.text(Columns.TS).isBlank()).sorted(java.util.Comparator.comparing(n -> Instant.parse(n.text(Columns.TS)))).toList();
        long longest = 0;
        Map<Long, List<DataRow>> byFork = new LinkedHashMap<>();
        for (DataRow n : mine) if (!Double.isNaN(n.num(Columns.FORK)) && !n.text(Columns.TS).isBlank()) byFork.computeIfAbsent((long) n.num(Columns.FORK), k -> new ArrayList<>()).add(n);
        for (Map.Entry<Long, List<DataRow>> f : byFork.entrySet()) {
            if (f.getKey() == 1) continue; // the first fork ran an explaining hold a later fork does not
            DataRow last = f.getValue().getLast();
            int at = ordered.indexOf(last);
            if (at < 0 || at + 1 >= ordered.size()) continue;
            long s = Duration.between(Instant.parse(f.getValue().getFirst().text(Columns.TS)), Instant.parse(ordered.get(at + 1).text(Columns.TS))).toSeconds();
            longest = Math.max(longest, s);
        }
        return longest > 0 ? (long) Math.ceil(longest * COST_MARGIN) : forkSeconds;
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
     * The rows each configuration of a scenario is measured by: its ok rows, the verdict's own evidence; a flagged row
     * settles nothing here, or the search could stop on rows the verdict then sets aside. A configuration without one
     * is left out (and the scenario wants more forks, which may bring ok ones).
     */
    static Map<String, List<DataRow>> measured(List<Row> scenario, Map<Row, List<DataRow>> byConfig) {
        Map<String, List<DataRow>> rows = new LinkedHashMap<>();
        for (Row c : scenario) {
            List<DataRow> use = byConfig.get(c).stream().filter(DataRow::ok).toList();
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
            for (Verdict.Ratio r : Verdict.ratios(rows, rows, Map.of(), s.getFirst().open(), LOOKS)) {
                out.add(String.format(Locale.ROOT, "%s c=%d: %s%s", s.getFirst().workload(), s.getFirst().concurrency(), r.text(), r.settled() ? " settled" : ""));
            }
        }
        return out.stream().collect(Collectors.joining("; "));
    }
}
