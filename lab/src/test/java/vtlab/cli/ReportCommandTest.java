package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.core.Options;
import vtlab.core.UsageError;

class ReportCommandTest {
    @TempDir
    Path dir;

    @Test
    void refusesWhatIsNotARunFolder() {
        assertThrows(UsageError.class, () -> ReportCommand.runFolder(dir.resolve("missing").toString()));
        assertThrows(UsageError.class, () -> new ReportCommand().run(Options.parse(List.of()), List.of(dir.toString()), System.out));
        assertThrows(UsageError.class, () -> new ReportCommand().run(Options.parse(List.of()), List.of(), System.out));
        assertThrows(UsageError.class, () -> new ReportCommand().run(Options.parse(List.of("--bogus", "1")), List.of(dir.toString()), System.out));
    }
}
