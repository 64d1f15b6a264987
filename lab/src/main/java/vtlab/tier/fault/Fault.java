package vtlab.tier.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One fault of a hold's schedule: what happens to which dependency of the SUT, from when to when (seconds into the
 * measured hold). Written TARGET:KIND[=AMOUNT]@FROM-TO, e.g. stub:latency=1900ms@10s-30s (every answer of the stub
 * 1.9 s later), stub:down@10s-20s (connections refused and cut), db:lock@10s-15s (a session holds an exclusive lock on
 * the tables the queries read), db:latency=500ms@…, db:down@…. Several faults of one hold are joined with '+'. What
 * each kind accepts and does is its own declaration ({@link FaultKind}).
 */
public record Fault(String target, FaultKind kind, Duration amount, Duration from, Duration to) {
    /** The fault kinds, one line each: a new kind is its class in this package and its line here. */
    static final List<FaultKind> KINDS = List.of(new Latency(), new Down(), new Lock());

    /** The row param that carries a hold's faults (as {@link #spec()} writes them). */
    public static final String PARAM = "fault";
    /** The word a row's params carry for a hold without a fault (a baseline row of a fault sweep). */
    public static final String NONE = "none";
    /**
     * The lab's own dependencies by what a user may call them -> their tier (db is the pg tier). Any other name is a
     * dependency a row declares itself (./vtlab ab --dependency NAME=host:port), its tier named the same.
     */
    static final Map<String, String> TARGETS = Map.of("stub", "stub", "db", "pg", "pg", "pg");
    /** The kinds, as declared. */
    public static List<FaultKind> kinds() {
        return KINDS;
    }

    private static final Pattern ONE = Pattern.compile("([a-z][a-z0-9-]*):([a-z]+)(?:=([0-9.]+(?:ms|s)))?@([0-9.]+(?:ms|s)?)-([0-9.]+(?:ms|s)?)");

    public Fault {
        if (to.compareTo(from) <= 0) throw new IllegalArgumentException("a fault must end after it starts");
    }

    /** The run tier this fault acts on: pg for db, the dependency's own name for one a row declares. */
    public String tier() {
        return TARGETS.getOrDefault(target, target);
    }

    public double fromS() {
        return from.toMillis() / 1000.0;
    }

    public double toS() {
        return to.toMillis() / 1000.0;
    }

    /** As written (normalized): the row's param, the dataset's fault column. */
    public String spec() {
        return target + ":" + kind.name() + (amount == null ? "" : "=" + dur(amount)) + "@" + dur(from) + "-" + dur(to);
    }

    @Override
    public String toString() {
        return spec();
    }

    /**
     * The same fault with its window's times multiplied by factor (to the millisecond), e.g. a 60 s hold's schedule
     * into a 24 s hold at 0.4; its amount (a latency) is what the dependency does and stays.
     */
    public Fault scaled(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) throw new IllegalArgumentException("a scale factor must be positive, not " + factor);
        return new Fault(target, kind, amount, scale(from, factor), scale(to, factor));
    }

    static Duration scale(Duration d, double factor) {
        return Duration.ofMillis(Math.round(d.toMillis() * factor));
    }

    /** The faults of one hold ("a+b"), or none for "none"; IllegalArgumentException with the reason when it does not parse. */
    public static List<Fault> parse(String spec) {
        String s = spec == null ? "" : spec.trim();
        if (s.isEmpty() || s.equals(NONE)) return List.of();
        List<Fault> out = new ArrayList<>();
        for (String part : s.split("\\+")) out.add(parseOne(part.trim()));
        return List.copyOf(out);
    }

    private static Fault parseOne(String s) {
        Matcher m = ONE.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + s + "' is not a fault: write TARGET:KIND[=AMOUNT]@FROM-TO, e.g. "
                    + String.join(", ", KINDS.stream().map(FaultKind::example).toList()));
        }
        String target = m.group(1);
        FaultKind kind = KINDS.stream().filter(k -> k.name().equals(m.group(2))).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "'" + s + "': no fault kind " + m.group(2) + " (" + String.join(", ", KINDS.stream().map(FaultKind::name).toList()) + ")"));
        Duration amount = m.group(3) == null ? null : duration(m.group(3));
        try {
            kind.check(target, amount);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + s + "': " + e.getMessage(), e);
        }
        Duration from = duration(m.group(4)), to = duration(m.group(5));
        if (to.compareTo(from) <= 0) throw new IllegalArgumentException("'" + s + "': the fault must end after it starts");
        return new Fault(target, kind, amount, from, to);
    }

    /**
     * Refuses a schedule that names a dependency the row does not have or falls outside its hold, and two faults on one
     * dependency at once (which one would the window show?).
     */
    public static void check(List<Fault> faults, Collection<String> tiers, Duration hold) {
        for (Fault f : faults) {
            if (!tiers.contains(f.tier())) {
                throw new IllegalArgumentException("fault " + f + ": this row has no dependency " + f.target() + " (its tiers: "
                        + (tiers.isEmpty() ? "none" : String.join(", ", tiers)) + ")");
            }
            if (f.to().compareTo(hold) > 0) {
                throw new IllegalArgumentException("fault " + f + " ends after the " + dur(hold) + " hold: lengthen --hold or end it sooner");
            }
        }
        for (int i = 0; i < faults.size(); i++)
            for (int j = i + 1; j < faults.size(); j++) {
                Fault a = faults.get(i), b = faults.get(j);
                if (a.tier().equals(b.tier()) && a.from().compareTo(b.to()) < 0 && b.from().compareTo(a.to()) < 0) {
                    throw new IllegalArgumentException("faults " + a + " and " + b + " overlap on " + a.target());
                }
            }
    }

    /** 2s, 500ms, 1.5s; a bare number is seconds. */
    static Duration duration(String s) {
        if (s.endsWith("ms")) return Duration.ofMillis(Math.round(Double.parseDouble(s.substring(0, s.length() - 2))));
        String n = s.endsWith("s") ? s.substring(0, s.length() - 1) : s;
        return Duration.ofMillis(Math.round(Double.parseDouble(n) * 1000));
    }

    static String dur(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
