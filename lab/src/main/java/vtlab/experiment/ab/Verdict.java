package vtlab.experiment.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import vtlab.check.KnownLibraries;
import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.data.Rows;
import vtlab.data.judge.Claim;
import vtlab.data.judge.Judge;
import vtlab.data.judge.Units;
import vtlab.stack.ThreadMode.Threads;

/**
 * The verdict of an ab run in words, each claim naming its rows by their number in matrix.csv (the report links
 * "row N"): what the flag gains and what tuning adds, per scenario; what broke (failed rows, errors, pinning with the
 * service's own frame) and the libraries in its jar known to matter for virtual threads; where the bottleneck moved
 * (CPU, pool, generator); memory and threads; advice from what was measured. Only rows with status ok count as
 * evidence; the others are named as such.
 */
final class Verdict {
    /**
     * A direction, not a claim: a next step tries more of a lever that moved its throughput the right way by more than
     * this (NextStep.Judged#direction); no gain or loss is claimed from it (the judge's intervals do that).
     */
    static final double SAME = 0.05;

    private Verdict() {}

    /** A row's configuration in words: platform, virtual as shipped, virtual tuned; a next step's variant with its lever ("platform, pool 20"). */
    static String config(DataRow r) {
        String[] lever = Levers.of(r);
        String side = Aa.side(r), beside = NextStep.beside(r);
        if (side != null) return baseConfig(r) + " (" + side + ")"; // an A/A's two sides, identical but for this label
        if (beside != null) return baseConfig(r) + " (beside " + beside.replace(':', ' ') + ")"; // a next step's baseline fork
        return lever == null ? baseConfig(r) : baseConfig(r) + ", " + lever[0] + " " + lever[1];
    }

    /** The A/B configuration of a row, a next step's variant's without its lever: platform, virtual as shipped, virtual tuned. */
    static String baseConfig(DataRow r) {
        String mode = r.mode(), tuning = r.param(Service.TUNING);
        return mode.equals(Threads.VIRTUAL.word) && Service.TUNED.equals(tuning) ? "virtual tuned"
                : mode.equals(Threads.VIRTUAL.word) ? "virtual as shipped" : mode;
    }

    /** The load a scenario is compared at: connections (closed) or the offered rate (open). */
    static String load(DataRow r) {
        return r.open() ? String.format(Locale.ROOT, "%,.0f req/s offered", r.num(Columns.TARGET_RPS))
                : String.format(Locale.ROOT, "%,d connections", (long) r.num(Columns.CONCURRENCY));
    }

    static List<String> of(List<DataRow> matrix, Path pinningTxt) {
        return of(matrix, pinningTxt, null);
    }

    /** @param jar the service jar's libraries as the run kept them, null for a --cmd service */
    static List<String> of(List<DataRow> matrix, Path pinningTxt, ServiceLibraries jar) {
        return of(matrix, pinningTxt, jar, Map.of());
    }

    /** The verdict's sentences over matrix.csv's rows. */
    static List<String> of(List<DataRow> matrix, Path pinningTxt, ServiceLibraries jar, Map<Integer, String> jdkVersions) {
        return of(matrix, pinningTxt, jar, jdkVersions, null);
    }

    /** As above, with what the run knew of the service for the next step (null: a run before it, no next-step line). */
    static List<String> of(List<DataRow> matrix, Path pinningTxt, ServiceLibraries jar, Map<Integer, String> jdkVersions,
                           NextStep.Facts nextStep) {
        return Finding.texts(findings(matrix, pinningTxt, jar, jdkVersions, nextStep));
    }

    static List<Finding> findings(List<DataRow> rows, Path pinningTxt, ServiceLibraries jar, Map<Integer, String> jdkVersions) {
        return findings(rows, pinningTxt, jar, jdkVersions, null);
    }

    /**
     * @param jdkVersions the exact version (25.0.3) of each JDK major the run used, from kept.json (empty:
     *                    not kept, a run before this check)
     */
    static List<Finding> findings(List<DataRow> rows, Path pinningTxt, ServiceLibraries jar, Map<Integer, String> jdkVersions,
                                  NextStep.Facts nextStep) {
        return findings(rows, pinningTxt, jar, jdkVersions, nextStep, Judging.DEFAULT);
    }

