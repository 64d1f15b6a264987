package vtlab.experiment.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.Findings;
import vtlab.data.StudySection;

class RunFindingsTest {
    @TempDir
    Path dir;

    @Test
    void studiesSharingAFileShareItsSectionAndUnknownNamesAreLeftOut() throws Exception {
        Path run = Files.createDirectories(dir.resolve("20260101T000000Z-thread-cost+threadlocal+thread-memory"));
        List<String> names = RunFindings.experimentsOf(run);
        assertEquals(List.of("thread-cost", "threadlocal", "thread-memory"), names);
        Findings f = RunFindings.write(run, List.of("thread-cost", "nope", "threadlocal", "thread-memory"));
        assertEquals(names, f.names());
        assertEquals(List.of("jmh", "thread-memory"), f.sections().stream().map(StudySection::anchor).toList());
        assertEquals("jmh", f.of("threadlocal").section());
        assertNull(f.of("thread-cost").error());
        assertEquals(f, Findings.read(run));
    }
}
