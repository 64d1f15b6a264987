package vtlab.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vtlab.data.Column;
import vtlab.data.Columns;

/**
 * A metric held against a limit: the one language of the lab's gates, whichever place it is written in (a
 * {@link Grammar}): a service-level objective ({@code --slo "p99<100ms,errors<0.1%"}, every term must hold), thresholds
 * ({@code --fail-on "p99_ms>200,error_rate>0.01"}, a term that holds is a breach), a scenario's {@code [slo] thresholds}
 * ({@code "throughput_rps[virtual] >= 1.2 * throughput_rps[platform]"}) and compare's regression budget
 * ({@code --max-regression 5%}, the limit alone: its metric and operator are implied).
 *
 * <pre>
 * RULE  = TERM OP LIMIT | TERM OP FACTOR "*" TERM
 * TERM  = METRIC [ "[" MODE [ "," REQUEST ] "]" ]
 * OP    = "&lt;" | "&lt;=" | "&gt;" | "&gt;="
 * LIMIT = NUMBER [ "us" | "ms" | "s" | "%" ]
 * </pre>
 *
 * A limit is converted to its column's unit once, here: a time to ms, a % of a ratio to the ratio. One parser, one set
 * of refusals (each one line, starting with where the rule was written); a grammar says only what its place knows:
 * which metrics, which operators, whether terms name a mode, a request or another term, and the limit's edges.
 *
 * @param metric  the metric as its grammar says it (p99 for --fail-on's p99_ms, errors for error_rate; a scenario's column)
 * @param column  the column of matrix.csv it reads
 * @param mode    the thread mode whose rows it reads, null: each mode's own
 * @param request a request of a scenario's mix by name, null: the whole load's
 * @param limit   the limit in the column's unit; NaN for a comparison with another term
 * @param factor  for a comparison: the multiple of the other term; null otherwise
 * @param ref     the other term of a comparison, null otherwise
 */
public record Rule(String text, String metric, String column, String mode, String request, Op op, double limit, Double factor, Rule ref) {
    /** The operators, each holding a value against a limit. */
    public enum Op {
        LT("<"), LE("<="), GT(">"), GE(">=");

        public final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        public boolean holds(double v, double limit) {
            return switch (this) {
                case LT -> v < limit;
                case LE -> v <= limit;
                case GT -> v > limit;
                case GE -> v >= limit;
            };
        }

        /** Whether it bounds from above (&gt;, &gt;=). */
        public boolean above() {
            return this == GT || this == GE;
        }

        /** Whether the limit itself holds (&lt;=, &gt;=). */
        public boolean inclusive() {
            return this == LE || this == GE;
        }

        static Op of(String symbol) {
            for (Op o : values()) if (o.symbol.equals(symbol)) return o;
            throw new IllegalArgumentException(symbol);
        }
    }

    /** A column's unit a '%' is written on: a share from 0 to 1, which 0.1% means 0.001 of. */
    public static final String RATIO = "ratio";
    /** The unit of latency columns, the one a time limit (us, ms, s) is converted to. */
    public static final String MS = "ms";

    /**
     * A metric a grammar knows: the column it reads, the column's unit, and whether a limit on it must say its unit
     * (--slo's "p99" does: "p99<100"; the column "p99_ms" is in ms already).
     */
    public record Metric(String column, String unit, boolean unitRequired) {}