    /** As above, with the run's margin and looks ({@link Judging}). */
    static List<Finding> findings(List<DataRow> rows, Path pinningTxt, ServiceLibraries jar, Map<Integer, String> jdkVersions,
                                  NextStep.Facts nextStep, Judging judging) {
        // the A/B's own rows: a next step's variants (and the baseline forks run beside them) are judged in its own
        // lines, never in the A/B's gain
        List<DataRow> ab = rows.stream().filter(n -> Levers.of(n) == null && NextStep.beside(n) == null).toList();
        List<Finding> out = new ArrayList<>();
        broken(rows, out);
        boolean jdks = rows.stream().map(r -> r.text(Columns.JDK)).distinct().count() > 1;
        // one scenario: url x load (x JDK when several); its configurations side by side
        Map<String, List<DataRow>> scenarios = new LinkedHashMap<>();
        for (DataRow n : ab) {
            String key = n.text(Columns.WORKLOAD) + " at " + load(n) + (jdks ? " on JDK " + n.text(Columns.JDK) : "");
            scenarios.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
        }
        scenarios.forEach((key, list) -> {
            gain(key, list, out, judging);
            // an A/A's noise floor, whatever its claim (said even when flagged forks leave it none)
            if (list.stream().anyMatch(n -> Aa.side(n) != null)) out.add(NoiseFloorLine.finding(key, list));
        });
        errors(rows, out);
        pinning(rows, pinningTxt, out);
        List<Finding> libraries = new ArrayList<>();
        jdks(jdkVersions, rows, libraries);
        libraries(jar, rows, libraries);
        out.addAll(libraries);
        bottleneck(rows, out);
        requestTime(ab, out);
        out.addAll(NextStep.findings(NextStep.numbered(rows), nextStep, jar, judging));
        memory(rows, out);
        if (out.size() == libraries.size()) out.addFirst(Finding.of("no row to conclude from"));
        return out;
    }

    /** Rows that gave no numbers, by reason: the thread-mode check first (a flag that did nothing is the first thing to know). */
    static void broken(List<DataRow> rows, List<Finding> out) {
        Map<String, List<DataRow>> byReason = new LinkedHashMap<>();
        for (DataRow n : rows) if (n.failed()) byReason.computeIfAbsent(n.text(Columns.NOTE), k -> new ArrayList<>()).add(n);
        byReason.forEach((reason, list) -> {
            String configs = list.stream().map(Verdict::config).distinct().collect(Collectors.joining(", "));
            out.add(Finding.of("FAILED, no numbers: " + configs + " (" + rowsOf(list) + "): " + reason
                    + (reason.contains("virtual threads not in effect") ? " — the switch did not give virtual threads:"
                    + " check the property or variable name, and whether the framework reads it" : ""), list));
        });
        long flagged = rows.stream().filter(DataRow::flagged).count();
        if (flagged > 0) {
            List<DataRow> f = rows.stream().filter(DataRow::flagged).toList();
            out.add(Finding.of("not evidence (flagged " + f.stream().flatMap(n -> n.flags().stream()).filter(Rows::voids).distinct()
                    .collect(Collectors.joining(", ")) + "): " + rowsOf(f), f));
        }
    }

    /**
     * Each configuration against platform, and tuned against as shipped, judged by the lab's one judge
     * ({@link Judge}) on the fork means of its ok forks: throughput (closed) or p99 (open) as the claim; closed, the
     * p99 beside it, judged as the throughput is (the tail is a claim too). A configuration with a failed fork gets no
     * ratio: the fork that failed may be the answer, and its survivors alone would claim what it did not do. Then
     * whether the ratios are settled ({@link #settled}).
     */
    static void gain(String scenario, List<DataRow> list, List<Finding> out, Judging judging) {
        Map<String, List<DataRow>> byConfig = new LinkedHashMap<>(), failed = new LinkedHashMap<>(), all = new LinkedHashMap<>();
        for (DataRow n : list) {
            all.computeIfAbsent(config(n), k -> new ArrayList<>()).add(n);
            if (n.ok()) byConfig.computeIfAbsent(config(n), k -> new ArrayList<>()).add(n);
            if (n.failed()) failed.computeIfAbsent(config(n), k -> new ArrayList<>()).add(n);
        }
        if (byConfig.isEmpty()) return;
        boolean open = list.getFirst().open();
        Column col = open ? Columns.P99 : Columns.RPS;
        Map<String, Double> value = new LinkedHashMap<>();
        byConfig.forEach((c, l) -> value.put(c, l.stream().mapToDouble(n -> n.num(col)).average().orElse(Double.NaN)));
        List<Ratio> ratios = ratios(byConfig, all, failed, open, judging);
        Ratio aa = ratios.stream().filter(r -> r.of().endsWith(aaLabel(Aa.A2))).findFirst().orElse(null);
        List<String> parts = new ArrayList<>();
        byConfig.forEach((c, l) -> {
            double v = value.get(c), p99 = l.stream().mapToDouble(n -> n.num(Columns.P99)).average().orElse(Double.NaN);
            String s = open ? String.format(Locale.ROOT, "%s p99 %.1f ms", c, v)
                    : String.format(Locale.ROOT, "%s %,.0f req/s (p99 %.1f ms)", c, v, p99);
            Ratio r = find(ratios, c, Threads.PLATFORM.word);
            if (r != null) s += r.claim().refused() != null ? " (no ratio against platform)" : " = " + r.claim().ratioWords() + " platform";
            if (aa != null && aa.of().equals(c)) s += aa.claim().refused() != null ? " (no ratio against " + aa.against() + ")" : " = " + aa.claim().ratioWords() + " " + aa.against();
            parts.add(s + " (" + rowsOf(l) + ")");
        });
        String line = scenario + ": " + String.join("; ", parts);
        Ratio flag = find(ratios, "virtual as shipped", Threads.PLATFORM.word), tuning = find(ratios, "virtual tuned", "virtual as shipped");
        if (aa != null) {
            line += ". A/A (one configuration against itself): " + aaWords(aa.claim());
        } else if (tuning != null) {
            line += ". The flag alone: " + (flag == null ? "?" : said(flag.claim(), false)) + "; tuning adds " + said(tuning.claim(), true);
        } else if (flag != null) {
            line += ". Virtual threads: " + flag.claim().answerWords();
        } else {
            Ratio any = ratios.stream().filter(r -> r.against().equals(Threads.PLATFORM.word)).findFirst().orElse(null);
            if (any != null) line += ". " + any.of() + ": " + any.claim().answerWords();
        }
        List<Claim> claims = new ArrayList<>(ratios.stream().map(Ratio::claim).toList());
        if (!open) {
            List<String> tails = new ArrayList<>();
            for (Ratio t : tails(byConfig, all, failed, judging)) {
                claims.add(t.claim());
                if (t.claim().refused() == null) tails.add(t.of() + " " + (aa != null ? t.claim().ratioWords() + ": " + aaWords(t.claim()) : said(t.claim(), true)));
                else if (failedFork(t.of(), all, failed) == null) tails.add(t.of() + " " + t.claim().ratioWords()); // a failed fork: said above
            }
            if (!tails.isEmpty()) line += (aa != null ? ". The tail (A's p99 over A''s, better above 1): " : ". The tail (platform's p99 over the row's, better above 1): ")
                    + String.join("; ", tails);
        }
        out.add(Finding.of(line + (open ? aa != null ? " (open model: lower p99 is better, the ratio is A's p99 over A''s)" : " (open model: lower p99 is better, the ratio is platform's p99 over the row's)" : "") + settled(ratios, byConfig, col, judging.floor(), judging.level() == Judge.SEQUENTIAL_LEVEL),
                byConfig.values().stream().flatMap(List::stream).toList()).withClaims(claims));
    }

