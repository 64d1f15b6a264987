package vtlab.experiment.ab;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.data.MachineRecord;
import vtlab.data.MachineRecord.NoiseFloor;
import vtlab.data.judge.Spread;

/**
 * The noise floor in ab's words: an A/A run's line (the spread between its forks, throughput and p99, each with its
 * interval, asked of the judge, {@link Spread}), what it keeps as the machine's, and the clause a comparison without
 * an interval (one fork a side) gets in its place of a constant: the floor this machine measured, or that it has none.
 */
final class NoiseFloorLine {
    private NoiseFloorLine() {}

    /** Its key under ab in kept.json: the machine's floor as the run found it. */
    static final String KEY = "noise_floor";

    /**
     * The A/A's floor from its rows, null when the rows are no A/A or cannot measure one: a failed fork (the spread of
     * the survivors is not the machine's), or fewer than two ok forks in all. Flagged rows (a busy machine) are left
     * out, as the verdict leaves them out of its claims.
     */
    static NoiseFloor measured(String run, List<DataRow> rows) {
        List<DataRow> aa = rows.stream().filter(r -> Aa.side(r) != null).toList();
        if (aa.isEmpty() || aa.stream().anyMatch(DataRow::failed)) return null;
        List<DataRow> ok = aa.stream().filter(DataRow::ok).toList();
        Spread rps = spread(ok, Columns.RPS);
        if (!rps.known()) return null;
        DataRow any = ok.getFirst();
        return new NoiseFloor(java.time.Instant.now().toString(), run, scenario(any), rps, spread(ok, Columns.P99));
    }

    /** "/sleep?ms=50 at 200 connections, virtual as shipped, 20 s holds". */
    static String scenario(DataRow r) {
        String hold = Double.isNaN(r.num(Columns.DURATION_S)) ? "" : String.format(Locale.ROOT, ", %.0f s holds", r.num(Columns.DURATION_S));
        return r.text(Columns.WORKLOAD) + " at " + Verdict.load(r) + ", " + Verdict.baseConfig(r) + hold;
    }

    /** The spread of every fork of both sides: one configuration, so all its fork means are draws of the same noise. */
    static Spread spread(List<DataRow> ok, Column col) {
        List<Double> means = new ArrayList<>();
        for (String side : List.of(Aa.A, Aa.A2)) {
            for (double m : Verdict.forkMeans(ok.stream().filter(r -> side.equals(Aa.side(r))).toList(), col)) means.add(m);
        }
        return Spread.of(means.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /**
     * The A/A's noise floor line: "noise floor, /sleep?ms=50 at 200 connections, virtual as shipped: between-fork CV of
     * throughput 3.2% (95% CI ...), of p99 ...; two single forks of it differ by up to ±9% from this noise alone", and
     * whether it is kept as this machine's.
     */
    static Finding finding(String scenario, List<DataRow> rows) {
        List<DataRow> aa = rows.stream().filter(r -> Aa.side(r) != null).toList();
        List<DataRow> ok = aa.stream().filter(DataRow::ok).toList();
        Spread rps = spread(ok, Columns.RPS), p99 = spread(ok, Columns.P99);
        String configs = aa.isEmpty() ? "" : ", " + Verdict.baseConfig(aa.getFirst());
        StringBuilder s = new StringBuilder("noise floor, " + scenario + configs + ": " + (rps.known() ? "between-fork " + rps.words() + " of throughput"
                : "no between-fork spread measured (" + (rps.units() == 1 ? "one ok fork" : "no ok fork") + "; flagged forks are not evidence)"));
        if (p99.known()) s.append(", ").append(p99.words()).append(" of p99");
        if (rps.known()) s.append(String.format(Locale.ROOT, "; two single forks of one configuration differ by up to ±%s in throughput from this noise alone",
                pct(rps.singleForkBand())));
        List<DataRow> failed = aa.stream().filter(DataRow::failed).toList();
        if (!failed.isEmpty()) s.append("; not kept as this machine's: ").append(Verdict.rowsOf(failed)).append(" FAILED, and the survivors' spread is not the machine's");
        else if (!rps.known()) s.append("; not kept as this machine's: fewer than two ok forks");
        else s.append("; kept as this machine's floor when the run ends (.vtlab/machines/), which later verdicts quote");
        return Finding.of(s.toString(), ok);
    }

    /**
     * Set beside a comparison that has no interval: the floor this machine measured ("this machine's noise floor: CV
     * 4.1% ... of throughput, measured by ./vtlab ab --aa on ...: two single forks differ by up to ±11% from noise
     * alone"), or that none was ("the spread between forks is not measured on this machine: run ./vtlab ab --aa").
     */
    static String clause(NoiseFloor floor) {
        if (floor == null || !floor.rps().known()) return "not measured on this machine: run ./vtlab ab --aa";
        return String.format(Locale.ROOT, "this machine's noise floor: %s: two single forks differ by up to ±%s from noise alone", floor.words(),
                pct(floor.rps().singleForkBand()));
    }

    /** A band in percent, a decimal below 10% so that a quiet machine's floor does not read "±0%". */
    static String pct(double fraction) {
        double p = 100 * fraction;
        return String.format(Locale.ROOT, p < 10 ? "%.1f%%" : "%.0f%%", p);
    }
}
