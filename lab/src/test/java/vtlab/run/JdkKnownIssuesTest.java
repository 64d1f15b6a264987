package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.plan.PlannedRow;
import vtlab.plan.Row;
import vtlab.tier.tool.Jdk;

/** environment.json's jdk_known_issues: each JDK the rows run on by its exact update, with the known JDK issues it has. */
class JdkKnownIssuesTest {
    static PlannedRow on(String version) {
        Row r = RowRunnerTest.row("virtual", 1);
        Jdk jdk = new Jdk(Path.of("/jdk-" + version), Integer.parseInt(version.split("\\.")[0]), version, "test");
        return PlannedRow.of(r.toBuilder().jdk(jdk).build(), List.of());
    }

    @Test
    void eachJdkOfTheRowsByItsExactUpdate() {
        Map<String, String> issues = Runner.jdkKnownIssues(List.of(on("25.0.3"), on("25.0.3"), on("25.0.4"), on("21.0.9")));
        assertEquals(List.of("25.0.3", "25.0.4"), List.copyOf(issues.keySet()), "21 has none known: left out");
        assertTrue(issues.get("25.0.3").startsWith("25.0.3: AFFECTED — JDK-8373120"), issues.get("25.0.3"));
        assertTrue(issues.get("25.0.4").startsWith("25.0.4: not affected"), issues.get("25.0.4"));
    }
}
