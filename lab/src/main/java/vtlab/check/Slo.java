package vtlab.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vtlab.core.UsageError;
import vtlab.data.Rows;

/**
 * Comparisons of a row's cells with limits, parsed once for two options. As a service-level objective (--slo, e.g.
 * "p99<100ms,errors<0.1%") every term must hold. As thresholds (--fail-on, k6's thresholds inverted: e.g.
 * "p99_ms>200,error_rate>0.01") a term that holds is a breach. Latency terms name a percentile (p50, p90, p95, p99,
 * p999, max, mean; the matrix column's name, p99_ms, says ms) with a unit (us, ms, s); errors (or error_rate) is the
 * error rate as a percentage or a ratio; --fail-on also takes rps (throughput_rps), req/s.
 */
public record Slo(String text, List<Term> terms) {
    /** One comparison: column above (>) or below (<) limit, inclusive for >= and <=; limit in the column's unit. */
    public record Term(String metric, String column, boolean above, boolean inclusive, double limit) {
        /** A "below" term, as --slo writes them. */
        public Term(String metric, String column, boolean inclusive, double limit) {
            this(metric, column, false, inclusive, limit);
        }

        boolean holds(double v) {
            if (above) return inclusive ? v >= limit : v > limit;
            return inclusive ? v <= limit : v < limit;
        }

        String words() {
            return metric + " " + (above ? ">" : "<") + (inclusive ? "= " : " ") + value(column, limit);
        }
    }

    private static final Pattern TERM = Pattern.compile(
            "(p50|p90|p95|p99|p999|p99\\.9|max|mean|errors|error_rate|rps|throughput_rps)(_ms)?\\s*(<=|>=|<|>)\\s*([0-9]*\\.?[0-9]+)\\s*(us|ms|s|%)?");

    /** --slo: terms that must hold, each METRIC < VALUE or <=. */
    public static Slo parse(String text) throws UsageError {
        return parse(text, "--slo", false);
    }

    /** --fail-on: terms that breach when they hold, each METRIC > VALUE, >=, < or <=. */
    public static Slo failOn(String text) throws UsageError {
        return parse(text, "--fail-on", true);
    }

    private static Slo parse(String text, String option, boolean thresholds) throws UsageError {
        String example = thresholds ? "p99_ms>200,error_rate>0.01" : "p99<100ms,errors<0.1%";
        if (text == null || text.isBlank()) throw new UsageError(option + " needs terms, e.g. " + option + " \"" + example + "\"");
        List<Term> terms = new ArrayList<>();
        for (String part : text.split(",")) {
            String given = part.trim();
            Matcher m = TERM.matcher(given.toLowerCase(Locale.ROOT));
            String name = m.matches() ? m.group(1) : "";
            boolean latency = m.matches() && !name.startsWith("error") && !name.contains("rps");
            boolean throughput = name.contains("rps");
            if (!m.matches() || (m.group(2) != null && !latency) || (throughput && !thresholds)
                    || (!thresholds && m.group(3).startsWith(">"))) {
                throw new UsageError(option + " term '" + given + "' does not parse: write METRIC" + (thresholds ? ">" : "<")
                        + "VALUE with METRIC one of p50, p90, p95, p99, p999, max, mean (unit us, ms or s; p99_ms is in ms) or errors"
                        + " (a % or a ratio)" + (thresholds ? " or rps (req/s); operators > >= < <=" : "") + ", e.g. " + example);
            }
            String metric = name.equals("p99.9") ? "p999" : name.equals("error_rate") ? "errors" : name.equals("throughput_rps") ? "rps" : name;
            double v = Double.parseDouble(m.group(4));
            String unit = m.group(5);
            double limit;
            if (metric.equals("errors")) {
                if (unit != null && !unit.equals("%")) throw new UsageError(option + " errors take a % or a ratio, not " + unit + " ('" + given + "')");
                limit = unit == null ? v : v / 100;
                if (limit > 1) throw new UsageError(option + " errors above 100% never bind ('" + given + "')");
            } else if (throughput) {
                if (unit != null) throw new UsageError(option + " rps is in req/s, without a unit ('" + given + "')");
                limit = v;
            } else {
                if (unit == null && m.group(2) != null) unit = "ms"; // the column's own unit
                if (unit == null || unit.equals("%")) throw new UsageError(option + " latency needs a unit (us, ms, s): '" + given + "'");
                limit = switch (unit) {
                    case "us" -> v / 1000;
                    case "s" -> v * 1000;
                    default -> v;
                };
            }
            // a threshold of 0 is meaningful (error_rate>0: any error fails); an objective of 0 can never be met
            if (thresholds ? limit < 0 : !(limit > 0)) throw new UsageError(option + " bound must be positive: '" + given + "'");
            String column = metric.equals("errors") ? "error_rate" : throughput ? Rows.RPS : metric + "_ms";
            terms.add(new Term(metric, column, m.group(3).startsWith(">"), m.group(3).endsWith("="), limit));
        }
        return new Slo(text.trim(), List.copyOf(terms));
    }

    /** The terms a row breaks, in words with its values ("p99 412 ms breaks p99 < 100 ms"); empty when it meets them all. */
    public List<String> broken(Map<String, String> row) {
        List<String> out = new ArrayList<>();
        for (Term t : terms) {
            double v = Rows.num(row, t.column());
            if (Double.isNaN(v)) out.add(t.metric() + " not measured");
            else if (!t.holds(v)) out.add(t.metric() + " " + value(t.column(), v) + " breaks " + t.words());
        }
        return out;
    }

    /**
     * As thresholds: the terms a row breaches ("p99 412 ms > 200 ms"); empty when none. A term whose cell the row
     * lacks is not a breach: the row did not measure it (a failed row has no numbers, and fails the run on its own).
     */
    public List<String> breached(Map<String, String> row) {
        List<String> out = new ArrayList<>();
        for (Term t : terms) {
            double v = Rows.num(row, t.column());
            if (!Double.isNaN(v) && t.holds(v)) out.add(t.metric() + " " + value(t.column(), v) + " (" + t.words() + ")");
        }
        return out;
    }

    /** In words for sentences: "p99 < 100 ms, errors < 0.1%". */
    public String words() {
        return String.join(", ", terms.stream().map(Term::words).toList());
    }

    private static String value(String column, double v) {
        return column.equals("error_rate") ? pct(v) : column.equals(Rows.RPS) ? num(v) + " req/s" : num(v) + " ms";
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3g", v);
    }

    private static String pct(double ratio) {
        return String.format(Locale.ROOT, "%.3g%%", ratio * 100);
    }
}