    /**
     * Where a rule is written, and what that place takes.
     *
     * @param where     how its refusals start ("--slo ", "--fail-on ", "" in a scenario file, which names file:line: key itself)
     * @param form      how a rule is written there, for the refusal of one that does not parse
     * @param metrics   the metrics it may name
     * @param ops       the operators it takes
     * @param qualified whether a term may name a mode and a request, and a limit another term
     * @param positive  whether a limit must be above 0 (an objective of 0 is never met); otherwise 0 is a limit
     * @param ratioCap  whether a ratio's limit is at most 1 (above 100% it never binds)
     */
    public record Grammar(String where, String form, Map<String, Metric> metrics, Set<Op> ops, boolean qualified, boolean positive,
                          boolean ratioCap) {
        /** --slo: what must hold, each METRIC &lt; VALUE (a capacity search's steps). */
        public static final Grammar SLO = new Grammar("--slo ", "METRIC<VALUE with METRIC one of p50, p90, p95, p99, p999, max, mean "
                + "(unit us, ms or s; p99_ms is in ms) or errors (a % or a ratio), e.g. p99<100ms,errors<0.1%", aliases(false),
                Set.of(Op.LT, Op.LE), false, true, true);
        /** --fail-on: what must not hold, k6's thresholds inverted. */
        public static final Grammar FAIL_ON = new Grammar("--fail-on ", "METRIC>VALUE with METRIC one of p50, p90, p95, p99, p999, max, mean "
                + "(unit us, ms or s; p99_ms is in ms) or errors (a % or a ratio) or rps (req/s); operators > >= < <=, e.g. p99_ms>200,error_rate>0.01",
                aliases(true), Set.of(Op.values()), false, false, true);

        /**
         * A scenario file's [slo] thresholds: any numeric column of matrix.csv by its name (column -> unit), a mode and a
         * request per term, a limit or a multiple of another term.
         */
        public static Grammar scenario(Map<String, String> columns) {
            Map<String, Metric> m = new LinkedHashMap<>();
            columns.forEach((name, unit) -> m.put(name, new Metric(name, unit, false)));
            return new Grammar("", "METRIC[MODE] OP NUMBER or METRIC[MODE] OP FACTOR * METRIC[MODE] (e.g. \"p99_ms[virtual] <= 100\", "
                    + "\"error_rate < 0.1%\", \"throughput_rps[virtual] >= 1.2 * throughput_rps[platform]\")", m, Set.of(Op.values()), true, false, false);
        }

        /** The short names of --slo and --fail-on (p99, errors, rps) and the columns they stand for. */
        static Map<String, Metric> aliases(boolean throughput) {
            Map<String, Metric> m = new LinkedHashMap<>();
            for (Column c : List.of(Columns.P50, Columns.P90, Columns.P95, Columns.P99, Columns.P999, Columns.MAX_MS, Columns.MEAN_MS)) {
                m.put(c.name().replace("_ms", ""), new Metric(c.name(), MS, true));
                m.put(c.name(), new Metric(c.name(), MS, false));
            }
            m.put("p99.9", new Metric(Columns.P999.name(), MS, true));
            m.put("errors", new Metric(Columns.ERROR_RATE.name(), RATIO, false));
            m.put(Columns.ERROR_RATE.name(), new Metric(Columns.ERROR_RATE.name(), RATIO, false));
            if (throughput) {
                m.put("rps", new Metric(Columns.RPS.name(), "req/s", false));
                m.put(Columns.RPS.name(), new Metric(Columns.RPS.name(), "req/s", false));
            }
            return m;
        }

        /** The name a metric's column is said by in words: its shortest name here ("p99" for p99_ms under --slo, "errors"). */
        String said(String column) {
            String best = column;
            for (var e : metrics.entrySet()) if (e.getValue().column().equals(column) && e.getKey().length() < best.length()) best = e.getKey();
            return best;
        }
    }

    private static final String NAME = "([a-z][a-z0-9_.]*)(?:\\[\\s*([A-Za-z0-9_-]+)(?:\\s*,\\s*([A-Za-z0-9_-]+))?\\s*])?";
    private static final Pattern FORM = Pattern.compile("^\\s*" + NAME + "\\s*(<=|>=|<|>)\\s*([0-9]*\\.?[0-9]+)\\s*(?:(us|ms|s|%)|\\*\\s*" + NAME + ")?\\s*$");

    /** Rules separated by commas (--slo, --fail-on), each refused in one line when it does not parse. */
    public static List<Rule> parseAll(String text, Grammar g) {
        if (text == null || text.isBlank()) throw new IllegalArgumentException(g.where() + "needs terms: write " + g.form());
        List<Rule> out = new ArrayList<>();
        for (String part : text.split(",")) out.add(parse(part.trim(), g));
        return List.copyOf(out);
    }

    /** One rule as the grammar takes it; IllegalArgumentException, in one line, saying what is wrong. */
    public static Rule parse(String text, Grammar g) {
        String given = text.strip();
        Matcher m = FORM.matcher(g.qualified() ? given : given.toLowerCase(Locale.ROOT));
        if (!m.matches() || (!g.qualified() && (m.group(2) != null || m.group(7) != null))) throw syntax(given, g);
        Op op = Op.of(m.group(4));
        Metric metric = metric(given, m.group(1), m.group(3), g);
        if (!g.ops().contains(op)) throw syntax(given, g);
        double number = Double.parseDouble(m.group(5));
        String unit = m.group(6);
        String mode = m.group(2), request = m.group(3);
        if (m.group(7) != null) { // a multiple of another term
            Metric refMetric = metric(given, m.group(7), m.group(9), g);
            if (mode == null || m.group(8) == null) {
                throw new IllegalArgumentException(g.where() + "'" + given + "': a comparison names the mode of each side, e.g. "
                        + "throughput_rps[virtual] >= 1.2 * throughput_rps[platform]");
            }
            Rule ref = new Rule(given, g.said(refMetric.column()), refMetric.column(), m.group(8), m.group(9), op, Double.NaN, null, null);
            return new Rule(given, g.said(metric.column()), metric.column(), mode, request, op, Double.NaN, number, ref);
        }
        double limit = limit(given, m.group(1), metric, op, m.group(5), unit, g);
        return new Rule(given, g.said(metric.column()), metric.column(), mode, request, op, limit, null, null);
    }

