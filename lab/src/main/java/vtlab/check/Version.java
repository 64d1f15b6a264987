package vtlab.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A library's version as Maven orders them, so that a table of affected ranges can be read against what a jar holds:
 * numbers compare as numbers (42.7.10 after 42.7.9), missing numbers count as 0 (9.0 = 9.0.0), a pre-release comes
 * before its release (42.7.9-rc1 before 42.7.9) and any other qualifier after it (33.0.0-jre after 33.0.0, before
 * 33.0.1). Enough of Maven's ComparableVersion for the versions published to Central, not all of it.
 */
public record Version(String text, List<Object> items) implements Comparable<Version> {
    /** Qualifiers by rank; a release (no qualifier) is 6; an unknown qualifier comes after all of these. */
    private static final Map<String, Integer> RANK = Map.ofEntries(Map.entry("alpha", 1), Map.entry("beta", 2),
            Map.entry("milestone", 3), Map.entry("m", 3), Map.entry("rc", 4), Map.entry("cr", 4), Map.entry("snapshot", 5),
            Map.entry("", 6), Map.entry("ga", 6), Map.entry("final", 6), Map.entry("release", 6), Map.entry("sp", 7));
    private static final int RELEASE = 6, UNKNOWN = 8;

    public Version {
        items = List.copyOf(items);
    }

    /** Splits at '.', '-', '_', '+' and where digits meet letters; numbers are Longs (BigInteger-free: 18 digits do). */
    public static Version of(String text) {
        List<Object> items = new ArrayList<>();
        String t = text.strip();
        int i = 0;
        while (i < t.length()) {
            char c = t.charAt(i);
            if (c == '.' || c == '-' || c == '_' || c == '+') {
                i++;
                continue;
            }
            int j = i;
            boolean digits = Character.isDigit(c);
            while (j < t.length() && Character.isLetterOrDigit(t.charAt(j)) && Character.isDigit(t.charAt(j)) == digits) j++;
            if (j == i) { // a character that is neither: a separator of its own
                i++;
                continue;
            }
            String part = t.substring(i, j);
            items.add(digits ? (Object) (part.length() > 18 ? Long.MAX_VALUE : Long.parseLong(part)) : part.toLowerCase(Locale.ROOT));
            i = j;
        }
        return new Version(text.strip(), items);
    }

    @Override
    public int compareTo(Version o) {
        int n = Math.max(items.size(), o.items.size());
        for (int k = 0; k < n; k++) {
            int c = compare(k < items.size() ? items.get(k) : null, k < o.items.size() ? o.items.get(k) : null);
            if (c != 0) return c;
        }
        return 0;
    }

    /** null: the shorter version ran out, which reads as 0 against a number and as a release against a qualifier. */
    private static int compare(Object a, Object b) {
        if (a == null && b == null) return 0;
        if (a == null) return -compare(b, null);
        if (a instanceof Long x) {
            if (b == null) return Long.compare(x, 0);
            return b instanceof Long y ? Long.compare(x, y) : 1; // 1.0.1 after 1.0-rc1 and after 1.0-jre
        }
        String q = (String) a;
        if (b == null) return Integer.compare(rank(q), RELEASE);
        if (b instanceof Long) return -1;
        String r = (String) b;
        int c = Integer.compare(rank(q), rank(r));
        return c != 0 ? c : q.compareTo(r);
    }

    private static int rank(String q) {
        return RANK.getOrDefault(q, UNKNOWN);
    }

    public boolean before(Version o) {
        return compareTo(o) < 0;
    }

    @Override
    public String toString() {
        return text;
    }
}
