package vtlab.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import vtlab.data.judge.Spread;

/**
 * What the lab keeps about the machine it runs on, across runs: .vtlab/machines/HOST.json (one file a machine, so a
 * checkout shared between machines keeps each one's apart), with the machine it was measured on (host, CPU model,
 * CPUs) and its noise floor, the spread between fresh JVMs that `./vtlab ab --aa` measured. A record whose CPU model or
 * count is not this machine's is not this machine's, and is not read. VTLAB_MACHINE_RECORDS (or -Dvtlab.machine.records)
 * names another folder: the tests' own, so that their short A/A runs never become the machine's floor.
 */
public final class MachineRecord {
    private MachineRecord() {}

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final String FOLDER_ENV = "VTLAB_MACHINE_RECORDS", FOLDER_PROPERTY = "vtlab.machine.records";

    /**
     * A noise floor as measured: when, by which run, on what (the A/A's scenario and configuration), and the spread
     * between its forks of throughput and of p99.
     */
    public record NoiseFloor(String measured, String run, String scenario, Spread rps, Spread p99) {
        /** "CV 4.1% (95% CI 2.8–7.9%, 10 forks) of throughput, measured by ./vtlab ab --aa on 2026-12-07 (/sleep?ms=50 at 200 connections, virtual as shipped)". */
        public String words() {
            return rps.words() + " of throughput, measured by ./vtlab ab --aa on " + measured.substring(0, Math.min(10, measured.length())) + " (" + scenario + ")";
        }

        public Map<String, Object> asMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("measured", measured);
            m.put("run", run);
            m.put("scenario", scenario);
            m.put("throughput", spread(rps));
            m.put("p99", spread(p99));
            return m;
        }

        /** From its map as written (environment.json or the machine's record); null when it is not one. */
        public static NoiseFloor of(JsonNode n) {
            if (n == null || !n.hasNonNull("measured") || !n.has("throughput")) return null;
            return new NoiseFloor(n.path("measured").asText(), n.path("run").asText(), n.path("scenario").asText(), spread(n.path("throughput")),
                    spread(n.path("p99")));
        }

        private static Map<String, Object> spread(Spread s) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("forks", s.units());
            m.put("cv", finite(s.cv()));
            m.put("low", finite(s.low()));
            m.put("high", finite(s.high()));
            return m;
        }

        private static Spread spread(JsonNode n) {
            if (n.isMissingNode() || n.isNull()) return Spread.NONE;
            return new Spread(n.path("forks").asInt(), number(n.path("cv")), number(n.path("low")),
                    n.path("high").isNull() && n.path("cv").isNumber() ? Double.POSITIVE_INFINITY : number(n.path("high")));
        }

        private static double number(JsonNode n) {
            return n.isNumber() ? n.asDouble() : Double.NaN;
        }

        private static Object finite(double v) {
            return Double.isFinite(v) ? v : null;
        }
    }

    /** This machine's record file. */
    public static Path file() {
        String dir = System.getProperty(FOLDER_PROPERTY, System.getenv(FOLDER_ENV));
        Path folder = dir != null && !dir.isBlank() ? Path.of(dir) : vtlab.core.LabHome.get().resolve(".vtlab/machines");
        return folder.resolve(host().replaceAll("[^A-Za-z0-9._-]", "_") + ".json");
    }

    /** This machine's noise floor, or null when none was measured here (or the record is another machine's). */
    public static NoiseFloor noiseFloor() {
        return noiseFloor(file());
    }

    static NoiseFloor noiseFloor(Path file) {
        try {
            if (!Files.exists(file)) return null;
            JsonNode doc = new ObjectMapper().readTree(file.toFile());
            if (!doc.path("cpu_model").asText().equals(Environment.cpuModel()) || doc.path("cpus").asInt() != Runtime.getRuntime().availableProcessors()) return null;
            return NoiseFloor.of(doc.path("noise_floor"));
        } catch (IOException e) {
            return null; // a record that does not read is no floor: the verdict says it was not measured
        }
    }

    /** Keeps the noise floor as this machine's (whole or not at all); the file it went to. */
    public static Path keep(NoiseFloor floor) throws IOException {
        return keep(file(), floor);
    }

    static Path keep(Path file, NoiseFloor floor) throws IOException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("host", host());
        doc.put("cpu_model", Environment.cpuModel());
        doc.put("cpus", Runtime.getRuntime().availableProcessors());
        doc.put("noise_floor", floor.asMap());
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        JSON.writeValue(tmp.toFile(), doc);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    static String host() {
        String h = Environment.readFirst(Path.of("/proc/sys/kernel/hostname"));
        return h.isBlank() || h.equals("unknown") ? "this-machine" : h.toLowerCase(Locale.ROOT);
    }
}
