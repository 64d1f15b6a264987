package vtlab.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Short helper commands of the tiers (initdb, useradd, prlimit) and of the hosts (ssh, scp, ip): bounded in time, output
 * kept for the error.
 */
public final class Commands {
    private Commands() {}

    public record Result(int code, String output) {
        public boolean ok() {
            return code == 0;
        }
    }

    /** Runs a short command; its output on failure goes into the exception. */
    public static String run(List<String> cmd, Duration timeout) throws IOException, InterruptedException {
        Result r = attempt(cmd, timeout);
        if (!r.ok()) throw new IOException(String.join(" ", cmd) + " failed (" + r.code() + "): " + r.output().strip());
        return r.output();
    }

    /** Runs a short command and returns its exit code and output (via a file, so a hung command cannot block us). */
    public static Result attempt(List<String> cmd, Duration timeout) throws IOException, InterruptedException {
        Path out = Files.createTempFile("vtlab-cmd", ".txt");
        try {
            Process p = Children.track(new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start());
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                Children.stop(p.toHandle(), 1000);
                throw new IOException(String.join(" ", cmd) + " did not finish in " + timeout.toSeconds() + " s");
            }
            return new Result(p.exitValue(), Files.readString(out));
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
