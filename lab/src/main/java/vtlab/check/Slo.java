package vtlab.check;

import java.util.ArrayList;
import java.util.List;

import vtlab.core.UsageError;
import vtlab.data.DataRow;

/**
 * Rules a row is held to, written as one option ({@link Rule}'s language, comma-separated). As a service-level
 * objective (--slo, e.g. "p99<100ms,errors<0.1%") every term must hold. As thresholds (--fail-on, k6's thresholds
 * inverted: e.g. "p99_ms>200,error_rate>0.01") a term that holds is a breach.
 */
public record Slo(String text, List<Rule> terms) {
    /** --slo: terms that must hold, each METRIC &lt; VALUE or &lt;=. */
    public static Slo parse(String text) throws UsageError {
        return parse(text, Rule.Grammar.SLO);
    }

    /** --fail-on: terms that breach when they hold, each METRIC &gt; VALUE, &gt;=, &lt; or &lt;=. */
    public static Slo failOn(String text) throws UsageError {
        return parse(text, Rule.Grammar.FAIL_ON);
    }

    private static Slo parse(String text, Rule.Grammar g) throws UsageError {
        try {
            List<Rule> terms = Rule.parseAll(text, g);
            return new Slo(text.trim(), terms);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
    }

    /** The terms a row breaks, in words with its values ("p99 412 ms breaks p99 < 100 ms"); empty when it meets them all. */
    public List<String> broken(DataRow row) {
        List<String> out = new ArrayList<>();
        for (Rule t : terms) {
            double v = row.num(t.column());
            if (Double.isNaN(v)) out.add(t.metric() + " not measured");
            else if (!t.holds(v)) out.add(t.metric() + " " + t.value(v) + " breaks " + t.words());
        }
        return out;
    }

    /**
     * As thresholds: the terms a row breaches ("p99 412 ms > 200 ms"); empty when none. A term whose cell the row
     * lacks is not a breach: the row did not measure it (a failed row has no numbers, and fails the run on its own).
     */
    public List<String> breached(DataRow row) {
        List<String> out = new ArrayList<>();
        for (Rule t : terms) {
            double v = row.num(t.column());
            if (!Double.isNaN(v) && t.holds(v)) out.add(t.metric() + " " + t.value(v) + " (" + t.words() + ")");
        }
        return out;
    }

    /** In words for sentences: "p99 < 100 ms, errors < 0.1%". */
    public String words() {
        return String.join(", ", terms.stream().map(Rule::words).toList());
    }
}
