package vtlab.experiment.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import vtlab.check.Rule;
import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;
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
 * a threshold with no row to measure fails ("not measured"). A request name's percentile ({@link Rule#PER_REQUEST}: a
 * generator that measures a mix's requests apart, vegeta) is that of its reps' histograms merged (raw/, the
 * histogram_by_request column), its error rate its reps' errors over their attempts: exact, never a mean of percentiles;
 * a load point where a rep's histogram is missing is not judged, and named so with why.
 *
 * The threshold's text is a rule of the lab's one language (vtlab.check.Rule, its scenario grammar: any numeric
 * column of matrix.csv, a mode and a request per term, a limit or a multiple of another term); what is here is how a
 * scenario holds it over its rows.
 */
public record Threshold(Rule rule) {
    /**
     * Parses one threshold; metrics: the columns it may name, each with its unit. IllegalArgumentException with what is
     * wrong: a metric that is no column, a '%' on one that is not a ratio (app_cpu_pct is in % already: 50% of it would
     * be 0.5).
     */
    public static Threshold parse(String text, Map<String, String> metrics) {
        return new Threshold(Rule.parse(text, Rule.Grammar.scenario(metrics)));
    }

    public String text() {
        return rule.text();
    }

    /** The column it holds. */
    public String metric() {
        return rule.column();
    }

    /** The thread mode whose rows it reads; null: each mode's own. */
    public String mode() {
        return rule.mode();
    }

    /** A request of the mix by name (its own numbers); null: the whole load's. */
    public String request() {
        return rule.request();
    }

    /** The limit, NaN for a comparison with another mode. */
    public double value() {
        return rule.limit();
    }

    /** For a comparison with another mode: the multiple of the reference; null: against value. */
    public Double factor() {
        return rule.factor();
    }

    public String refMetric() {
        return rule.ref() == null ? null : rule.ref().column();
    }

    public String refMode() {
        return rule.ref() == null ? null : rule.ref().mode();
    }

    public String refRequest() {
        return rule.ref() == null ? null : rule.ref().request();
    }

    /** The request names it reads (either side), for the check against the mix. */
    public List<String> requests() {
        List<String> out = new ArrayList<>();
        if (request() != null) out.add(request());
        if (refRequest() != null && !out.contains(refRequest())) out.add(refRequest());
        return out;
    }

    /** What was measured at one load point, and whether it holds. */
    public record Measured(String where, double value, Double limit, boolean holds) {
        String text(String unitless) {
            return where + " " + fmt(value) + (limit == null ? "" : " (limit " + fmt(limit) + ")") + (holds ? "" : " " + unitless);
        }
    }

    /**
     * @param measured  one per load point (and mode, without one); empty: nothing to measure
     * @param notJudged the rows of its modes that are not valid evidence (flagged or failed), and the load points whose
     *                  request histogram a rep lacks (its reps cannot be merged exactly), each named with why
     */
    public record Outcome(Threshold threshold, List<Measured> measured, List<String> notJudged, List<String> generators) {
        public Outcome {
            notJudged = List.copyOf(notJudged);
            generators = List.copyOf(generators);
        }

        public Outcome(Threshold threshold, List<Measured> measured, List<String> notJudged) {
            this(threshold, measured, notJudged, List.of());
        }

        public boolean passed() {
            return !measured.isEmpty() && measured.stream().allMatch(Measured::holds);
        }

        /** One line: each load point's value, the breaching ones marked, or "not measured"; then the rows it did not judge. */
        public String detail() {
            List<String> parts = new ArrayList<>();
            if (measured.isEmpty()) {
                parts.add("not measured: no ok row with numbers for " + threshold.metric() + (threshold.mode() == null && threshold.request() == null ? ""
                        : "[" + (threshold.mode() == null ? "*" : threshold.mode()) + (threshold.request() == null ? "" : ", " + threshold.request()) + "]")
                        + (threshold.request() == null ? "" : " (a request name's numbers come from a generator that measures the mix's requests apart: vegeta)")
                        + (Fidelity.isFidelity(threshold.metric()) ? " (a replay's fidelity needs the scenario's baseline, written by ./vtlab init --from-log, and vegeta's record of each send)" : ""));
            }
            for (Measured m : measured) parts.add(m.text("BREACHED"));
            String line = String.join("; ", parts);
            // the generator it was judged on: a number of vegeta's and one of wrk's are not the same measurement
            if (!measured.isEmpty() && !generators.isEmpty()) line += "; judged on " + String.join(", ", generators);
            if (notJudged.isEmpty()) return line;
            return line + "; not judged, not valid evidence: " + String.join(", ", notJudged);
        }
    }

