package vtlab.run;

import java.util.ArrayList;
import java.util.List;

import vtlab.check.Validity;
import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.data.Schema;
import vtlab.load.generator.Generators;
import vtlab.probe.Probes;

/**
 * matrix.csv's schema, assembled from what every component declares: the runner, every registered generator, the
 * validity checks and every registered probe, whatever a run selects (one header for every run). The seed rig's
 * columns come first in its order.
 */
public final class MatrixSchema {
    private MatrixSchema() {}

    public static Schema full() {
        List<Column> all = new ArrayList<>(RowColumns.ALL);
        Generators.all().values().forEach(g -> all.addAll(g.get().columns()));
        all.addAll(Validity.COLUMNS);
        all.addAll(FaultSchedule.COLUMNS);
        all.addAll(ExplainingHold.COLUMNS);
        all.addAll(PhaseClock.COLUMNS);
        all.addAll(ProbeSession.COLUMNS);
        all.addAll(vtlab.check.FaultVerdict.COLUMNS);
        Probes.all().values().forEach(p -> all.addAll(p.get().columns()));
        return Schema.ordered(Columns.SEED, all);
    }
}