    /** A side's configuration label's suffix: " (A')". */
    static String aaLabel(String side) {
        return " (" + side + ")";
    }

    /**
     * An A/A's claim said for what it is: the two sides are one configuration, so its true ratio is 1 and a claim of
     * better or worse is a false claim (the chance the judge allows, or a drift the interleaving did not cancel);
     * equivalent is the right answer; undetermined claims nothing, which is no error either.
     */
    static String aaWords(Claim c) {
        if (c.refused() == null && !c.hasSet()) return "one fork a side, no interval: no claim (a direction only)";
        if (c.answer().difference()) {
            return c.answerWords() + " — a FALSE CLAIM: both sides are the same configuration, so this " + c.answer().word
                    + " is noise or a drift over the run, and a difference this size between two configurations on this machine is no evidence";
        }
        if (c.answer() == vtlab.data.judge.Answer.EQUIVALENT) return c.answerWords() + ": right, as an A/A should be";
        return c.answerWords() + " (no claim: not an error on an A/A)";
    }

    static void gain(String scenario, List<DataRow> list, List<Finding> out) {
        gain(scenario, list, out, Judging.DEFAULT);
    }

    /**
     * A claim in a clause: its answer ("better: at least 1.11×"), after its ratio when asked; one fork a side, its
     * ratio alone ("2.72× (one fork a side: no interval)"), the line ending with "a direction, not a result" once.
     */
    static String said(Claim c, boolean withRatio) {
        if (c.refused() == null && !c.hasSet()) return c.ratioWords();
        return withRatio ? c.ratioWords() + ": " + c.answerWords() : c.answerWords();
    }

    /**
     * A ratio is settled when both bounds of its interval lie within ±10% of it (not half its width over it: 8% below
     * and 12% above is not within ±10%): the smallest change this verdict treats as worth a decision (a 10% gain is the
     * least a switch of thread model is made for), and about what 3 to 5 forks a side reach where fresh JVMs differ by
     * a CV of 3–8% (docs/results.md): a tighter width would leave most runs of a coffee break's --budget unsettled, a
     * wider one call "settled" what a rerun may reverse.
     */
    static final double SETTLED_WITHIN = 0.10;

    /** Iterations of one fork further apart than this (range over mean) are a fork that did not hold steady. */
    static final double UNSETTLED_SPREAD = 0.10;

    /**
     * A p99 over fewer requests than this in a hold is its few slowest requests (at 600 requests, the 6 slowest: the
     * maximum with noise), not a percentile: such a tail is said, never judged.
     */
    static final double P99_MIN_REQUESTS = 1000;

