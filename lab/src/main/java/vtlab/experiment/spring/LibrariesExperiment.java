package vtlab.experiment.spring;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import vtlab.check.JarLibraries;
import vtlab.check.KnownLibraries;
import vtlab.check.Version;
import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.data.Rows;
import vtlab.experiment.RowStats;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.Params;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.tool.Jdk;
import vtlab.tier.StackVariants;

/**
 * Which JDBC driver and pool versions pin or spin, and on which JDK: the spring-mvc SUT's order-summary under the
 * same moderate load, once per pgjdbc x HikariCP x JDK on virtual threads, each combination its own jar (built once,
 * see StackVariants), verified to have loaded those versions. A pin shows in JFR (jfr-pinning); a spin does not (a
 * carrier looping on Thread.yield stays mounted) but shows in involuntary context switches and CPU per request (ctxsw,
 * cpu). One platform row per JDK with the stack's own versions is the baseline. The findings put what was measured
 * beside what vtlab.check.KnownLibraries says of each version.
 */
public final class LibrariesExperiment implements SpringRig.OrderQueries {
    static final String NAME = "libraries";
    /** The build spec's names (pom properties pgjdbc.version, hikari.version) and the runtime-info fields that echo them. */
    static final String PGJDBC = "pgjdbc", HIKARI = "hikari";
    static final Map<String, String> INFO = Map.of(PGJDBC, "pgjdbc_version", HIKARI, "hikari_version");
    /** Maven coordinates of each, for the known-libraries table. */
    static final Map<String, String[]> COORDINATES = Map.of(PGJDBC, new String[] {"org.postgresql", "postgresql"},
            HIKARI, new String[] {"com.zaxxer", "HikariCP"});
    static final Pattern VERSION = Pattern.compile("\\d+(\\.\\d+)+");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "pgjdbc x HikariCP x JDK (21, 25) on virtual threads: pins (JFR), spins (context switches, CPU per request)";
    }

    static final Opt PGJDBC_OPT = Opt.of("pgjdbc", "42.5.6,42.7.8,42.7.14", "PostgreSQL JDBC driver versions (each combination is built once into .vtlab/jars)")
            .quick("42.7.8");
    static final Opt HIKARI_OPT = Opt.of("hikari", "7.0.2,7.1.0", "HikariCP versions");
    static final Opt MODES = Opt.of("modes", "virtual,platform", "virtual: every combination; platform: one baseline row per JDK with the\n"
            + "stack's own versions (its pom's defaults)").withChoices(vtlab.experiment.ThreadModes.ALL);
    static final Opt CONC = SpringRig.CONC.withDefault("200").withHelp("connections (moderate: the SUT is not saturated by the load alone)");
    static final Opt POOL = Opt.of("pool", "10", "HikariCP pool size: small enough that requests wait for a connection, the only time\n"
            + "HikariCP before 7.1.0 yield-spins (a waiter while a connection is given back)");
    static final List<Opt> TIMING = PlanContext.timingOptions("10s", "15s", 1, null);

    @Override
    public List<Opt> options() {
        List<Opt> a = new ArrayList<>(List.of(PGJDBC_OPT, HIKARI_OPT, MODES, CONC, POOL));
        a.addAll(TIMING);
        return a;
    }

    @Override
    public List<String> axes() {
        List<String> a = new ArrayList<>(SpringRig.OrderQueries.super.axes());
        a.add("the lab's --jdk defaults here to 25 and 21 (installed from PyPI if missing)");
        return a;
    }

    /** The pinning, the spin (context switches, CPU) and the pool's waiters are what the rows are for. */
    @Override
    public List<String> probes(List<String> runProbes) {
        return Experiment.withProbes(runProbes, "cpu", "jfr-pinning", "ctxsw", "hikari");
    }

    /** The options parsed once; versions are refused in one line unless they read as versions. */
    record Spec(List<String> pgjdbc, List<String> hikari, List<String> modes, int conc, int pool, PlanContext.Timing timing) {
        static Spec parse(Options o, PlanContext ctx) throws UsageError {
            List<Integer> conc = CONC.ints(o);
            if (conc.size() != 1) throw new UsageError("--conc takes one concurrency here: every combination runs under the same load");
            return new Spec(versions(o, PGJDBC_OPT), versions(o, HIKARI_OPT), MODES.chosen(o), conc.getFirst(),
                    POOL.integer(o), ctx.timing(o, TIMING));
        }

        static List<String> versions(Options o, Opt opt) throws UsageError {
            LinkedHashSet<String> out = new LinkedHashSet<>();
            for (String given : opt.list(o))
                for (String v : given.split(",")) {
                    if (!VERSION.matcher(v.trim()).matches()) {
                        throw new UsageError("--" + opt.name() + " takes versions like 42.7.8 (digits and dots), not '" + v.trim() + "'");
                    }
                    out.add(v.trim());
                }
            if (out.isEmpty()) throw new UsageError("--" + opt.name() + " names no version");
            return List.copyOf(out);
        }
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        Stack stack = Stack.load(SpringRig.STACK);
        Spec s = Spec.parse(o, ctx);
        Map<String, String> defaults = StackVariants.pomDefaults(stack);
        for (String lib : List.of(PGJDBC, HIKARI)) {
            if (!defaults.containsKey(lib)) throw new UsageError("stack " + stack.name() + "'s pom.xml declares no " + lib + ".version");
        }
        List<Row> rows = new ArrayList<>();
        for (Jdk jdk : SpringRig.jdksWith21(o, ctx, name())) {
            if (s.modes().contains(Threads.VIRTUAL.word)) {
                for (String pg : s.pgjdbc())
                    for (String hk : s.hikari())
                        for (int rep = 1; rep <= s.timing().reps(); rep++) rows.add(row(stack, jdk, Threads.VIRTUAL.word, pg, hk, rep, s, ctx));
            }
            if (s.modes().contains(Threads.PLATFORM.word)) {
                for (int rep = 1; rep <= s.timing().reps(); rep++) rows.add(row(stack, jdk, Threads.PLATFORM.word, defaults.get(PGJDBC), defaults.get(HIKARI), rep, s, ctx));
            }
        }
        return rows;
    }

    /** One combination's row: its build (the jar it runs) as a param, and the versions runtime-info must report. */
    static Row row(Stack stack, Jdk jdk, String mode, String pgjdbc, String hikari, int rep, Spec s, PlanContext ctx) throws UsageError {
        SpringRig.Sut d = SpringRig.Sut.defaults(stack, mode);
        SpringRig.Sut sut = new SpringRig.Sut(mode, d.maxThreads(), d.maxConnections(), s.pool(), d.connMode(), d.pathMode(), d.delayMs(),
                d.client(), d.http());
        StackVariants.Variant v = new StackVariants.Variant(stack.name(), orderedMap(PGJDBC, pgjdbc, HIKARI, hikari));
        Row r = SpringRig.row(NAME, stack, jdk, sut, "order-summary", s.conc(), rep, true, Params.NONE.with(Row.BUILD_PARAM, v.spec()),
                SpringRig.orderSummaryBound(sut, s.conc()), SpringRig.orderSummaryBoundNote(sut, s.conc()), s.timing(), ctx.jvmArgs());
        return r.withBuild(v).withExpect(orderedMap(INFO.get(PGJDBC), pgjdbc, INFO.get(HIKARI), hikari));
    }

    private static <V> Map<String, V> orderedMap(String k1, V v1, String k2, V v2) {
        Map<String, V> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    // ---- findings

    /** A library's version in a row's build, or null. */
    static String version(DataRow r, String lib) {
        String spec = r.param(Row.BUILD_PARAM);
        if (spec == null) return null;
        try {
            return StackVariants.Variant.parse(SpringRig.STACK, spec).versions().get(lib);
        } catch (UsageError e) {
            return null;
        }
    }

    /** CPU of the SUT per completed request, µs: app_cpu_pct (100 = one core) over the throughput. */
    static double cpuUsPerRequest(DataRow r) {
        double cpu = r.num(Columns.APP_CPU), rps = r.num(Columns.RPS);
        return rps > 0 ? cpu / 100 * 1e6 / rps : Double.NaN;
    }

    /** A count column per completed request (the hold's http_reqs). */
    static double perRequest(DataRow r, Column col) {
        double n = r.num(col), reqs = r.num(Columns.HTTP_REQS);
        return reqs > 0 ? n / reqs : Double.NaN;
    }

    static double mean(List<DataRow> rows, java.util.function.ToDoubleFunction<DataRow> f) {
        return rows.stream().mapToDouble(f).filter(d -> !Double.isNaN(d)).average().orElse(Double.NaN);
    }

    /** Each line with the rows it stands on. */
    @Override
    public List<Finding> findings(java.nio.file.Path runDir, List<DataRow> rows) {
        return findingsOf(rows);
    }

    static List<Finding> findingsOf(List<DataRow> all) {
        List<Finding> out = new ArrayList<>();
        List<DataRow> rows = all.stream().filter(r -> version(r, PGJDBC) != null && version(r, HIKARI) != null).toList();
        Predicate<DataRow> virtual = Rows.inMode(Threads.VIRTUAL);
        // pins are JFR's, not the load's: a flagged row still counts as evidence of pinning (as in pinning); failed rows never
        List<DataRow> pinRows = rows.stream().filter(virtual).filter(r -> !r.failed())
                .filter(r -> !Double.isNaN(r.num(Columns.PINNED)) && r.num(Columns.HTTP_REQS) > 0).toList();
        List<DataRow> ok = rows.stream().filter(DataRow::ok).toList();
        TreeSet<Integer> jdks = rows.stream().map(r -> (int) r.num(Columns.JDK)).collect(Collectors.toCollection(TreeSet::new));
        List<DataRow> notOk = all.stream().filter(r -> !r.ok()).toList();
        if (pinRows.isEmpty() && ok.isEmpty()) {
            out.add(Finding.of("no row finished with status ok: nothing to conclude"));
            String why = RowStats.notUsed(all);
            if (why != null) out.add(Finding.of(why, notOk));
            return out;
        }

        for (String pg : versionsIn(rows.stream().filter(virtual).toList(), PGJDBC)) {
            out.add(Finding.of(pinning(pinRows, pg, jdks), pinRows.stream().filter(r -> pg.equals(version(r, PGJDBC))).toList()));
        }
        out.addAll(spin(ok.stream().filter(virtual).toList(), jdks));
        for (DataRow combo : combinations(ok)) out.add(Finding.of(combination(ok, combo), ok.stream().filter(r -> key(r).equals(key(combo))).toList()));
        for (String lib : List.of(PGJDBC, HIKARI))
            for (String v : versionsIn(rows, lib)) out.add(Finding.of("known (vtlab.check.KnownLibraries): " + known(lib, v, List.copyOf(jdks))));
        String why = RowStats.notUsed(all);
        if (why != null) out.add(Finding.of(why, notOk));
        return out;
    }

    /** The versions of a library the rows ran, oldest first. */
    static List<String> versionsIn(List<DataRow> rows, String lib) {
        return rows.stream().map(r -> version(r, lib)).distinct().sorted((a, b) -> Version.of(a).compareTo(Version.of(b))).toList();
    }

    /**
     * "pgjdbc 42.7.8 (virtual): on JDK 21 pins 3.2 times per 1,000 requests (...), most in X; on JDK 25 no pin in 29,870
     * requests", then what the measurement says of the static table's verdict, JDK by JDK.
     */
    static String pinning(List<DataRow> pinRows, String pg, TreeSet<Integer> jdks) {
        List<String> parts = new ArrayList<>();
        Map<Integer, Boolean> pinned = new LinkedHashMap<>(); // JDK -> whether it pinned, for the JDKs with rows
        for (int jdk : jdks) {
            List<DataRow> p = pinRows.stream().filter(r -> pg.equals(version(r, PGJDBC)) && (int) r.num(Columns.JDK) == jdk).toList();
            if (p.isEmpty()) continue;
            double events = p.stream().mapToDouble(r -> r.num(Columns.PINNED)).sum();
            double reqs = p.stream().mapToDouble(r -> r.num(Columns.HTTP_REQS)).sum();
            pinned.put(jdk, events > 0);
            if (events == 0) {
                parts.add(String.format(Locale.ROOT, "on JDK %d no pin in %,.0f requests", jdk, reqs));
                continue;
            }
            String where = p.stream().filter(r -> r.num(Columns.PINNED) > 0).map(r -> r.text(Columns.PINNED_TOP_FRAME))
                    .filter(f -> !f.isEmpty()).collect(Collectors.groupingBy(f -> f.replaceAll(" \\(\\d+\\)$", ""), LinkedHashMap::new,
                            Collectors.counting())).entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
            parts.add(String.format(Locale.ROOT, "on JDK %d pins %s times per 1,000 requests (%,.0f events in %,.0f requests)%s", jdk,
                    SpringRig.fmt(events / reqs * 1000), events, reqs, where == null ? "" : ", most in " + where));
        }
        String line = "pgjdbc " + pg + " (virtual): " + (parts.isEmpty() ? "no row with a pinning count" : String.join("; ", parts));
        return pinned.isEmpty() ? line : line + "; " + againstTable(pg, pinned);
    }

    /** The measured pins against the table's expectation, per JDK: reproduced, did not reproduce, or pinned unexpectedly. */
    static String againstTable(String pg, Map<Integer, Boolean> pinned) {
        KnownLibraries.Finding f = KnownLibraries.check(List.of(library(PGJDBC, pg)), List.copyOf(pinned.keySet())).getFirst();
        List<String> out = new ArrayList<>();
        for (var e : pinned.entrySet()) {
            int jdk = e.getKey();
            boolean expected = f.affecting().stream().anyMatch(x -> x.effect() == KnownLibraries.Effect.PINS && x.effect().on(jdk));
            if (expected) out.add("JDK " + jdk + (e.getValue() ? " pinned as the table says" : " did not pin although the table says it does (not reproduced here)"));
            else if (e.getValue()) out.add("JDK " + jdk + " pinned where the table expects none");
            else out.add("JDK " + jdk + " did not pin, as the table says");
        }
        return "known pins: " + String.join(", ", out);
    }

    /**
     * HikariCP versions against the newest, per JDK, over the pgjdbc versions both ran with: the yield spin costs CPU
     * and involuntary switches per request, and happens only while a request waits for a connection.
     */
    static List<Finding> spin(List<DataRow> ok, TreeSet<Integer> jdks) {
        List<Finding> out = new ArrayList<>();
        List<String> versions = versionsIn(ok, HIKARI);
        if (versions.size() < 2) return out;
        String newest = versions.getLast();
        for (int jdk : jdks) {
            List<DataRow> j = ok.stream().filter(r -> (int) r.num(Columns.JDK) == jdk).toList();
            for (String older : versions.subList(0, versions.size() - 1)) {
                java.util.Set<String> shared = pgjdbcOfBoth(j, older, newest);
                if (shared.isEmpty()) continue;
                List<DataRow> a = j.stream().filter(r -> older.equals(version(r, HIKARI)) && shared.contains(version(r, PGJDBC))).toList();
                List<DataRow> b = j.stream().filter(r -> newest.equals(version(r, HIKARI)) && shared.contains(version(r, PGJDBC))).toList();
                double cpuA = mean(a, LibrariesExperiment::cpuUsPerRequest), cpuB = mean(b, LibrariesExperiment::cpuUsPerRequest);
                double diff = cpuA - cpuB;
                String s = String.format(Locale.ROOT, "HikariCP %s on JDK %d (virtual, pgjdbc %s): %s µs CPU per request %s than %s (%s vs %s µs, %s)",
                        older, jdk, String.join(", ", shared), SpringRig.fmt(Math.abs(diff)), diff >= 0 ? "more" : "less", newest,
                        SpringRig.fmt(cpuA), SpringRig.fmt(cpuB), RowStats.signedPct(RowStats.pct(cpuA, cpuB)))
                        + String.format(Locale.ROOT, "; involuntary switches per request %.3f vs %.3f, voluntary %.2f vs %.2f",
                        mean(a, r -> perRequest(r, Columns.CTXSW_INVOL)), mean(b, r -> perRequest(r, Columns.CTXSW_INVOL)),
                        mean(a, r -> perRequest(r, Columns.CTXSW_VOL)), mean(b, r -> perRequest(r, Columns.CTXSW_VOL)));
                s += noise(a, b, diff);
                List<DataRow> both = new ArrayList<>(a);
                both.addAll(b);
                double waited = Rows.max(both, Columns.HIKARI_PENDING_MAX);
                if (waited == 0) {
                    s += "; no request waited for a pooled connection (hikari_pending_max 0): the spin, which needs a waiter, had no occasion"
                            + " (a smaller --pool or more --conc makes one)";
                } else if (!Double.isNaN(waited)) {
                    s += String.format(Locale.ROOT, "; up to %.0f requests waited for a pooled connection", waited);
                }
                out.add(Finding.of(s, both));
            }
        }
        return out;
    }

    /** The pgjdbc versions that ran with both HikariCP versions: the pairs a comparison may use. */
    private static java.util.Set<String> pgjdbcOfBoth(List<DataRow> rows, String hikariA, String hikariB) {
        java.util.Set<String> shared = new LinkedHashSet<>(rows.stream().filter(r -> hikariA.equals(version(r, HIKARI))).map(r -> version(r, PGJDBC)).toList());
        shared.retainAll(rows.stream().filter(r -> hikariB.equals(version(r, HIKARI))).map(r -> version(r, PGJDBC)).toList());
        return shared;
    }

    /** Whether a CPU difference stands out of the reps' own spread; one rep each has none to judge it by. */
    static String noise(List<DataRow> a, List<DataRow> b, double diff) {
        double spread = 0;
        int groups = 0;
        for (List<DataRow> side : List.of(a, b)) {
            for (var g : side.stream().collect(Collectors.groupingBy(r -> r.text(Columns.SCENARIO))).values()) {
                if (g.size() < 2) continue;
                groups++;
                var st = g.stream().mapToDouble(LibrariesExperiment::cpuUsPerRequest).filter(d -> !Double.isNaN(d)).summaryStatistics();
                spread = Math.max(spread, st.getMax() - st.getMin());
            }
        }
        if (groups == 0) return " (one rep per combination: no spread to judge it by; --reps 3 gives one)";
        return Math.abs(diff) > spread ? String.format(Locale.ROOT, " (beyond the reps' spread of %s µs)", SpringRig.fmt(spread))
                : String.format(Locale.ROOT, " (within the reps' spread of %s µs: not shown here)", SpringRig.fmt(spread));
    }

    /** One representative row per (JDK, mode, pgjdbc, HikariCP), in the run's order. */
    static List<DataRow> combinations(List<DataRow> rows) {
        Map<String, DataRow> seen = new LinkedHashMap<>();
        for (DataRow r : rows) seen.putIfAbsent(key(r), r);
        return List.copyOf(seen.values());
    }

    private static String key(DataRow r) {
        return r.text(Columns.JDK) + "|" + r.mode() + "|" + version(r, PGJDBC) + "|" + version(r, HIKARI);
    }

    /** "JDK 21, virtual, pgjdbc 42.7.8, HikariCP 7.0.2: 1,850 req/s, 350 µs CPU per request, ..." over its ok reps. */
    static String combination(List<DataRow> ok, DataRow combo) {
        List<DataRow> g = ok.stream().filter(r -> key(r).equals(key(combo))).toList();
        String mode = combo.mode();
        String s = String.format(Locale.ROOT, "JDK %s, %s%s, pgjdbc %s, HikariCP %s: %s, %s µs CPU per request, %.3f involuntary and %.2f voluntary"
                        + " context switches per request", combo.text(Columns.JDK), mode, mode.equals(Threads.PLATFORM.word) ? " (baseline)" : "",
                version(combo, PGJDBC), version(combo, HIKARI), SpringRig.rps(Rows.mean(g, Columns.RPS)), SpringRig.fmt(mean(g, LibrariesExperiment::cpuUsPerRequest)),
                mean(g, r -> perRequest(r, Columns.CTXSW_INVOL)), mean(g, r -> perRequest(r, Columns.CTXSW_VOL)));
        double pins = mean(g, r -> perRequest(r, Columns.PINNED) * 1000);
        if (!Double.isNaN(pins)) s += String.format(Locale.ROOT, ", %s pins per 1,000 requests", SpringRig.fmt(pins));
        double waited = Rows.max(g, Columns.HIKARI_PENDING_MAX);
        if (!Double.isNaN(waited)) s += String.format(Locale.ROOT, ", up to %.0f waiting for a connection", waited);
        double p99 = Rows.mean(g, Columns.P99);
        if (!Double.isNaN(p99)) s += ", p99 " + SpringRig.fmt(p99) + " ms";
        return s + (g.size() > 1 ? " (mean of " + g.size() + " reps)" : "");
    }

    static JarLibraries.Library library(String lib, String version) {
        String[] ga = COORDINATES.get(lib);
        return new JarLibraries.Library(ga[0], ga[1], version, "the " + lib + " build of this run");
    }

    /** The static table's verdict on one version, with the run's JDKs. */
    static String known(String lib, String version, List<Integer> jdks) {
        return KnownLibraries.check(List.of(library(lib, version)), jdks).stream().findFirst().map(KnownLibraries.Finding::line)
                .orElse(String.join(":", COORDINATES.get(lib)) + ":" + version + ": not in the table");
    }
}
