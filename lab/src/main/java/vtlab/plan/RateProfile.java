package vtlab.plan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An open row's offered rate over its hold (--rate-profile), for traffic spikes: points written RATE@TIME, a step (the
 * rate is RATE from TIME on, seconds into the hold), or RATE@FROM-TO, a linear ramp from the previous rate to RATE
 * between FROM and TO; e.g. "1000@0s,5000@10s,1000@20s" (a 10 s spike) or "1000@0s,5000@10s-15s,1000@25s-30s". The
 * first point is a step at 0s; the last rate holds to the end of the hold. Times are written 10s, 1.5s or 500ms (a bare
 * number is seconds).
 *
 * <p>The profile is kept as its knots: (time, rate) pairs joined by straight lines, where a step is two knots at one
 * time. Rate at a time, mean, peak, the seconds above a bound and k6's stages all read the same knots.
 *
 * @param points the points as given (normalized), in order
 */
public record RateProfile(List<Point> points) {
    /** The row param that carries a profile (as {@link #spec()} writes it). */
    public static final String PARAM = "rateProfile";
    private static final Pattern POINT = Pattern.compile("(-?[0-9.]+)@([0-9.]+(?:ms|s)?)(?:-([0-9.]+(?:ms|s)?))?");

    /** One point: a step at {@code from} (from == to), or a ramp to {@code rate} ending at {@code to}. */
    public record Point(double rate, Duration from, Duration to) {
        public boolean ramp() {
            return to.compareTo(from) > 0;
        }

        String spec() {
            return fmt(rate) + "@" + dur(from) + (ramp() ? "-" + dur(to) : "");
        }
    }

    /** A (time, rate) corner of the profile's line. */
    public record Knot(Duration at, double rate) {}

