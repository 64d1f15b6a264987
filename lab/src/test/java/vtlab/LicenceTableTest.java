package vtlab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import vtlab.tier.tool.Tools;

/**
 * docs/setup.md's licence table has a row for every tool the lab installs ({@link Tools#all()}), keyed on the tool's
 * name, each with its licence. The table may name more tools than Tools has (one being added), never fewer.
 */
class LicenceTableTest {
    static final Path SETUP = DocsLinksTest.HOME.resolve("docs/setup.md");
    static final Pattern NAME = Pattern.compile("`([^`]+)`");

    /** The tools' table under "## Licences": each tool's name (the first cell's `name`) and its row's cells. */
    static Map<String, List<String>> toolRows() throws IOException {
        List<String> lines = Files.readAllLines(SETUP);
        int start = lines.indexOf("## Licences");
        assertTrue(start >= 0, "docs/setup.md has no '## Licences' section");
        Map<String, List<String>> rows = new LinkedHashMap<>();
        boolean inTools = false;
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) break;
            if (line.startsWith("### ")) inTools = line.toLowerCase().contains("tools");
            if (!inTools || !line.startsWith("|") || line.startsWith("|---")) continue;
            List<String> cells = new ArrayList<>();
            for (String c : line.substring(1).split("\\|")) cells.add(c.strip());
            Matcher m = NAME.matcher(cells.getFirst());
            while (m.find()) rows.put(m.group(1), cells);
        }
        return rows;
    }

    @Test
    void everyToolTheLabInstallsHasItsLicence() throws IOException {
        Map<String, List<String>> rows = toolRows();
        List<String> missing = Tools.all().keySet().stream().filter(t -> !rows.containsKey(t)).toList();
        assertEquals(List.of(), missing, "tools of Tools.all() without a row in docs/setup.md's licence table");
        rows.forEach((tool, cells) -> assertTrue(cells.size() >= 4 && !cells.get(1).isBlank() && !cells.get(3).isBlank(),
                tool + ": a licence and why it was chosen, in " + cells));
    }

    /** k6 is AGPL-3.0: the table says so, and that it is installed only when chosen. */
    @Test
    void k6IsMarkedAgplAndOptIn() throws IOException {
        List<String> k6 = toolRows().get("k6");
        assertTrue(k6 != null && k6.get(1).contains("AGPL-3.0") && k6.get(1).contains("opt-in"), String.valueOf(k6));
    }

    /** The libraries' table names what the poms ship: each library the lab and its systems under test depend on. */
    @Test
    void theLibrariesTableNamesWhatThePomsShip() throws IOException {
        String setup = Files.readString(SETUP);
        String libraries = setup.substring(setup.indexOf("### Libraries"));
        for (String lib : List.of("Tomcat", "Spring Boot", "Reactor Netty", "HikariCP", "pgjdbc", "Jackson", "HdrHistogram", "JMH",
                "async-profiler", "jfr-converter", "Commons Statistics", "sqlite-jdbc", "Chart.js", "Kotlin", "JUnit", "Selenium")) {
            assertTrue(libraries.contains(lib), lib + " is not in docs/setup.md's libraries table");
        }
    }
}