    /** One judged comparison of a scenario, better above 1: of's against against's ({@link Claim}). */
    record Ratio(String of, String against, Claim claim) {
        /** Two forks a side at least, and both bounds within ±{@link #SETTLED_WITHIN} of the ratio. */
        boolean settled() {
            return claim.settled(SETTLED_WITHIN);
        }

        String text() {
            return of + " / " + against + " " + claim.ratioWords();
        }
    }

    /** The scenario's ratios at the default judging (tests, the search's status). */
    static List<Ratio> ratios(Map<String, List<DataRow>> byConfig, boolean open) {
        return ratios(byConfig, byConfig, Map.of(), open, Judging.DEFAULT);
    }

    /**
     * The scenario's ratios: each configuration against platform, tuned against as shipped; a pair with a failed fork
     * on either side is refused with it.
     *
     * @param byConfig the ok rows of each configuration
     * @param all      every row of each configuration
     * @param failed   the failed rows of each configuration
     */
    static List<Ratio> ratios(Map<String, List<DataRow>> byConfig, Map<String, List<DataRow>> all, Map<String, List<DataRow>> failed, boolean open,
                              Judging judging) {
        Column col = open ? Columns.P99 : Columns.RPS;
        String unit = open ? "p99" : "req/s";
        List<Ratio> out = new ArrayList<>();
        aaPair(byConfig).forEach((a2, a) -> out.add(judged(a2, byConfig.get(a2), a, byConfig.get(a), col, open, unit, all, failed, judging)));
        List<DataRow> platform = byConfig.get(Threads.PLATFORM.word);
        byConfig.forEach((c, l) -> {
            if (platform != null && !c.equals(Threads.PLATFORM.word)) out.add(judged(c, l, Threads.PLATFORM.word, platform, col, open, unit, all, failed, judging));
        });
        List<DataRow> shipped = byConfig.get("virtual as shipped"), tuned = byConfig.get("virtual tuned");
        if (shipped != null && tuned != null) out.add(judged("virtual tuned", tuned, "virtual as shipped", shipped, col, open, unit, all, failed, judging));
        return out;
    }

    /** Closed model: each configuration's p99 against platform's, better above 1 (platform's p99 over the row's). */
    static List<Ratio> tails(Map<String, List<DataRow>> byConfig, Map<String, List<DataRow>> all, Map<String, List<DataRow>> failed, Judging judging) {
        List<Ratio> out = new ArrayList<>();
        aaPair(byConfig).forEach((a2, a) -> out.add(judged(a2, byConfig.get(a2), a, byConfig.get(a), Columns.P99, true, "p99", all, failed, judging)));
        List<DataRow> platform = byConfig.get(Threads.PLATFORM.word);
        if (platform == null) return out;
        byConfig.forEach((c, l) -> {
            if (!c.equals(Threads.PLATFORM.word)) out.add(judged(c, l, Threads.PLATFORM.word, platform, Columns.P99, true, "p99", all, failed, judging));
        });
        return out;
    }

