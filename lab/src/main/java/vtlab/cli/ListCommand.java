package vtlab.cli;

import java.io.PrintStream;
import java.util.List;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.experiment.registry.Experiments;
import vtlab.load.Generator;
import vtlab.load.generator.Generators;
import vtlab.plan.Experiment;
import vtlab.probe.Probe;
import vtlab.probe.Probes;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode;

/** ./vtlab list [columns]: experiments with their options, stacks, probes, generators; or matrix.csv's columns. */
final class ListCommand implements Command {
    @Override
    public String name() {
        return "list";
    }

    @Override
    public String help() {
        return """
                Usage: ./vtlab list [columns]
                  ./vtlab list           the experiments with their axes and defaults (those that run across hosts
                                         marked so), the stacks (built or not) and their workloads, the probes (the
                                         default ones marked) and the generators with their own options
                  ./vtlab list columns   every column of matrix.csv with its kind, unit and meaning
                """;
    }

    @Override
    public int run(Options o, List<String> args, PrintStream out) {
        out.print(!args.isEmpty() && args.getFirst().equals("columns") ? columns() : list());
        return 0;
    }

    static String list() {
        StringBuilder sb = new StringBuilder("Experiments (./vtlab run NAME [options]):\n");
        for (Experiment e : Experiments.all().values()) {
            sb.append("\n  ").append(e.name()).append(" - ").append(e.summary()).append(e.acrossHosts() ? "  [across hosts]" : "").append('\n');
            for (String a : e.axes()) sb.append("      ").append(a).append('\n');
        }
        sb.append("\nStacks (stacks/NAME/stack.json):\n");
        int nameWidth = Stack.all().keySet().stream().mapToInt(String::length).max().orElse(10) + 2; // the longest stack name, then two spaces
        Stack.all().forEach((n, s) -> sb.append("  ").append(String.format("%-" + nameWidth + "s", n)).append(s.description())
                .append(s.built() ? "" : "  [not built]").append("\n      workloads: ").append(String.join(", ", s.workloads().keySet()))
                .append(s.modes().isEmpty() ? "" : "\n      modes: " + String.join("; ", s.modes().values().stream().map(ThreadMode::describe).toList()))
                .append('\n'));
        sb.append("\nProbes (--probes a,b):\n");
        Probes.all().forEach((n, p) -> {
            Probe probe = p.get();
            sb.append("  ").append(String.format("%-12s", n)).append(probe.description())
                    .append(Probes.DEFAULT.contains(n) ? "  [default]" : "").append('\n');
        });
        sb.append("\nGenerators (--generator NAME):\n");
        Generators.all().forEach((n, g) -> {
            Generator gen = g.get();
            sb.append("  ").append(String.format("%-12s", n)).append(gen.description()).append('\n');
            for (String line : Opt.render(gen.options())) sb.append("      ").append(line).append('\n');
        });
        return sb.toString();
    }

    /** `list columns`: matrix.csv's columns as their components declare them, seed columns first. */
    static String columns() {
        StringBuilder sb = new StringBuilder("Columns of matrix.csv (name, kind, unit, meaning):\n");
        for (vtlab.data.Column c : vtlab.run.MatrixSchema.full().columns()) sb.append("  ").append(c.describe()).append('\n');
        return sb.toString();
    }
}
