package vtlab.experiment.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import vtlab.experiment.scenario.accesslog.Arrivals;
import vtlab.stack.Mix;

/**
 * What an access log held, kept beside the scenario ./vtlab init --from-log wrote from it (NAME-baseline.json, named
 * by the scenario's baseline key), so that a replay can be compared with it ({@link Fidelity}): each request's share
 * (its weight: the tail the import folded into the largest template counts there, as it is sent there), the arrivals
 * per second of the log's time (at most {@link #MAX_STEPS} steps, a longer log's seconds summed into wider ones), the
 * log's clock resolution, a sample of the gaps between arrivals, and each placeholder's values as the import sampled
 * them (the CSV files' rows, counted).
 *
 * @param stepS      the log's seconds each entry of perSecond counts
 * @param perSecond  the arrivals of each step, from the log's first second
 * @param speedup    the pace the scenario replays the log at (--speedup)
 */
public record Baseline(Map<String, Double> shares, double stepS, double[] perSecond, double speedup, double resolutionMs, double[] gapsMs,
                       Map<String, Map<String, Long>> values) {
    static final int MAX_STEPS = 3_600;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The baseline of an import: the mix written (weights as shares, CSV values counted) and the log's arrivals. */
    public static Baseline of(Mix mix, Arrivals arrivals, double speedup) {
        Map<String, Double> shares = new LinkedHashMap<>();
        for (Mix.Entry e : mix.entries()) shares.put(e.name(), (double) e.weight() / mix.totalWeight());
        Map<String, Map<String, Long>> values = new LinkedHashMap<>();
        mix.values().forEach((name, v) -> {
            if (v instanceof Mix.Column c) {
                Map<String, Long> counts = new LinkedHashMap<>();
                for (String cell : c.cells()) counts.merge(cell, 1L, Long::sum);
                values.put(name, counts);
            }
        });
        long[] seconds = arrivals.perSecond();
        int step = Math.max(1, (seconds.length + MAX_STEPS - 1) / MAX_STEPS);
        double[] per = new double[(seconds.length + step - 1) / step];
        for (int i = 0; i < seconds.length; i++) per[i / step] += seconds[i];
        return new Baseline(shares, step, per, speedup, arrivals.resolutionMs(), arrivals.gapsMs(), values);
    }

    /** The log's time in seconds. */
    public double seconds() {
        return perSecond.length * stepS;
    }

    /** The arrivals within [from, to) seconds of the log's time (a step counted in proportion where the bounds cut it). */
    public double arrivalsBetween(double from, double to) {
        double sum = 0;
        for (int i = 0; i < perSecond.length; i++) {
            double a = i * stepS, b = a + stepS;
            double overlap = Math.min(b, to) - Math.max(a, from);
            if (overlap > 0) sum += perSecond[i] * overlap / stepS;
        }
        return sum;
    }

    /**
     * The log's arrivals at their logged pace as an open-model rate profile: a step per step of the log's time (a
     * second, or wider for a log longer than {@link #MAX_STEPS} s), compressed by the speedup ("12@0s,30@1s,..."); a
     * step at the rate of the one before is left out, and a second with no arrival is written 0.001 (a profile's rates
     * are positive; vegeta sends none in it).
     */
    public String loggedProfile() {
        java.util.List<String> points = new java.util.ArrayList<>();
        String last = null;
        for (int i = 0; i < perSecond.length; i++) {
            double rate = Math.max(0.001, Math.round(perSecond[i] / stepS * speedup * 1000) / 1000.0);
            String r = Threshold.fmt(rate);
            if (r.equals(last)) continue;
            points.add(r + "@" + Threshold.fmt(Math.round(i * stepS / speedup * 1000) / 1000.0) + "s");
            last = r;
        }
        return String.join(",", points);
    }

    public void write(Path file) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("about", "the access log's baseline of a vtlab scenario (docs/scenarios.md, \"Fidelity\"): a replay is compared with it");
        ObjectNode s = root.putObject("shares");
        shares.forEach(s::put);
        root.put("step_s", stepS);
        var per = root.putArray("arrivals_per_step");
        for (double d : perSecond) per.add((long) d);
        root.put("speedup", speedup);
        root.put("resolution_ms", resolutionMs);
        var gaps = root.putArray("gaps_ms");
        for (double g : gapsMs) gaps.add(g);
        ObjectNode v = root.putObject("values");
        values.forEach((name, counts) -> {
            ObjectNode c = v.putObject(name);
            counts.forEach(c::put);
        });
        Files.writeString(file, JSON.writeValueAsString(root) + "\n");
    }

    public static Baseline read(Path file) throws IOException {
        JsonNode n = JSON.readTree(file.toFile());
        Map<String, Double> shares = new LinkedHashMap<>();
        n.path("shares").fields().forEachRemaining(e -> shares.put(e.getKey(), e.getValue().asDouble()));
        double[] per = new double[n.path("arrivals_per_step").size()];
        for (int i = 0; i < per.length; i++) per[i] = n.path("arrivals_per_step").get(i).asDouble();
        double[] gaps = new double[n.path("gaps_ms").size()];
        for (int i = 0; i < gaps.length; i++) gaps[i] = n.path("gaps_ms").get(i).asDouble();
        Map<String, Map<String, Long>> values = new LinkedHashMap<>();
        n.path("values").fields().forEachRemaining(e -> {
            Map<String, Long> counts = new LinkedHashMap<>();
            e.getValue().fields().forEachRemaining(c -> counts.put(c.getKey(), c.getValue().asLong()));
            values.put(e.getKey(), counts);
        });
        return new Baseline(shares, n.path("step_s").asDouble(1), per, n.path("speedup").asDouble(1), n.path("resolution_ms").asDouble(1000), gaps, values);
    }
}
