package vtlab.data.judge;

import java.util.Locale;

import vtlab.core.UsageError;

/**
 * The equivalence margin M: two configurations are "equivalent within ±M" when the whole interval of their ratio lies
 * in [1/(1+M), 1+M]. The band is symmetric in the logarithm, not in the ratio, so that "B within ±5% of A" and "A
 * within ±5% of B" are the same claim whichever side is the denominator (1.05× one way is 0.952× the other).
 *
 * <p>The default, 5%, is half of the 10% a switch of thread model is made for (the least gain the lab calls worth a
 * decision) and about the spread of one fork's mean on this lab's machines (CV 3–8% seen, docs/results.md; `./vtlab ab --aa` measures a machine's own): a smaller margin
 * would need tens of forks a side to ever say "equivalent", a larger one would call equivalent a change someone
 * would act on.
 */
public record Margin(double fraction) {
    public static final Margin DEFAULT = new Margin(0.05);
    /** Above this a band around 1.0 is no longer "the same": 1.5× each way is a difference anyone would act on. */
    static final double MAX = 0.50;

    public Margin {
        if (!(fraction > 0) || fraction > MAX) throw new IllegalArgumentException("margin out of (0, 50%]: " + fraction);
    }

    public double upper() {
        return 1 + fraction;
    }

    public double lower() {
        return 1 / (1 + fraction);
    }

    /** "±5%". */
    public String words() {
        return String.format(Locale.ROOT, "±%s%%", pct(100 * fraction));
    }

    private static String pct(double p) {
        return p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f", p) : String.format(Locale.ROOT, "%.1f", p);
    }

    /**
     * --margin as typed: "5%" or "5" (percent), above 0 and at most 50%; anything else is refused with one line.
     *
     * @param option the option's name for the refusal ("--margin")
     */
    public static Margin parse(String option, String text) throws UsageError {
        String s = text == null ? "" : text.strip();
        String digits = s.endsWith("%") ? s.substring(0, s.length() - 1).strip() : s;
        double pct;
        try {
            pct = Double.parseDouble(digits);
        } catch (NumberFormatException e) {
            throw new UsageError(option + " " + text + ": a percent is expected, e.g. " + option + " 5%");
        }
        if (!(pct > 0) || pct > 100 * MAX || Double.isInfinite(pct)) {
            throw new UsageError(option + " " + text + ": the band around 1.0 within which two configurations are called equivalent must be"
                    + " above 0% and at most 50% (e.g. " + option + " 5%)");
        }
        return new Margin(pct / 100);
    }
}
