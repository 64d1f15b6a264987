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
import vtlab.data.Rows;

/**
 * The verdict of an ab run in words, each claim naming its rows by their number in matrix.csv (the report links
 * "row N"): what the flag gains and what tuning adds, per scenario; what broke (failed rows, errors, pinning with the
 * service's own frame) and the libraries in its jar known to matter for virtual threads; where the bottleneck moved
 * (CPU, pool, generator); memory and threads; advice from what was measured. Only rows with status ok count as
 * evidence; the others are named as such.
 */
final class Verdict {
    /** Ratios this close to 1 are no difference on this lab's noisy machine (docs/results.md: ±15% between JVMs). */
    static final double SAME = 0.05;

    private Verdict() {}

    /** A row with its number in matrix.csv (ab runs alone, so its rows are the matrix's, in order). */
    record Numbered(int n, Map<String, String> r) {
        /** The configuration in words: "virtual tuned", a next step's variant with its lever ("platform, pool 20"). */
        String config() {
            String[] lever = Levers.of(r);
            return lever == null ? baseConfig(this) : baseConfig(this) + ", " + lever[0] + " " + lever[1];
        }

        /** The load a scenario is compared at: connections (closed) or the offered rate (open). */
        String load() {
            return "open".equals(r.get(Rows.LOAD_MODEL)) ? String.format(Locale.ROOT, "%,.0f req/s offered", Rows.num(r, "target_rps"))
                    : String.format(Locale.ROOT, "%,d connections", (long) Rows.num(r, "concurrency"));
        }

        String jdk() {
            return r.get("jdk");
        }

        double num(String col) {
            return Rows.num(r, col);
        }
    }

    /** The A/B configuration of a row, a next step's variant's without its lever: platform, virtual as shipped, virtual tuned. */
    static String baseConfig(Numbered n) {
        String mode = n.r().get(Rows.THREAD_MODE), tuning = Rows.param(n.r(), Service.TUNING);
        return mode.equals("virtual") && Service.TUNED.equals(tuning) ? "virtual tuned"
                : mode.equals("virtual") ? "virtual as shipped" : mode;
    }

    static List<String> of(List<Map<String, String>> matrix, Path pinningTxt) {
        return of(matrix, pinningTxt, null);
    }

    /** @param jar the service jar's libraries as the run kept them, null for a --cmd service */
    static List<String> of(List<Map<String, String>> matrix, Path pinningTxt, ServiceLibraries jar) {
        return of(matrix, pinningTxt, jar, Map.of());
    }

    /**
     * @param jdkVersions the exact version (25.0.3) of each JDK major the run used, from environment.json (empty:
     *                    not kept, a run before this check)
     */
    static List<String> of(List<Map<String, String>> matrix, Path pinningTxt, ServiceLibraries jar, Map<Integer, String> jdkVersions) {
        return of(matrix, pinningTxt, jar, jdkVersions, null);
    }

    /**
     * @param nextStep what the run knew of the service for the next step ({@link NextStep.Facts}; null: a run before
     *                 it, no next-step line)
     */
    static List<String> of(List<Map<String, String>> matrix, Path pinningTxt, ServiceLibraries jar, Map<Integer, String> jdkVersions,
                           NextStep.Facts nextStep) {
        List<Numbered> rows = new ArrayList<>();
        for (int i = 0; i < matrix.size(); i++) rows.add(new Numbered(i + 1, matrix.get(i)));
        // the A/B's own rows: a next step's variants are judged against them in its own lines, never in the A/B's gain
        List<Numbered> ab = rows.stream().filter(n -> Levers.of(n.r()) == null).toList();
        List<String> out = new ArrayList<>();
        broken(rows, out);
        boolean jdks = rows.stream().map(Numbered::jdk).distinct().count() > 1;
        // one scenario: url x load (x JDK when several); its configurations side by side
        Map<String, List<Numbered>> scenarios = new LinkedHashMap<>();
        for (Numbered n : ab) {
            String key = n.r().get(Rows.WORKLOAD) + " at " + n.load() + (jdks ? " on JDK " + n.jdk() : "");
            scenarios.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
        }
        scenarios.forEach((key, list) -> gain(key, list, out));
        errors(rows, out);
        pinning(rows, pinningTxt, out);
        List<String> libraries = new ArrayList<>();
        jdks(jdkVersions, rows, libraries);
        libraries(jar, rows, libraries);
        out.addAll(libraries);
        bottleneck(rows, out);
        requestTime(rows, ab, out);
        out.addAll(NextStep.findings(rows, nextStep, jar));
        memory(rows, out);
        if (out.size() == libraries.size()) out.addFirst("no row to conclude from");
        return out;
    }

