package vtlab.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import vtlab.tier.host.TierProcess;
import vtlab.tier.tool.Jdk;

/**
 * A named JFR recording in another JVM, started, dumped and stopped with jcmd where that JVM runs (here or on a
 * host: its settings sent there, each dump fetched back), so the probes and the thread-mode check share one way.
 */
public final class JfrRecording {
    private final TierProcess jvm;
    private final Jdk jdk;
    private final String name;
    private boolean running = true;

    private JfrRecording(TierProcess jvm, Jdk jdk, String name) {
        this.jvm = jvm;
        this.jdk = jdk;
        this.name = name;
    }

    /** Writes the settings (a .jfc) to {@code jfc} and starts the recording {@code name} with them in {@code jvm}. */
    public static JfrRecording start(TierProcess jvm, Jdk jdk, String name, Path jfc, String settings) throws IOException, InterruptedException {
        Files.writeString(jfc, settings);
        jvm.site().jcmd(jdk, jvm.pid(), List.of("JFR.start", "name=" + name, "settings=" + jvm.site().send(jfc)));
        return new JfrRecording(jvm, jdk, name);
    }

    /** Everything recorded so far, written to {@code file} (where the JVM runs) and fetched to it here; it goes on recording. */
    public Path dump(Path file) throws IOException, InterruptedException {
        jvm.site().jcmd(jdk, jvm.pid(), List.of("JFR.dump", "name=" + name, "filename=" + jvm.site().path(file)));
        jvm.site().fetch(file);
        return file;
    }

    /**
     * Stops the recording if it still runs; its data is gone unless dumped first. Throws {@link SutNotClean} when the
     * JFR.stop fails (a jcmd timeout) in a JVM that still runs: the recording may sample on.
     */
    public void stop() throws IOException, InterruptedException {
        if (!running) return;
        running = false;
        try {
            jvm.site().jcmd(jdk, jvm.pid(), List.of("JFR.stop", "name=" + name));
        } catch (IOException e) {
            if (!jvm.alive()) throw e; // the JVM exited: nothing records any more
            throw new SutNotClean("JFR recording " + name + " could not be stopped: " + e.getMessage().lines().findFirst().orElse(""), e);
        }
    }

    /** The recording dumped to {@code file} and stopped: what a probe keeps of its hold. */
    public Path finish(Path file) throws IOException, InterruptedException {
        try {
            dump(file);
        } finally {
            stop(); // also when the dump failed: its sampling must not run on into the next hold in this JVM
        }
        return file;
    }
}