    /**
     * This threshold held against the rows (matrix.csv's), at each load point, without their histograms: only rows whose
     * status is ok are evidence. A flagged row's numbers are not (its bound, Little's law, a saturated generator or a
     * mixed thread mode void it) and a failed row has none; each of its modes' is named in the outcome's line instead.
     */
    public Outcome evaluate(List<DataRow> rows) {
        return evaluate(rows, null);
    }

    /**
     * This threshold held against the rows (matrix.csv's), at each load point; raw: the run's raw/ folder, where a
     * request name's histograms are (null: the by-request columns' own values, a mean over reps).
     */
    public Outcome evaluate(List<DataRow> rows, java.nio.file.Path raw) {
        Map<String, List<DataRow>> byPoint = new LinkedHashMap<>();
        List<String> notJudged = new ArrayList<>();
        // a replay's fidelity is of what the load sent, not of the service: a row flagged for the service's sake sent it too
        boolean ofTheLoad = Fidelity.isFidelity(metric());
        for (DataRow r : rows) {
            if (!r.ok() && !(ofTheLoad && !r.failed())) {
                String md = r.mode();
                if (mode() == null || md.equals(mode()) || md.equals(refMode())) notJudged.add(notJudged(r));
                continue;
            }
            byPoint.computeIfAbsent(point(r), k -> new ArrayList<>()).add(r);
        }
        List<Measured> out = new ArrayList<>();
        List<String> generators = new ArrayList<>();
        for (var e : byPoint.entrySet()) {
            List<String> modes = mode() != null ? List.of(mode()) : e.getValue().stream().map(DataRow::mode).distinct().toList();
            for (String md : modes) {
                String where = md + (request() == null ? "" : " " + request()) + " " + e.getKey();
                // a rep without the request's own numbers (its generator measures the whole only) leaves the point
                // unjudged, named with why: its other reps alone are not the point's numbers, and nothing is dropped silently
                List<String> notApart = new ArrayList<>();
                if (request() != null) notApart.addAll(notApart(e.getValue(), md, request(), metric()));
                if (refRequest() != null && factor() != null) notApart.addAll(notApart(e.getValue(), refMode(), refRequest(), refMetric()));
                if (!notApart.isEmpty()) {
                    notJudged.addAll(notApart);
                    continue;
                }
                // a comparison across generators is refused: vegeta's closed model sends ~14% less near 20,000 req/s than wrk
                List<String> gens = e.getValue().stream().filter(r -> r.mode().equals(md) || r.mode().equals(refMode()))
                        .map(r -> r.text(Columns.GENERATOR)).filter(g -> !g.isBlank()).distinct().toList();
                if (gens.size() > 1) {
                    notJudged.add(where + " refused: its rows were measured by different generators (" + String.join(", ", gens)
                            + "), whose numbers are not one measurement");
                    continue;
                }
                gens.forEach(g -> { if (!generators.contains(g)) generators.add(g); });
                Double v, limit = value();
                try {
                    v = value(e.getValue(), metric(), md, request(), raw);
                    if (v == null) continue;
                    if (factor() != null) {
                        Double ref = value(e.getValue(), refMetric(), refMode(), refRequest(), raw);
                        if (ref == null) continue;
                        limit = factor() * ref;
                    }
                } catch (java.io.IOException x) {
                    // not dropped silently: the other load points alone would pass the threshold
                    notJudged.add(where + " without its histogram (" + x.getMessage() + "), so its reps cannot be merged");
                    continue;
                }
                out.add(new Measured(where, v, limit, holds(v, limit)));
            }
        }
        return new Outcome(this, out, notJudged, generators);
    }

    /**
     * The rows of a mode at a load point without a request's own numbers of the metric, each named with its generator, e.g. "virtual
     * hello c=16 rep 1 not measured apart (generator wrk measures the whole load only; vegeta measures each request, in
     * both models)"; empty when every row has them.
     */
    static List<String> notApart(List<DataRow> rows, String mode, String request, String metric) {
        List<String> out = new ArrayList<>();
        Column byRequest = Rule.PER_REQUEST.get(metric);
        for (DataRow r : rows) {
            if (!r.mode().equals(mode) || r.byName(byRequest).containsKey(request)) continue;
            String rep = r.text(Columns.REP), gen = r.text(Columns.GENERATOR);
            out.add(mode + " " + request + " " + point(r) + (rep.isBlank() ? "" : " rep " + rep) + " not measured apart (generator "
                    + (gen.isBlank() ? "unknown" : gen) + " measures the whole load only; vegeta measures each request, in both models)");
        }
        return out;
    }

