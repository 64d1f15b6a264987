package vtlab.experiment.ab;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.check.KnownLibraries;
import vtlab.core.Opt;
import vtlab.core.UsageError;
import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.RequestTime;
import vtlab.data.RequestTime.Cause;
import vtlab.data.Rows;
import vtlab.data.judge.Answer;
import vtlab.data.judge.Claim;
import vtlab.data.judge.Judge;
import vtlab.experiment.ab.Levers.Lever;
import vtlab.plan.Row;
import vtlab.plan.Search;
import vtlab.stack.ThreadMode.Threads;

/**
 * ab's next step: after the A/B, for each thread mode's largest cause of request time that a lever answers
 * ({@link Levers}), the change a performance engineer would try, run as rows of their own (the same load, reps, warm-up,
 * hold and explaining hold as the A/B's, judged by the same checks), and the verdict on what it bought and where the
 * time went next. A search ({@link Search}) because what it runs depends on what the A/B measured: the lab's levers go
 * twice the present value first, and further (four times, or for the pool the size the load asked for) only when twice
 * moved the right way (more than 5%, a direction: the claim of a gain needs more) with the same largest cause (when the
 * cause moved, the next bottleneck is found; when it did not move, more of it will not). A variant that
 * fails (it does not start, answers wrongly, its errors rise) is said so with why, and the run goes on with the next.
 *
 * <p>Per scenario (URL, load, JDK) it starts from platform and from one virtual configuration, the tuned one where
 * there is one (what the lab would ship), as shipped otherwise: the A/B's verdict already separates the two.
 *
 * <p>Each fork of a variant follows a fresh fork of the configuration it started from (baseline, variant, baseline,
 * variant: {@link #besideRow}), and the variant is judged against those baseline forks alone: the A/B's forks ran
 * earlier, and a drift of the machine since then would be in the ratio.
 */
final class NextStep implements Search {
    /** A row with its number in matrix.csv and its cells as read back (ab runs alone, so its rows are the matrix's, in order). */
    record Numbered(DataRow row) {
        /** Its number in matrix.csv. */
        int n() {
            return row.number();
        }

        /** The configuration in words, a variant's with its lever ("virtual as shipped, pool 20"). */
        String config() {
            return Verdict.config(row);
        }

        String load() {
            return Verdict.load(row);
        }

        String jdk() {
            return row.text(Columns.JDK);
        }

        double num(Column col) {
            return row.num(col);
        }
    }

    static List<Numbered> numbered(List<DataRow> rows) {
        return rows.stream().map(Numbered::new).toList();
    }

    /** "row 3" or "rows 3, 4". */
    static String rowsOf(List<Numbered> l) {
        return (l.size() == 1 ? "row " : "rows ") + l.stream().map(n -> Integer.toString(n.n())).collect(Collectors.joining(", "));
    }

    static final Opt NEXT_STEP = Opt.flag("next-step", "after the A/B, try the lever that answers each mode's largest cause of\n"
            + "request time (a Spring Boot jar's pool, threads or launch, the heap, the\nlab's JDK for carriers pinned on JDK 21-23, a --lever) as rows of their\nown, and say what it bought (off by default: each try is\n"
            + "a full row per rep; without it the verdict names the lever to try)");
    static final Opt BUDGET = Opt.of("next-step-budget", "10m", /* DEFAULT_BUDGET */ "with --next-step: the wall time its variants, and the baseline forks\n"
            + "run beside them, may take after the A/B (said up front; a lever not\nbegun within it is named in the verdict, not run)");
    static final Opt LEVER = Opt.of("lever", null, "[CAUSE:]NAME=V1,V2: a lever of your own for --next-step (repeatable): NAME an\n"
            + "environment variable, -Dproperty or --argument, each value a row; CAUSE\n(pool_wait, gc, ...) says what it answers, else it is tried for any")
            .typed(Opt.Type.REPEATED);

    /**
     * What the run knew of the service for its levers, kept in kept.json (ab.next_step) so the verdict reads
     * the run as it was.
     *
     * @param run        whether the next step ran (--next-step); otherwise the verdict names the lever to try
     * @param springBoot a Spring Boot jar: its properties are levers
     * @param command    a --cmd's command line, null for a jar
     * @param jvmArgs    --jvm-args as given
     * @param args       per thread mode, the program arguments a lever reads its present value from (its own keys only)
     * @param levers     the user's --lever specs
     * @param memoryMb   this machine's memory, MB
     * @param libraries  the libraries in the service's jar (ab keeps them in kept.json apart: {@link ServiceLibraries})
     */
    record Facts(boolean run, boolean springBoot, String command, List<String> jvmArgs, Map<String, List<String>> args,
                 List<String> levers, long memoryMb, List<vtlab.check.JarLibraries.Library> libraries, long budgetSeconds) {
        Facts(boolean run, boolean springBoot, String command, List<String> jvmArgs, Map<String, List<String>> args, List<String> levers, long memoryMb) {
            this(run, springBoot, command, jvmArgs, args, levers, memoryMb, List.of());
        }

        Facts(boolean run, boolean springBoot, String command, List<String> jvmArgs, Map<String, List<String>> args, List<String> levers, long memoryMb,
              List<vtlab.check.JarLibraries.Library> libraries) {
            this(run, springBoot, command, jvmArgs, args, levers, memoryMb, libraries, 0);
        }

        List<Lever> user() {
            List<Lever> out = new ArrayList<>();
            for (String spec : levers) {
                try {
                    out.add(Levers.user(spec));
                } catch (UsageError e) {
                    // refused when the run was planned: a spec kept here parsed then
                }
            }
            return out;
        }

        Levers.Known known(List<String> rowArgs, List<String> rowJvmArgs, DataRow row) {
            return new Levers.Known(springBoot, command, rowArgs, rowJvmArgs, row, memoryMb, libraries);
        }

        Map<String, Object> asMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("run", run);
            m.put("spring_boot", springBoot);
            if (command != null) m.put("command", command);
            m.put("jvm_args", jvmArgs);
            m.put("args", args);
            m.put("levers", levers);
            m.put("memory_mb", memoryMb);
            if (budgetSeconds > 0) m.put("budget_s", budgetSeconds);
            return m;
        }

