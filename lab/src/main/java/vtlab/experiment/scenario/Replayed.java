package vtlab.experiment.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.load.generator.VegetaGenerator;

/**
 * A row of a replay against its access log: what the row sent, read from the generator's own raw output (vegeta's
 * results carry each request's send time, URL and attack name), compared with the log's {@link Baseline} as a
 * {@link Fidelity}, kept in raw/STEM.fidelity.json so that the findings, the thresholds and a later ./vtlab report
 * read one comparison (vegeta's results are read once). A generator that keeps no record of each send (wrk, k6's
 * summary) gives none, said so.
 *
 * @param fidelity the comparison, null when there is none
 * @param why      why there is none ("" when there is)
 */
public record Replayed(Fidelity fidelity, String why) {
    private static final ObjectMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    /** A row's comparison with the log (templates: each request's path by name). */
    public static Replayed of(Path runDir, DataRow row, Baseline log, Map<String, String> templates) {
        if (row.failed()) return new Replayed(null, "the row failed");
        String raw = row.text(Columns.RAW), gen = row.text(Columns.GENERATOR);
        if (!"vegeta".equals(gen) || !raw.contains(".vegeta.")) {
            return new Replayed(null, "generator " + (gen.isBlank() ? "unknown" : gen) + " keeps no record of each request it sends (vegeta does: generator = \"vegeta\")");
        }
        String stem = raw.substring(0, raw.indexOf(".vegeta."));
        Path rawDir = runDir.resolve("raw"), kept = rawDir.resolve(stem + ".fidelity.json");
        try {
            if (Files.isRegularFile(kept)) return new Replayed(JSON.readValue(kept.toFile(), Fidelity.class), "");
            List<Fidelity.Send> sends = new ArrayList<>();
            VegetaGenerator.Sends sent = VegetaGenerator.sends(rawDir, stem, new ArrayList<>(templates.keySet()));
            for (VegetaGenerator.Sent s : sent.sent()) sends.add(new Fidelity.Send(s.sentNs(), s.request(), s.url()));
            if (sends.isEmpty()) return new Replayed(null, "vegeta's results in raw/ hold no request of " + stem);
            double hold = row.num(Columns.DURATION_S);
            Fidelity f = Fidelity.of(log, sends, templates, Double.isNaN(hold) ? Double.MAX_VALUE : hold, sent.originNs());
            Files.writeString(kept, JSON.writeValueAsString(f) + "\n");
            return new Replayed(f, "");
        } catch (IOException | vtlab.load.Generator.LoadException | vtlab.core.UsageError e) {
            return new Replayed(null, "vegeta's results of " + stem + " could not be read: " + e.getMessage());
        }
    }

    /** The run's baseline and each request's path template, from kept.json; null when the scenario names no baseline. */
    public static Replayed.Of of(Path runDir) {
        ScenarioKept kept = ScenarioKept.read(runDir);
        if (kept == null || kept.baseline() == null) return null;
        try {
            return new Of(Baseline.read(Path.of(kept.baseline())), kept.templates());
        } catch (IOException e) {
            return null;
        }
    }

    /** A run's baseline and request templates. */
    public record Of(Baseline log, Map<String, String> templates) {}

    /** The row with the fidelity's columns (empty when it has none), as a threshold reads them. */
    public static DataRow withCells(DataRow row, Replayed r) {
        Map<String, String> cells = new LinkedHashMap<>(row.cells());
        for (var c : Fidelity.COLUMNS) cells.put(c.name(), "");
        if (r != null && r.fidelity() != null) cells.putAll(r.fidelity().cells());
        return new DataRow(row.number(), cells);
    }
}
