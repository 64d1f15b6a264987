package vtlab.experiment.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import vtlab.data.Column;

/**
 * How faithful a replay was: what a row sent (each request's send time, name and URL, from the generator's own raw
 * output) against the access log's {@link Baseline}. Four comparisons, each a number a threshold can hold:
 * <ul>
 * <li>the mix: each request's share of the sends against its share of the log, in percentage points; the largest
 * difference is {@code fidelity_mix_pp};</li>
 * <li>the rate per second: the sends counted per second of the hold (from when the load's schedule began: vegeta's
 * pacer sends its first request one interval in) against the log's arrivals in the same stretch
 * of its time (compressed by the speedup): the largest difference in req/s ({@code fidelity_rate_gap_rps}) and the
 * Pearson correlation of the two profiles ({@code fidelity_rate_corr}: 1, the same shape; undefined when either is
 * flat);</li>
 * <li>the gaps between arrivals: the Kolmogorov–Smirnov distance ({@code fidelity_gaps_ks}) of the two
 * distributions, both read at the log's clock resolution (a log of whole seconds cannot tell gaps within a second
 * apart, so the sends are read as it would have logged them);</li>
 * <li>the values: per placeholder, the KS distance of the values sent against those logged (numbers in numeric order,
 * other values in text order); the largest is {@code fidelity_values_ks}.</li>
 * </ul>
 * The KS distance is the largest difference between two cumulative distributions: 0.05 means that for no threshold
 * do the two sides' shares below it differ by more than 5 points.
 */
