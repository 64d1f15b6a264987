package vtlab.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.core.UsageError;

/**
 * A system under test, described by the `stack.json` in its folder under stacks/ (as TechEmpower's
 * benchmark_config.json): how to launch it, where its runtime-info is, and its workloads with the
 * response each must give before any load is sent.
 */
public record Stack(String name, String description, Path dir, Path jar, String runtimeInfoPath,
                    Map<String, String> env, Map<String, Workload> workloads) {

    /**
     * One endpoint to load. Path and service time may hold {param} placeholders filled from the row.
     *
     * @param bodyBytes request-body size as a template (e.g. "{bodyBytes}"): the body is that many bytes (overrides body)
     */
    public record Workload(String name, String path, int expectStatus, String expectBody, String serviceMs, String method,
                           String body, String bodyBytes) {
        public String pathFor(Map<String, String> params) {
            return fill(path, params);
        }

        /** The endpoint's fixed service time in ms (e.g. the sleep), if it has one. */
        public Double serviceMsFor(Map<String, String> params) {
            if (serviceMs == null) return null;
            return Double.parseDouble(fill(serviceMs, params));
        }

        /** This workload for one row: a body of bodyBytes bytes, and the row's params in expectBody (when it names any). */
        public Workload withParams(Map<String, String> params) {
            String b = bodyBytes == null ? body : "x".repeat(Integer.parseInt(fill(bodyBytes, params)));
            String expect = expectBody;
            for (var e : params.entrySet()) expect = expect.replace("{" + e.getKey() + "}", e.getValue());
            return new Workload(name, path, expectStatus, expect, serviceMs, method, b, null);
        }
    }

    public static String fill(String template, Map<String, String> params) {
        String out = template;
        for (var e : params.entrySet()) out = out.replace("{" + e.getKey() + "}", e.getValue());
        if (out.matches(".*\\{[a-zA-Z]+}.*")) throw new IllegalStateException("unfilled placeholder in " + out);
        return out;
    }

    public Workload workload(String name) throws UsageError {
        Workload w = workloads.get(name);
        if (w == null) {
            throw new UsageError("stack " + this.name + " has no workload '" + name + "' (it has " + String.join(", ", workloads.keySet()) + ")");
        }
        return w;
    }

    /** The variable the SUT reads for a setting, e.g. env("mode") = THREAD_MODE. */
    public String envName(String setting) {
        String v = env.get(setting);
        if (v == null) throw new IllegalStateException("stack " + name + " declares no env variable for " + setting);
        return v;
    }

    /** What the SUT needs stored in a run tier (stack.json "data": schema, seed, query markers), if anything. */
    public Optional<StackData> data() throws UsageError {
        Path file = dir.resolve("stack.json");
        try {
            return StackData.parse(name, dir, JSON.readTree(file.toFile()).path("data"));
        } catch (IOException | RuntimeException e) {
            throw new UsageError("cannot read " + file + ": " + e.getMessage());
        }
    }

    public boolean built() {
        return Files.isRegularFile(jar);
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    public static Path stacksDir() {
        return Path.of(System.getProperty("vtlab.home", ".")).resolve("stacks");
    }

    public static Stack load(String name) throws UsageError {
        Path dir = stacksDir().resolve(name);
        Path file = dir.resolve("stack.json");
        if (!Files.isRegularFile(file)) throw new UsageError("no stack '" + name + "' (no " + file + ")");
        try {
            return parse(dir, JSON.readTree(file.toFile()));
        } catch (IOException | RuntimeException e) {
            throw new UsageError("cannot read " + file + ": " + e.getMessage());
        }
    }

    static Stack parse(Path dir, JsonNode n) {
        Map<String, String> env = new LinkedHashMap<>();
        n.path("env").properties().forEach(e -> env.put(e.getKey(), e.getValue().asText()));
        Map<String, Workload> workloads = new LinkedHashMap<>();
        n.path("workloads").properties().forEach(e -> {
            JsonNode w = e.getValue();
            workloads.put(e.getKey(), new Workload(e.getKey(), w.path("path").asText(), w.path("expectStatus").asInt(200),
                    w.path("expectBody").asText(""), w.hasNonNull("serviceMs") ? w.get("serviceMs").asText() : null,
                    w.path("method").asText("GET"), w.hasNonNull("body") ? w.get("body").asText() : null,
                    w.hasNonNull("bodyBytes") ? w.get("bodyBytes").asText() : null));
        });
        return new Stack(n.path("name").asText(dir.getFileName().toString()), n.path("description").asText(""), dir,
                dir.resolve(n.path("launch").path("jar").asText()), n.path("runtimeInfo").asText("/runtime-info"), env, workloads);
    }

    public static Map<String, Stack> all() {
        Map<String, Stack> out = new LinkedHashMap<>();
        try (Stream<Path> s = Files.list(stacksDir())) {
            for (Path d : s.sorted().toList()) {
                if (Files.isRegularFile(d.resolve("stack.json"))) {
                    try {
                        out.put(d.getFileName().toString(), load(d.getFileName().toString()));
                    } catch (UsageError ignored) {
                        // listed by doctor as unreadable
                    }
                }
            }
        } catch (IOException ignored) {
            // no stacks folder: nothing to list
        }
        return out;
    }
}
