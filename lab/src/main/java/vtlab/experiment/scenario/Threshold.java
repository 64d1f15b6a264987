package vtlab.experiment.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vtlab.data.Rows;

/**
 * One threshold of a scenario (k6's thresholds: what must hold for the run to pass, exit code 99 when one does not):
 * a metric, a column of matrix.csv, of one thread mode's rows or of every mode's, held against a number or a
 * multiple of another mode's metric, at each load point (connections or rate) of the run:
 *
 * <pre>
 * "p99_ms[virtual] <= 100"                                   the virtual rows' p99 at most 100 ms
 * "error_rate < 0.1%"                                        every mode's error rate under 0.1%
 * "throughput_rps[virtual] >= 1.2 * throughput_rps[platform]" virtual at least 1.2x platform's throughput
 * </pre>
 *
 * A metric's value at a load point is the mean over its rows' reps; failed rows have no numbers and do not count, and
 * a threshold with no row to measure fails ("not measured").
 *
 * @param mode    the thread mode whose rows it reads; null: each mode's own
 * @param factor  for a comparison with another mode: the multiple of the reference; null: against value
 */
public record Threshold(String text, String metric, String mode, String op, double value, Double factor, String refMetric,
                        String refMode) {
    private static final String TERM = "([a-z][a-z0-9_]*)(?:\\[([A-Za-z0-9_-]+)])?";
    private static final Pattern FORM = Pattern.compile("^\\s*" + TERM + "\\s*(<=|>=|<|>)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(%|\\*\\s*" + TERM + ")?\\s*$");

    /** Parses one threshold; metrics: the columns it may name. IllegalArgumentException with what is wrong. */
    static Threshold parse(String text, Set<String> metrics) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not METRIC[MODE] OP NUMBER or METRIC[MODE] OP FACTOR * METRIC[MODE]"
                    + " (e.g. \"p99_ms[virtual] <= 100\", \"error_rate < 0.1%\", \"throughput_rps[virtual] >= 1.2 * throughput_rps[platform]\")");
        }
        String metric = m.group(1), mode = m.group(2), op = m.group(3);
        double number = Double.parseDouble(m.group(4));
        String tail = m.group(5);
        checkMetric(metric, metrics);
        if (tail == null) return new Threshold(text.strip(), metric, mode, op, number, null, null, null);
        if (tail.equals("%")) return new Threshold(text.strip(), metric, mode, op, number / 100, null, null, null);
        String ref = m.group(6), refMode = m.group(7);
        checkMetric(ref, metrics);
        if (refMode == null || mode == null) {
            throw new IllegalArgumentException("'" + text + "': a comparison names the mode of each side, e.g. throughput_rps[virtual] >= 1.2 * throughput_rps[platform]");
        }
        return new Threshold(text.strip(), metric, mode, op, Double.NaN, number, ref, refMode);
    }

    private static void checkMetric(String metric, Set<String> metrics) {
        if (!metrics.contains(metric)) {
            throw new IllegalArgumentException("no metric '" + metric + "' (a numeric column of matrix.csv: "
                    + String.join(", ", metrics.stream().sorted().limit(14).toList()) + ", ...)");
        }
    }

    /** What was measured at one load point, and whether it holds. */
    public record Measured(String where, double value, Double limit, boolean holds) {
        String text(String unitless) {
            return where + " " + fmt(value) + (limit == null ? "" : " (limit " + fmt(limit) + ")") + (holds ? "" : " " + unitless);
        }
    }

    /**
     * @param measured one per load point (and mode, without one); empty: nothing to measure
     */
    public record Outcome(Threshold threshold, List<Measured> measured) {
        public boolean passed() {
            return !measured.isEmpty() && measured.stream().allMatch(Measured::holds);
        }

        /** One line: each load point's value, the breaching ones marked; or "not measured". */
        public String detail() {
            if (measured.isEmpty()) return "not measured: no row with numbers for " + threshold.metric + (threshold.mode == null ? "" : "[" + threshold.mode + "]");
            List<String> parts = new ArrayList<>();
            for (Measured m : measured) parts.add(m.text("BREACHED"));
            return String.join("; ", parts);
        }
    }

    /** This threshold held against the rows (matrix.csv's), at each load point. */
    public Outcome evaluate(List<Map<String, String>> rows) {
        Map<String, List<Map<String, String>>> byPoint = new LinkedHashMap<>();
        for (Map<String, String> r : rows) {
            if (Rows.failed(r)) continue;
            byPoint.computeIfAbsent(point(r), k -> new ArrayList<>()).add(r);
        }
        List<Measured> out = new ArrayList<>();
        for (var e : byPoint.entrySet()) {
            List<String> modes = mode != null ? List.of(mode)
                    : e.getValue().stream().map(r -> r.getOrDefault("thread_mode", "")).distinct().toList();
            for (String md : modes) {
                Double v = mean(e.getValue(), metric, md);
                if (v == null) continue;
                Double limit = value;
                if (factor != null) {
                    Double ref = mean(e.getValue(), refMetric, refMode);
                    if (ref == null) continue;
                    limit = factor * ref;
                }
                out.add(new Measured(md + " " + e.getKey(), v, limit, holds(v, limit)));
            }
        }
        return new Outcome(this, out);
    }

    boolean holds(double v, double limit) {
        return switch (op) {
            case "<" -> v < limit;
            case "<=" -> v <= limit;
            case ">" -> v > limit;
            default -> v >= limit;
        };
    }

    /** A row's load point: its connections (closed) or its offered rate (open). */
    static String point(Map<String, String> r) {
        String rate = r.getOrDefault("target_rps", "");
        return rate.isBlank() ? "c=" + r.getOrDefault("concurrency", "") : "rate=" + rate;
    }

    private static Double mean(List<Map<String, String>> rows, String col, String mode) {
        double sum = 0;
        int n = 0;
        for (Map<String, String> r : rows) {
            if (!mode.equals(r.getOrDefault("thread_mode", ""))) continue;
            String v = r.get(col);
            if (v == null || v.isBlank()) continue;
            try {
                sum += Double.parseDouble(v);
                n++;
            } catch (NumberFormatException e) {
                // not a number: not measured
            }
        }
        return n == 0 ? null : sum / n;
    }

    static String fmt(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e12) return Long.toString((long) d);
        return String.format(Locale.ROOT, Math.abs(d) < 0.01 ? "%.6f" : "%.3f", d).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
