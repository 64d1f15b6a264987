package vtlab.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import vtlab.tier.Jdk;

/** Runs a jcmd diagnostic command against a SUT JVM and returns its output; fails on a non-zero exit. */
public final class Jcmd {
    private Jcmd() {}

    public static String run(Jdk jdk, long pid, String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(jdk.jcmdOrLabs().toString(), Long.toString(pid)));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("jcmd " + String.join(" ", command) + " timed out");
        }
        if (p.exitValue() != 0) throw new IOException("jcmd " + String.join(" ", command) + " failed: " + out.strip());
        return out;
    }
}