    /** A row that is no evidence, e.g. "virtual c=50 rep 2 flagged (littles-law-low)" or "platform rate=200 failed". */
    static String notJudged(DataRow r) {
        String rep = r.text(Columns.REP), status = r.status();
        List<String> voiding = r.flags().stream().filter(Rows::voids).toList();
        return r.mode() + " " + point(r) + (rep.isBlank() ? "" : " rep " + rep) + " "
                + (status.isBlank() ? "without a status" : status) + (voiding.isEmpty() ? "" : " (" + String.join(", ", voiding) + ")");
    }

    boolean holds(double v, double limit) {
        return rule.holds(v, limit);
    }

    /** A row's load point: its connections (closed) or its offered rate (open). */
    static String point(DataRow r) {
        String rate = r.text(Columns.TARGET_RPS);
        return rate.isBlank() ? "c=" + r.text(Columns.CONCURRENCY) : "rate=" + rate;
    }

    /** A metric of one mode's rows at a load point: the whole load's (a mean over reps), or a request name's. */
    private static Double value(List<DataRow> rows, String metric, String mode, String request, java.nio.file.Path raw) throws java.io.IOException {
        return request == null ? mean(rows, metric, mode) : ofRequest(rows, metric, mode, request, raw);
    }

    /**
     * A request name's metric over one mode's rows (its reps): a percentile of their histograms merged (raw/, the
     * histogram_by_request column; the mean of the rows' own values when raw is null), an error rate of their errors
     * over their attempts; null when no row measured that request. An IOException naming the rep and its file when a
     * rep's histogram is missing: the reps cannot be merged exactly, so the load point is not judged.
     */
    static Double ofRequest(List<DataRow> rows, String metric, String mode, String request, java.nio.file.Path raw) throws java.io.IOException {
        Column byRequest = Rule.PER_REQUEST.get(metric);
        List<DataRow> mine = rows.stream().filter(r -> mode.equals(r.mode())).filter(r -> r.byName(byRequest).containsKey(request)).toList();
        if (mine.isEmpty()) return null;
        if (metric.equals(Columns.ERROR_RATE.name())) {
            long errors = 0, attempted = 0;
            for (DataRow r : mine) {
                errors += Long.parseLong(r.byName(Columns.ERRORS_BY_REQUEST).get(request));
                attempted += Long.parseLong(r.byName(Columns.ATTEMPTED_BY_REQUEST).getOrDefault(request, "0"));
            }
            return attempted == 0 ? null : (double) errors / attempted;
        }
        double percentile = metric.equals(Columns.P50.name()) ? 50 : metric.equals(Columns.P99.name()) ? 99 : 99.9;
        if (raw != null) {
            org.HdrHistogram.Histogram merged = vtlab.data.LatencyHistogram.empty();
            for (DataRow r : mine) {
                String file = r.byName(Columns.HISTOGRAM_BY_REQUEST).get(request), rep = r.text(Columns.REP).isBlank() ? "a rep" : "rep " + r.text(Columns.REP);
                if (file == null) throw new java.io.IOException(rep + ": none named in " + Columns.HISTOGRAM_BY_REQUEST.name());
                try {
                    merged.add(vtlab.data.LatencyHistogram.read(raw.resolve(file)));
                } catch (java.io.IOException e) {
                    throw new java.io.IOException(rep + ": " + file + (java.nio.file.Files.exists(raw.resolve(file)) ? " unreadable, " + e.getMessage() : " missing"), e);
                }
            }
            return merged.getTotalCount() == 0 ? null : vtlab.data.LatencyHistogram.ms(merged, percentile);
        }
        double sum = 0;
        for (DataRow r : mine) sum += Double.parseDouble(r.byName(byRequest).get(request));
        return sum / mine.size();
    }

    private static Double mean(List<DataRow> rows, String col, String mode) {
        double sum = 0;
        int n = 0;
        for (DataRow r : rows) {
            if (!mode.equals(r.mode())) continue;
            double v = r.num(col);
            if (Double.isNaN(v)) continue; // empty or not a number: not measured
            sum += v;
            n++;
        }
        return n == 0 ? null : sum / n;
    }

    static String fmt(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e12) return Long.toString((long) d);
        return String.format(Locale.ROOT, Math.abs(d) < 0.01 ? "%.6f" : "%.3f", d).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
