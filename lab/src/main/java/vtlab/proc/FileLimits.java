package vtlab.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Raises the lab's own open-file limit (soft and hard) before it starts any tier, so every child inherits it. A SUT
 * that calls a downstream holds two sockets per connection (the client's and its own call to the stub): 10,000
 * connections need over 20,000 descriptors, more than a common 20,000 hard limit. Only root can raise a hard limit;
 * elsewhere this does nothing and the caller's check reports the limit.
 */
public final class FileLimits {
    private FileLimits() {}

    /** Best effort: true when the soft limit is now at least {@code needed}. Never lowers a limit. */
    public static boolean raise(long needed) {
        long now = softLimit();
        if (now < 0 || now >= needed) return now >= needed;
        if (!"root".equals(System.getProperty("user.name"))) return false;
        long ceiling = nrOpen();
        if (ceiling <= now) return false;
        long target = Math.min(Math.max(needed, 65_536), ceiling);
        try {
            Commands.Result r = Commands.attempt(List.of("prlimit", "--pid", Long.toString(ProcessHandle.current().pid()),
                    "--nofile=" + target + ":" + target), Duration.ofSeconds(10));
            if (!r.ok()) System.err.println("vtlab: could not raise the open-file limit to " + target + ": " + r.output().strip());
        } catch (IOException e) {
            System.err.println("vtlab: could not raise the open-file limit: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return softLimit() >= needed;
    }

    /**
     * The kernel's ceiling for a process's open-file limit, or -1. Read in one go: a /proc/sys file answers a read at
     * a non-zero offset with end-of-file, so a reader that starts with a 1-byte read (Files.readString does, the file
     * reporting size 0) would see "1" of "1048576".
     */
    static long nrOpen() {
        try (var in = new java.io.FileInputStream("/proc/sys/fs/nr_open")) {
            return parseCeiling(new String(in.readNBytes(64), java.nio.charset.StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static long parseCeiling(String text) {
        return Long.parseLong(text.trim());
    }

    /** Soft limit of open files of this process, or -1 where /proc is not there. */
    public static long softLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }
}
