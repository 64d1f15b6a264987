package vtlab.experiment.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;

import org.junit.jupiter.api.Test;

import vtlab.plan.Row;
import vtlab.stack.Stack;

/** The launch lever's variant: a real Spring Boot jar extracted, then run from the service's own working folder. */
class ExtractedTest {
    /**
     * Only the launch changes: the extracted jar is the lab's (never written beside the user's), while the working
     * folder stays the one the jar runs in as shipped, where a service reads ./config/ and ./application.properties.
     */
    @Test
    void theExtractedJarRunsInTheFolderTheShippedJarRunsIn() throws Exception {
        Row row = AbExperimentTest.plan("--app", AbExperimentTest.SPRING_JAR, "--url", "/x", "--conc", "20", "--modes", "platform").getFirst();
        Stack shipped = Stack.load(row.stack()), extracted = Stack.load(Levers.EXTRACTED.apply(row, "extracted").stack());
        assertNull(extracted.launch().command(), "extracted: " + extracted.description());
        assertTrue(Files.isRegularFile(extracted.jar()), extracted.jar().toString());
        assertNotEquals(shipped.jar().getParent(), extracted.jar().getParent(), "extracted into a folder of the lab's own");
        assertEquals(shipped.dir(), extracted.dir(), "the working folder, where ./config/ is read");
    }
}
