package vtlab.experiment.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import vtlab.check.Slo;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Rows;
import vtlab.plan.Row;
import vtlab.plan.Search;
import vtlab.stack.Params;

/**
 * The highest constant rate one scenario sustains within an SLO: coarse steps (double from the first rate until a
 * step fails, or halve until one passes), then bisection between the highest passing and the lowest failing rate
 * until they are within {@link #PRECISION} of each other. Every step is a full row (warm-up, hold, probes, checks).
 * The next rate is a function of the rows so far alone, so the logic can be replayed on recorded rows.
 */
public final class CapacitySearch implements Search {
    /** Bisection stops when (lowest failing - highest passing) / highest passing is at most this. */
    static final double PRECISION = 0.05;
    static final double MIN_RATE = 10;

    private final String label;
    private final Row seed;
    private final Slo slo;
    private final double from, maxRate;

    /** seed: the scenario as a row (its experiment, stack, mode, params); each step is it at a rate. */
    CapacitySearch(String label, Row seed, Slo slo, double from, double maxRate) {
        this.label = label;
        this.seed = seed;
        this.slo = slo;
        this.from = from;
        this.maxRate = maxRate;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public Row template() {
        return seed.atRate(from);
    }

    @Override
    public Row next(List<DataRow> measured) {
        Double rate = nextRate(measured, from, maxRate);
        return rate == null ? null : seed.atRate(rate);
    }

    /** The next rate to try after these rows, or null when the search is done. */
    static Double nextRate(List<DataRow> measured, double from, double maxRate) {
        if (measured.isEmpty()) return from;
        OptionalDouble lo = measured.stream().filter(CapacitySearch::passes).mapToDouble(CapacitySearch::rate).max();
        OptionalDouble hi = measured.stream().filter(r -> !passes(r)).mapToDouble(CapacitySearch::rate).min();
        // a step the generator could not deliver says nothing about the SUT above it: the search ends there
        if (measured.stream().anyMatch(r -> !passes(r) && r.flags().contains("generator-bound"))) return null;
        if (hi.isEmpty()) {
            double next = Math.min(lo.getAsDouble() * 2, maxRate);
            return next <= lo.getAsDouble() ? null : (double) Math.round(next);
        }
        if (lo.isEmpty()) {
            double next = Math.round(hi.getAsDouble() / 2);
            return next < MIN_RATE ? null : next;
        }
        double l = lo.getAsDouble(), h = hi.getAsDouble();
        if (h <= l || (h - l) / l <= PRECISION) return null; // h <= l: a noisy pass above a fail; the fail bounds it
        double mid = Math.round((l + h) / 2);
        return mid <= l || mid >= h ? null : mid;
    }

    static double rate(DataRow r) {
        return r.num(Columns.TARGET_RPS);
    }

    /**
     * A step passes when the row is valid evidence (not failed, nothing voiding it), was not offered more than its
     * bound (overload is not sustainable, whatever a finite hold shows) and meets the SLO recorded with it.
     */
    static boolean passes(DataRow r) {
        return r.ok() && !r.flags().contains("overloaded") && slo(r).broken(r).isEmpty();
    }

    /** The SLO a capacity row was measured against (its params carry it). */
    static Slo slo(DataRow r) {
        try {
            return Slo.parse(r.param(CapacityExperiment.SLO_PARAM));
        } catch (vtlab.core.UsageError e) {
            throw new IllegalStateException("capacity row without a readable slo param: " + r.text(Columns.PARAMS), e);
        }
    }

    /** Why a failing step failed, in words: what limited it first. */
    static String limit(DataRow r) {
        List<String> flags = r.flags();
        if (r.failed()) return "the row failed (" + r.text(Columns.NOTE) + ")";
        if (flags.contains("generator-bound")) return "the generator (load CPU " + r.text(Columns.LOAD_CPU) + "%)";
        if (flags.contains("app-cpu-bound")) return "the SUT's CPU (" + r.text(Columns.APP_CPU) + "% busy)";
        if (flags.contains("overloaded")) return "the " + r.text(Columns.BOUND_NOTE).replaceFirst("^open model: capacity ", "") + " bound";
        List<String> broken = slo(r).broken(r);
        if (broken.isEmpty()) return "its flags (" + String.join(", ", flags) + ")";
        return "latency, with no CPU saturated (" + String.join("; ", broken) + ")" + pause(r);
    }

    /** The SUT's longest stop-the-world pause in the step's hold (gc probe), when it is what a latency limit may be. */
    private static String pause(DataRow r) {
        double stw = r.num(Columns.STW_MAX);
        if (!(stw >= 1)) return ""; // NaN: no gc probe
        return String.format(Locale.ROOT, ", its longest stop-the-world pause %.0f ms (%s, %s GC pauses in the hold)", stw,
                r.text(Columns.STW_CAUSE), r.text(Columns.GC_PAUSES));
    }

    @Override
    public String status(List<DataRow> measured) {
        DataRow last = measured.getLast();
        String verdict = passes(last) ? "meets " + slo.words() : "misses the SLO: " + reason(last);
        Double next = nextRate(measured, from, maxRate);
        return String.format(Locale.ROOT, "%,.0f req/s %s; %s", rate(last), verdict,
                next == null ? "search done: " + result(measured) : String.format(Locale.ROOT, "next %,.0f req/s", next));
    }

    private static String reason(DataRow r) {
        List<String> broken = r.ok() ? slo(r).broken(r) : List.of();
        return broken.isEmpty() ? limit(r) : String.join("; ", broken);
    }

    /** The search's outcome in words from its rows. */
    static String result(List<DataRow> measured) {
        OptionalDouble lo = measured.stream().filter(CapacitySearch::passes).mapToDouble(CapacitySearch::rate).max();
        return lo.isEmpty() ? "no rate tried meets the SLO" : String.format(Locale.ROOT, "capacity %,.0f req/s", lo.getAsDouble());
    }

    @Override
    public int expectedRows() {
        return 8; // 3-4 coarse steps and 3-4 bisections, measured here for the servlet's two modes
    }

    @Override
    public long secondsPerRow() {
        return seed.plannedSeconds();
    }

    /** The params of a capacity row: the base experiment's, plus what the search was for. */
    static Params params(Params base, String of, Slo slo) {
        return base.with(CapacityExperiment.OF_PARAM, of).with(CapacityExperiment.SLO_PARAM, slo.text().replace(";", ","));
    }

    static List<Double> rates(List<DataRow> rows) {
        List<Double> out = new ArrayList<>();
        for (DataRow r : rows) out.add(rate(r));
        return out;
    }
}
