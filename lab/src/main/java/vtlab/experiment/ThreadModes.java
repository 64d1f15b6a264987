package vtlab.experiment;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.core.UsageError;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Finding;
import vtlab.data.Grouping;
import vtlab.data.Rows;
import vtlab.plan.PlanContext;
import vtlab.stack.Params;
import vtlab.stack.Settings;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode.Threads;

/** The thread modes the experiments compare and their --modes option, declared once (help per experiment). */
public final class ThreadModes {
    public static final List<String> ALL = List.of(Threads.PLATFORM.word, Threads.VIRTUAL.word);
    public static final Opt OPTION = Opt.of("modes", String.join(",", ALL), "thread mode").withChoices(ALL);

    /**
     * A value of --modes: the SUT's thread mode, and whether it runs as shipped, i.e. with the stack's settings at
     * the server's own defaults (stack.json "shipped", e.g. Tomcat's processorCache 200) and the JVM's own carrier
     * count, instead of the lab's tuning. Flipping a service to virtual threads and tuning nothing gives the
     * as-shipped numbers; the tuned variant beside it shows what tuning adds.
     */
    public record Variant(String name, String threadMode, boolean asShipped) {
        /** The stack settings of a row: the experiment's axes, over the server's defaults when as shipped. */
        public Settings settings(Stack stack, Settings axes) throws UsageError {
            if (!asShipped) return axes;
            for (String k : axes.names()) {
                if (stack.shipped().containsKey(k)) {
                    throw new UsageError(name + " runs " + k + " as the server ships it (" + stack.shipped().get(k)
                            + "): leave that setting at its default, or run " + name + " on its own");
                }
            }
            return stack.shipped().merge(axes);
        }

        /** A setting's value this variant runs when no axis sets it (as shipped: the server's, else the lab's default). */
        public String baseline(Stack stack, String setting) throws UsageError {
            return asShipped && stack.shipped().containsKey(setting) ? stack.shipped().get(setting) : stack.dflt(setting);
        }

        /** The params that name the variant in the dataset (Grouping.variant reads them back). */
        public Params params() {
            return asShipped ? Params.NONE.with(Grouping.TUNING, Grouping.AS_SHIPPED) : Params.NONE;
        }

        /** The SUT's JVM options: as shipped, the JVM picks its carrier count itself. */
        public List<String> jvmArgs(PlanContext ctx) {
            return asShipped ? ctx.jvmArgsWithoutCarriers() : ctx.jvmArgs();
        }
    }

    public static final Variant PLATFORM = new Variant(Threads.PLATFORM.word, Threads.PLATFORM.word, false), VIRTUAL = new Variant(Threads.VIRTUAL.word, Threads.VIRTUAL.word, false),
            VIRTUAL_AS_SHIPPED = new Variant("virtual-" + Grouping.AS_SHIPPED, Threads.VIRTUAL.word, true);
    public static final List<Variant> VARIANTS = List.of(PLATFORM, VIRTUAL, VIRTUAL_AS_SHIPPED);

    /** --modes where the as-shipped variant is offered (the servlet experiment), with the default modes. */
    public static final Opt OPTION_WITH_VARIANTS = OPTION.withHelp("thread mode: platform, virtual (the lab's tuning: stack.json defaults, --carriers),\n"
            + "virtual-as-shipped (the server's defaults, e.g. Tomcat's processorCache 200, and the JVM's\n"
            + "own carrier count: what the flag alone gives)").withChoices(names());

    public static List<String> names() {
        return VARIANTS.stream().map(Variant::name).toList();
    }

    public static Variant variant(String name) throws UsageError {
        String known = OPTION_WITH_VARIANTS.check(name);
        return VARIANTS.stream().filter(v -> v.name().equals(known)).findFirst().orElseThrow();
    }

    /**
     * Per scenario with an as-shipped variant, both gains in words: what the flag alone gives against the platform
     * variant, and what the lab's tuning adds on top (status ok rows only, means over reps).
     */
    public static List<Finding> asShippedGains(List<DataRow> rows) {
        List<Finding> out = new java.util.ArrayList<>();
        Map<String, List<DataRow>> groups = rows.stream().filter(DataRow::ok)
                .collect(java.util.stream.Collectors.groupingBy(r -> Grouping.comparison(r), LinkedHashMap::new, java.util.stream.Collectors.toList()));
        groups.forEach((key, g) -> {
            Map<String, List<DataRow>> byVariant = g.stream()
                    .collect(java.util.stream.Collectors.groupingBy(r -> Grouping.variant(r), LinkedHashMap::new, java.util.stream.Collectors.toList()));
            String platform = byVariant.keySet().stream().filter(v -> v.startsWith(Threads.PLATFORM.word)).findFirst().orElse(null);
            byVariant.forEach((shipped, sRows) -> {
                String tuned = Grouping.tunedOf(shipped);
                if (tuned == null || !byVariant.containsKey(tuned)) return;
                double a = Rows.mean(sRows, Columns.RPS), t = Rows.mean(byVariant.get(tuned), Columns.RPS);
                double p = platform == null ? Double.NaN : Rows.mean(byVariant.get(platform), Columns.RPS);
                StringBuilder sb = new StringBuilder(Grouping.comparisonLabel(key)).append(": ");
                if (!Double.isNaN(p)) {
                    sb.append("the virtual-thread flag alone (").append(shipped).append(": ").append(shippedWhat(sRows.getFirst()))
                            .append(") gives ").append(times(a, p)).append(' ').append(platform).append(" (").append(RowStats.n0(a))
                            .append(" vs ").append(RowStats.n0(p)).append(" req/s); ");
                } else {
                    sb.append(shipped).append(" (").append(shippedWhat(sRows.getFirst())).append(") ").append(RowStats.n0(a)).append(" req/s; ");
                }
                sb.append("the lab's tuning (").append(tuned).append(") adds ").append(times(t, a)).append(" on that (")
                        .append(RowStats.n0(t)).append(" req/s").append(Double.isNaN(p) ? "" : ", " + times(t, p) + " " + platform).append(")");
                List<DataRow> evidence = new java.util.ArrayList<>(sRows);
                evidence.addAll(byVariant.get(tuned));
                if (platform != null) evidence.addAll(byVariant.get(platform));
                out.add(Finding.of(sb.toString(), evidence));
            });
        });
        return out;
    }

    /** What an as-shipped row ran with, from its stack's declaration. */
    static String shippedWhat(DataRow row) {
        List<String> parts = new java.util.ArrayList<>();
        try {
            Stack.load(row.text(Columns.STACK)).shipped().forEach((k, v) -> parts.add(k + " " + v));
        } catch (UsageError e) {
            parts.add("the server's defaults");
        }
        parts.add("the JVM's carrier count");
        return String.join(", ", parts);
    }

    /** a against b as a factor, "1.7×"; within 5% "no change (1.02×)". */
    static String times(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b) || b <= 0) return "n/a";
        double r = a / b;
        return Math.abs(r - 1) <= 0.05 ? String.format(java.util.Locale.ROOT, "no change (%.2f×)", r) : String.format(java.util.Locale.ROOT, "%.1f×", r);
    }

    private ThreadModes() {}
}
