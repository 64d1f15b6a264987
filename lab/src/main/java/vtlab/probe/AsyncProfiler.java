package vtlab.probe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import vtlab.tier.tool.Jdk;
import vtlab.tier.host.TierProcess;

/**
 * async-profiler (tools.profiler:async-profiler, a Maven dependency of the lab: its jar holds the Linux library) loaded
 * into a running SUT with jcmd JVMTI.agent_load, started and stopped the same way; stop writes its own interactive
 * flame graph (HTML). The library is extracted once into the lab's .vtlab/tools/ and, for a SUT on another host, sent
 * there like any file a probe gives the JVM.
 */
public final class AsyncProfiler {
    public static final String VERSION = "4.2";

    private AsyncProfiler() {}

    /** The library for this machine's architecture, extracted from the lab's classpath; null where the jar has none. */
    public static synchronized Path library() throws IOException {
        String arch = switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> "linux-x64";
            case "aarch64", "arm64" -> "linux-arm64";
            default -> null;
        };
        if (arch == null || !System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).contains("linux")) return null;
        Path out = vtlab.core.LabHome.get().resolve(".vtlab/tools/async-profiler-" + VERSION + "/" + arch + "/libasyncProfiler.so");
        if (Files.isRegularFile(out)) return out;
        try (InputStream in = AsyncProfiler.class.getClassLoader().getResourceAsStream(arch + "/libasyncProfiler.so")) {
            if (in == null) return null;
            Files.createDirectories(out.getParent());
            Path tmp = Files.createTempFile(out.getParent(), "lib", ".so");
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        return out;
    }

    /**
     * Loads the library into the JVM with these agent options ("start,event=wall,interval=10ms", "stop,file=X.html").
     * jcmd splits an unquoted argument at '=', so the options go in double quotes, as its parser allows.
     */
    public static void command(TierProcess jvm, Jdk jdk, String library, String options) throws IOException, InterruptedException {
        String out = Jcmd.run(jvm, jdk, "JVMTI.agent_load", library, "\"" + options + "\"");
        if (!out.contains("return code: 0")) throw new IOException("async-profiler " + options + ": " + out.strip());
    }

    /** The agent options that start wall-clock sampling (threads running or not) every interval ms. */
    static String start(int intervalMs) {
        return "start,event=wall,interval=" + intervalMs + "ms";
    }
}
