package vtlab.experiment.jmh;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.stack.Params;
import vtlab.stack.ThreadMode.Threads;

/**
 * One benchmark (with one set of @Param values) of a JMH JSON result file (-rf json). JMH writes "NaN" as a string
 * where it has no number, e.g. the error of fewer than 3 measured iterations: read as Double.NaN.
 *
 * @param benchmark   the fully qualified method, e.g. vtlab.bench.ThreadCostBenchmark.computeInVirtualThread
 * @param error       half-width of the 99.9% confidence interval JMH prints after "±"
 * @param samples     measured iterations over all forks (JMH's Cnt)
 */
public record JmhResult(String benchmark, String jmhMode, Params params, double score, double error,
                        String unit, int samples, double ciLow, double ciHigh, String jdkVersion, int forks,
                        int warmupIterations, String warmupTime, int measurementIterations, String measurementTime) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static List<JmhResult> parse(String json) throws IOException {
        JsonNode root = JSON.readTree(json);
        if (root == null || !root.isArray()) throw new IOException("not a JMH JSON result (expected an array of benchmarks)");
        List<JmhResult> out = new ArrayList<>();
        for (JsonNode b : root) {
            JsonNode pm = b.path("primaryMetric");
            if (!b.hasNonNull("benchmark") || pm.isMissingNode()) throw new IOException("JMH result without benchmark/primaryMetric: " + b);
            Params params = Params.NONE;
            for (var e : b.path("params").properties()) params = params.with(e.getKey(), e.getValue().asText());
            int samples = 0;
            for (JsonNode fork : pm.path("rawData")) samples += fork.size();
            JsonNode ci = pm.path("scoreConfidence");
            out.add(new JmhResult(b.get("benchmark").asText(), b.path("mode").asText(), params, number(pm.get("score")),
                    number(pm.get("scoreError")), pm.path("scoreUnit").asText(), samples, number(ci.get(0)), number(ci.get(1)),
                    b.path("jdkVersion").asText(), b.path("forks").asInt(), b.path("warmupIterations").asInt(),
                    b.path("warmupTime").asText(), b.path("measurementIterations").asInt(), b.path("measurementTime").asText()));
        }
        return out;
    }

    static double number(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) return Double.NaN;
        if (n.isNumber()) return n.asDouble();
        try {
            return Double.parseDouble(n.asText()); // "NaN", "Infinity"
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** The method name: computeInVirtualThread. */
    public String method() {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /** Class and method: ThreadCostBenchmark.computeInVirtualThread. */
    public String shortName() {
        int m = benchmark.lastIndexOf('.');
        return benchmark.substring(benchmark.lastIndexOf('.', m - 1) + 1);
    }

    /** platform / virtual from a "mode" @Param, else from the method name (computeInPlatformThread), else main. */
    public String threadMode() {
        String p = params.get("mode");
        if (p != null) return p;
        String m = method().toLowerCase(java.util.Locale.ROOT);
        if (m.contains(Threads.VIRTUAL.word)) return Threads.VIRTUAL.word;
        if (m.contains(Threads.PLATFORM.word)) return Threads.PLATFORM.word;
        return "main";
    }

    /** The workers @Param, or null when the benchmark has none. */
    public Integer workers() {
        String w = params.get("workers");
        return w == null ? null : Integer.valueOf(w);
    }
}
