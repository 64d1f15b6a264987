package vtlab.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The last lines of a tier's log, on one line, for the error that says why the tier failed. */
public final class LogTail {
    private LogTail() {}

    public static String of(Path log, int n) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }
}
