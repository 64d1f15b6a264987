package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The report reads only the data layer: it must not reach for the experiments, the plan, the CLI or the runner. */
class ReportLayeringTest {
    private static final Path SOURCES = Path.of("src/main/java/vtlab/report");
    /** `import vtlab.x` and fully qualified `vtlab.x.` references alike. */
    private static final Pattern REFERENCE = Pattern.compile("\\bvtlab\\.(plan|experiment|cli|run)\\b");

    @Test
    void reportImportsNothingFromPlanExperimentCliOrRun() throws Exception {
        assertTrue(Files.isDirectory(SOURCES), "run from the lab module: " + SOURCES.toAbsolutePath());
        List<String> found = new ArrayList<>();
        int files = 0;
        try (Stream<Path> all = Files.walk(SOURCES)) {
            for (Path f : all.filter(p -> p.toString().endsWith(".java")).toList()) {
                files++;
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i);
                    if (line.trim().startsWith("package ")) continue;
                    Matcher m = REFERENCE.matcher(line);
                    if (m.find()) found.add(f.getFileName() + ":" + (i + 1) + ": " + line.trim());
                }
            }
        }
        assertTrue(files > 5, "report sources found: " + files);
        assertEquals(List.of(), found);
    }

    @Test
    void thePatternCatchesImportsAndQualifiedNames() {
        assertTrue(REFERENCE.matcher("import vtlab.experiment.registry.Experiments;").find());
        assertTrue(REFERENCE.matcher("x = vtlab.cli.vtlab.core.LabHome.get();").find());
        assertTrue(REFERENCE.matcher("import static vtlab.run.Runner.x;").find());
        assertTrue(!REFERENCE.matcher("import vtlab.data.Rows;").find());
        assertTrue(!REFERENCE.matcher("import vtlab.report.Html;").find());
    }
}
