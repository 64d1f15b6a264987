package vtlab.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import vtlab.data.Column;
import vtlab.data.RowValues;
import vtlab.plan.Row;
import vtlab.tier.RunTier;
import vtlab.tier.fault.Fault;

/**
 * A row's faults carried out during the measured hold, beside the generator and the probes: each begun and ended on
 * time by the running tier its kind says carries it (the proxy, the database), whatever the load does. The
 * times it really began and ended are the row's; a fault that could not be applied fails the row (its numbers would
 * describe a healthy hold). Every fault still on when the hold ends, or when the row fails, is ended.
 */
final class FaultSchedule implements AutoCloseable {
    static final Column FAULT = vtlab.data.Columns.FAULT;
    static final Column FROM = vtlab.data.Columns.FAULT_FROM;
    static final Column TO = vtlab.data.Columns.FAULT_TO;
    static final List<Column> COLUMNS = List.of(FAULT, FROM, TO);

    private record Planned(Fault fault, RunTier carrier) {}

    private final List<Planned> planned;
    private final List<AutoCloseable> active = Collections.synchronizedList(new ArrayList<>());
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private volatile double firstFrom = Double.NaN, lastTo = Double.NaN;
    private ScheduledExecutorService timer;
    private long t0;

    private FaultSchedule(List<Planned> planned) {
        this.planned = planned;
    }

    static final FaultSchedule NONE = new FaultSchedule(List.of());

    /** The row's faults, each with the running tier that carries it; refused before any load when one has none. */
    static FaultSchedule of(Row row, Map<String, RunTier> tiers) throws RowRunner.RowFailed {
        if (row.faults().isEmpty()) return NONE;
        List<Planned> out = new ArrayList<>();
        for (Fault f : row.faults()) {
            RunTier carrier = f.kind().carrier(f, tiers);
            if (carrier == null) throw new RowRunner.RowFailed("no running tier can inject " + f + " (running: " + String.join(", ", tiers.keySet()) + ")");
            out.add(new Planned(f, carrier));
        }
        return new FaultSchedule(out);
    }

    boolean any() {
        return !planned.isEmpty();
    }

    String spec() {
        return String.join("+", planned.stream().map(p -> p.fault().spec()).toList());
    }

    /** The hold began at t0 (System.nanoTime()): each fault is timed from there. */
    void start(long t0) {
        if (planned.isEmpty()) return;
        this.t0 = t0;
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "vtlab-faults");
            t.setDaemon(true);
            return t;
        });
        for (Planned p : planned) {
            timer.schedule(() -> begin(p), delayTo(p.fault().from().toNanos()), TimeUnit.NANOSECONDS);
        }
    }

    private long delayTo(long offsetNanos) {
        return Math.max(0, t0 + offsetNanos - System.nanoTime());
    }

    private void begin(Planned p) {
        try {
            AutoCloseable a = p.fault().kind().begin(p.fault(), p.carrier());
            double at = now();
            if (Double.isNaN(firstFrom)) firstFrom = at;
            active.add(a);
            timer.schedule(() -> end(a), delayTo(p.fault().to().toNanos()), TimeUnit.NANOSECONDS);
        } catch (Exception e) {
            errors.add("could not begin " + p.fault() + ": " + e.getMessage());
        }
    }

    private void end(AutoCloseable a) {
        if (!active.remove(a)) return;
        try {
            a.close();
            lastTo = now();
        } catch (Exception e) {
            errors.add("could not end a fault: " + e.getMessage());
        }
    }

    private double now() {
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Ends what is still on (the hold ended first, or the row failed) and stops the timer. */
    @Override
    public void close() {
        if (timer == null) return;
        timer.shutdownNow();
        for (AutoCloseable a : List.copyOf(active)) end(a);
    }

    /** The fault columns; a fault that did not begin or end as planned fails the row. */
    void into(RowValues out) throws RowRunner.RowFailed {
        if (planned.isEmpty()) return;
        if (!errors.isEmpty()) throw new RowRunner.RowFailed(String.join("; ", errors));
        if (Double.isNaN(firstFrom) || Double.isNaN(lastTo)) throw new RowRunner.RowFailed("the fault " + spec() + " did not run its window in the hold");
        out.put(FAULT, spec());
        out.put(FROM, round(firstFrom));
        out.put(TO, round(lastTo));
    }

    double fromS() {
        return firstFrom;
    }

    double toS() {
        return lastTo;
    }

    private static double round(double s) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.2f", s));
    }
}