    /** Rows that gave no numbers, by reason: the thread-mode check first (a flag that did nothing is the first thing to know). */
    static void broken(List<Numbered> rows, List<String> out) {
        Map<String, List<Numbered>> byReason = new LinkedHashMap<>();
        for (Numbered n : rows) if (Rows.failed(n.r())) byReason.computeIfAbsent(Rows.text(n.r(), "note"), k -> new ArrayList<>()).add(n);
        byReason.forEach((reason, list) -> {
            String configs = list.stream().map(Numbered::config).distinct().collect(Collectors.joining(", "));
            out.add("FAILED, no numbers: " + configs + " (" + rowsOf(list) + "): " + reason
                    + (reason.contains("virtual threads not in effect") ? " — the switch did not give virtual threads:"
                    + " check the property or variable name, and whether the framework reads it" : ""));
        });
        long flagged = rows.stream().filter(n -> Rows.flagged(n.r())).count();
        if (flagged > 0) {
            List<Numbered> f = rows.stream().filter(n -> Rows.flagged(n.r())).toList();
            out.add("not evidence (flagged " + f.stream().flatMap(n -> Rows.flags(n.r()).stream()).filter(Rows::voids).distinct()
                    .collect(Collectors.joining(", ")) + "): " + rowsOf(f));
        }
    }

    /** Throughput (closed) or p99 (open) of each configuration against platform, and what tuning adds to the flag. */
    static void gain(String scenario, List<Numbered> list, List<String> out) {
        Map<String, List<Numbered>> byConfig = new LinkedHashMap<>();
        for (Numbered n : list) if (Rows.ok(n.r())) byConfig.computeIfAbsent(n.config(), k -> new ArrayList<>()).add(n);
        if (byConfig.isEmpty()) return;
        boolean open = "open".equals(list.getFirst().r().get(Rows.LOAD_MODEL));
        String col = open ? Rows.P99 : Rows.RPS;
        Map<String, Double> value = new LinkedHashMap<>();
        byConfig.forEach((c, l) -> value.put(c, l.stream().mapToDouble(n -> n.num(col)).average().orElse(Double.NaN)));
        List<String> parts = new ArrayList<>();
        Double platform = value.get("platform"), shipped = value.get("virtual as shipped"), tuned = value.get("virtual tuned");
        byConfig.forEach((c, l) -> {
            double v = value.get(c), p99 = l.stream().mapToDouble(n -> n.num(Rows.P99)).average().orElse(Double.NaN);
            String s = open ? String.format(Locale.ROOT, "%s p99 %.1f ms", c, v)
                    : String.format(Locale.ROOT, "%s %,.0f req/s (p99 %.1f ms)", c, v, p99);
            if (platform != null && !c.equals("platform")) s += " = " + ratio(open ? platform / v : v / platform) + " platform";
            parts.add(s + " (" + rowsOf(l) + ")");
        });
        String line = scenario + ": " + String.join("; ", parts);
        if (shipped != null && tuned != null) {
            double add = open ? shipped / tuned : tuned / shipped;
            line += ". The flag alone gives " + (platform == null ? "?" : ratio(open ? platform / shipped : shipped / platform))
                    + ", tuning adds " + ratio(add) + (Math.abs(add - 1) < SAME ? " (no difference here)" : "");
        } else if (platform != null && shipped != null) {
            double g = open ? platform / shipped : shipped / platform;
            line += Math.abs(g - 1) < SAME ? ". Virtual threads make no difference here" : g > 1 ? ". Virtual threads gain " + ratio(g)
                    : ". Virtual threads lose: " + ratio(g);
        }
        String settled = settled(byConfig, col);
        out.add(line + (open ? " (open model: lower p99 is better, the ratio is platform's p99 over the row's)" : "") + settled);
    }

    /** Reps of one configuration further apart than this (range over mean) are not a settled figure. */
    static final double UNSETTLED_SPREAD = 0.10;

