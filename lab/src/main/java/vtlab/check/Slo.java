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
 * A service-level objective over a row, e.g. "p99<100ms,errors<0.1%": every term must hold. Latency terms name a
 * percentile column (p50, p90, p95, p99, p999, max, mean) with a unit (us, ms, s); errors is the error rate, as a
 * percentage or a ratio.
 */
public record Slo(String text, List<Term> terms) {
    /** One bound: column < limit (or <=), limit in the column's unit (ms, or a ratio for error_rate). */
    public record Term(String metric, String column, boolean inclusive, double limit) {
        boolean holds(double v) {
            return inclusive ? v <= limit : v < limit;
        }

        String words() {
            return metric + (inclusive ? " <= " : " < ") + (column.equals("error_rate") ? pct(limit) : ms(limit));
        }
    }

    private static final Pattern TERM = Pattern.compile("(p50|p90|p95|p99|p999|p99\\.9|max|mean|errors)\\s*(<=|<)\\s*([0-9]*\\.?[0-9]+)\\s*(us|ms|s|%)?");

    public static Slo parse(String text) throws UsageError {
        if (text == null || text.isBlank()) throw new UsageError("--slo needs terms, e.g. --slo \"p99<100ms,errors<0.1%\"");
        List<Term> terms = new ArrayList<>();
        for (String part : text.split(",")) {
            Matcher m = TERM.matcher(part.trim().toLowerCase(Locale.ROOT));
            if (!m.matches()) {
                throw new UsageError("--slo term '" + part.trim() + "' does not parse: write METRIC<VALUE with METRIC one of"
                        + " p50, p90, p95, p99, p999, max, mean (unit us, ms or s) or errors (a % or a ratio), e.g. p99<100ms,errors<0.1%");
            }
            String metric = m.group(1).equals("p99.9") ? "p999" : m.group(1);
            double v = Double.parseDouble(m.group(3));
            String unit = m.group(4);
            double limit;
            if (metric.equals("errors")) {
                if (unit != null && !unit.equals("%")) throw new UsageError("--slo errors take a % or a ratio, not " + unit + " ('" + part.trim() + "')");
                limit = unit == null ? v : v / 100;
                if (limit > 1) throw new UsageError("--slo errors above 100% never bind ('" + part.trim() + "')");
            } else {
                if (unit == null || unit.equals("%")) throw new UsageError("--slo latency needs a unit (us, ms, s): '" + part.trim() + "'");
                limit = switch (unit) {
                    case "us" -> v / 1000;
                    case "s" -> v * 1000;
                    default -> v;
                };
            }
            if (!(limit > 0)) throw new UsageError("--slo bound must be positive: '" + part.trim() + "'");
            String column = metric.equals("errors") ? "error_rate" : metric + "_ms";
            terms.add(new Term(metric, column, m.group(2).equals("<="), limit));
        }
        return new Slo(text.trim(), List.copyOf(terms));
    }

    /** The terms a row breaks, in words with its values ("p99 412 ms >= 100 ms"); empty when it meets them all. */
    public List<String> broken(Map<String, String> row) {
        List<String> out = new ArrayList<>();
        for (Term t : terms) {
            double v = Rows.num(row, t.column());
            if (Double.isNaN(v)) out.add(t.metric() + " not measured");
            else if (!t.holds(v)) out.add(t.metric() + " " + (t.column().equals("error_rate") ? pct(v) : ms(v)) + " breaks " + t.words());
        }
        return out;
    }

    /** In words for sentences: "p99 < 100 ms, errors < 0.1%". */
    public String words() {
        return String.join(", ", terms.stream().map(Term::words).toList());
    }

    private static String ms(double v) {
        return (v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3g", v)) + " ms";
    }

    private static String pct(double ratio) {
        return String.format(Locale.ROOT, "%.3g%%", ratio * 100);
    }
}
