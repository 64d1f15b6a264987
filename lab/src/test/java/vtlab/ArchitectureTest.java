package vtlab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The lab's layering, checked on its sources: data flows one way (CLI -> plan -> runner -> dataset -> report), so a
 * top-level package may only use packages of a lower layer (or its own), and no package, sub-packages counted apart
 * (tier, tier.host, experiment.capacity, ...), takes part in an import cycle. Inside a package folder the same holds
 * one level down: each package of a folder with sub-packages has a sub-layer ({@link #SUB_LAYER}), and a package may
 * use only packages of its folder in a lower sub-layer ("upward" is what {@link #LAYER} calls it between folders: a use
 * of the same or a higher layer). A new top-level package must be given a layer here, a new sub-package a sub-layer.
 */
class ArchitectureTest {
    /** Layer of each top-level package under vtlab; its sub-packages share it (and may not form a cycle among them). */
    static final Map<String, Integer> LAYER = Map.ofEntries(
            Map.entry("core", 0),       // refusals (UsageError) and option parsing: every layer may use it
            Map.entry("proc", 1),       // this machine's processes: children, commands, logs, ports, CPUs, file limits
            Map.entry("stack", 2),      // stack descriptors
            Map.entry("tier", 3),       // tools and JDKs (tier.tool), hosts (tier.host), the tiers, fault kinds (tier.fault)
            Map.entry("data", 4),       // columns, datasets, run folders, the row reader
            Map.entry("plan", 5),       // rows, experiment and study contracts, bounds
            Map.entry("check", 6),      // validity of a row
            Map.entry("load", 6),       // generators
            Map.entry("probe", 6),      // probes
            Map.entry("run", 7),        // carries out planned rows
            Map.entry("experiment", 7), // plans rows and reads them back into findings (the registry, experiment.registry, on top)
            Map.entry("planning", 8),   // a run's plan (RunPlan) from its options, and the machine checked for it (Preflight)
            Map.entry("report", 8),     // renders a run folder (data layer only, see below)
            Map.entry("cli", 9));       // the commands, on top

    /**
     * Sub-layer of each package inside a folder that has sub-packages, lowest 0: within a folder a package uses only
     * packages of a lower sub-layer (the folder's other packages it does not know).
     */
    static final Map<String, Integer> SUB_LAYER = Map.ofEntries(
            Map.entry("tier.tool", 0),             // the external programs and JDKs
            Map.entry("tier.host", 1),             // hosts and where a process runs
            Map.entry("tier", 2),                  // the tiers
            Map.entry("tier.fault", 3),            // faults and their kinds, above the tiers, which know no fault
            Map.entry("load", 0),                  // what the rest of the lab sees: Generator, LoadSpec, LoadResult, series, agents
            Map.entry("load.agent", 1),            // several load agents run as one generator, knowing no tool
            Map.entry("load.generator", 2),        // the tools (wrk, hey, oha, vegeta, k6), each with its agents' share, and their registry
            Map.entry("data.judge", 0),            // the one judge: intervals, ratios, claims, their error rates; knows no row
            Map.entry("data", 1),                  // columns, rows, run folders: their claims go through the judge
            Map.entry("experiment", 0),            // the helpers experiments share
            Map.entry("experiment.seeds", 1),      // the seed claims, checked by other families too
            Map.entry("experiment.ab", 1),         // the ab verdict, which scenario files give too
            Map.entry("experiment.capacity", 2),   // the families
            Map.entry("experiment.jmh", 2),
            Map.entry("experiment.reactive", 2),
            Map.entry("experiment.scenario", 2),
            Map.entry("experiment.scenario.accesslog", 1), // an access log read into its traffic, which init writes as a scenario
            Map.entry("experiment.servlet", 2),
            Map.entry("experiment.servers", 2),
            Map.entry("experiment.spring", 2),
            Map.entry("experiment.registry", 3));  // the registry and the findings, on top of the families

    static final Path SOURCES = Path.of(System.getProperty("vtlab.home", "..")).resolve("lab/src/main/java/vtlab");
    /** A reference to a class of the lab: its package is the lower-case names before the first capitalized one (or *). */
    static final Pattern REF = Pattern.compile("\\bvtlab((?:\\.[a-z][a-z0-9_]*)+)\\.(?:[A-Z]|\\*)");

    /**
     * Package (tier.host, experiment) -> the packages its sources refer to (imports and fully qualified names), each
     * with the classes that do, as "Class -> package": the graph every check here reads.
     */
    static Map<String, Map<String, Set<String>>> graph() throws IOException {
        Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = SOURCES.relativize(f.getParent()).toString().replace('/', '.');
                String cls = f.getFileName().toString().replaceFirst("\\.java$", "");
                Map<String, Set<String>> used = graph.computeIfAbsent(pkg, k -> new TreeMap<>());
                for (String u : references(Files.readAllLines(f))) {
                    if (!u.equals(pkg)) used.computeIfAbsent(u, k -> new TreeSet<>()).add(cls);
                }
            }
        }
        return graph;
    }

    /** The packages (relative to vtlab) that code lines refer to; comments may name any package ("see vtlab.run.WarmUp"). */
    static Set<String> references(List<String> lines) {
        Set<String> out = new TreeSet<>();
        for (String line : lines) {
            String code = line.strip();
            if (code.startsWith("package ") || code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) continue;
            int comment = code.indexOf("//");
            Matcher m = REF.matcher(comment >= 0 ? code.substring(0, comment) : code);
            while (m.find()) out.add(m.group(1).substring(1));
        }
        return out;
    }

    /** Top-level package -> the top-level packages its sources (sub-packages included) refer to. */
    static Map<String, Set<String>> uses() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        graph().forEach((pkg, used) -> {
            Set<String> top = uses.computeIfAbsent(top(pkg), k -> new TreeSet<>());
            for (String u : used.keySet()) if (!top(u).equals(top(pkg))) top.add(top(u));
        });
        return uses;
    }

    static String top(String pkg) {
        int dot = pkg.indexOf('.');
        return dot < 0 ? pkg : pkg.substring(0, dot);
    }

    /**
     * The import cycles of a graph: each set of packages that reach one another (a strongly connected component of
     * more than one package), as one cycle through them with the classes behind each step, e.g.
     * "tier -> tier.fault (PostgresTier) -> tier (ToxiproxyTier)".
     */
    static List<String> cycles(Map<String, Map<String, Set<String>>> graph) {
        List<String> out = new ArrayList<>();
        for (Set<String> component : components(graph)) {
            if (component.size() < 2) continue;
            out.add(cycleThrough(component, graph));
        }
        return out;
    }

    /** Tarjan's strongly connected components, each sorted by name. */
    static List<Set<String>> components(Map<String, Map<String, Set<String>>> graph) {
        Map<String, Integer> index = new HashMap<>(), low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new java.util.HashSet<>();
        List<Set<String>> out = new ArrayList<>();
        for (String v : new TreeSet<>(graph.keySet())) if (!index.containsKey(v)) strongConnect(v, graph, index, low, stack, onStack, out);
        return out;
    }

    private static void strongConnect(String v, Map<String, Map<String, Set<String>>> graph, Map<String, Integer> index,
                                      Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Map.of()).keySet()) {
            if (!index.containsKey(w)) {
                strongConnect(w, graph, index, low, stack, onStack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            out.add(component);
        }
    }

    /** A shortest cycle from the component's first package back to it, within the component, with its classes. */
    private static String cycleThrough(Set<String> component, Map<String, Map<String, Set<String>>> graph) {
        String start = component.iterator().next();
        Map<String, String> parent = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(start));
        String last = null;
        while (!queue.isEmpty() && last == null) {
            String v = queue.poll();
            for (String w : graph.getOrDefault(v, Map.of()).keySet()) {
                if (!component.contains(w)) continue;
                if (w.equals(start)) {
                    last = v;
                    break;
                }
                if (parent.putIfAbsent(w, v) == null) queue.add(w);
            }
        }
        List<String> path = new ArrayList<>(List.of(start));
        for (String v = last; v != null && !v.equals(start); v = parent.get(v)) path.add(1, v);
        path.add(start);
        StringBuilder sb = new StringBuilder(start);
        for (int i = 1; i < path.size(); i++) {
            sb.append(" -> ").append(path.get(i)).append(" (").append(String.join(", ", new TreeSet<>(graph.get(path.get(i - 1)).get(path.get(i))))).append(")");
        }
        Set<String> others = new TreeSet<>(component);
        path.forEach(others::remove);
        return sb + (others.isEmpty() ? "" : "; in the same circle: " + String.join(", ", others));
    }

    @Test
    void everyPackageHasALayer() throws IOException {
        Set<String> unplaced = new TreeSet<>(uses().keySet());
        unplaced.removeAll(LAYER.keySet());
        assertEquals(Set.of(), unplaced, "packages without a layer in ArchitectureTest.LAYER");
    }

    @Test
    void noPackageUsesOneAboveItOrBesideIt() throws IOException {
        List<String> wrong = new ArrayList<>();
        uses().forEach((pkg, used) -> {
            for (String u : used) {
                Integer from = LAYER.get(pkg), to = LAYER.get(u);
                if (from != null && to != null && to >= from) wrong.add(pkg + " -> " + u);
            }
        });
        assertEquals(List.of(), wrong, "uses of a package in the same or a higher layer (which makes cycles possible)");
    }

    /**
     * The uses inside a folder that run upward: a package using one of its folder in the same or a higher sub-layer,
     * as "tier.host -> tier (Site)"; a package of a folder with sub-packages that has no sub-layer, as "x: no sub-layer".
     */
    static List<String> upward(Map<String, Map<String, Set<String>>> graph, Map<String, Integer> subLayer) {
        List<String> out = new ArrayList<>();
        Set<String> folders = new TreeSet<>();
        for (String pkg : graph.keySet()) if (pkg.contains(".")) folders.add(top(pkg));
        for (String pkg : graph.keySet()) {
            if (folders.contains(top(pkg)) && !subLayer.containsKey(pkg)) out.add(pkg + ": no sub-layer");
        }
        graph.forEach((pkg, used) -> used.forEach((u, classes) -> {
            Integer from = subLayer.get(pkg), to = subLayer.get(u);
            if (top(u).equals(top(pkg)) && from != null && to != null && to >= from) {
                out.add(pkg + " -> " + u + " (" + String.join(", ", new TreeSet<>(classes)) + ")");
            }
        }));
        return out;
    }

    @Test
    void noPackageUsesOneAboveItOrBesideItInItsFolder() throws IOException {
        assertEquals(List.of(), upward(graph(), SUB_LAYER),
                "uses inside a folder of a package in the same or a higher sub-layer, or packages without one in ArchitectureTest.SUB_LAYER");
    }

    /** The check inside a folder can fail: an upward use, a use beside, and a sub-package without a sub-layer. */
    @Test
    void anUpwardUseInsideAFolderIsFound() {
        Map<String, Map<String, Set<String>>> g = new TreeMap<>(Map.of(
                "a", Map.of("a.low", Set.of("A1"), "b", Set.of("A2")),
                "a.low", Map.of("a", Set.of("L1", "L2"), "b", Set.of("L3")),
                "a.side", Map.of("a", Set.of("S1")),
                "a.new", Map.of(),
                "b", Map.of()));
        Map<String, Integer> sub = Map.of("a.low", 0, "a", 1, "a.side", 1);
        assertEquals(List.of("a.new: no sub-layer", "a.low -> a (L1, L2)", "a.side -> a (S1)"), upward(g, sub));
        assertEquals(List.of(), upward(Map.of("a", Map.of("a.low", Set.of("A1")), "a.low", Map.of()), Map.of("a.low", 0, "a", 1)));
    }

    /** Sub-packages counted apart: tier.host, tier.fault and tier may not import one another in a circle. */
    @Test
    void noImportCycleBetweenAnyTwoPackages() throws IOException {
        assertEquals(List.of(), cycles(graph()), "import cycles (package -> package it imports (the classes that do))");
    }

    @Test
    void runUsesNeitherTheExperimentRegistryNorTheReport() throws IOException {
        Set<String> used = uses().getOrDefault("run", Set.of());
        assertTrue(!used.contains("experiment") && !used.contains("report") && !used.contains("cli"), "run uses " + used);
    }

    @Test
    void reportReadsOnlyTheDataLayer() throws IOException {
        Set<String> used = new TreeSet<>(uses().getOrDefault("report", Set.of()));
        used.removeAll(Set.of("data", "core"));
        assertEquals(Set.of(), used, "report/ may read the data layer (and core's refusals) only");
    }

    /**
     * The files that may write a thread mode's name as a literal: its declaration, and the JDK thread dump's field of
     * the same word (jcmd's format, not a mode). Everywhere else a mode is read from the declaration (ThreadMode.Threads,
     * a row's threads()), so a renamed or added mode is one edit.
     */
    static final Set<String> MODE_NAMES_DECLARED = Set.of("stack/ThreadMode.java", "probe/ThreadDump.java");
    static final Pattern MODE_NAME = Pattern.compile("\"(platform|virtual)\"");

    /** The code lines of a source that write a thread mode's name, as "file:line: code". */
    static List<String> modeNames(String file, List<String> lines) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String code = lines.get(i).strip();
            if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) continue;
            int comment = code.indexOf("// ");
            if (MODE_NAME.matcher(comment >= 0 ? code.substring(0, comment) : code).find()) out.add(file + ":" + (i + 1) + ": " + code);
        }
        return out;
    }

    /** What a scan finds in the main sources but those skipped, each named by its path under vtlab/ ("stack/Stack.java"). */
    static List<String> scanSources(Predicate<String> skip, BiFunction<String, List<String>, List<String>> scan) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String file = SOURCES.relativize(f).toString().replace('\\', '/');
                if (!skip.test(file)) found.addAll(scan.apply(file, Files.readAllLines(f)));
            }
        }
        return found;
    }

    @Test
    void threadModesAreNamedOnlyWhereTheyAreDeclared() throws IOException {
        List<String> found = scanSources(MODE_NAMES_DECLARED::contains, ArchitectureTest::modeNames);
        assertEquals(List.of(), found, "a thread mode named by its literal: use ThreadMode.Threads (PLATFORM.word, VIRTUAL.word) or the row's threads()");
        // the scan sees a literal in code, not one in a comment
        assertEquals(1, modeNames("X", List.of("if (mode.equals(\"virtual\")) x();", "// modes = [\"platform\", \"virtual\"]",
                " * threadMode(\"virtual\")", "if (mode.equals(Threads.VIRTUAL.word)) x(); // not \"platform\"")).size());
    }

    /**
     * A variable of type Options (a parameter, a local, a field), and a read of an option by its name as a string on
     * one (o.flag("quick"), given.has("conc"), o.withDefaults(Map.of("conc", ...))): a typo reads nothing, and the
     * declaration's default and help are bypassed. Outside core/ an option is read through its Opt (QUICK.on(o),
     * OUT.string(o)); a JSON node's has("name") is not an option's read.
     */
    static final Pattern OPTIONS_VARIABLE = Pattern.compile("\\bOptions\\s+(\\w+)\\s*[,)=;]");

    /** The code lines of a source that read an option by its name as a string, as "file:line: code". */
    static List<String> optionReadsByName(String file, List<String> lines) {
        Set<String> vars = new TreeSet<>();
        for (String line : lines) {
            Matcher m = OPTIONS_VARIABLE.matcher(line);
            while (m.find()) vars.add(m.group(1));
        }
        List<String> out = new ArrayList<>();
        if (vars.isEmpty()) return out;
        String v = "\\b(?:" + String.join("|", vars) + ")\\.";
        Pattern read = Pattern.compile(v + "(?:has|flag|string|every|all|choices|positiveInts|positiveInt|duration)\\(\\s*\""
                + "|" + v + "withDefaults\\(\\s*(?:java\\.util\\.)?Map\\.of\\(\\s*\"");
        for (int i = 0; i < lines.size(); i++) {
            String code = lines.get(i).strip();
            if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) continue;
            if (read.matcher(code).find()) out.add(file + ":" + (i + 1) + ": " + code);
        }
        return out;
    }

    @Test
    void optionsAreReadThroughTheirDeclarationsOutsideCore() throws IOException {
        List<String> found = scanSources(file -> file.startsWith("core/"), ArchitectureTest::optionReadsByName);
        assertEquals(List.of(), found, "an option read by its name: read it through its Opt (APP.given(o), OUT.string(o), QUICK.on(o), ...)");
        // the scan sees a read on any Options variable, not one through the Opt, a JSON node's or a comment's
        assertEquals(List.of("X:2: if (o.has(\"app\")) x();", "X:3: String g = merged.string(\"generator\", \"wrk\");",
                        "X:4: Options b = o.withDefaults(Map.of(\"conc\", \"1\"));"),
                optionReadsByName("X", List.of("static int f(Options o, Options merged) {", "if (o.has(\"app\")) x();",
                        "String g = merged.string(\"generator\", \"wrk\");", "Options b = o.withDefaults(Map.of(\"conc\", \"1\"));",
                        "if (APP.given(o)) x();", "if (node.has(\"app\")) x();", "// o.flag(\"quick\")")));
    }

    /**
     * What only the judge (vtlab.data.judge) may do: compute an interval, a ratio's set or a test statistic. A class
     * elsewhere asks the judge for a claim (Judge.ratio), a mean's interval (Stats.mean95) or a share's (Shares);
     * it does not hold a distribution of its own, or a test, or a Wilson or Fieller formula (a method of that name
     * called on the judge's classes, Shares.wilson, is the judge's).
     */
    static final Pattern STATISTICS = Pattern.compile("org\\.apache\\.commons\\.(statistics|math)|(?<![.\\w])(ratio95|changePct95|differ|wilson|fieller|t975)\\s*\\("
            + "|\\b(TDistribution|NormalDistribution|ChiSquaredDistribution|TTest)\\b|inverseCumulativeProbability");

    /** The code lines of a source that compute a statistic ({@link #STATISTICS}), as "Class: line". */
    static List<String> statistics(String cls, List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            String code = line.strip();
            if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) continue;
            int comment = code.indexOf("//");
            if (STATISTICS.matcher(comment >= 0 ? code.substring(0, comment) : code).find()) out.add(cls + ": " + code);
        }
        return out;
    }

    @Test
    void noIntervalRatioOrTestIsComputedOutsideTheJudge() throws IOException {
        List<String> found = new ArrayList<>();
        Path judge = SOURCES.resolve("data/judge");
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java") && !p.startsWith(judge)).toList()) {
                found.addAll(statistics(SOURCES.relativize(f).toString(), Files.readAllLines(f)));
            }
        }
        assertEquals(List.of(), found, "statistics computed outside vtlab.data.judge: ask the judge (Judge.ratio, Stats.mean95, Shares) instead");
        // the scan sees what it forbids, and not a comment or a call of the judge
        assertEquals(2, statistics("X", List.of("import org.apache.commons.statistics.distribution.TDistribution;", "double[] ci = wilson(p, n);",
                "// a wilson(p, n) in a comment", "double[] ci = Shares.wilson(p, n);", "Claim c = Judge.ratio(\"x\", a, b, m);", "Stats.Interval i = Stats.mean95(xs);")).size());
    }

    /**
     * report/ draws the claims findings.json holds and judges none: no class of it asks the judge for a claim or an
     * interval, but the three that still do, left from before the judge wrote typed claims: the compare command's
     * table (Compare), the report's measured verdicts of a run without an ab verdict (Verdicts), and summary.json's
     * mean intervals (RunSummary). A drawing (the charts, the forest plot) reads what they hold.
     */
    static final Set<String> REPORT_ASKS_THE_JUDGE = Set.of("Compare.java", "Verdicts.java", "RunSummary.java");

    @Test
    void reportDrawsClaimsAndJudgesNone() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES.resolve("report"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                if (REPORT_ASKS_THE_JUDGE.contains(f.getFileName().toString())) continue;
                for (String line : Files.readAllLines(f)) {
                    String code = line.strip();
                    if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) continue;
                    if (code.contains("vtlab.data.judge") || code.matches(".*\\b(Judge|Stats|Shares|RatioSet)\\.\\w+\\s*\\(.*")) found.add(f.getFileName() + ": " + code);
                }
            }
        }
        assertEquals(List.of(), found, "report/ draws the judge's claims (findings.json), it asks the judge for none");
    }

    /** The sources (relative to vtlab) whose text holds a string, comments included. */
    static List<String> filesHolding(String text) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                if (Files.readString(f).contains(text)) out.add(SOURCES.relativize(f).toString());
            }
        }
        return out;
    }

    /** The SUT's default port is RunOptions' (DEFAULT_PORT, --port's default): a second literal would drift from the help. */
    @Test
    void theDefaultPortIsWrittenInOneFile() throws IOException {
        assertEquals(List.of("plan/RunOptions.java"), filesHolding("18080"), "read RunOptions.PORT or RunOptions.DEFAULT_PORT instead");
    }

    /**
     * matrix.csv has one reader, data.RunDir ({@code rows()}, {@code existing(dir)}), so an absent, empty or torn file
     * means the same to every consumer: the file's name is written in RunDir alone, no class outside data/ resolves
     * it ({@code resolve(RunDir.MATRIX)}), and only the runner, which writes the file, asks RunDir for its path.
     */
    static List<String> matrixOpeners(String file, List<String> lines) {
        List<String> out = new ArrayList<>();
        boolean data = file.startsWith("data/"), writer = file.equals("run/Runner.java");
        for (String line : lines) {
            String code = line.strip();
            if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) continue;
            int comment = code.indexOf("//");
            if (comment >= 0) code = code.substring(0, comment);
            boolean name = code.contains("\"matrix.csv\"") && !file.equals("data/RunDir.java");
            boolean resolved = !data && code.matches(".*\\bresolve\\(\\s*(RunDir\\.)?MATRIX\\s*\\).*");
            boolean path = !data && !writer && code.matches(".*\\.matrix\\(\\s*\\).*");
            if (name || resolved || path) out.add(file + ": " + code.strip());
        }
        return out;
    }

    @Test
    void matrixCsvIsReadByRunDirAlone() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                found.addAll(matrixOpeners(SOURCES.relativize(f).toString(), Files.readAllLines(f)));
            }
        }
        assertEquals(List.of(), found, "matrix.csv opened outside data.RunDir: read its rows with RunDir.rows() (or RunDir.existing(dir))");
        // the scan sees what it forbids, and not a comment, a message or the reader
        assertEquals(3, matrixOpeners("report/X.java", List.of("Path m = dir.resolve(\"matrix.csv\");", "var rows = Dataset.rows(run.matrix());",
                "Path m = dir.resolve(RunDir.MATRIX);", "// dir.resolve(\"matrix.csv\")", " * run.matrix()", "problems.add(RunDir.MATRIX + \": \" + e);",
                "List<DataRow> rows = run.rows();", "out.println(\"results in matrix.csv, summary.txt\");")).size());
        assertEquals(List.of(), matrixOpeners("run/Runner.java", List.of("new Dataset(dir.matrix(), schema)")));
        assertEquals(1, matrixOpeners("run/Other.java", List.of("new Dataset(dir.matrix(), schema)")).size());
    }

    /**
     * The classes that open environment.json, each for a reason that decides nothing: the runner writes it, RunDir
     * names it, RunKept reads a run folder written before kept.json (its one reader of old folders), and the report's
     * RunData reads it to show people (the page's environment, compare's) and to copy it into summary.json for tools.
     */
    static final Set<String> ENVIRONMENT_OPENERS = Set.of("run/Runner.java", "data/RunDir.java", "data/RunKept.java", "report/RunData.java");
    /** Where the report shows environment.json (RunData's environment()): for people, beside the verdicts, never under them. */
    static final Set<String> ENVIRONMENT_SHOWN = Set.of("report/RunData.java", "report/ReportPage.java", "report/Compare.java", "report/RunSummary.java");

    /**
     * environment.json is written for people and tools, never read back by the lab for a decision (that is kept.json,
     * data.RunKept): its name is written in RunDir alone, no class outside RunDir resolves it, only
     * {@link #ENVIRONMENT_OPENERS} ask RunDir for its path (environmentJson()), only summary's step takes RunData's copy
     * (environmentCopy), and inside report/ only {@link #ENVIRONMENT_SHOWN} read RunData's environment().
     */
    static List<String> environmentOpeners(String file, List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            String code = line.strip();
            if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) continue;
            int comment = code.indexOf("//");
            if (comment >= 0) code = code.substring(0, comment);
            boolean name = code.contains("\"environment.json\"") && !file.equals("data/RunDir.java");
            boolean resolved = !file.equals("data/RunDir.java") && code.matches(".*\\bresolve\\(\\s*(RunDir\\.)?ENVIRONMENT\\s*\\).*");
            boolean path = !ENVIRONMENT_OPENERS.contains(file) && code.matches(".*\\.environmentJson\\(\\s*\\).*");
            boolean copy = !file.equals("report/RunData.java") && !file.equals("cli/RunSteps.java") && code.matches(".*\\benvironmentCopy\\(.*");
            boolean shown = file.startsWith("report/") && !ENVIRONMENT_SHOWN.contains(file) && code.matches(".*\\.environment\\(\\s*\\).*");
            if (name || resolved || path || copy || shown) out.add(file + ": " + code.strip());
        }
        return out;
    }

    @Test
    void environmentJsonIsReadForNoDecision() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                found.addAll(environmentOpeners(SOURCES.relativize(f).toString(), Files.readAllLines(f)));
            }
        }
        assertEquals(List.of(), found, "environment.json read outside its writer, RunKept's reader of old folders and the report's display:"
                + " read what the lab kept with RunKept.read(run) (kept.json)");
        // the scan sees what it forbids, and not a comment, a message, a declared read or the allowed
        assertEquals(5, environmentOpeners("experiment/X.java", List.of("JsonNode env = JSON.readTree(dir.resolve(\"environment.json\").toFile());",
                "Path e = run.resolve(RunDir.ENVIRONMENT);", "var doc = JSON.readTree(new RunDir(dir).environmentJson().toFile());",
                "JsonNode env = RunData.environmentCopy(dir);", "Path e = dir.resolve(ENVIRONMENT);",
                "// dir.resolve(\"environment.json\")", " * run.environmentJson()", "super(List.of(RunDir.MATRIX, RunDir.ENVIRONMENT), List.of(\"out\"));",
                "out.println(\"results in matrix.csv, environment.json, raw/\");", "pb.environment().putAll(env);",
                "RunKept kept = RunKept.read(new RunDir(dir));")).size());
        assertEquals(1, environmentOpeners("report/Verdicts.java", List.of("String status = data.environment().path(\"status\").asText();")).size());
        assertEquals(List.of(), environmentOpeners("report/ReportPage.java", List.of("JsonNode env = data.environment();")));
        assertEquals(List.of(), environmentOpeners("data/RunKept.java", List.of("JSON.readTree(run.environmentJson().toFile())")));
        assertEquals(List.of(), environmentOpeners("cli/RunSteps.java", List.of("RunSummary.of(rows, h, RunData.environmentCopy(dir.dir()), null, b);")));
    }

    /** The check itself: a test that cannot fail proves nothing. */
    @Test
    void theScanSeesRealReferences() throws IOException {
        Map<String, Set<String>> uses = uses();
        assertTrue(uses.get("cli").contains("run"), "cli starts the runner: " + uses.get("cli"));
        assertTrue(uses.get("probe").contains("plan"), "probes read the row: " + uses.get("probe"));
        Map<String, Map<String, Set<String>>> graph = graph();
        assertTrue(graph.containsKey("tier.host") && graph.containsKey("experiment.capacity"), "sub-packages are packages of their own: " + graph.keySet());
        assertEquals(Set.of("tier.host", "tier.fault", "experiment"),
                references(List.of("import vtlab.tier.host.Host;", "import static vtlab.tier.fault.Fault.parse;", "import vtlab.experiment.*;",
                        "// vtlab.run.Runner", " * {@link vtlab.cli.Main}", "String home = System.getProperty(\"vtlab.home\");")));
        assertEquals(Set.of("tier.host"), references(List.of("String p = vtlab.tier.host.Topology.PG;")));
    }

    @Test
    void aCycleIsFoundWithTheClassesBehindIt() {
        Map<String, Map<String, Set<String>>> g = Map.of(
                "a", Map.of("a.b", Set.of("A1")),
                "a.b", Map.of("c", Set.of("B1")),
                "c", Map.of("a", Set.of("C1", "C2"), "d", Set.of("C3")),
                "d", Map.of());
        assertEquals(List.of("a -> a.b (A1) -> c (B1) -> a (C1, C2)"), cycles(g));
        assertEquals(List.of(), cycles(Map.of("a", Map.of("b", Set.of("A")), "b", Map.of())));
    }
}