    /**
     * Whether each configuration's reps agree: "; not settled: ..." naming the configurations whose reps spread more
     * than {@link #UNSETTLED_SPREAD} (a first rep lower than the rest: the JIT was not done; say so), or "; one rep per
     * configuration: a direction, not a result"; empty when every configuration's reps agree.
     */
    static String settled(Map<String, List<Numbered>> byConfig, String col) {
        List<String> loose = new ArrayList<>();
        boolean single = true;
        for (Map.Entry<String, List<Numbered>> e : byConfig.entrySet()) {
            double[] v = e.getValue().stream().mapToDouble(n -> n.num(col)).filter(x -> !Double.isNaN(x)).toArray();
            if (v.length > 1) single = false;
            if (v.length < 2) continue;
            double min = java.util.Arrays.stream(v).min().orElseThrow(), max = java.util.Arrays.stream(v).max().orElseThrow();
            double mean = java.util.Arrays.stream(v).average().orElseThrow();
            if (!(mean > 0) || (max - min) / mean <= UNSETTLED_SPREAD) continue;
            vtlab.data.Stats.Interval ci = vtlab.data.Stats.mean95(v);
            boolean firstLow = col.equals(Rows.RPS) && v[0] == min;
            loose.add(String.format(Locale.ROOT, "%s's %d reps spread %.0f%% (%s; 95%% CI %,.0f to %,.0f)%s", e.getKey(), v.length, 100 * (max - min) / mean,
                    java.util.Arrays.stream(v).mapToObj(x -> String.format(Locale.ROOT, "%,.0f", x)).collect(Collectors.joining(" / ")), ci.low(), ci.high(),
                    firstLow ? ", the first rep lowest: the service was still warming up" : ""));
        }
        if (!loose.isEmpty()) return ". NOT SETTLED: " + String.join("; ", loose) + ": the ratio is a direction, not a result (more reps, a longer --warmup)";
        return single ? ". One rep per configuration: a direction, not a result" : "";
    }

    /** Failed requests in rows that ran, by kind. */
    static void errors(List<Numbered> rows, List<String> out) {
        for (Numbered n : rows) {
            if (Rows.failed(n.r()) || !(n.num("error_rate") > 0)) continue;
            List<String> kinds = new ArrayList<>();
            for (String k : List.of("connect", "read", "write", "timeout", "status")) {
                double v = n.num("errors_" + k);
                if (v > 0) kinds.add(String.format(Locale.ROOT, "%s %,.0f", k, v));
            }
            out.add(String.format(Locale.ROOT, "errors: %s at %s, %.2f%% of requests failed (%s) (row %d)", n.config(), n.load(),
                    n.num("error_rate") * 100, kinds.isEmpty() ? "kinds not reported" : String.join(", ", kinds), n.n()));
        }
    }

    /** Pins in the hold with the service's own frame where the pin happened, and advice by JDK. */
    static void pinning(List<Numbered> rows, Path pinningTxt, List<String> out) {
        Map<Integer, String> frames = appFrames(pinningTxt);
        for (Numbered n : rows) {
            if (!(n.num("pinned_events") > 0)) continue;
            String frame = frames.get(n.n());
            int jdk = (int) n.num("jdk");
            String s = String.format(Locale.ROOT, "pinning: %s at %s pinned virtual threads %,.0f times (%.0f ms in all, longest %.1f ms; reasons %s)",
                    n.config(), n.load(), n.num("pinned_events"), n.num("pinned_total_ms"), n.num("pinned_max_ms"),
                    Rows.text(n.r(), "pinned_reasons").isEmpty() ? "none given" : Rows.text(n.r(), "pinned_reasons"));
            if (frame != null) s += " in " + frame;
            s += " (row " + n.n() + ")";
            if (jdk > 0 && jdk < 24) {
                s += ". Advice: synchronized blocks pin on JDK " + jdk + (frame == null ? "" : " in " + frame)
                        + ": JDK 24+ no longer pins there (JEP 491); or use a ReentrantLock";
            } else {
                s += ". Advice: on JDK " + jdk + " a pin is a native frame or a class initialiser: see pinning.txt";
            }
            out.add(s);
        }
    }

    /**
     * Beside the pinning measured: the jar's libraries that the lab's table knows (vtlab.check.KnownLibraries),
     * affected or not, for this run's JDKs; libraries it does not know are not named.
     */
    static void libraries(ServiceLibraries jar, List<Numbered> rows, List<String> out) {
        if (jar == null) return;
        String name = Path.of(jar.jar()).getFileName().toString();
        if (jar.error() != null) {
            out.add("libraries: " + name + " could not be read (" + jar.error() + "): not checked");
            return;
        }
        List<Integer> jdks = rows.stream().map(n -> (int) n.num("jdk")).filter(j -> j > 0).distinct().sorted().toList();
        List<KnownLibraries.Finding> found = KnownLibraries.check(jar.libraries(), jdks);
        if (found.isEmpty()) {
            out.add("libraries: none of the " + jar.libraries().size() + " found in " + name + " is one the lab knows to matter for virtual threads");
            return;
        }
        for (KnownLibraries.Finding f : found) out.add("library in " + name + ": " + f.line());
    }

    /**
     * The JDK itself as a known cause: each JDK the rows ran on, by its exact update, and the known JDK issues
     * (vtlab.check.KnownLibraries.JDK) it has; a JDK whose release has none known is named only by its update.
     */
    static void jdks(Map<Integer, String> versions, List<Numbered> rows, List<String> out) {
        for (int major : rows.stream().map(n -> (int) n.num("jdk")).filter(j -> j > 0).distinct().sorted().toList()) {
            String version = versions.get(major);
            if (version == null) continue;
            String line = KnownLibraries.jdkLine(version);
            out.add("jdk " + (line == null ? version + ": no known JDK issue for virtual threads in its release" : line));
        }
    }

