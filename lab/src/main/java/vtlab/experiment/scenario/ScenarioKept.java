package vtlab.experiment.scenario;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.data.RunDir;
import vtlab.data.RunKept;
import vtlab.stack.Mix;

/**
 * What a scenario run keeps of its file in kept.json (under "scenario"), typed: written when the run is
 * planned, read back when its findings, its summary and its replay's fidelity are computed, after the run and again
 * on ./vtlab report. One class writes the entry and reads it, so a key written is the key read.
 *
 * @param file       the scenario file as run (absolute)
 * @param name       its name
 * @param requests   its mix's requests, in the file's order
 * @param thresholds its thresholds as written
 * @param baseline   the access log's baseline it replays (absolute), or null when it names none
 */
public record ScenarioKept(String file, String name, List<Request> requests, List<String> thresholds, String baseline) {
    /** The key naming the baseline file. */
    static final String BASELINE = "baseline";

    public ScenarioKept {
        requests = List.copyOf(requests);
        thresholds = List.copyOf(thresholds);
    }

    /** A request of the mix as the entry keeps it. */
    public record Request(String name, String path, int weight, String method) {}

    /** The entry of a scenario as it is run. */
    static ScenarioKept of(Scenario sc) {
        List<Request> requests = new ArrayList<>();
        for (Mix.Entry e : sc.mix().entries()) requests.add(new Request(e.name(), e.path(), e.weight(), e.method()));
        return new ScenarioKept(sc.file().toAbsolutePath().normalize().toString(), sc.name(), requests,
                sc.thresholds().stream().map(Threshold::text).toList(), sc.baselinePath() == null ? null : sc.baselinePath().toAbsolutePath().toString());
    }

    /** As kept.json keeps it. */
    Map<String, Object> asMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("file", file);
        out.put("name", name);
        out.put("requests", requests.stream().map(r -> Map.<String, Object>of("name", r.name(), "path", r.path(), "weight", r.weight(), "method", r.method())).toList());
        out.put("thresholds", thresholds);
        if (baseline != null) out.put(BASELINE, baseline);
        return out;
    }

    /** From a run folder ({@link RunKept#read}); null when it kept no scenario entry. */
    static ScenarioKept read(Path runDir) {
        JsonNode n = RunKept.read(new RunDir(runDir)).experiment(ScenarioExperiment.NAME);
        if (n.isMissingNode()) return null;
        List<Request> requests = new ArrayList<>();
        for (JsonNode r : n.path("requests")) {
            requests.add(new Request(r.path("name").asText(), r.path("path").asText(), r.path("weight").asInt(), r.path("method").asText()));
        }
        List<String> thresholds = new ArrayList<>();
        n.path("thresholds").forEach(t -> thresholds.add(t.asText()));
        return new ScenarioKept(n.path("file").asText(), n.path("name").asText(), requests, thresholds,
                n.hasNonNull(BASELINE) ? n.path(BASELINE).asText() : null);
    }

    /** Each request's name, path and weight, as the findings and the summary name them. */
    List<ScenarioExperiment.Named> named() {
        return requests.stream().map(r -> new ScenarioExperiment.Named(r.name(), r.path(), r.weight())).toList();
    }

    /** Each request's path template by its name, as a replay's sends are matched to them. */
    Map<String, String> templates() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Request r : requests) out.put(r.name(), r.path());
        return out;
    }
}
