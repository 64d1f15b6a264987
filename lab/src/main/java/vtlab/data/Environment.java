package vtlab.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import vtlab.core.Secrets;
import vtlab.proc.CoreMap;
import vtlab.tier.tool.Jdk;

/**
 * environment.json: the machine, the core map, the JDKs, vtlab's version, the generator, every flag given and the
 * run's status, for people and tools. The lab reads no decision back from it: what it reads back is kept apart
 * ({@link RunKept}).
 */
public final class Environment {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final Map<String, Object> doc = new LinkedHashMap<>();
    /** The JDKs' key: each with its home, major, version and vendor (a folder written before kept.json: see {@link RunKept#ofEnvironment}). */
    static final String JDKS = "jdks";

    public Environment(List<String> args, Map<String, List<String>> options, CoreMap coreMap, List<Jdk> jdks,
                       String generator, String generatorVersion, List<String> probes, int rows) {
        doc.put("status", "running");
        doc.put("started", Instant.now().toString());
        // what the service and the generators are given as they are, written with their secrets masked
        doc.put("command", "./vtlab " + String.join(" ", Secrets.commandLine(args)));
        doc.put("options", Secrets.options(options));
        doc.put("vtlab_version", version());
        doc.put("vtlab_commit", commit());
        doc.put("cpu_model", cpuModel());
        doc.put("cpus", coreMap.machineCpus());
        doc.put("memory_total_kb", memTotalKb());
        doc.put("kernel", readFirst(Path.of("/proc/sys/kernel/osrelease")));
        doc.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        doc.put("core_map", coreMap.cpus());
        doc.put(JDKS, jdks.stream().map(j -> Map.of("home", j.home().toString(), "major", j.major(), "version", j.version(), "vendor", j.vendor())).toList());
        doc.put("lab_jdk", Runtime.version().toString());
        doc.put("generator", generator);
        doc.put("generator_version", generatorVersion);
        doc.put("probes", probes);
        doc.put("rows_planned", rows);
    }

    public synchronized void set(String key, Object value) {
        doc.put(key, value);
    }

    public synchronized void write(Path file) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        JSON.writeValue(tmp.toFile(), doc);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    public static String version() {
        String v = Environment.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0" : v;
    }

    public static String commit() {
        try {
            Process p = new ProcessBuilder("git", "-C", System.getProperty("vtlab.home", "."), "describe", "--always", "--dirty")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            return p.waitFor() == 0 ? out : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** This machine's memory in KiB (/proc/meminfo's MemTotal), -1 when it cannot be read. */
    public static long memTotalKb() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                    .map(l -> Long.parseLong(l.replaceAll("\\D", ""))).findFirst().orElse(-1L);
        } catch (IOException e) {
            return -1;
        }
    }

    static String readFirst(Path p) {
        try {
            return Files.readString(p).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