    /** An A/A's sides among the configurations: A' against A ("virtual as shipped (A')" → "virtual as shipped (A)"), empty for an A/B. */
    static Map<String, String> aaPair(Map<String, List<DataRow>> byConfig) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String c : byConfig.keySet()) {
            if (!c.endsWith(aaLabel(Aa.A2))) continue;
            String a = c.substring(0, c.length() - aaLabel(Aa.A2).length()) + aaLabel(Aa.A);
            if (byConfig.containsKey(a)) out.put(c, a);
        }
        return out;
    }

    static Ratio judged(String of, List<DataRow> rows, String against, List<DataRow> other, Column col, boolean lowerIsBetter, String unit,
                        Map<String, List<DataRow>> all, Map<String, List<DataRow>> failed, Judging judging) {
        String what = of + " / " + against + " " + unit;
        String refusal = failedFork(of, all, failed);
        if (refusal == null) refusal = failedFork(against, all, failed);
        if (refusal == null && col.equals(Columns.P99)) refusal = fewRequests(rows, other);
        if (refusal != null) return new Ratio(of, against, Judge.refused(what, refusal, judging.margin()));
        double[] mine = forkMeans(rows, col), theirs = forkMeans(other, col);
        return new Ratio(of, against, lowerIsBetter ? Judge.ratio(what, mine, theirs, judging.margin(), judging.level())
                : Judge.ratio(what, theirs, mine, judging.margin(), judging.level()));
    }

    /** "1 of 3 forks of virtual as shipped failed (row 5: ...)", or null when none of its forks failed. */
    static String failedFork(String config, Map<String, List<DataRow>> all, Map<String, List<DataRow>> failed) {
        List<DataRow> f = failed.getOrDefault(config, List.of());
        if (f.isEmpty()) return null;
        long forks = all.getOrDefault(config, f).stream().map(n -> Double.isNaN(n.num(Columns.FORK)) ? "row " + n.number() : "fork " + (long) n.num(Columns.FORK))
                .distinct().count();
        long bad = f.stream().map(n -> Double.isNaN(n.num(Columns.FORK)) ? "row " + n.number() : "fork " + (long) n.num(Columns.FORK)).distinct().count();
        return String.format(Locale.ROOT, "%d of %d forks of %s failed (%s: %s)", bad, forks, config, rowsOf(f), f.getFirst().text(Columns.NOTE));
    }

    /** Why a p99 cannot be judged: a hold of fewer than {@link #P99_MIN_REQUESTS} requests; null when every hold had enough (or did not say). */
    static String fewRequests(List<DataRow> a, List<DataRow> b) {
        List<DataRow> few = java.util.stream.Stream.concat(a.stream(), b.stream()).filter(n -> n.num(Columns.HTTP_REQS) < P99_MIN_REQUESTS).toList();
        if (few.isEmpty()) return null;
        return String.format(Locale.ROOT, "a p99 over %,.0f requests is the slowest few, not a percentile (%s: fewer than %,.0f a hold; a longer --hold)",
                few.stream().mapToDouble(n -> n.num(Columns.HTTP_REQS)).min().orElse(0), rowsOf(few), P99_MIN_REQUESTS);
    }

    static Ratio find(List<Ratio> ratios, String of, String against) {
        return ratios.stream().filter(r -> r.of().equals(of) && r.against().equals(against)).findFirst().orElse(null);
    }

    /**
     * A configuration's values per fork (its iterations, in the order run): the unit of noise is the fork, a fresh
     * JVM, so iterations of one JVM are averaged into one value rather than counted as if each were a JVM of its own.
     * A row without a fork (a run before forks) is a fork of its own.
     */
    static Map<String, double[]> byFork(List<DataRow> rows, Column col) {
        Map<String, List<Double>> by = new LinkedHashMap<>();
        for (DataRow n : rows) {
            double v = n.num(col), f = n.num(Columns.FORK);
            if (!Double.isNaN(v)) by.computeIfAbsent(Double.isNaN(f) ? "row " + n.number() : "fork " + (long) f, k -> new ArrayList<>()).add(v);
        }
        Map<String, double[]> out = new LinkedHashMap<>();
        by.forEach((k, l) -> out.put(k, l.stream().mapToDouble(Double::doubleValue).toArray()));
        return out;
    }

    /** The fork means, by the judge's unit ({@link Units}). */
    static double[] forkMeans(List<DataRow> rows, Column col) {
        return Units.means(rows.stream().map(n -> n.num(col)).toList(),
                rows.stream().map(n -> Double.isNaN(n.num(Columns.FORK)) ? "row " + n.number() : "fork " + (long) n.num(Columns.FORK)).toList());
    }

    /**
     * Whether the scenario's ratios are settled: "; settled: ..." when both bounds of every ratio's interval are within
     * ±{@link #SETTLED_WITHIN} of it; ". NOT SETTLED: ..." naming the ratios that reach further ("the forks
     * disagree"); ". One fork per configuration: a direction, not a result" without an interval. Forks whose
     * iterations spread more than {@link #UNSETTLED_SPREAD} are named: the JVM was not steady in its holds.
     */
    static String settled(List<Ratio> ratios, Map<String, List<DataRow>> byConfig, Column col, vtlab.data.MachineRecord.NoiseFloor floor) {
        return settled(ratios, byConfig, col, floor, false);
    }

    /** @param auto forks were added until settled (--forks auto): one fork a side then means its budget ran out. */
    static String settled(List<Ratio> ratios, Map<String, List<DataRow>> byConfig, Column col, vtlab.data.MachineRecord.NoiseFloor floor,
                          boolean auto) {
        List<String> unsteady = new ArrayList<>();
        byConfig.forEach((c, l) -> byFork(l, col).forEach((fork, v) -> {
            if (v.length < 2 || !fork.startsWith("fork")) return;
            double min = java.util.Arrays.stream(v).min().orElseThrow(), max = java.util.Arrays.stream(v).max().orElseThrow();
            double mean = java.util.Arrays.stream(v).average().orElseThrow();
            if (mean > 0 && (max - min) / mean > UNSETTLED_SPREAD) {
                unsteady.add(String.format(Locale.ROOT, "%s's %s moved %.0f%% over its %d iterations (%s)%s", c, fork, 100 * (max - min) / mean, v.length,
                        java.util.Arrays.stream(v).mapToObj(x -> String.format(Locale.ROOT, "%,.0f", x)).collect(Collectors.joining(" / ")),
                        col.equals(Columns.RPS) && v[0] == min ? ", the first lowest: still warming up (a longer --warmup)" : ""));
            }
        }));
        String steady = unsteady.isEmpty() ? "" : "; not steady within a fork: " + String.join("; ", unsteady);
        List<Ratio> judged = ratios.stream().filter(r -> r.claim().refused() == null).toList();
        if (judged.isEmpty()) return steady.isEmpty() ? "" : "." + steady.substring(1);
        if (judged.stream().anyMatch(r -> !r.claim().hasSet())) {
            // no constant stands in for the spread the run did not measure: the machine's own floor, or that it has none
            // under --forks auto a second fork was not begun: the budget, not the user's --forks, is what to change
            String more = auto ? "--forks auto's --budget ran out before a second fork of each: a longer --budget gives each ratio its interval; "
                    : "--forks 3, or --forks auto within --budget, give each ratio its interval; ";
            return ". One fork per configuration: a direction, not a result (" + more + NoiseFloorLine.clause(floor) + ")" + steady;
        }
        List<Ratio> loose = judged.stream().filter(r -> !r.settled()).toList();
        int forks = judged.stream().mapToInt(r -> Math.min(r.claim().unitsA(), r.claim().unitsB())).min().orElse(0);
        String level = judged.getFirst().claim().levelWords();
        if (loose.isEmpty()) {
            return String.format(Locale.ROOT, "; settled: both bounds of every ratio's %s interval within ±%.0f%% of it, from %d forks or more a configuration",
                    level, 100 * SETTLED_WITHIN, forks) + steady;
        }
        return ". NOT SETTLED: " + loose.stream().map(r -> r.text() + (r.claim().set().bounded() ? String.format(Locale.ROOT, ", reaching ±%.0f%%", 100 * r.claim().reach()) : ""))
                .collect(Collectors.joining("; ")) + String.format(Locale.ROOT, ", past ±%.0f%%: the forks disagree (more forks: --forks auto within --budget)",
                100 * SETTLED_WITHIN) + steady;
    }

    /** The kinds of failed request a generator counts, each in its column. */
    static final List<Map.Entry<String, Column>> ERROR_KINDS = List.of(Map.entry("connect", Columns.ERRORS_CONNECT),
            Map.entry("read", Columns.ERRORS_READ), Map.entry("write", Columns.ERRORS_WRITE), Map.entry("timeout", Columns.ERRORS_TIMEOUT),
            Map.entry("status", Columns.ERRORS_STATUS));

    /** Failed requests in rows that ran, by kind. */
    static void errors(List<DataRow> rows, List<Finding> out) {
        for (DataRow n : rows) {
            if (n.failed() || !(n.num(Columns.ERROR_RATE) > 0)) continue;
            List<String> kinds = new ArrayList<>();
            for (Map.Entry<String, Column> k : ERROR_KINDS) {
                double v = n.num(k.getValue());
                if (v > 0) kinds.add(String.format(Locale.ROOT, "%s %,.0f", k.getKey(), v));
            }
            out.add(Finding.of(String.format(Locale.ROOT, "errors: %s at %s, %.2f%% of requests failed (%s) (row %d)", config(n), load(n),
                    n.num(Columns.ERROR_RATE) * 100, kinds.isEmpty() ? "kinds not reported" : String.join(", ", kinds), n.number()), List.of(n)));
        }
    }

    /** Pins in the hold with the service's own frame where the pin happened, and advice by JDK. */
    static void pinning(List<DataRow> rows, Path pinningTxt, List<Finding> out) {
        Map<Integer, String> frames = appFrames(pinningTxt);
        for (DataRow n : rows) {
            if (!(n.num(Columns.PINNED) > 0)) continue;
            String frame = frames.get(n.number());
            int jdk = (int) n.num(Columns.JDK);
            String s = String.format(Locale.ROOT, "pinning: %s at %s pinned virtual threads %,.0f times (%.0f ms in all, longest %.1f ms; reasons %s)",
                    config(n), load(n), n.num(Columns.PINNED), n.num(Columns.PINNED_TOTAL_MS), n.num(Columns.PINNED_MAX_MS),
                    n.text(Columns.PINNED_REASONS).isEmpty() ? "none given" : n.text(Columns.PINNED_REASONS));
            if (frame != null) s += " in " + frame;
            s += " (row " + n.number() + ")";
            if (jdk > 0 && jdk < 24) {
                s += ". Advice: synchronized blocks pin on JDK " + jdk + (frame == null ? "" : " in " + frame)
                        + ": JDK 24+ no longer pins there (JEP 491); or use a ReentrantLock";
            } else {
                s += ". Advice: on JDK " + jdk + " a pin is a native frame or a class initialiser: see pinning.txt";
            }
            out.add(Finding.of(s, List.of(n)));
        }
    }

    /**
     * Beside the pinning measured: the jar's libraries that the lab's table knows (vtlab.check.KnownLibraries),
     * affected or not, for this run's JDKs; libraries it does not know are not named.
     */
    static void libraries(ServiceLibraries jar, List<DataRow> rows, List<Finding> out) {
        if (jar == null) return;
        String name = Path.of(jar.jar()).getFileName().toString();
        if (jar.error() != null) {
            out.add(Finding.of("libraries: " + name + " could not be read (" + jar.error() + "): not checked"));
            return;
        }
        List<Integer> jdks = rows.stream().map(n -> (int) n.num(Columns.JDK)).filter(j -> j > 0).distinct().sorted().toList();
        List<KnownLibraries.Finding> found = KnownLibraries.check(jar.libraries(), jdks);
        if (found.isEmpty()) {
            out.add(Finding.of("libraries: none of the " + jar.libraries().size() + " found in " + name + " is one the lab knows to matter for virtual threads"));
            return;
        }
        for (KnownLibraries.Finding f : found) out.add(Finding.of("library in " + name + ": " + f.line()));
    }

    /**
     * The JDK itself as a known cause: each JDK the rows ran on, by its exact update, and the known JDK issues
     * (vtlab.check.KnownLibraries.JDK) it has; a JDK whose release has none known is named only by its update.
     */
    static void jdks(Map<Integer, String> versions, List<DataRow> rows, List<Finding> out) {
        for (int major : rows.stream().map(n -> (int) n.num(Columns.JDK)).filter(j -> j > 0).distinct().sorted().toList()) {
            String version = versions.get(major);
            if (version == null) continue;
            String line = KnownLibraries.jdkLine(version);
            out.add(Finding.of("jdk " + (line == null ? version + ": no known JDK issue for virtual threads in its release" : line)));
        }
    }

    /**
     * Where the limit was in each row that counts, from the peak gauges: the SUT's CPU, the pool, the generator. A row
     * whose request time was broken down into its own work and its queues has one verdict, the bottleneck of that
     * breakdown, with these gauges as its evidence (RequestTime.gauges): no rival line here; the generator's is about
     * the instrument, and stays. So is a later fork of a configuration one of whose forks was broken down: it had no
     * profiled hold of its own (ExplainPhase.explainsAgain), and the configuration's verdict is that breakdown's.
     */
    static void bottleneck(List<DataRow> rows, List<Finding> out) {
        Map<String, List<DataRow>> cpu = new LinkedHashMap<>(), pool = new LinkedHashMap<>();
        java.util.Set<String> brokenDown = new java.util.HashSet<>();
        for (DataRow n : rows) if (!n.failed() && vtlab.data.RequestTime.split(n) && vtlab.data.RequestTime.has(n)) brokenDown.add(n.text(Columns.SCENARIO));
        for (DataRow n : rows) {
            if (n.failed()) continue;
            boolean explained = brokenDown.contains(n.text(Columns.SCENARIO));
            if (explained) {
                if (n.flags().contains("generator-bound")) {
                    out.add(Finding.of("bottleneck: the load generator saturated its cores (row " + n.number() + "): that row measures the generator, not the service",
                            List.of(n)));
                }
                continue;
            }
            if (n.flags().contains("app-cpu-bound")) cpu.computeIfAbsent(config(n), k -> new ArrayList<>()).add(n);
            if (n.num(Columns.HIKARI_PENDING_MAX) > 0) pool.computeIfAbsent(config(n), k -> new ArrayList<>()).add(n);
            if (n.flags().contains("generator-bound")) {
                out.add(Finding.of("bottleneck: the load generator saturated its cores (row " + n.number() + "): that row measures the generator, not the service",
                        List.of(n)));
            }
        }
        cpu.forEach((c, l) -> out.add(Finding.of("bottleneck: the SUT's CPU was full for " + c + " (" + rowsOf(l) + String.format(Locale.ROOT,
                ", %.0f%% app CPU)", l.stream().mapToDouble(n -> n.num(Columns.APP_CPU)).max().orElse(Double.NaN))
                + ": more threads cannot help there, only less work per request or more cores", l)));
        pool.forEach((c, l) -> out.add(Finding.of(String.format(Locale.ROOT, "bottleneck: the connection pool for %s: up to %,.0f requests waited for one of %,.0f busy connections (%s)",
                c, l.stream().mapToDouble(n -> n.num(Columns.HIKARI_PENDING_MAX)).max().orElse(Double.NaN),
                l.stream().mapToDouble(n -> n.num(Columns.HIKARI_ACTIVE_MAX)).max().orElse(Double.NaN), rowsOf(l))
                + (c.startsWith(Threads.VIRTUAL.word) ? ": the limit moved from the threads to the pool" : ""), l)));
    }

    /**
     * Where each request's time went (the profile probe, on by default here): per scenario, each configuration's
     * largest cause with its evidence, and how it moved between the modes; said also when nothing saturated.
     */
    static void requestTime(List<DataRow> rows, List<Finding> out) {
        out.addAll(vtlab.data.RequestTime.findings(rows, Verdict::config));
    }

    /**
     * Peak OS threads and RSS of each configuration, and the data it keeps: its live set after a full collection at each
     * row's end (the live-set probe) beside the heap its collector had grown to. RSS is mostly the heap a collector grew,
     * and a one-CPU JVM's Serial collector grows it with garbage it has promoted and not yet collected: a configuration
     * whose RSS is far higher than platform's while its live set is not says so, so that nobody reads "virtual threads
     * use six times the memory" off a heap grown.
     */
    static void memory(List<DataRow> rows, List<Finding> out) {
        Map<String, List<DataRow>> byConfig = new LinkedHashMap<>();
        for (DataRow n : rows) if (!n.failed()) byConfig.computeIfAbsent(config(n), k -> new ArrayList<>()).add(n);
        List<String> parts = new ArrayList<>();
        List<DataRow> evidence = new ArrayList<>();
        byConfig.forEach((c, l) -> {
            double threads = Rows.max(l, Columns.THREADS_MAX), rss = Rows.max(l, Columns.RSS_MAX), live = Rows.max(l, Columns.LIVE_SET);
            if (Double.isNaN(threads) && Double.isNaN(rss) && Double.isNaN(live)) return;
            String s = String.format(Locale.ROOT, "%s %,.0f OS threads, %,.0f MB RSS", c, threads, rss);
            if (!Double.isNaN(live)) {
                s += ", " + vtlab.probe.LiveSetProbe.words(live, Rows.max(l, Columns.HEAP_IN_USE), Rows.max(l, Columns.HEAP_GROWN),
                        l.stream().map(n -> n.text(Columns.GC_COLLECTOR)).filter(x -> !x.isBlank()).findFirst().orElse(""));
            }
            parts.add(s + " (" + rowsOf(l) + ")");
            evidence.addAll(l);
        });
        if (parts.isEmpty()) return;
        String line = "memory and threads at peak: " + String.join("; ", parts);
        List<DataRow> platform = byConfig.get(Threads.PLATFORM.word);
        if (platform != null) {
            double pRss = Rows.max(platform, Columns.RSS_MAX), pLive = Rows.max(platform, Columns.LIVE_SET);
            List<String> grown = new ArrayList<>(), kept = new ArrayList<>();
            byConfig.forEach((c, l) -> {
                if (c.equals(Threads.PLATFORM.word)) return;
                double rss = Rows.max(l, Columns.RSS_MAX), live = Rows.max(l, Columns.LIVE_SET);
                if (!(pLive > 0) || Double.isNaN(live)) return;
                double liveRatio = live / pLive;
                // the RSS apart and the live sets not: less than a quarter of the RSS between them is data kept
                if (rss > MEMORY_APART * pRss && live - pLive < GROWN_SHARE * (rss - pRss)) {
                    grown.add(String.format(Locale.ROOT, "%s's %.1f× platform's RSS is a heap its collector grew, not data it keeps: its live set is %.2f× platform's"
                            + " (%,.0f MB against %,.0f MB)", c, rss / pRss, liveRatio, live, pLive));
                } else {
                    kept.add(String.format(Locale.ROOT, "%s's live set %.2f× platform's (%,.0f MB against %,.0f MB)", c, liveRatio, live, pLive));
                }
            });
            if (!grown.isEmpty() || !kept.isEmpty()) {
                List<String> all = new ArrayList<>(kept);
                all.addAll(grown);
                line += ". The data kept, compared: " + String.join("; ", all);
            }
        }
        out.add(Finding.of(line, evidence));
    }

    /** A configuration's RSS this many times another's is a difference worth explaining; a live set within it is the same data. */
    static final double MEMORY_APART = 1.5;
    /** A live set that explains less than this share of a difference in RSS leaves the rest to a heap grown. */
    static final double GROWN_SHARE = 0.25;

    /** "row 3" or "rows 3, 4". */
    static String rowsOf(List<DataRow> l) {
        return (l.size() == 1 ? "row " : "rows ") + l.stream().map(n -> Integer.toString(n.number())).collect(Collectors.joining(", "));
    }

    static String ratio(double r) {
        return String.format(Locale.ROOT, "%.2f×", r);
    }

    /**
     * The first frame of the service's own code in each row's most common pinned stack, from pinning.txt (the probe
     * writes "## NNN-..." per row, then the stacks, blocking frame first, then the application's frames).
     */
    static Map<Integer, String> appFrames(Path pinningTxt) {
        Map<Integer, String> out = new LinkedHashMap<>();
        List<String> lines;
        try {
            lines = Files.exists(pinningTxt) ? Files.readAllLines(pinningTxt) : List.of();
        } catch (IOException e) {
            return out;
        }
        Integer row = null;
        boolean inStack = false;
        Predicate<String> count = l -> l.matches("\\s*\\d+ x .*");
        for (String l : lines) {
            if (l.startsWith("## ")) {
                String stem = l.substring(3);
                int dash = stem.indexOf('-');
                row = dash > 0 && stem.substring(0, dash).matches("\\d+") ? Integer.valueOf(stem.substring(0, dash)) : null;
                inStack = false;
            } else if (row != null && count.test(l)) {
                inStack = !out.containsKey(row); // the first (most common) stack only
            } else if (row != null && inStack && !l.isBlank()) {
                out.put(row, "`" + l.strip().replaceFirst(":\\d+( \\(native\\))?$", "") + "`");
                inStack = false;
            }
        }
        return out;
    }
}
