package vtlab.data.judge;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One claim of the lab's, typed: what is compared, the estimate (a ratio, better above 1), its exact confidence set,
 * the level, how many units (forks: fresh JVMs) each side stands on, the answer and the margin it was judged with,
 * and for an undetermined answer how many more forks a side would settle it at the spread seen. A claim that could not
 * be judged at all (a failed fork, a p99 that is a maximum) carries why, and answers undetermined.
 *
 * @param moreForks forks a side to add that would likely decide it at this spread; 0 when decided, -1 when not known
 * @param refused   why no ratio was judged, null when one was
 */
public record Claim(String what, double estimate, RatioSet set, double level, int unitsA, int unitsB, Answer answer, Margin margin,
                    int moreForks, String refused) {

    /** Whether both bounds lie within ±w of the estimate (not half the width: an interval 8% below and 12% above is not within ±10%). */
    public boolean settled(double w) {
        return set.bounded() && Math.min(unitsA, unitsB) >= 2 && set.low() >= estimate * (1 - w) && set.high() <= estimate * (1 + w);
    }

    /** The farther bound from the estimate in its fraction: 0.12 for 1.00 with 0.92–1.12; +∞ for a set that is not an interval. */
    public double reach() {
        if (!set.bounded() || !(estimate > 0)) return Double.POSITIVE_INFINITY;
        return Math.max(1 - set.low() / estimate, set.high() / estimate - 1);
    }

    /** Whether the set exists: two forks a side at least. */
    public boolean hasSet() {
        return set.shape() != RatioSet.Shape.NONE;
    }

    /** "95%", or a sequential run's "97.5%". */
    public String levelWords() {
        return String.format(Locale.ROOT, "%s%%", trim(100 * level));
    }

    /** "1.80× (95% CI 1.72–1.88×)", "2.67× (95% set: at least 1.11×)", "1.12× (one fork a side: no interval)". */
    public String ratioWords() {
        if (refused != null) return "no ratio: " + refused;
        String r = String.format(Locale.ROOT, "%.2f×", estimate);
        return switch (set.shape()) {
            case NONE -> r + " (one fork a side: no interval)";
            case INTERVAL -> r + " (" + levelWords() + " CI " + set.words() + ")";
            default -> r + " (" + levelWords() + " set: " + set.words() + ")";
        };
    }

    /**
     * The answer in words: "better: at least 1.11×", "worse", "equivalent within ±5%", "undetermined: the interval holds
     * 1.0 and reaches past ±5%; about 4 more forks a side at this spread would settle it".
     */
    public String answerWords() {
        if (refused != null) return "undetermined: " + refused;
        return switch (answer) {
            case BETTER -> set.shape() == RatioSet.Shape.AT_LEAST ? "better: at least " + String.format(Locale.ROOT, "%.2f×", set.low()) : "better";
            case WORSE -> "worse";
            case EQUIVALENT -> "equivalent within " + margin.words();
            case UNDETERMINED -> "undetermined: " + why() + settleWords();
        };
    }

    private String why() {
        return switch (set.shape()) {
            case NONE -> "one fork a side, no interval (a direction only)";
            case EVERYTHING -> "the forks exclude no ratio (the denominator's forks too far apart)";
            case TWO_RAYS -> "the set is " + set.words() + ": 1.0 is out, but not which side";
            default -> "the interval holds 1.0 and reaches past " + margin.words();
        };
    }

    private String settleWords() {
        if (moreForks > 0) return String.format(Locale.ROOT, "; about %d more fork%s a side at this spread would settle it", moreForks, moreForks == 1 ? "" : "s");
        if (moreForks == Judge.TOO_MANY) return String.format(Locale.ROOT, "; more than %d forks a side at this spread: a difference this close to 1.0 or to %s is below what forks can tell",
                Judge.MAX_FORKS_ESTIMATED, margin.words());
        return "";
    }

    /** The claim as findings.json keeps it. */
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("what", what);
        m.put("estimate", finite(estimate));
        m.put("set", set.shape().name().toLowerCase(Locale.ROOT));
        m.put("low", finite(set.low()));
        m.put("high", finite(set.high()));
        m.put("level", level);
        m.put("forks_a", unitsA);
        m.put("forks_b", unitsB);
        m.put("answer", answer.word);
        m.put("margin", margin.fraction());
        if (moreForks != 0) m.put("more_forks", moreForks);
        if (refused != null) m.put("refused", refused);
        m.put("words", ratioWords() + ": " + answerWords());
        return m;
    }

    private static Object finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private static String trim(double p) {
        if (Math.abs(p - Math.rint(p)) < 1e-9) return String.format(Locale.ROOT, "%.0f", p);
        return Math.abs(10 * p - Math.rint(10 * p)) < 1e-9 ? String.format(Locale.ROOT, "%.1f", p) : String.format(Locale.ROOT, "%.2f", p);
    }
}
