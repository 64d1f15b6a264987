package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.core.UsageError;

/** The one reader of matrix.csv: what every consumer gets for an absent, empty, header-only, torn or foreign file. */
class RunDirTest {
    @TempDir
    Path dir;

    @Test
    void rowsAreNumberedAsWrittenAndNoneWithoutAFile() throws Exception {
        RunDir run = new RunDir(dir);
        assertEquals(List.of(), run.rows(), "a run of studies only has no matrix.csv");
        try (Dataset d = new Dataset(run.matrix(), Schema.of(List.of(Columns.EXPERIMENT, Columns.STATUS)))) {
            assertEquals(List.of(), run.rows(), "the header alone");
            d.append(Map.of("experiment", "servlet", "status", "ok"));
            d.append(Map.of("experiment", "servlet", "status", "failed"));
        }
        List<DataRow> rows = run.rows();
        assertEquals(List.of(1, 2), rows.stream().map(DataRow::number).toList());
        assertEquals(List.of("ok", "failed"), rows.stream().map(DataRow::status).toList());
        assertEquals(run, RunDir.existing(dir));
    }

    @Test
    void existingRefusesWhatIsNoRunFolderOnOneLine() throws Exception {
        assertThrows(UsageError.class, () -> RunDir.existing(dir.resolve("missing")));
        assertThrows(UsageError.class, () -> RunDir.existing(dir), "neither matrix.csv nor environment.json");
        Files.writeString(dir.resolve("environment.json"), "{}");
        assertEquals(new RunDir(dir), RunDir.existing(dir), "a run stopped before its first row");
        Files.writeString(dir.resolve(RunDir.MATRIX), "");
        assertEquals(new RunDir(dir), RunDir.existing(dir), "an empty matrix.csv");
        Files.writeString(dir.resolve(RunDir.MATRIX), "experiment,status,note\n");
        assertEquals(new RunDir(dir), RunDir.existing(dir), "its header alone");
        for (String text : List.of("a,b\n", "a,b\n1,2\n", "experiment,status,note\nservlet,ok,\"a, b\",extra\nservlet,ok,\n")) {
            Files.writeString(dir.resolve(RunDir.MATRIX), text);
            UsageError e = assertThrows(UsageError.class, () -> RunDir.existing(dir), text);
            assertTrue(e.getMessage().contains(RunDir.MATRIX) && !e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
