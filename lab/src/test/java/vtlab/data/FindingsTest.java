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
        Findings f = new Findings(List.of(new Findings.Entry("servlet", "one line", List.of(Finding.of("a"), new Finding("b", List.of(3, 4))), null, null),
                new Findings.Entry("thread-cost", "study", List.of(), "java.lang.IllegalStateException: x", "jmh")), List.of(s));
        f.write(dir);
        Findings back = Findings.read(dir);
        assertEquals(f, back);
        assertEquals(List.of("servlet", "thread-cost"), back.names());
        assertNull(back.of("nope"));
        assertEquals(List.of("a", "b"), back.of("servlet").lines());
        assertEquals(List.of(3, 4), back.of("servlet").findings().get(1).rows(), "a finding's rows are data in the file");
    }

    /** A finding's claims, typed, come back as written (a ray's open end as null: JSON has no infinity). */
    @Test
    void aFindingsClaimsRoundTrip() throws Exception {
        vtlab.data.judge.Claim c = vtlab.data.judge.Judge.ratio("v / p req/s", new double[] {1000, 1250}, new double[] {3000, 3010},
                vtlab.data.judge.Margin.DEFAULT);
        Findings f = new Findings(List.of(new Findings.Entry("ab", "s", List.of(new Finding("x", List.of(1, 2)).withClaims(List.of(c))), null, null)), List.of());
        f.write(dir);
        java.util.Map<String, Object> back = Findings.read(dir).of("ab").findings().getFirst().claims().getFirst();
        assertEquals("better", back.get("answer"));
        assertEquals("at_least", back.get("set"));
        assertNull(back.get("high"));
        assertEquals(c.set().low(), (Double) back.get("low"), 1e-12);
    }

    /** A findings.json written before findings carried their rows: its sentences are kept, with no row. */
    @Test
    void aFileOfSentencesOnlyIsStillRead() throws Exception {
        java.nio.file.Files.writeString(dir.resolve(Findings.FILE), "{\"experiments\": [{\"name\": \"ab\", \"summary\": \"s\", "
                + "\"lines\": [\"x (row 1, 97% app CPU)\"], \"error\": null, \"section\": null}], \"sections\": []}");
        Findings back = Findings.read(dir);
        assertEquals(List.of(Finding.of("x (row 1, 97% app CPU)")), back.of("ab").findings());
    }

    @Test
    void aFolderWithoutTheFileHasNone() throws Exception {
        assertEquals(Findings.none(), Findings.read(dir));
        assertEquals(new StudySection("x.csv", "x", "x.csv", "x", "x", null, null), StudySection.table("x.csv"));
    }
}
