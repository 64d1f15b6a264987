package vtlab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The lab's layering, checked on its sources: data flows one way (CLI -> plan -> runner -> dataset -> report), so a
 * package may only use packages of a lower layer (or its own). A new package must be given a layer here.
 */
class ArchitectureTest {
    /** Layer of each top-level package under vtlab; families such as experiment.servlet belong to their parent. */
    static final Map<String, Integer> LAYER = Map.ofEntries(
            Map.entry("core", 0),       // refusals (UsageError) and option parsing: every layer may use it
            Map.entry("stack", 1),      // stack descriptors
            Map.entry("tier", 2),       // processes: SUT, PostgreSQL, stub, CPUs, JDKs
            Map.entry("data", 3),       // columns, datasets, run folders, the row reader
            Map.entry("plan", 4),       // rows, experiment and study contracts, bounds
            Map.entry("check", 5),      // validity of a row
            Map.entry("load", 5),       // generators
            Map.entry("probe", 5),      // probes
            Map.entry("run", 6),        // carries out planned rows
            Map.entry("experiment", 6), // plans rows and reads them back into findings
            Map.entry("report", 7),     // renders a run folder (data layer only, see below)
            Map.entry("cli", 8));       // the commands, on top

    static final Path SOURCES = Path.of(System.getProperty("vtlab.home", "..")).resolve("lab/src/main/java/vtlab");
    private static final Pattern REF = Pattern.compile("\\bvtlab\\.([a-z]+)\\.");

    /** Top-level package -> the top-level packages its sources refer to (imports and fully qualified names). */
    static Map<String, Set<String>> uses() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = SOURCES.relativize(f).getName(0).toString();
                Set<String> used = uses.computeIfAbsent(pkg, k -> new TreeSet<>());
                for (String line : Files.readAllLines(f)) {
                    // comments may name any layer ("see vtlab.run.WarmUp"); only code makes a dependency
                    String code = line.strip();
                    if (code.startsWith("package ") || code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) continue;
                    int comment = code.indexOf("//");
                    Matcher m = REF.matcher(comment >= 0 ? code.substring(0, comment) : code);
                    while (m.find()) if (!m.group(1).equals(pkg)) used.add(m.group(1));
                }
            }
        }
        return uses;
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

    /** The check itself: a test that cannot fail proves nothing. */
    @Test
    void theScanSeesRealReferences() throws IOException {
        Map<String, Set<String>> uses = uses();
        assertTrue(uses.get("cli").contains("run"), "cli starts the runner: " + uses.get("cli"));
        assertTrue(uses.get("probe").contains("plan"), "probes read the row: " + uses.get("probe"));
    }
}
