package vtlab.experiment.spring;

import vtlab.data.Columns;
import vtlab.data.Rows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.tool.Jdk;

/**
 * Does my code pin, where, how often, on which JDK, and what does it cost? The spring-mvc SUT in virtual mode with
 * its blocking section (the downstream call) run three ways: normal, inside a striped synchronized (pins before
 * JDK 24, not after: JEP 491), and inside the positive control (stacks/pin-control: pins on every JDK), so that a
 * zero can be trusted. Rows: path x JDK; by default JDK 25 (the lab's) and 21 (installed from PyPI when missing).
 */
public final class PinningExperiment implements SpringRig.OrderQueries {
    static final List<String> PATHS = List.of("normal", "synchronized", "control");

    @Override
    public String name() {
        return "pinning";
    }

    @Override
    public String summary() {
        return "JFR pinning per path (normal, synchronized, positive control) x JDK (25, 21): counts, stacks, cost";
    }

    static final Opt PATHS_OPT = Opt.of("paths", "normal,synchronized,control", "the blocking section: plain, in synchronized, in the control").withChoices(PATHS);
    static final Opt CONC = SpringRig.CONC.withDefault("100").withHelp("connections (well above the carrier count: pinned carriers show)");
    static final List<Opt> TIMING = PlanContext.timingOptions("10s", "20s", 1, null);

    @Override
    public List<Opt> options() {
        List<Opt> a = new ArrayList<>(List.of(PATHS_OPT, CONC));
        a.addAll(TIMING);
        return a;
    }

    /** --jdk and --pin-threshold are the lab's options: what they mean here, not declared again. */
    @Override
    public List<String> axes() {
        List<String> a = new ArrayList<>(SpringRig.OrderQueries.super.axes());
        a.add("the lab's --jdk defaults here to 25 and 21 (installed from PyPI if missing), its --pin-threshold");
        a.add("to 0ms (every pin recorded; JFR's default is 20 ms)");
        return a;
    }

    /** The options parsed once. */
    record Spec(List<String> paths, List<Integer> conc, PlanContext.Timing timing) {
        static Spec parse(Options o, PlanContext ctx) throws UsageError {
            return new Spec(PATHS_OPT.chosen(o), CONC.ints(o), ctx.timing(o, TIMING));
        }
    }

    @Override
    public List<Row> plan(Options o, PlanContext ctx) throws UsageError {
        Stack stack = Stack.load(SpringRig.STACK);
        Spec s = Spec.parse(o, ctx);
        PlanContext.Timing t = s.timing();
        List<Jdk> jdks = SpringRig.jdksWith21(o, ctx, name());
        SpringRig.Sut virtual = SpringRig.Sut.defaults(stack, Threads.VIRTUAL.word); // the stack's configuration, only the path varies
        List<Row> rows = new ArrayList<>();
        for (Jdk jdk : jdks)
            for (String path : s.paths())
                SpringRig.sweep(rows, name(), stack, jdk, virtual.withPathMode(path), s.conc(), false, t, ctx.jvmArgs());
        return rows;
    }

    /**
     * Pin counts come from JFR, not from the load: a row flagged for its throughput (a pinned path can be slow
     * enough for timeouts) still counts as evidence of pinning; failed rows never do.
     */
    @Override
    public List<vtlab.data.Finding> findings(java.nio.file.Path runDir, List<vtlab.data.DataRow> rows) {
        List<vtlab.data.Finding> out = new ArrayList<>();
        List<vtlab.data.DataRow> usable = rows.stream().filter(r -> !r.failed() && r.has(Columns.PINNED)).toList();
        TreeSet<Integer> jdks = usable.stream().map(r -> Integer.parseInt(r.text(Columns.JDK))).collect(Collectors.toCollection(TreeSet::new));
        for (int jdk : jdks.descendingSet()) {
            Map<String, double[]> byPath = new LinkedHashMap<>(); // events, rps, p99 (means over reps)
            Map<String, List<vtlab.data.DataRow>> rowsOf = new LinkedHashMap<>();
            for (String path : PATHS) {
                List<vtlab.data.DataRow> p = usable.stream().filter(r -> r.text(Columns.JDK).equals(Integer.toString(jdk))
                        && path.equals(r.text(Columns.PATH_MODE))).toList();
                if (p.isEmpty()) continue;
                byPath.put(path, new double[] {Rows.mean(p, Columns.PINNED), Rows.mean(p, Columns.RPS), Rows.mean(p, Columns.P99)});
                rowsOf.put(path, p);
            }
            double[] control = byPath.get("control"), sync = byPath.get("synchronized"), normal = byPath.get("normal");
            List<vtlab.data.DataRow> controlRows = rowsOf.getOrDefault("control", List.of());
            if (control != null && control[0] == 0) {
                out.add(vtlab.data.Finding.of(String.format(Locale.ROOT, "JDK %d: the positive control recorded 0 pinned events: capture is broken on this JDK, so no zero here can be trusted", jdk),
                        controlRows));
                continue;
            }
            String trust = control == null ? " (no control row: a zero is unproven)"
                    : String.format(Locale.ROOT, " (positive control: %,.0f events, so capture works)", control[0]);
            if (sync != null) {
                String verdict = sync[0] == 0 ? (jdk >= 24 ? "synchronized no longer pins (JEP 491)" : "synchronized did not pin")
                        : (jdk >= 24 ? "synchronized still pins" : "synchronized pins (before JEP 491)");
                List<vtlab.data.DataRow> evidence = new ArrayList<>(rowsOf.get("synchronized"));
                evidence.addAll(controlRows);
                out.add(vtlab.data.Finding.of(String.format(Locale.ROOT, "JDK %d: %s: %,.0f pinned events on the synchronized path%s", jdk, verdict, sync[0], trust),
                        evidence));
            }
            if (normal != null) {
                out.add(vtlab.data.Finding.of(String.format(Locale.ROOT, "JDK %d: the normal path recorded %,.0f pinned events", jdk, normal[0]), rowsOf.get("normal")));
            }
            String cost = byPath.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s %s, p99 %s ms", e.getKey(),
                    SpringRig.rps(e.getValue()[1]), SpringRig.fmt(e.getValue()[2]))).collect(Collectors.joining("; "));
            out.add(vtlab.data.Finding.of("JDK " + jdk + ": cost of pinning, throughput and p99 per path: " + cost,
                    rowsOf.values().stream().flatMap(List::stream).toList()));
        }
        if (!jdks.contains(21)) out.add(vtlab.data.Finding.of("JDK 21: not tested in this run (no JDK 21 rows); synchronized pinning before JEP 491 is not shown"));
        if (jdks.stream().noneMatch(j -> j >= 24)) out.add(vtlab.data.Finding.of("no JDK 24+ in this run: JEP 491 (synchronized without pinning) is not shown"));
        return out;
    }

}
