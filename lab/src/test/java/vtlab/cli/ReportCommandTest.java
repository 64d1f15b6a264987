package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
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
        assertThrows(UsageError.class, () -> new ReportCommand().run(vtlab.cli.Main.parse(List.of()), List.of(dir.toString()), System.out));
        assertThrows(UsageError.class, () -> new ReportCommand().run(vtlab.cli.Main.parse(List.of()), List.of(), System.out));
        assertThrows(UsageError.class, () -> new ReportCommand().run(vtlab.cli.Main.parse(List.of("--bogus", "1")), List.of(dir.toString()), System.out));
    }

    /** A matrix.csv that cannot be read or is not one: one line, exit code 2 (UsageError), no report written of it. */
    @Test
    void refusesAnUnreadableOrCorruptMatrix() throws Exception {
        Path garbage = run("garbage"), foreign = run("foreign"), torn = run("torn"), folder = run("folder");
        Files.write(garbage.resolve("matrix.csv"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, (byte) 0xc3, 0x28, '\n'});
        Files.writeString(foreign.resolve("matrix.csv"), "a,b\n1,2\n");
        Files.writeString(torn.resolve("matrix.csv"), "experiment,status,note\nservlet,ok,\"a, b\",extra,cells\nservlet,ok,\n");
        Files.createDirectories(folder.resolve("matrix.csv"));
        for (Path run : List.of(garbage, foreign, torn, folder)) {
            for (Command c : List.of(new ReportCommand(), new CompareCommand())) {
                List<String> args = c instanceof ReportCommand ? List.of(run.toString()) : List.of(run.toString(), run.toString());
                UsageError e = assertThrows(UsageError.class, () -> c.run(vtlab.cli.Main.parse(List.of()), args, System.out), run + " " + c.name());
                assertTrue(e.getMessage().contains("matrix.csv") && !e.getMessage().contains("\n"), e.getMessage());
            }
            assertFalse(Files.exists(run.resolve("report.html")), "no report of " + run);
        }
    }

    private Path run(String name) throws Exception {
        Path p = Files.createDirectories(dir.resolve(name));
        Files.writeString(p.resolve("environment.json"), "{}");
        return p;
    }
}