    public RateProfile {
        points = List.copyOf(points);
        if (points.isEmpty()) throw new IllegalArgumentException("a rate profile needs at least one point");
        Point first = points.getFirst();
        if (first.ramp() || !first.from().isZero()) throw new IllegalArgumentException("the first point must be a step at 0s (e.g. 1000@0s), not " + first.spec());
        Duration end = Duration.ZERO;
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            if (!(p.rate() > 0) || Double.isInfinite(p.rate())) throw new IllegalArgumentException("rates must be positive, not " + p.spec());
            if (p.to().compareTo(p.from()) < 0) throw new IllegalArgumentException(p.spec() + ": a ramp must end after it starts");
            if (i > 0) {
                Point prev = points.get(i - 1);
                // a ramp may start where the previous point ends; a step at the time of a step before it would replace it
                boolean backwards = p.from().compareTo(end) < 0 || (!p.ramp() && !prev.ramp() && p.from().equals(end));
                if (backwards) throw new IllegalArgumentException("times go backwards: " + p.spec() + " after " + prev.spec());
            }
            end = p.to();
        }
    }

    /** The profile written as --rate-profile takes it; IllegalArgumentException with the reason when it does not parse. */
    public static RateProfile parse(String spec) {
        String s = spec == null ? "" : spec.trim();
        if (s.isEmpty()) throw new IllegalArgumentException("give points RATE@TIME or RATE@FROM-TO, e.g. 1000@0s,5000@10s,1000@20s");
        List<Point> out = new ArrayList<>();
        for (String part : s.split(",")) {
            String p = part.trim();
            Matcher m = POINT.matcher(p);
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + p + "' is not a point: write RATE@TIME (a step) or RATE@FROM-TO (a ramp),"
                        + " e.g. 1000@0s,5000@10s,1000@20s");
            }
            double rate;
            try {
                rate = Double.parseDouble(m.group(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + p + "': the rate is not a number");
            }
            Duration from = duration(m.group(2));
            out.add(new Point(rate, from, m.group(3) == null ? from : duration(m.group(3))));
        }
        return new RateProfile(out);
    }

    /** As written (normalized): the row's param, so scenario and dataset show it. */
    public String spec() {
        return String.join(",", points.stream().map(Point::spec).toList());
    }

    @Override
    public String toString() {
        return spec();
    }

    /** The same profile with every time multiplied by factor (to the millisecond), its rates as they are. */
    public RateProfile scaled(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) throw new IllegalArgumentException("a scale factor must be positive, not " + factor);
        return new RateProfile(points.stream().map(p -> new Point(p.rate(), scale(p.from(), factor), scale(p.to(), factor))).toList());
    }

    private static Duration scale(Duration d, double factor) {
        return Duration.ofMillis(Math.round(d.toMillis() * factor));
    }

    /** When the last point ends (a step's time, a ramp's end): the hold must be longer. */
    public Duration end() {
        return points.getLast().to();
    }

    /** Refuses a profile with a point at or beyond the end of the hold (a step there would never be sent). */
    public void check(Duration hold) {
        Point last = points.getLast();
        if (last.ramp() ? last.to().compareTo(hold) > 0 : last.from().compareTo(hold) >= 0) {
            throw new IllegalArgumentException("point " + last.spec() + " is beyond the " + dur(hold) + " hold: lengthen --hold or end the profile sooner");
        }
    }

    /** The corners of the profile's line from 0 to the last point (the last rate then holds). */
    public List<Knot> knots() {
        List<Knot> k = new ArrayList<>();
        double rate = points.getFirst().rate();
        k.add(new Knot(Duration.ZERO, rate));
        for (Point p : points.subList(1, points.size())) {
            k.add(new Knot(p.from(), rate)); // the previous rate holds until the point begins
            k.add(new Knot(p.to(), p.rate())); // then jumps (a step: same time) or runs straight to it (a ramp)
            rate = p.rate();
        }
        return List.copyOf(k);
    }

    /** The offered rate t seconds into the hold (at a step's time, the new rate). */
    public double rateAt(double tS) {
        List<Knot> k = knots();
        double rate = k.getFirst().rate();
        for (int i = 1; i < k.size(); i++) {
            double a = seconds(k.get(i - 1).at()), b = seconds(k.get(i).at());
            if (tS < a) break;
            if (tS >= b) rate = k.get(i).rate();
            else rate = k.get(i - 1).rate() + (k.get(i).rate() - k.get(i - 1).rate()) * (tS - a) / (b - a);
        }
        return rate;
    }

    /** The mean offered rate over a hold of holdS seconds: requests due over the hold, per second. */
    public double meanRate(double holdS) {
        if (!(holdS > 0)) throw new IllegalArgumentException("a hold must be longer than zero");
        double area = 0;
        List<Knot> k = new ArrayList<>(knots());
        k.add(new Knot(Duration.ofMillis(Math.round(holdS * 1000)), k.getLast().rate()));
        for (int i = 1; i < k.size(); i++) {
            double a = Math.min(seconds(k.get(i - 1).at()), holdS), b = Math.min(seconds(k.get(i).at()), holdS);
            area += (b - a) * (k.get(i - 1).rate() + k.get(i).rate()) / 2;
        }
        return area / holdS;
    }

    /** The highest rate offered. */
    public double peakRate() {
        return points.stream().mapToDouble(Point::rate).max().orElseThrow();
    }

    /**
     * Where in a hold of holdS seconds the offered rate is above a bound, as [from, to) windows in seconds (a ramp
     * crosses the bound where its line does); empty when it never is.
     */
    public List<double[]> above(double bound, double holdS) {
        List<double[]> out = new ArrayList<>();
        List<Knot> k = new ArrayList<>(knots());
        k.add(new Knot(Duration.ofMillis(Math.round(holdS * 1000)), k.getLast().rate()));
        for (int i = 1; i < k.size(); i++) {
            double a = Math.min(seconds(k.get(i - 1).at()), holdS), b = Math.min(seconds(k.get(i).at()), holdS);
            if (b <= a) continue;
            double ra = k.get(i - 1).rate(), rb = k.get(i).rate();
            if (ra <= bound && rb <= bound) continue;
            // a straight line crosses the bound at most once
            double from = ra > bound ? a : a + (bound - ra) / (rb - ra) * (b - a);
            double to = rb > bound ? b : a + (bound - ra) / (rb - ra) * (b - a);
            if (!out.isEmpty() && out.getLast()[1] == from) out.getLast()[1] = to;
            else out.add(new double[] {from, to});
        }
        return out;
    }

    /** {@link #above} written as "10s-20s, 32.5s-35s". */
    public String aboveText(double bound, double holdS) {
        return String.join(", ", above(bound, holdS).stream().map(w -> fmt(round(w[0])) + "s-" + fmt(round(w[1])) + "s").toList());
    }

    private static double round(double s) {
        return Math.round(s * 100) / 100.0;
    }

    static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }

    /** 2s, 500ms, 1.5s; a bare number is seconds. */
    static Duration duration(String s) {
        try {
            if (s.endsWith("ms")) return Duration.ofMillis(Math.round(Double.parseDouble(s.substring(0, s.length() - 2))));
            String n = s.endsWith("s") ? s.substring(0, s.length() - 1) : s;
            return Duration.ofMillis(Math.round(Double.parseDouble(n) * 1000));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is not a time: write 10s, 1.5s or 500ms");
        }
    }

    static String dur(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    private static String fmt(double d) {
        return Row.fmt(d);
    }
}
