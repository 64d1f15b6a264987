package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FindingsTest {
    @TempDir
    Path dir;

    @Test
    void roundTripsThroughTheRunFolder() throws Exception {
        StudySection s = new StudySection("jmh.csv", "jmh", "JMH", "JMH", "jmh", StudySection.SCORES, "Scores ± error");
        Findings f = new Findings(List.of(new Findings.Entry("servlet", "one line", List.of("a", "b"), null, null),
                new Findings.Entry("thread-cost", "study", List.of(), "java.lang.IllegalStateException: x", "jmh")), List.of(s));
        f.write(dir);
        Findings back = Findings.read(dir);
        assertEquals(f, back);
        assertEquals(List.of("servlet", "thread-cost"), back.names());
        assertNull(back.of("nope"));
    }

    @Test
    void aFolderWithoutTheFileHasNone() throws Exception {
        assertEquals(Findings.none(), Findings.read(dir));
        assertEquals(new StudySection("x.csv", "x", "x.csv", "x", "x", null, null), StudySection.table("x.csv"));
    }
}