    /** Each JDK major's exact version as environment.json keeps it ("jdks": major, version); empty when it is not there. */
    static Map<Integer, String> jdkVersions(Path runDir) {
        Path env = runDir.resolve("environment.json");
        Map<Integer, String> out = new LinkedHashMap<>();
        try {
            if (!Files.exists(env)) return out;
            for (com.fasterxml.jackson.databind.JsonNode j : new com.fasterxml.jackson.databind.ObjectMapper().readTree(env.toFile()).path("jdks")) {
                if (j.hasNonNull("version") && j.path("major").asInt() > 0) out.put(j.path("major").asInt(), j.path("version").asText());
            }
        } catch (IOException e) {
            return Map.of(); // no exact versions: the verdict names none
        }
        return out;
    }

    /** Where the limit was in each row that counts: the SUT's CPU, the pool, the generator. */
    static void bottleneck(List<Numbered> rows, List<String> out) {
        Map<String, List<Numbered>> cpu = new LinkedHashMap<>(), pool = new LinkedHashMap<>();
        for (Numbered n : rows) {
            if (Rows.failed(n.r())) continue;
            if (Rows.flags(n.r()).contains("app-cpu-bound")) cpu.computeIfAbsent(n.config(), k -> new ArrayList<>()).add(n);
            if (n.num("hikari_pending_max") > 0) pool.computeIfAbsent(n.config(), k -> new ArrayList<>()).add(n);
            if (Rows.flags(n.r()).contains("generator-bound")) {
                out.add("bottleneck: the load generator saturated its cores (row " + n.n() + "): that row measures the generator, not the service");
            }
        }
        cpu.forEach((c, l) -> out.add("bottleneck: the SUT's CPU was full for " + c + " (" + rowsOf(l) + String.format(Locale.ROOT,
                ", %.0f%% app CPU)", l.stream().mapToDouble(n -> n.num(Rows.APP_CPU)).max().orElse(Double.NaN))
                + ": more threads cannot help there, only less work per request or more cores"));
        pool.forEach((c, l) -> out.add(String.format(Locale.ROOT, "bottleneck: the connection pool for %s: up to %,.0f requests waited for one of %,.0f busy connections (%s)",
                c, l.stream().mapToDouble(n -> n.num("hikari_pending_max")).max().orElse(Double.NaN),
                l.stream().mapToDouble(n -> n.num("hikari_active_max")).max().orElse(Double.NaN), rowsOf(l))
                + (c.startsWith("virtual") ? ": the limit moved from the threads to the pool" : "")));
    }

    /**
     * Where each request's time went (the profile probe, on by default here): per scenario, each configuration's
     * largest cause with its evidence, and how it moved between the modes; said also when nothing saturated.
     */
    static void requestTime(List<Numbered> rows, List<Numbered> ab, List<String> out) {
        List<Map<String, String>> matrix = rows.stream().map(Numbered::r).toList();
        Map<Map<String, String>, String> configs = new java.util.IdentityHashMap<>();
        rows.forEach(n -> configs.put(n.r(), n.config()));
        out.addAll(vtlab.data.RequestTime.findings(matrix, ab.stream().map(Numbered::r).toList(), configs::get));
    }

    /** Peak OS threads and RSS of each configuration. */
    static void memory(List<Numbered> rows, List<String> out) {
        Map<String, List<Numbered>> byConfig = new LinkedHashMap<>();
        for (Numbered n : rows) if (!Rows.failed(n.r())) byConfig.computeIfAbsent(n.config(), k -> new ArrayList<>()).add(n);
        List<String> parts = new ArrayList<>();
        byConfig.forEach((c, l) -> {
            double threads = max(l, Rows.THREADS_MAX), rss = max(l, "rss_mb_max");
            if (Double.isNaN(threads) && Double.isNaN(rss)) return;
            parts.add(String.format(Locale.ROOT, "%s %,.0f OS threads, %,.0f MB RSS (%s)", c, threads, rss, rowsOf(l)));
        });
        if (!parts.isEmpty()) out.add("memory and threads at peak: " + String.join("; ", parts));
    }

    static double max(List<Numbered> l, String col) {
        return l.stream().mapToDouble(n -> n.num(col)).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
    }

    /** "row 3" or "rows 3, 4". */
    static String rowsOf(List<Numbered> l) {
        return (l.size() == 1 ? "row " : "rows ") + l.stream().map(n -> Integer.toString(n.n())).collect(Collectors.joining(", "));
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