        /**
         * From ab's next_step entry of kept.json ({@link AbKept}), with the libraries kept beside it;
         * null for a run before the next step was kept.
         */
        static Facts kept(JsonNode n, ServiceLibraries jar) {
            if (n.isMissingNode()) return null;
            Map<String, List<String>> args = new LinkedHashMap<>();
            n.path("args").properties().forEach(e -> args.put(e.getKey(), strings(e.getValue())));
            return new Facts(n.path("run").asBoolean(), n.path("spring_boot").asBoolean(), n.hasNonNull("command") ? n.get("command").asText() : null,
                    strings(n.path("jvm_args")), args, strings(n.path("levers")), n.path("memory_mb").asLong(), jar == null ? List.of() : jar.libraries(),
                    n.path("budget_s").asLong());
        }

        private static List<String> strings(JsonNode a) {
            List<String> out = new ArrayList<>();
            a.forEach(x -> out.add(x.asText()));
            return List.copyOf(out);
        }
    }

    /**
     * One configuration of the A/B the next step starts from: its scenario and configuration in words, the rows that
     * speak for it (ok ones, else flagged ones: then not evidence), its largest cause with its mean share and the first
     * row that names it (the evidence, the present values).
     */
    record Base(String scenario, String config, List<Numbered> rows, boolean flagged, Cause top, double share, Numbered first, List<Numbered> failed,
                boolean interleaved) {
        Base(String scenario, String config, List<Numbered> rows, boolean flagged, Cause top, double share, Numbered first, List<Numbered> failed) {
            this(scenario, config, rows, flagged, top, share, first, failed, false);
        }

        String threadMode() {
            return first.row().mode();
        }

        /**
         * The base as a variant is judged against: the baseline forks run beside the variant's (interleaved, so a drift
         * over the run falls on both), its cause still the A/B's; the A/B's own forks for a run before the next step
         * interleaved (no fork beside it).
         */
        Base beside(List<Numbered> besideRows) {
            if (besideRows.isEmpty()) return this;
            List<Numbered> failedHere = besideRows.stream().filter(n -> n.row().failed()).toList();
            List<Numbered> ran = besideRows.stream().filter(n -> !n.row().failed()).toList(), ok = ran.stream().filter(n -> n.row().ok()).toList();
            List<Numbered> use = !ok.isEmpty() ? ok : !ran.isEmpty() ? ran : besideRows;
            return new Base(scenario, config, use, ok.isEmpty(), top, share, first, failedHere, true);
        }

        /** This base's baseline forks run beside the variant whose lever param is lever ("pool:20"). */
        List<Numbered> besides(String lever, List<Numbered> rows) {
            return rows.stream().filter(n -> lever.equals(NextStep.beside(n.row())) && key(n).equals(key(first)) && Verdict.baseConfig(n.row()).equals(config)).toList();
        }

        /** Whether a variant row is this configuration's: its scenario but for the lever. */
        boolean owns(Numbered variant) {
            // the JDK lever's rows run on the lab's JDK: theirs is the lever's value, not their scenario's
            String[] lever = Levers.of(variant.row());
            String jdk = lever != null && lever[0].equals(Levers.JDK.name()) ? first.jdk() : variant.jdk();
            return key(variant, jdk).equals(key(first)) && Verdict.baseConfig(variant.row()).equals(config);
        }
    }

    /** URL, load and JDK: the rows a variant compares with. */
    static String key(Numbered n) {
        return key(n, n.jdk());
    }

    static String key(Numbered n, String jdk) {
        return n.row().text(Columns.WORKLOAD) + "|" + n.load() + "|" + jdk;
    }

    /**
     * The configurations to start from, per scenario: platform and one virtual (tuned, else as shipped), each with a
     * breakdown of its request time; A/B rows only (not a variant's). Its rows (the throughput a variant is set
     * against) are all its forks, its cause the rows with a breakdown: a later fork has no profiled hold of its own
     * once an ok fork explained the configuration (ExplainPhase.explainsAgain).
     */
    static List<Base> bases(List<Numbered> rows) {
        boolean jdks = rows.stream().map(Numbered::jdk).distinct().count() > 1;
        Map<String, Map<String, List<Numbered>>> byScenario = new LinkedHashMap<>(), failedBy = new LinkedHashMap<>();
        for (Numbered n : rows) {
            if (Levers.of(n.row()) != null || beside(n.row()) != null) continue;
            if (n.row().failed()) {
                failedBy.computeIfAbsent(key(n), k -> new LinkedHashMap<>()).computeIfAbsent(n.config(), k -> new ArrayList<>()).add(n);
                continue;
            }
            byScenario.computeIfAbsent(key(n), k -> new LinkedHashMap<>()).computeIfAbsent(n.config(), k -> new ArrayList<>()).add(n);
        }
        List<Base> out = new ArrayList<>();
        byScenario.forEach((key, all) -> {
            Map<String, List<Numbered>> configs = new LinkedHashMap<>(all);
            configs.values().removeIf(l -> l.stream().noneMatch(n -> RequestTime.has(n.row()))); // no breakdown: nothing to start from
            List<String> chosen = new ArrayList<>();
            if (configs.containsKey(Threads.PLATFORM.word)) chosen.add(Threads.PLATFORM.word);
            if (configs.containsKey("virtual tuned")) chosen.add("virtual tuned");
            else if (configs.containsKey("virtual as shipped")) chosen.add("virtual as shipped");
            for (String c : chosen) {
                List<Numbered> forks = configs.get(c), ok = forks.stream().filter(n -> n.row().ok()).toList();
                List<Numbered> use = ok.isEmpty() ? forks : ok;
                // the cause from the rows explained among those used, else from any explained one (a flagged fork's)
                List<Numbered> why = use.stream().filter(n -> RequestTime.has(n.row())).toList();
                if (why.isEmpty()) why = forks.stream().filter(n -> RequestTime.has(n.row())).toList();
                Cause top = topCause(why);
                Numbered first = why.stream().filter(n -> RequestTime.cause(n.row()) == top).findFirst().orElse(why.getFirst());
                Numbered any = use.getFirst();
                String scenario = any.row().text(Columns.WORKLOAD) + " at " + any.load() + (jdks ? " on JDK " + any.jdk() : "");
                out.add(new Base(scenario, c, use, ok.isEmpty(), top, share(why, top), first,
                        List.copyOf(failedBy.getOrDefault(key, Map.of()).getOrDefault(c, List.of()))));
            }
        });
        return out;
    }

    /**
     * The cause most of the rows name (the first row's on a tie): each row's bottleneck, the largest queue in front of
     * its work; a row working, not waiting, its largest own work (RequestTime.cause).
     */
    static Cause topCause(List<Numbered> rows) {
        Map<Cause, Long> votes = rows.stream().map(n -> RequestTime.cause(n.row())).filter(java.util.Objects::nonNull)
                .collect(Collectors.groupingBy(t -> t, LinkedHashMap::new, Collectors.counting()));
        Cause best = null;
        for (Map.Entry<Cause, Long> e : votes.entrySet()) if (best == null || e.getValue() > votes.get(best)) best = e.getKey();
        return best == null ? Cause.CPU : best;
    }

    /** The cause's mean share of request time over the rows, percent. */
    static double share(List<Numbered> rows, Cause c) {
        return rows.stream().mapToDouble(n -> n.num(c.column())).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
    }

    /** The levers that fit the base: the lab's for its cause, then the user's. */
    static List<Lever> levers(Base b, Levers.Known k, List<Lever> user) {
        List<Lever> out = new ArrayList<>();
        for (Lever l : Levers.ALL) if (l.fits(k, b.threadMode(), b.top())) out.add(l);
        for (Lever l : user) if (l.fits(k, b.threadMode(), b.top())) out.add(l);
        return out;
    }

    /**
     * A variant set against its base: in words; whether it gained beyond the noise (a claim, ok rows only); whether it
     * moved the right way by more than {@link Verdict#SAME} (a direction, flagged rows too: enough to try more of the
     * lever while the cause stays, never a claim); its own largest cause.
     */
    record Judged(String text, boolean gain, boolean direction, Cause top, List<Claim> claims) {
        /** A variant judged without a claim of the judge's: failed, errors, flagged or failed forks (said in its text). */
        Judged(String text, boolean gain, boolean direction, Cause top) {
            this(text, gain, direction, top, List.of());
        }
    }

    /**
     * The variant's rows against the base's, judged like the A/B's rows: a failed variant by its reason, and one with a
     * failed fork says so and claims nothing from its other forks alone (the fork that failed may be the answer);
     * rising errors as no gain, flagged rows as not evidence; else its throughput and its p99, each as a ratio to the
     * base's, judged on fork means by the lab's judge ({@link Judge}). A gain is either claim's set wholly above 1:
     * more throughput without a longer tail, or a shorter p99 tail without less throughput (a p99 cut that holds is a
     * gain even when the throughput stays, as it does when the load is the clients'); the open model is judged on p99.
     * Both at once the other way is a trade, not a gain. With one fork a side there is no interval, and no gain is
     * claimed: no constant stands in for the spread between fresh JVMs, which the run did not measure.
     */
    static Judged judge(Base base, String label, List<Numbered> variant) {
        return judge(base, label, variant, Judging.DEFAULT);
    }

    static Judged judge(Base base, String label, List<Numbered> variant, Judging judging) {
        String rows = rowsOf(variant) + (base.interleaved() ? ", against the base's forks beside them, " + rowsOf(base.rows()) : "");
        List<Numbered> failed = variant.stream().filter(n -> n.row().failed()).toList();
        if (failed.size() == variant.size()) {
            return new Judged(label + " (" + rows + "): FAILED, no numbers: " + failed.getFirst().row().text(Columns.NOTE), false, false, null);
        }
        List<Numbered> ran = variant.stream().filter(n -> !n.row().failed()).toList();
        List<Numbered> ok = ran.stream().filter(n -> n.row().ok()).toList();
        boolean open = base.first().row().open();
        Column col = open ? Columns.P99 : Columns.RPS;
        double errBase = mean(base.rows(), Columns.ERROR_RATE), errVar = mean(ran, Columns.ERROR_RATE);
        List<Numbered> explained = ran.stream().filter(n -> RequestTime.has(n.row())).toList();
        Cause top = explained.isEmpty() ? null : topCause(explained);
        String where = explained.isEmpty() ? "" : where(base, explained, top);
        if (errVar > Math.max(0.01, 2 * (Double.isNaN(errBase) ? 0 : errBase))) {
            return new Judged(String.format(Locale.ROOT, "%s (%s): errors rose to %.1f%% of requests (from %.1f%%): not a gain, whatever its throughput",
                    label, rows, 100 * errVar, 100 * (Double.isNaN(errBase) ? 0 : errBase)), false, false, top);
        }
        // named for findings.json's typed claims: the variant against its base, as a reader of claims[] needs it
        String what = label + " / " + base.config();
        Claim tput = Judge.ratio(what + " req/s", forkMeans(base.rows(), Columns.RPS), forkMeans(ran, Columns.RPS), judging.margin());
        // p99: lower is better, so the base's over the variant's is the variant's gain (better above 1)
        Claim p99 = Judge.ratio(what + " p99", forkMeans(ran, Columns.P99), forkMeans(base.rows(), Columns.P99), judging.margin());
        Claim main = open ? p99 : tput;
        if (Double.isNaN(main.estimate())) return new Judged(label + " (" + rows + "): no " + col + " to set against the A/B's" + where, false, false, top);
        String measured = open ? "p99 " + change(p99, true, "") : change(tput, false, " req/s") + (Double.isNaN(p99.estimate()) ? "" : ", p99 " + change(p99, true, ""));
        // the direction decides whether more of the lever is tried, a choice of what to run, not a claim: flagged rows
        // (a busy machine) may steer it, never make a gain; closed, more throughput or a clearly shorter tail
        double tputPct = 100 * (tput.estimate() - 1), p99Cut = 100 * (1 - 1 / p99.estimate());
        boolean direction = open ? p99Cut >= 100 * Verdict.SAME : tputPct >= 100 * Verdict.SAME || p99Cut >= 200 * Verdict.SAME;
        if (!base.failed().isEmpty()) {
            // the base's survivors alone are not the base: a gain against them would be a gain from survivors
            return new Judged(String.format(Locale.ROOT, "%s (%s): %s; its base, %s, had %d fork%s FAILED (%s: %s): no gain claimed against its other forks alone",
                    label, rows, measured, base.config(), base.failed().size(), base.failed().size() == 1 ? "" : "s", rowsOf(base.failed()),
                    base.failed().getFirst().row().text(Columns.NOTE)) + where, false, direction, top);
        }
        if (!failed.isEmpty()) {
            return new Judged(String.format(Locale.ROOT, "%s (%s): %d of %d forks FAILED (%s: %s): no gain claimed from the other%s alone (%s)%s", label, rows,
                    failed.size(), variant.size(), rowsOf(failed), failed.getFirst().row().text(Columns.NOTE), ran.size() == 1 ? "" : "s", measured, where),
                    false, false, top);
        }
        if (ok.size() < ran.size() || base.flagged()) {
            String flags = java.util.stream.Stream.concat(ran.stream(), base.rows().stream()).filter(n -> n.row().flagged())
                    .flatMap(n -> n.row().flags().stream()).filter(Rows::voids).distinct().collect(Collectors.joining(", "));
            return new Judged(label + " (" + rows + "): " + measured + ", not evidence (flagged " + flags + ")" + where, false, direction, top);
        }
        return judgeClaims(label + " (" + rows + "): " + measured, where, tput, p99, open, direction, top, judging);
    }

    /**
     * The variant's verdict from its claims, on ok rows both sides (said: what was measured, where: where its time
     * went): a gain, a trade, worse, or no gain shown; the claims made, the open model's on p99 alone.
     */
    private static Judged judgeClaims(String said, String where, Claim tput, Claim p99, boolean open, boolean direction, Cause top, Judging judging) {
        Claim main = open ? p99 : tput;
        // each from the judge's answer: the whole set on one side of 1; one fork a side has no set and claims nothing
        boolean more = !open && tput.answer() == Answer.BETTER, less = !open && tput.answer() == Answer.WORSE;
        boolean shorter = p99.answer() == Answer.BETTER, longer = p99.answer() == Answer.WORSE;
        String judged;
        boolean gain = false;
        if ((more && longer) || (shorter && less)) {
            judged = more ? ": more throughput for a longer p99 tail: a trade, not a gain" : ": a shorter p99 tail for less throughput: a trade, not a gain";
        } else if (more || shorter) {
            gain = true;
            judged = more ? "" : open ? "" : ": a p99 cut that holds, throughput " + (tput.answer() == Answer.BETTER ? "up"
                    : tput.answer() == Answer.EQUIVALENT ? "the same within " + judging.margin().words() : "not told apart");
        } else if (less || longer) {
            judged = ": worse";
        } else {
            judged = main.hasSet() ? ": " + main.answerWords() + ", no gain shown"
                    : ": one fork a side, no interval between forks: no gain shown (a direction only; " + NoiseFloorLine.clause(judging.floor()) + ")";
        }
        // the claims made: on ok rows only (the paths above claim nothing), the open model's on p99 alone
        List<Claim> made = open ? List.of(p99) : Double.isNaN(p99.estimate()) ? List.of(tput) : List.of(tput, p99);
        return new Judged(said + judged + where, gain, direction, top, made);
    }

    /**
     * A claim as a change with its unit: "+80% req/s (95% CI +70% to +91%)", "+12% req/s" without an interval, "+3% req/s
     * (95% set: at least +11%)". A lower-is-better claim (p99, judged as the base's over the variant's) is said as the
     * variant's own change: −20% for a p99 cut to 0.8 of the base's.
     */
    static String change(Claim c, boolean inverted, String unit) {
        java.util.function.DoubleUnaryOperator pctOf = r -> 100 * ((inverted ? 1 / r : r) - 1);
        String m = pct(pctOf.applyAsDouble(c.estimate())) + unit;
        vtlab.data.judge.RatioSet set = c.set();
        return switch (set.shape()) {
            case NONE -> m;
            case INTERVAL -> {
                double a = pctOf.applyAsDouble(set.low()), b = pctOf.applyAsDouble(set.high());
                yield m + String.format(Locale.ROOT, " (%s CI %s to %s)", c.levelWords(), pct(Math.min(a, b)), pct(Math.max(a, b)));
            }
            case AT_LEAST -> m + String.format(Locale.ROOT, " (%s set: %s %s)", c.levelWords(), inverted ? "at most" : "at least", pct(pctOf.applyAsDouble(set.low())));
            default -> m + " (" + c.levelWords() + " set: " + set.words() + " of the base's)";
        };
    }

    /** A side's values per fork (iterations averaged): the noise between fresh JVMs, as the A/B's verdict takes it. */
    static double[] forkMeans(List<Numbered> rows, Column col) {
        return Verdict.forkMeans(rows.stream().map(Numbered::row).toList(), col);
    }

    /** "; the largest cause is now on CPU (64%)" or "; the largest cause is still ... (45%, was 71%)". */
    static String where(Base base, List<Numbered> explained, Cause top) {
        double s = share(explained, top);
        if (top == base.top()) {
            return String.format(Locale.ROOT, "; the largest cause is still %s (%.0f%%, was %.0f%%)", top.label, s, base.share());
        }
        return String.format(Locale.ROOT, "; the largest cause is now %s (%.0f%%)", top.label, s);
    }

    static String pct(double p) {
        return String.format(Locale.ROOT, "%+.0f%%", p).replace("-", "−");
    }

    static double[] values(List<Numbered> rows, Column col) {
        return rows.stream().mapToDouble(n -> n.num(col)).filter(x -> !Double.isNaN(x)).toArray();
    }

    static double mean(List<Numbered> rows, Column col) {
        return rows.stream().mapToDouble(n -> n.num(col)).filter(x -> !Double.isNaN(x)).average().orElse(Double.NaN);
    }

    // ---- the verdict

    /**
     * A line per configuration the next step starts from: its largest cause, then each variant run with what it bought
     * and where the time went; when it did not run, the lever that would answer (and how to run it); for a cause no
     * lever answers, what would help instead; beside either, the libraries in the jar with a known fix for that cause.
     *
     * @param rows  every row of the run, numbered as matrix.csv
     * @param facts what the run knew of the service (null: a run before the next step, no line)
     * @param jar   the jar's libraries (null: a --cmd)
     */
    static List<vtlab.data.Finding> findings(List<Numbered> rows, Facts facts, ServiceLibraries jar) {
        return findings(rows, facts, jar, Judging.DEFAULT);
    }

    static List<vtlab.data.Finding> findings(List<Numbered> rows, Facts facts, ServiceLibraries jar, Judging judging) {
        if (facts == null) return List.of();
        List<Lever> user = facts.user();
        List<Numbered> variants = rows.stream().filter(n -> Levers.of(n.row()) != null).toList();
        List<Integer> jdks = rows.stream().map(n -> (int) n.num(Columns.JDK)).filter(j -> j > 0).distinct().sorted().toList();
        List<vtlab.data.Finding> out = new ArrayList<>();
        for (Base b : bases(rows)) {
            List<Claim> claims = new ArrayList<>();
            List<vtlab.data.DataRow> evidence = new ArrayList<>(b.rows().stream().map(Numbered::row).toList());
            StringBuilder s = new StringBuilder("next step, " + b.scenario() + ", " + b.config() + " (" + rowsOf(b.rows()) + ")"
                    + (b.flagged() ? " (from flagged rows: not evidence)" : "") + ": ");
            String ev = RequestTime.evidence(b.first().row());
            boolean working = RequestTime.split(b.first().row()) && !b.top().queue();
            s.append(working ? "working, not waiting (no queue of " + Math.round(RequestTime.MATERIAL_QUEUE_PCT) + "% or more), its largest own work: "
                    : RequestTime.split(b.first().row()) ? "bottleneck: " : "");
            s.append(String.format(Locale.ROOT, "%.0f%% of request time %s", b.share(), b.top().label)).append(ev.isBlank() ? "" : " (" + ev + ")");
            Levers.Known k = facts.known(facts.args().getOrDefault(b.threadMode(), List.of()), facts.jvmArgs(), b.first().row());
            s.append(pinned(k));
            List<Lever> fit = levers(b, k, user);
            s.append(notFitting(user, fit, working, b));
            // the variants run, by lever and value in the order they ran
            Map<String, List<Numbered>> ran = new LinkedHashMap<>();
            for (Numbered v : variants) {
                if (!b.owns(v)) continue;
                ran.computeIfAbsent(String.join(":", Levers.of(v.row())), x -> new ArrayList<>()).add(v);
                evidence.add(v.row());
            }
            for (String lv : ran.keySet()) b.besides(lv, rows).forEach(n -> evidence.add(n.row()));
            if (!ran.isEmpty()) {
                Map<String, Judged> judged = new LinkedHashMap<>();
                ran.forEach((lv, list) -> {
                    String[] nv = lv.split(":", 2);
                    Lever l = Levers.named(nv[0], user);
                    String label = l == null ? nv[0] + " " + nv[1] : l.label(nv[1]);
                    // against the baseline forks run beside it, interleaved: the A/B's forks ran earlier, under another drift
                    Judged j = judge(b.beside(b.besides(lv, rows)), label, list, judging);
                    judged.put(lv, j);
                    claims.addAll(j.claims());
                    s.append(" → ").append(j.text());
                });
                for (Lever l : fit) s.append(notTried(l, l.values(k), judged, b));
            } else if (!fit.isEmpty()) {
                s.append(wouldTry(fit, k, facts, b));
            }
            if (fit.stream().noneMatch(l -> l.given() == null)) {
                s.append(fit.isEmpty() ? " → no lever the lab can turn for it" : "; no lever of the lab's answers it").append("; what would help: ")
                        .append(Levers.advice(b.top(), ev, b.first().row().flags().contains("app-cpu-bound"))).append(Levers.overheadAdvice(b.top(), b.first().row(), facts.springBoot()));
            }
            if (b.top() == Cause.THREAD_WAIT) s.append(virtualAnswer(b, rows));
            String fixes = libraryFixes(b.top(), vtlab.data.RequestTime.evidence(b.first().row()), jar, jdks);
            if (!fixes.isEmpty()) s.append("; known library fix: ").append(fixes);
            out.add(vtlab.data.Finding.of(s.toString(), evidence).withClaims(claims));
        }
        return out;
    }

    /** Pinned carriers hide from the breakdown (the requests queued for them are unmounted, in no thread's samples): said when many were. */
    private static String pinned(Levers.Known k) {
        double pinned = Levers.pinnedCarriers(k);
        if (pinned < Levers.PINNED_CARRIERS) return "";
        int carriers = Levers.carriers(k);
        return String.format(Locale.ROOT, "; its %d carrier%s pinned %.0f%% of the hold (jfr-pinning)", carriers, carriers == 1 ? "" : "s", 100 * Math.min(1, pinned));
    }

    /** A user's lever that answers another cause is not run: said, with why. */
    private static String notFitting(List<Lever> user, List<Lever> fit, boolean working, Base b) {
        StringBuilder s = new StringBuilder();
        for (Lever l : user) {
            if (!fit.contains(l) && l.answers() != null) {
                s.append(String.format(Locale.ROOT, " (--lever %s not run: it answers %s, and this configuration's %s is %s)", l.name(), l.answers().key,
                        working ? "largest own work" : "bottleneck", b.top().key));
            }
        }
        return s.toString();
    }

    /** The levers that fit, none of them run: what would be tried, each from its present value, and why it was not run. */
    private static String wouldTry(List<Lever> fit, Levers.Known k, Facts facts, Base b) {
        List<String> tries = new ArrayList<>();
        for (Lever l : fit) {
            List<String> vals = l.values(k);
            if (vals.isEmpty()) {
                tries.add(l.name() + " (" + l.words() + "): its present value is not known here");
                continue;
            }
            String now = l.now(k);
            tries.add(l.label(vals.getFirst()) + (vals.size() > 1 ? ", then " + String.join(", ", vals.subList(1, vals.size())) : "")
                    + " (" + l.words() + (now == null ? "" : ", now " + now) + ")");
        }
        return " → would try " + String.join("; ", tries) + (facts.run()
                ? facts.budgetSeconds() > 0 ? ": not run (no row: --next-step-budget " + AbExperiment.minutes(facts.budgetSeconds())
                + " was spent before it, or it did not start)" : ": not run (the variant gave no row)"
                : String.format(Locale.ROOT, ": not run (--next-step runs each value as rows of its own, %d rep%s each)", b.rows().size(),
                b.rows().size() == 1 ? "" : "s"));
    }

    /**
     * Requests queued for a free platform thread: virtual threads are the answer the A/B itself measured, "; the A/B's
     * own virtual rows answer it: virtual as shipped 7,620 req/s, 1.91× (rows 2, 4)"; "" when it has no virtual row here.
     */
    static String virtualAnswer(Base b, List<Numbered> rows) {
        if (!b.threadMode().equals(Threads.PLATFORM.word)) return "";
        List<Numbered> virtual = rows.stream().filter(n -> Levers.of(n.row()) == null && n.row().ok() && n.row().mode().equals(Threads.VIRTUAL.word)
                && key(n).equals(key(b.first()))).toList();
        double base = mean(b.rows(), Columns.RPS), v = mean(virtual, Columns.RPS);
        if (virtual.isEmpty() || !(base > 0) || Double.isNaN(v)) return "";
        return String.format(Locale.ROOT, "; the A/B's own virtual rows answer it: %s %,.0f req/s, %.2f× (%s)", virtual.getFirst().config(), v, v / base,
                rowsOf(virtual));
    }

    /** " (pool 40 not tried: pool 20 moved the largest cause)", or "" when every value of the lever was run. */
    static String notTried(Lever l, List<String> values, Map<String, Judged> judged, Base b) {
        if (l.given() != null) return "";
        List<String> done = values.stream().filter(v -> judged.containsKey(l.name() + ":" + v)).toList();
        if (done.isEmpty() || done.size() == values.size()) return "";
        Judged last = judged.get(l.name() + ":" + done.getLast());
        String next = values.get(done.size());
        String why = last.top() == null || last.text().contains("FAILED") || last.text().contains("errors rose") ? "it failed"
                : last.top() != b.top() ? "the largest cause moved" : !last.direction() ? "it did not move the right way" : "the run stopped";
        return " (" + l.label(next) + " not tried: " + l.label(done.getLast()) + " — " + why + ")";
    }

    /** The jar's libraries with a known fix for this cause, met on the run's JDKs: "com.zaxxer:HikariCP 7.0.2 spins, fixed in 7.1.0 (source)". */
    static String libraryFixes(Cause cause, String evidence, ServiceLibraries jar, List<Integer> jdks) {
        if (jar == null || jar.libraries().isEmpty() || cause == null) return "";
        return Levers.defects(jar.libraries(), jdks, cause, evidence).stream()
                .map(d -> d.finding().group() + ":" + d.finding().library().artifact() + " " + d.finding().library().version() + " "
                        + d.entry().effect().name().toLowerCase(Locale.ROOT) + ", fixed in " + (d.entry().fixedIn() == null ? "no release yet" : d.entry().fixedIn())
                        + " (" + d.entry().source() + ")")
                .collect(java.util.stream.Collectors.joining("; "));
    }

    // ---- the search

    private final List<Row> planned;
    private final Facts facts;
    private final List<Lever> user;
    private final int reps;
    private final long secondsPerRow;
    private final Duration budget;
    /** When the first variant row was asked for: the budget counts from there (the A/B's rows are the A/B's budget). */
    private Instant started;
    private String stopped;

    /**
     * @param planned the A/B's rows as planned (the variants are made from them)
     * @param reps    the reps of each variant: the A/B's
     */
    /** With --next-step-budget's default. */
    NextStep(List<Row> planned, Facts facts, int reps, long secondsPerRow) {
        this(planned, facts, reps, secondsPerRow, DEFAULT_BUDGET);
    }

    static final Duration DEFAULT_BUDGET = Duration.ofMinutes(10);

    NextStep(List<Row> planned, Facts facts, int reps, long secondsPerRow, Duration budget) {
        this.budget = budget;
        this.planned = List.copyOf(planned);
        this.facts = facts;
        this.user = facts.user();
        this.reps = reps;
        this.secondsPerRow = secondsPerRow;
    }

    @Override
    public String label() {
        return "ab next step";
    }

    @Override
    public Row template() {
        return planned.getFirst();
    }

    /** One lever's first value per configuration started from (platform and one virtual), per scenario, each fork beside a baseline fork. */
    @Override
    public int expectedRows() {
        long scenarios = planned.stream().map(r -> r.workload() + "|" + r.concurrency() + "|" + r.rate() + "|" + r.jdk().major()).distinct().count();
        long modes = planned.stream().map(Row::threadMode).distinct().count();
        long planned = scenarios * modes * reps * 2, fit = budget.toSeconds() / Math.max(1, secondsPerRow);
        return (int) Math.max(0, Math.min(planned, fit)); // the ETA is the budget's when the levers would outlast it
    }

    /** The param that marks a baseline fork run beside a variant's: the variant's lever ("pool:20"). */
    static final String BESIDE = "beside";

    /** The lever of the variant a baseline fork was run beside, null for any other row. */
    static String beside(DataRow r) {
        return r.param(BESIDE);
    }

    /**
     * A baseline fork for a variant: the A/B's configuration as it was (its JDK too: the JDK lever's variant runs on
     * the lab's), labelled with the variant's lever so that it is neither an A/B fork nor the variant.
     */
    static Row besideRow(Row base, Row variant) {
        return base.toBuilder().params(base.params().with(BESIDE, variant.params().get(Levers.PARAM))).rep(1).fork(1).iteration(1).build();
    }

    @Override
    public long secondsPerRow() {
        return secondsPerRow;
    }

    /** --next-step-budget counts from the first variant row, after the A/B's own budget. */
    @Override
    public long budgetSeconds() {
        return budget.toSeconds();
    }

    @Override
    public Row next(List<vtlab.data.DataRow> measured) {
        return null; // it starts from the A/B's rows: see next(before, measured)
    }

    @Override
    public Row next(List<vtlab.data.DataRow> before, List<vtlab.data.DataRow> measured) {
        if (started == null) started = Instant.now();
        List<Numbered> mine = numbered(measured, before.size() + 1);
        // the levers that answer a mode's bottleneck first, every mode's, then a service's switches a finding beside it
        // points to (SQL logging at 2% of request time): on a budget of a few forks, a switch of one mode must not
        // spend it before another mode's known fix is tried
        for (boolean asides : List.of(false, true))
        for (Base b : bases(numbered(before, 1))) {
            String scenario = b.first().row().text(Columns.SCENARIO);
            Row base = planned.stream().filter(r -> r.scenario().equals(scenario)).findFirst().orElse(null);
            if (base == null) continue;
            Levers.Known k = facts.known(base.appArgs(), base.jvmArgs(), b.first().row());
            for (Lever l : levers(b, k, user)) {
                if (l.aside() != asides) continue;
                List<String> values = l.values(k);
                for (int i = 0; i < values.size(); i++) {
                    // each rep of a variant is a fork: a fresh JVM, as the interval between forks it is judged by needs
                    Row variant = l.apply(base, values.get(i)).toBuilder().rep(1).fork(1).iteration(1).build();
                    Row baseline = besideRow(base, variant);
                    List<Numbered> done = mine.stream().filter(n -> variant.scenario().equals(n.row().text(Columns.SCENARIO))).toList();
                    List<Numbered> beside = mine.stream().filter(n -> baseline.scenario().equals(n.row().text(Columns.SCENARIO))).toList();
                    if (done.stream().anyMatch(n -> n.row().failed())) break; // a variant that failed: none of its reps or larger values
                    if (done.size() < reps) {
                        // a fresh baseline fork before each of the variant's: baseline, variant, baseline, variant ...
                        if (beside.size() <= done.size()) {
                            if (!fitsBudget(mine.size())) return outOfBudget(l.label(values.get(i)));
                            return baseline.toBuilder().rep(beside.size() + 1).fork(beside.size() + 1).build();
                        }
                        return variant.toBuilder().rep(done.size() + 1).fork(done.size() + 1).build();
                    }
                    if (l.given() != null) continue; // the user's values, all of them
                    Judged j = judge(b.beside(beside), l.label(values.get(i)), done);
                    // moved the cause (the next bottleneck is found), or did not move the right way: more of it says no more
                    if (!j.direction() || j.top() != b.top()) break;
                }
            }
        }
        return null;
    }

    /**
     * Whether a baseline fork and its variant's fork fit in what is left of the budget: each reckoned at the longest of
     * the plan's estimate and this search's mean row so far. A pair once begun is finished (a baseline alone is no
     * comparison), so the search ends at most one row past its budget.
     */
    private boolean fitsBudget(int rowsSoFar) {
        long elapsed = Duration.between(started, Instant.now()).toSeconds();
        long perRow = Math.max(secondsPerRow, rowsSoFar == 0 ? 0 : elapsed / rowsSoFar);
        return budget.toSeconds() - elapsed >= 2 * perRow;
    }

    private Row outOfBudget(String lever) {
        stopped = "--next-step-budget " + AbExperiment.minutes(budget.toSeconds()) + " spent: " + lever + " and what comes after it not run";
        return null;
    }

    /** A variant that fails is one of the next step's answers (said in the verdict): the run's exit code stays the A/B's. */
    @Override
    public boolean failedRowsFailTheRun() {
        return false;
    }

    @Override
    public String status(List<vtlab.data.DataRow> measured) {
        return measured.size() + " variant row" + (measured.size() == 1 ? "" : "s") + " run" + (stopped == null ? "" : "; " + stopped);
    }

    /** The rows numbered from first on, in order (the variants' rows follow the A/B's in matrix.csv). */
    static List<Numbered> numbered(List<DataRow> rows, int first) {
        List<Numbered> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) out.add(new Numbered(new DataRow(first + i, rows.get(i).cells())));
        return out;
    }
}
