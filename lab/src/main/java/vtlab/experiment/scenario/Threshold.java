package vtlab.experiment.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * "p99_ms[virtual, checkout] <= 150"                         the virtual rows' p99 of the mix's request "checkout"
 * </pre>
 *
 * A metric's value at a load point is the mean over its rows' reps; failed rows have no numbers and do not count, and
 * a threshold with no row to measure fails ("not measured"). A request name's percentile ({@link #PER_REQUEST}: a
 * generator that measures a mix's requests apart, vegeta) is that of its reps' histograms merged (raw/, the
 * histogram_by_request column), its error rate its reps' errors over their attempts: exact, never a mean of percentiles.
 *
 * @param mode    the thread mode whose rows it reads; null: each mode's own
 * @param factor  for a comparison with another mode: the multiple of the reference; null: against value
 * @param request a request of the mix by name (its own numbers); null: the whole load's
 */
public record Threshold(String text, String metric, String mode, String op, double value, Double factor, String refMetric,
                        String refMode, String request, String refRequest) {
    /** The metrics a threshold may take per request name, from the by-request columns. */
    public static final Map<String, String> PER_REQUEST = Map.of("p50_ms", "p50_ms_by_request", "p99_ms", "p99_ms_by_request",
            "p999_ms", "p999_ms_by_request", "error_rate", "errors_by_request");
    private static final String TERM = "([a-z][a-z0-9_]*)(?:\\[([A-Za-z0-9_-]+)(?:\\s*,\\s*([A-Za-z0-9_-]+))?])?";
    private static final Pattern FORM = Pattern.compile("^\\s*" + TERM + "\\s*(<=|>=|<|>)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(%|\\*\\s*" + TERM + ")?\\s*$");

    /** The unit of a metric a '%' may be written on: a share from 0 to 1 (error_rate), which 0.1% means 0.001 of. */
    static final String RATIO = "ratio";

    /**
     * Parses one threshold; metrics: the columns it may name, each with its unit. IllegalArgumentException with what is
     * wrong: a metric that is no column, a '%' on one that is not a ratio (app_cpu_pct is in % already: 50% of it would
     * be 0.5).
     */
    static Threshold parse(String text, Map<String, String> metrics) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not METRIC[MODE] OP NUMBER or METRIC[MODE] OP FACTOR * METRIC[MODE]"
                    + " (e.g. \"p99_ms[virtual] <= 100\", \"error_rate < 0.1%\", \"throughput_rps[virtual] >= 1.2 * throughput_rps[platform]\")");
        }
        String metric = m.group(1), mode = m.group(2), request = m.group(3), op = m.group(4);
        double number = Double.parseDouble(m.group(5));
        String tail = m.group(6);
        checkMetric(text, metric, request, metrics);
        if (tail == null) return new Threshold(text.strip(), metric, mode, op, number, null, null, null, request, null);
        if (tail.equals("%")) {
            if (!RATIO.equals(metrics.get(metric))) {
                throw new IllegalArgumentException("'" + text.strip() + "': a % is written on a ratio (" + String.join(", ", metrics.entrySet().stream()
                        .filter(e -> RATIO.equals(e.getValue())).map(Map.Entry::getKey).sorted().toList()) + "), and " + metric + " is in "
                        + (metrics.get(metric).isEmpty() ? "no unit" : metrics.get(metric)) + ": write " + metric + " " + op + " " + m.group(5) + " without %");
            }
            return new Threshold(text.strip(), metric, mode, op, number / 100, null, null, null, request, null);
        }
        String ref = m.group(7), refMode = m.group(8), refRequest = m.group(9);
        checkMetric(text, ref, refRequest, metrics);
        if (refMode == null || mode == null) {
            throw new IllegalArgumentException("'" + text + "': a comparison names the mode of each side, e.g. throughput_rps[virtual] >= 1.2 * throughput_rps[platform]");
        }
        return new Threshold(text.strip(), metric, mode, op, Double.NaN, number, ref, refMode, request, refRequest);
    }

    /** The request names it reads (either side), for the check against the mix. */
    public List<String> requests() {
        List<String> out = new ArrayList<>();
        if (request != null) out.add(request);
        if (refRequest != null && !out.contains(refRequest)) out.add(refRequest);
        return out;
    }

    private static void checkMetric(String text, String metric, String request, Map<String, String> metrics) {
        checkMetric(metric, metrics);
        if (request != null && !PER_REQUEST.containsKey(metric)) {
            throw new IllegalArgumentException("'" + text + "': per request name only " + String.join(", ", PER_REQUEST.keySet().stream().sorted().toList())
                    + " (e.g. \"p99_ms[virtual, checkout] <= 150\")");
        }
    }

    private static void checkMetric(String metric, Map<String, String> metrics) {
        if (!metrics.containsKey(metric)) {
            throw new IllegalArgumentException("no metric '" + metric + "' (a numeric column of matrix.csv: "
                    + String.join(", ", metrics.keySet().stream().sorted().limit(14).toList()) + ", ...)");
        }
    }

    /** What was measured at one load point, and whether it holds. */
    public record Measured(String where, double value, Double limit, boolean holds) {
        String text(String unitless) {
            return where + " " + fmt(value) + (limit == null ? "" : " (limit " + fmt(limit) + ")") + (holds ? "" : " " + unitless);
        }
    }

    /**
     * @param measured  one per load point (and mode, without one); empty: nothing to measure
     * @param notJudged the rows of its modes that are not valid evidence (flagged or failed), each named with why
     */
    public record Outcome(Threshold threshold, List<Measured> measured, List<String> notJudged) {
        public Outcome {
            notJudged = List.copyOf(notJudged);
        }

        public boolean passed() {
            return !measured.isEmpty() && measured.stream().allMatch(Measured::holds);
        }

        /** One line: each load point's value, the breaching ones marked, or "not measured"; then the rows it did not judge. */
        public String detail() {
            List<String> parts = new ArrayList<>();
            if (measured.isEmpty()) {
                parts.add("not measured: no ok row with numbers for " + threshold.metric + (threshold.mode == null && threshold.request == null ? ""
                        : "[" + (threshold.mode == null ? "*" : threshold.mode) + (threshold.request == null ? "" : ", " + threshold.request) + "]")
                        + (threshold.request == null ? "" : " (a request name's numbers come from a generator that measures the mix's requests apart: vegeta)"));
            }
            for (Measured m : measured) parts.add(m.text("BREACHED"));
            String line = String.join("; ", parts);
            if (notJudged.isEmpty()) return line;
            return line + "; not judged, not valid evidence: " + String.join(", ", notJudged);
        }
    }

    /**
     * This threshold held against the rows (matrix.csv's), at each load point, without their histograms: only rows whose
     * status is ok are evidence. A flagged row's numbers are not (its bound, Little's law, a saturated generator or a
     * mixed thread mode void it) and a failed row has none; each of its modes' is named in the outcome's line instead.
     */
    public Outcome evaluate(List<Map<String, String>> rows) {
        return evaluate(rows, null);
    }

    /**
     * This threshold held against the rows (matrix.csv's), at each load point; raw: the run's raw/ folder, where a
     * request name's histograms are (null: the by-request columns' own values, a mean over reps).
     */
    public Outcome evaluate(List<Map<String, String>> rows, java.nio.file.Path raw) {
        Map<String, List<Map<String, String>>> byPoint = new LinkedHashMap<>();
        List<String> notJudged = new ArrayList<>();
        for (Map<String, String> r : rows) {
            if (!Rows.ok(r)) {
                String md = r.getOrDefault("thread_mode", "");
                if (mode == null || md.equals(mode) || md.equals(refMode)) notJudged.add(notJudged(r));
                continue;
            }
            byPoint.computeIfAbsent(point(r), k -> new ArrayList<>()).add(r);
        }
        List<Measured> out = new ArrayList<>();
        for (var e : byPoint.entrySet()) {
            List<String> modes = mode != null ? List.of(mode)
                    : e.getValue().stream().map(r -> r.getOrDefault("thread_mode", "")).distinct().toList();
            for (String md : modes) {
                Double v = value(e.getValue(), metric, md, request, raw);
                if (v == null) continue;
                Double limit = value;
                if (factor != null) {
                    Double ref = value(e.getValue(), refMetric, refMode, refRequest, raw);
                    if (ref == null) continue;
                    limit = factor * ref;
                }
                out.add(new Measured(md + (request == null ? "" : " " + request) + " " + e.getKey(), v, limit, holds(v, limit)));
            }
        }
        return new Outcome(this, out, notJudged);
    }

    /** A row that is no evidence, e.g. "virtual c=50 rep 2 flagged (littles-law-low)" or "platform rate=200 failed". */
    static String notJudged(Map<String, String> r) {
        String rep = r.getOrDefault("rep", ""), status = r.getOrDefault("status", "");
        List<String> voiding = Rows.flags(r).stream().filter(Rows::voids).toList();
        return r.getOrDefault("thread_mode", "") + " " + point(r) + (rep.isBlank() ? "" : " rep " + rep) + " "
                + (status.isBlank() ? "without a status" : status) + (voiding.isEmpty() ? "" : " (" + String.join(", ", voiding) + ")");
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

    /** A metric of one mode's rows at a load point: the whole load's (a mean over reps), or a request name's. */
    private static Double value(List<Map<String, String>> rows, String metric, String mode, String request, java.nio.file.Path raw) {
        return request == null ? mean(rows, metric, mode) : ofRequest(rows, metric, mode, request, raw);
    }

    /**
     * A request name's metric over one mode's rows (its reps): a percentile of their histograms merged (raw/, the
     * histogram_by_request column; the mean of the rows' own values when raw is null), an error rate of their errors
     * over their attempts; null when no row measured that request.
     */
    static Double ofRequest(List<Map<String, String>> rows, String metric, String mode, String request, java.nio.file.Path raw) {
        List<Map<String, String>> mine = rows.stream().filter(r -> mode.equals(r.getOrDefault("thread_mode", "")))
                .filter(r -> vtlab.load.LoadResult.byRequest(r.get(PER_REQUEST.get(metric))).containsKey(request)).toList();
        if (mine.isEmpty()) return null;
        if (metric.equals("error_rate")) {
            long errors = 0, attempted = 0;
            for (Map<String, String> r : mine) {
                errors += Long.parseLong(vtlab.load.LoadResult.byRequest(r.get("errors_by_request")).get(request));
                attempted += Long.parseLong(vtlab.load.LoadResult.byRequest(r.get("attempted_by_request")).getOrDefault(request, "0"));
            }
            return attempted == 0 ? null : (double) errors / attempted;
        }
        double percentile = switch (metric) {
            case "p50_ms" -> 50;
            case "p99_ms" -> 99;
            default -> 99.9;
        };
        if (raw != null) {
            org.HdrHistogram.Histogram merged = vtlab.data.LatencyHistogram.empty();
            for (Map<String, String> r : mine) {
                String file = vtlab.load.LoadResult.byRequest(r.get("histogram_by_request")).get(request);
                try {
                    if (file == null) throw new java.io.IOException("no histogram");
                    merged.add(vtlab.data.LatencyHistogram.read(raw.resolve(file)));
                } catch (java.io.IOException e) {
                    return null; // a rep without its histogram: the reps cannot be merged exactly, so not measured
                }
            }
            return merged.getTotalCount() == 0 ? null : vtlab.data.LatencyHistogram.ms(merged, percentile);
        }
        double sum = 0;
        for (Map<String, String> r : mine) sum += Double.parseDouble(vtlab.load.LoadResult.byRequest(r.get(PER_REQUEST.get(metric))).get(request));
        return sum / mine.size();
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
