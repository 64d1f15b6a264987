package vtlab.experiment.servlet;

import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.data.Rows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.ThreadMode.Threads;

/**
 * The article's footprint (seed 000): Tomcat idle, then after a load of 400 connections on the HelloWorld servlet.
 * Platform: 41 threads / 42 MB of thread stacks reserved idle -> 231 threads / 237 MB after the load (the pool grew
 * to 200); virtual: 31 -> 39 threads. The rows are the servlet experiment's, with its own defaults; the idle
 * readings come from the threads and nmt probes before the load (jvm_threads_idle, nmt_thread_*_kb_idle).
 */
public final class FootprintExperiment extends ServletWithDefaults {
    /** Where footprint's defaults differ from the servlet experiment's. */
    static final Map<String, String> DEFAULTS = Map.of("workloads", "hello", "conc", "400", "reps", "1");

    public FootprintExperiment() {
        super(DEFAULTS, List.of(), List.of("the servlet experiment's axes, with its own defaults;",
                "always runs the threads and nmt probes: idle = before the warm-up, after = end of the hold"));
    }

    @Override
    public String name() {
        return "footprint";
    }

    @Override
    public String summary() {
        return "Tomcat idle vs after load (seed 000): OS threads and NMT Thread reserved/committed, platform pool vs virtual";
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        return servletRows(o, ctx).stream().map(FootprintExperiment::asFootprint).toList();
    }

    static Row asFootprint(Row r) {
        return r.as("footprint", r.params());
    }

    /** The idle and after readings are the threads and nmt probes': on whatever the run's --probes. */
    @Override
    public List<String> probes(List<String> runProbes) {
        return Experiment.withProbes(runProbes, "threads", "nmt");
    }

    /** "Idle" means a JVM that has served nothing yet: no row may inherit the previous row's grown pool. */
    @Override
    public boolean freshSutPerRow() {
        return true;
    }

    /**
     * Thread counts and NMT are read from the SUT itself, not from the generator: a row flagged for its load figures
     * (e.g. littles-law, generator-bound) still measured them, so flagged rows are used and named; failed rows are not.
     */
    @Override
    public List<Finding> findings(java.nio.file.Path runDir, List<DataRow> rows) {
        List<Finding> out = new ArrayList<>();
        List<DataRow> ok = rows.stream().filter(r -> r.ok() || r.flagged()).toList();
        long failed = rows.size() - ok.size();
        if (ok.isEmpty()) {
            if (!rows.isEmpty()) out.add(Finding.of("footprint: every row failed (" + failed + "): nothing to conclude", rows));
            return out;
        }
        Map<String, List<DataRow>> byMode = ok.stream().collect(Collectors.groupingBy(DataRow::mode, LinkedHashMap::new, Collectors.toList()));
        byMode.forEach((mode, mr) -> {
            double idle = Rows.mean(mr, Columns.THREADS_IDLE), after = Rows.mean(mr, Columns.THREADS_MAX);
            double resIdle = Rows.mean(mr, Columns.NMT_RESERVED_IDLE), res = Rows.mean(mr, Columns.NMT_RESERVED);
            double comIdle = Rows.mean(mr, Columns.NMT_COMMITTED_IDLE), com = Rows.mean(mr, Columns.NMT_COMMITTED);
            if (Double.isNaN(idle) || Double.isNaN(resIdle)) {
                out.add(Finding.of(mode + ": no idle readings (the threads and nmt probes must be on)", mr));
                return;
            }
            String check = mode.equals(Threads.PLATFORM.word)
                    ? after >= 200 ? "; >= 200 threads after load, as the article's pool grew" : "; FEWER than 200 threads after load: the pool did not grow to its maximum"
                    : mode.equals(Threads.VIRTUAL.word)
                    ? after <= 60 ? "; <= 60 threads after load: virtual threads are not OS threads" : "; MORE than 60 threads after load"
                    : "";
            String flagged = mr.stream().filter(DataRow::flagged).map(r -> r.text(Columns.NOTE, "flagged"))
                    .distinct().collect(Collectors.joining(", "));
            out.add(Finding.of(String.format(Locale.ROOT, "%s: %.0f threads idle -> %.0f after load (c=%s); NMT Thread reserved %.1f -> %.1f MiB (+%.1f MiB), "
                    + "committed %.1f -> %.1f MiB (+%.1f MiB)%s%s", mode, idle, after, mr.getFirst().text(Columns.CONCURRENCY), resIdle / 1024, res / 1024,
                    (res - resIdle) / 1024, comIdle / 1024, com / 1024, (com - comIdle) / 1024, check,
                    flagged.isEmpty() ? "" : " [row " + flagged + ": its load figures are in doubt, not these SUT readings]"), mr));
        });
        if (failed > 0) out.add(Finding.of(failed + " failed row(s) not used", rows.stream().filter(DataRow::failed).toList()));
        out.add(Finding.of("seed 000 (the article, Tomcat 10.1 vs 11): platform 41 threads / 42 MB reserved idle -> 231 threads / 237 MB after load; "
                + "virtual 31 -> 39 threads (32 -> 40 MB reserved)"));
        return out;
    }
}