    /**
     * A limit alone, its metric and operator implied by where it is written (compare's --max-regression: a percentage
     * of slowdown, "5%" or "5"), from 0 to below max; refused in one line otherwise.
     */
    public static double budget(String option, String text, double max) {
        String v = text == null ? "" : text.strip();
        Matcher m = Pattern.compile("([0-9]*\\.?[0-9]+)\\s*%?").matcher(v);
        if (m.matches()) {
            double d = Double.parseDouble(m.group(1));
            if (d < max) return d;
        }
        throw new IllegalArgumentException(option + " takes a percentage from 0 to " + fmt(max) + ", e.g. 5%, not '" + text + "'");
    }

    private static IllegalArgumentException syntax(String given, Grammar g) {
        return new IllegalArgumentException(g.where() + "term '" + given + "' does not parse: write " + g.form());
    }

    /** The metric a name stands for; a request only on what is measured per request. */
    private static Metric metric(String given, String name, String request, Grammar g) {
        Metric metric = g.metrics().get(name);
        if (metric == null) {
            throw new IllegalArgumentException(g.where() + "no metric '" + name + "' in '" + given + "' (" + (g.qualified() ? "a numeric column of matrix.csv: " : "")
                    + String.join(", ", g.metrics().keySet().stream().sorted().limit(14).toList()) + (g.metrics().size() > 14 ? ", ...)" : ")"));
        }
        if (request != null && !PER_REQUEST.containsKey(metric.column())) {
            throw new IllegalArgumentException(g.where() + "'" + given + "': per request name only " + String.join(", ", PER_REQUEST.keySet().stream().sorted().toList())
                    + " (e.g. \"p99_ms[virtual, checkout] <= 150\")");
        }
        return metric;
    }

    /** The metrics a rule may take per request name of a mix, each with its by-request column. */
    public static final Map<String, Column> PER_REQUEST = Map.of(Columns.P50.name(), Columns.P50_BY_REQUEST, Columns.P99.name(), Columns.P99_BY_REQUEST,
            Columns.P999.name(), Columns.P999_BY_REQUEST, Columns.ERROR_RATE.name(), Columns.ERRORS_BY_REQUEST);

    /** The limit in the column's unit: a time converted to ms, a % of a ratio to the ratio; its edges checked. */
    private static double limit(String given, String name, Metric metric, Op op, String number, String unit, Grammar g) {
        double v = Double.parseDouble(number), limit;
        boolean time = unit != null && !unit.equals("%");
        if (RATIO.equals(metric.unit())) {
            if (time) throw new IllegalArgumentException(g.where() + "'" + given + "': " + g.said(metric.column()) + " is a ratio: write it as one or as a %, not in " + unit);
            limit = unit == null ? v : v / 100;
            if (g.ratioCap() && limit > 1) throw new IllegalArgumentException(g.where() + "'" + given + "': " + g.said(metric.column()) + " above 100% never bind");
        } else if ("%".equals(unit)) {
            throw new IllegalArgumentException(g.where() + "'" + given + "': a % is written on a ratio (" + String.join(", ", g.metrics().entrySet().stream()
                    .filter(e -> RATIO.equals(e.getValue().unit())).map(Map.Entry::getKey).sorted().toList()) + "), and " + name + " is in "
                    + (metric.unit().isEmpty() ? "no unit" : metric.unit()) + ": write " + name + " " + op.symbol + " " + number
                    + (metric.unitRequired() ? metric.unit() : " without %"));
        } else if (MS.equals(metric.unit())) {
            if (unit == null && metric.unitRequired()) throw new IllegalArgumentException(g.where() + "'" + given + "': latency needs a unit (us, ms, s)");
            limit = unit == null ? v : switch (unit) {
                case "us" -> v / 1000;
                case "s" -> v * 1000;
                default -> v;
            };
        } else {
            if (time) throw new IllegalArgumentException(g.where() + "'" + given + "': " + g.said(metric.column()) + " is in " + (metric.unit().isEmpty() ? "no unit" : metric.unit())
                    + ", not a time: write it without " + unit);
            limit = v;
        }
        // a threshold of 0 is meaningful (error_rate>0: any error fails); an objective of 0 can never be met
        if (g.positive() && !(limit > 0)) throw new IllegalArgumentException(g.where() + "'" + given + "': the limit must be positive");
        return limit;
    }

    /** Whether a value meets the rule's limit (for a comparison: the limit worked out from the other term). */
    public boolean holds(double v, double limit) {
        return op.holds(v, limit);
    }

    /** Whether a value meets the rule's own limit. */
    public boolean holds(double v) {
        return op.holds(v, limit);
    }

    /** In words: "p99 < 100 ms", "errors <= 0.100%", "rps < 1000 req/s". */
    public String words() {
        return metric + " " + op.symbol.charAt(0) + (op.inclusive() ? "= " : " ") + value(limit);
    }

    /** A value of the rule's column in words: a ratio as a %, a throughput in req/s, a latency in ms. */
    public String value(double v) {
        return column.equals(Columns.ERROR_RATE.name()) ? String.format(Locale.ROOT, "%.3g%%", v * 100)
                : column.equals(Columns.RPS.name()) ? fmt(v) + " req/s" : fmt(v) + " ms";
    }

    static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3g", v);
    }
}
