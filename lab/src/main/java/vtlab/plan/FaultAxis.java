package vtlab.plan;

import java.util.ArrayList;
import java.util.List;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.tier.fault.Fault;
import vtlab.tier.fault.FaultKind;
import vtlab.tier.ToxiproxyTier;

/**
 * --fault: faults on a schedule within each row's hold, an axis like the others (each value a row; '+' joins faults
 * of one hold; "none" a baseline row). A value is refused in one line when it does not parse, names a dependency the
 * row does not have, or does not fit in its hold. A row with a latency or down fault gets the fault proxy as its last
 * tier, so the proxy stands in front of the dependencies started before it.
 */
public final class FaultAxis {
    public static final Opt FAULT = Opt.of("fault", null, "faults within each row's hold, an axis (each value a row, 'a+b' in one hold, none: no fault):\n"
            + String.join(", ", Fault.kinds().stream().map(k -> k.example() + " (" + k.effect() + ")").toList()) + ";\n"
            + String.join("/", Fault.kinds().stream().filter(FaultKind::throughProxy).map(FaultKind::name).toList())
            + " go through a Toxiproxy in front of the dependency").typed(Opt.Type.REPEATED).inScenario("load");

    private FaultAxis() {}

    /** The schedules given, each parsed (refused in one line if one does not); empty without --fault. */
    public static List<String> parse(Options o) throws UsageError {
        if (!FAULT.given(o)) return List.of();
        List<String> out = new ArrayList<>();
        for (String v : FAULT.list(o))
            for (String spec : v.split(",")) {
                try {
                    List<Fault> faults = Fault.parse(spec);
                    out.add(faults.isEmpty() ? Fault.NONE : String.join("+", faults.stream().map(Fault::spec).toList()));
                } catch (IllegalArgumentException e) {
                    throw new UsageError("--fault: " + e.getMessage());
                }
            }
        return List.copyOf(new java.util.LinkedHashSet<>(out));
    }

    /**
     * Schedules (comma-separated, each a '+' of faults, or none) with their times multiplied by factor: an experiment's
     * default schedules scaled into a shorter hold (--quick). IllegalArgumentException when one does not parse.
     */
    public static String scaled(String schedules, double factor) {
        List<String> out = new ArrayList<>();
        for (String spec : schedules.split(",")) {
            List<Fault> faults = Fault.parse(spec);
            out.add(faults.isEmpty() ? Fault.NONE : String.join("+", faults.stream().map(f -> f.scaled(factor).spec()).toList()));
        }
        return String.join(",", out);
    }

    /**
     * Each row once per schedule (the rows as they are without one). A row following a rate profile is a bad day of its
     * own (a spike) and is judged at its profile, and a row whose experiment gave it a schedule (a soak: none) keeps
     * it: both are kept as they are.
     */
    public static List<Row> apply(List<Row> rows, List<String> schedules) throws UsageError {
        if (schedules.isEmpty()) return rows;
        List<Row> out = new ArrayList<>();
        for (Row r : rows) {
            if (r.rateProfile() != null || r.params().containsKey(Fault.PARAM)) { // a spike, or a schedule its experiment chose
                out.add(r);
                continue;
            }
            for (String s : schedules) out.add(withFault(r, s));
        }
        return List.copyOf(out);
    }

    /** The row with a schedule, parsed once here into its faults, and the proxy among its tiers when a fault goes through it. */
    public static Row withFault(Row r, String schedule) throws UsageError {
        List<Fault> faults = Fault.parse(schedule);
        try {
            Fault.check(faults, r.tiers(), r.hold());
        } catch (IllegalArgumentException e) {
            throw new UsageError("--fault: " + e.getMessage() + " (row " + r.label() + ")");
        }
        List<String> tiers = new ArrayList<>(r.tiers());
        if (faults.stream().anyMatch(f -> f.kind().throughProxy()) && !tiers.contains(ToxiproxyTier.NAME)) tiers.add(ToxiproxyTier.NAME);
        return r.withFaults(faults).withTiers(tiers);
    }
}
