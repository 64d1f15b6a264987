package vtlab.probe;

import java.io.IOException;
import java.util.List;

import vtlab.tier.tool.Jdk;
import vtlab.tier.host.Site;
import vtlab.tier.host.TierProcess;

/** Runs a jcmd diagnostic command against a SUT JVM where it runs ({@link Site}) and returns its output; fails on a non-zero exit. */
public final class Jcmd {
    private Jcmd() {}

    public static String run(TierProcess jvm, Jdk jdk, String... command) throws IOException, InterruptedException {
        return jvm.site().jcmd(jdk, jvm.pid(), List.of(command));
    }

    /** A JVM of this machine by its pid. */
    public static String run(Jdk jdk, long pid, String... command) throws IOException, InterruptedException {
        return Site.here().jcmd(jdk, pid, List.of(command));
    }
}