public record Fidelity(long sent, Map<String, double[]> mix, double mixPp, int seconds, double rateGapRps, double rateCorr,
                       double gapsKs, double resolutionMs, Map<String, Double> valuesKs, Map<String, long[]> sizes) {
    /** The key of {@link #sizes} for the gaps (the others: the placeholders). */
    static final String GAPS = "gaps between arrivals";

    public static final Column MIX_PP = Column.number("fidelity_mix_pp", "pp",
            "the replay's largest difference of a request's share of the sends from its share of the access log, in percentage points");
    public static final Column RATE_GAP = Column.number("fidelity_rate_gap_rps", "req/s",
            "the replay's largest difference of the sends per second from the log's arrivals per second (its time compressed by the speedup)");
    public static final Column RATE_CORR = Column.number("fidelity_rate_corr", "",
            "the Pearson correlation of the replay's sends per second with the log's arrivals per second (1: the same shape)");
    public static final Column GAPS_KS = Column.number("fidelity_gaps_ks", "",
            "the Kolmogorov-Smirnov distance of the replay's gaps between sends from the log's gaps between arrivals, at the log's clock resolution");
    public static final Column VALUES_KS = Column.number("fidelity_values_ks", "",
            "the largest Kolmogorov-Smirnov distance, over the placeholders, of the values sent from the values logged");
    /** The fidelity's columns: a threshold names them as any numeric column of matrix.csv. */
    public static final List<Column> COLUMNS = List.of(MIX_PP, RATE_GAP, RATE_CORR, GAPS_KS, VALUES_KS);

    /** Whether a metric is one of the fidelity's: judged on every row that sent its load, flagged ones too. */
    public static boolean isFidelity(String metric) {
        return COLUMNS.stream().anyMatch(c -> c.name().equals(metric));
    }

    /** One request sent: when (epoch ns), under which request name, to which URL. */
    public record Send(long sentNs, String request, String url) {}

    /**
     * What was sent against the log's baseline.
     *
     * @param templates each request's path template by name (its placeholders read back from each URL)
     * @param holdS     the hold's length: the seconds of rate compared (never more than the log's time compressed)
     * @param originNs  when the load's schedule began (epoch ns), its seconds counted from it; null: from the first send
     */
    public static Fidelity of(Baseline log, List<Send> sends, Map<String, String> templates, double holdS, Long originNs) {
        // the mix: every request the log or the sends name
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String n : log.shares().keySet()) counts.put(n, 0L);
        for (Send s : sends) counts.merge(s.request(), 1L, Long::sum);
        Map<String, double[]> mix = new LinkedHashMap<>();
        double mixPp = 0;
        for (var e : counts.entrySet()) {
            double share = log.shares().getOrDefault(e.getKey(), 0.0), sent = sends.isEmpty() ? 0 : 100.0 * e.getValue() / sends.size();
            mix.put(e.getKey(), new double[] {100 * share, sent});
            if (!sends.isEmpty()) mixPp = Math.max(mixPp, Math.abs(pp(e.getValue(), sends.size(), share, 1)));
        }
        long[] times = sends.stream().mapToLong(Send::sentNs).sorted().toArray();
        // the rate: whole seconds of the hold from the first send, as long as the log's time compressed lasts
        int seconds = (int) Math.floor(Math.min(holdS, log.seconds() / log.speedup()) + 1e-9);
        double[] sentRate = new double[Math.max(0, seconds)], loggedRate = new double[sentRate.length];
        if (times.length > 0) {
            long origin = originNs == null ? times[0] : Math.min(originNs, times[0]);
            for (long t : times) {
                long k = (t - origin) / 1_000_000_000L;
                if (k < sentRate.length) sentRate[(int) k]++;
            }
        }
        for (int k = 0; k < loggedRate.length; k++) loggedRate[k] = log.arrivalsBetween(k * log.speedup(), (k + 1) * log.speedup());
        // the gaps, at the log's resolution compressed by the speedup: a send read as the log's clock would have stamped it
        double step = log.resolutionMs() / log.speedup();
        double[] sentGaps = new double[Math.max(0, times.length - 1)];
        for (int i = 1; i < times.length; i++) sentGaps[i - 1] = (Math.floor(times[i] / 1e6 / step) - Math.floor(times[i - 1] / 1e6 / step)) * step;
        double[] loggedGaps = Arrays.stream(log.gapsMs()).map(g -> g / log.speedup()).toArray();
        // the values, per placeholder the log has values of
        Map<String, Map<String, Long>> sentValues = values(sends, templates);
        Map<String, Double> valuesKs = new LinkedHashMap<>();
        Map<String, long[]> sizes = new LinkedHashMap<>();
        sizes.put(GAPS, new long[] {sentGaps.length, loggedGaps.length});
        for (var e : log.values().entrySet()) {
            Map<String, Long> sent = sentValues.getOrDefault(e.getKey(), Map.of());
            valuesKs.put(e.getKey(), ks(e.getValue(), sent));
            sizes.put(e.getKey(), new long[] {total(sent), total(e.getValue())});
        }
        return new Fidelity(sends.size(), mix, mixPp, sentRate.length, maxGap(sentRate, loggedRate), correlation(sentRate, loggedRate),
                ks(sentGaps, loggedGaps), log.resolutionMs(), valuesKs, sizes);
    }

    private static long total(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The largest of the placeholders' KS distances, NaN when none has values. */
    public double valuesKsMax() {
        return valuesKs.values().stream().mapToDouble(Double::doubleValue).filter(d -> !Double.isNaN(d)).max().orElse(Double.NaN);
    }

    /** The fidelity's cells of a row, by column name (NaN: empty). */
    public Map<String, String> cells() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(MIX_PP.name(), cell(mixPp));
        out.put(RATE_GAP.name(), cell(rateGapRps));
        out.put(RATE_CORR.name(), cell(rateCorr));
        out.put(GAPS_KS.name(), cell(gapsKs));
        out.put(VALUES_KS.name(), cell(valuesKsMax()));
        return out;
    }

    private static String cell(double d) {
        return Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.4f", d);
    }

    /** Each placeholder's values as sent: read back from each URL by its request's path template. */
    static Map<String, Map<String, Long>> values(List<Send> sends, Map<String, String> templates) {
        Map<String, java.util.regex.Pattern> patterns = new LinkedHashMap<>();
        Map<String, List<String>> names = new LinkedHashMap<>();
        templates.forEach((n, t) -> {
            patterns.put(n, pattern(t));
            names.put(n, vtlab.stack.Mix.placeholders(t));
        });
        Map<String, Map<String, Long>> out = new LinkedHashMap<>();
        for (Send s : sends) {
            var p = patterns.get(s.request());
            if (p == null || names.get(s.request()).isEmpty()) continue;
            var m = p.matcher(pathOf(s.url()));
            if (!m.matches()) continue;
            List<String> ph = names.get(s.request());
            for (int i = 0; i < ph.size() && i < m.groupCount(); i++) out.computeIfAbsent(ph.get(i), k -> new LinkedHashMap<>()).merge(m.group(i + 1), 1L, Long::sum);
        }
        return out;
    }

    /** A path template as a pattern: its text literal, each placeholder one group of a segment's or a query value's characters. */
    static java.util.regex.Pattern pattern(String template) {
        StringBuilder re = new StringBuilder();
        var m = vtlab.stack.Mix.PLACEHOLDER.matcher(template);
        int at = 0;
        while (m.find()) {
            re.append(java.util.regex.Pattern.quote(template.substring(at, m.start()))).append("([^/?&#]*)");
            at = m.end();
        }
        re.append(java.util.regex.Pattern.quote(template.substring(at)));
        return java.util.regex.Pattern.compile(re.toString());
    }

    /** A URL's path and query: scheme, host and fragment (a closed-model mix's request mark) left out. */
    static String pathOf(String url) {
        String u = url;
        int hash = u.indexOf('#');
        if (hash >= 0) u = u.substring(0, hash);
        int scheme = u.indexOf("://");
        if (scheme >= 0) {
            int slash = u.indexOf('/', scheme + 3);
            u = slash < 0 ? "/" : u.substring(slash);
        }
        return u;
    }

    /**
     * The two-sample Kolmogorov–Smirnov distance: the largest difference between the two empirical cumulative
     * distributions, over every value either holds (ties counted whole on both sides). NaN when either is empty.
     */
    public static double ks(double[] a, double[] b) {
        if (a.length == 0 || b.length == 0) return Double.NaN;
        double[] x = a.clone(), y = b.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        int i = 0, j = 0;
        double d = 0;
        while (i < x.length || j < y.length) {
            double v = j >= y.length || (i < x.length && x[i] <= y[j]) ? x[i] : y[j];
            while (i < x.length && x[i] <= v) i++;
            while (j < y.length && y[j] <= v) j++;
            d = Math.max(d, Math.abs((double) i / x.length - (double) j / y.length));
        }
        return d;
    }

    /**
     * The KS distance of two distributions of values given as counts: values that all read as numbers in numeric order,
     * others in text order. NaN when either is empty.
     */
    public static double ks(Map<String, Long> a, Map<String, Long> b) {
        long na = a.values().stream().mapToLong(Long::longValue).sum(), nb = b.values().stream().mapToLong(Long::longValue).sum();
        if (na == 0 || nb == 0) return Double.NaN;
        TreeSet<String> keys = new TreeSet<>(order(a, b));
        keys.addAll(a.keySet());
        keys.addAll(b.keySet());
        double ca = 0, cb = 0, d = 0;
        for (String k : keys) {
            ca += a.getOrDefault(k, 0L);
            cb += b.getOrDefault(k, 0L);
            d = Math.max(d, Math.abs(ca / na - cb / nb));
        }
        return d;
    }

    private static Comparator<String> order(Map<String, Long> a, Map<String, Long> b) {
        boolean numbers = a.keySet().stream().allMatch(Fidelity::number) && b.keySet().stream().allMatch(Fidelity::number);
        return numbers ? Comparator.comparingDouble((String s) -> Double.parseDouble(s.strip())).thenComparing(Comparator.naturalOrder())
                : Comparator.naturalOrder();
    }

    private static boolean number(String s) {
        try {
            Double.parseDouble(s.strip());
            return !s.isBlank();
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Pearson's correlation of two series of the same length; NaN when shorter than 2 or either is flat (no variance). */
    public static double correlation(double[] x, double[] y) {
        int n = Math.min(x.length, y.length);
        if (n < 2) return Double.NaN;
        double mx = 0, my = 0;
        for (int i = 0; i < n; i++) {
            mx += x[i];
            my += y[i];
        }
        mx /= n;
        my /= n;
        double sxy = 0, sxx = 0, syy = 0;
        for (int i = 0; i < n; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
            syy += (y[i] - my) * (y[i] - my);
        }
        return sxx == 0 || syy == 0 ? Double.NaN : sxy / Math.sqrt(sxx * syy);
    }

    /** The largest absolute difference of two series at the same index (0 when empty). */
    public static double maxGap(double[] x, double[] y) {
        double d = 0;
        for (int i = 0; i < Math.min(x.length, y.length); i++) d = Math.max(d, Math.abs(x[i] - y[i]));
        return d;
    }

    /** A percentage-point difference: a part's share of its whole on one side minus on the other, in points. */
    public static double pp(double part, double whole, double logPart, double logWhole) {
        return 100 * (part / whole - logPart / logWhole);
    }

    /**
     * The distance two samples of n and m values drawn from one distribution exceed one time in 20 by chance alone (the
     * two-sample KS test's critical value at 5%, 1.358 sqrt((n + m) / nm); conservative where values repeat).
     */
    public static double chance(long n, long m) {
        return n == 0 || m == 0 ? Double.NaN : 1.358 * Math.sqrt((double) (n + m) / ((double) n * m));
    }

    /**
     * What a KS distance means, in words: how far the cumulative shares are apart, and, against the samples' sizes,
     * whether chance alone would explain it.
     */
    public static String ksWords(double d, long sent, long logged) {
        if (Double.isNaN(d)) return "not measured";
        String pts = String.format(Locale.ROOT, "%.0f", 100 * d);
        String shape = d < 0.05 ? "the same shape" : d < 0.1 ? "close" : d < 0.25 ? "visibly different" : "different";
        double c = chance(sent, logged);
        return "KS " + fmt(d, 3) + ": " + shape + " (the cumulative shares differ by at most " + pts + " points; " + sent + " sent, " + logged
                + " logged: " + (d <= c ? "within" : "beyond") + " chance, which exceeds " + fmt(c, 3) + " one time in 20)";
    }

    /** What a correlation of two rate profiles means, in words. */
    public static String correlationWords(double r) {
        if (Double.isNaN(r)) return "correlation undefined (a flat profile)";
        String shape = r >= 0.9 ? "follows the log's shape" : r >= 0.5 ? "roughly follows it" : "does not follow it";
        return "correlation " + fmt(r, 2) + ", " + shape;
    }

    /** The fidelity in one line: the mix, the rate, the gaps and the values. */
    public String line() {
        List<String> shares = new ArrayList<>();
        mix.forEach((n, v) -> shares.add(n + " " + fmt(v[1], 1) + "% (log " + fmt(v[0], 1) + "%)"));
        List<String> values = new ArrayList<>();
        valuesKs.forEach((n, d) -> values.add(n + " " + ksWords(d, size(n)[0], size(n)[1])));
        return "fidelity to the log (" + sent + " sends): the mix " + String.join(", ", shares) + ", at most " + fmt(mixPp, 2) + " pp apart; the rate over "
                + seconds + " s at most " + fmt(rateGapRps, 1) + " req/s from the log's, " + correlationWords(rateCorr) + "; the gaps between arrivals (at "
                + (resolutionMs >= 1000 ? fmt(resolutionMs / 1000, 0) + " s" : fmt(resolutionMs, 0) + " ms") + ", the log's clock) " + ksWords(gapsKs, size(GAPS)[0], size(GAPS)[1])
                + (values.isEmpty() ? "" : "; the values: " + String.join(", ", values));
    }

    private long[] size(String key) {
        return sizes == null ? new long[2] : sizes.getOrDefault(key, new long[2]);
    }

    static String fmt(double d, int decimals) {
        return Double.isNaN(d) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", d);
    }
}
