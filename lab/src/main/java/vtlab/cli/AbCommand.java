package vtlab.cli;

import java.io.PrintStream;
import java.util.List;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.experiment.ab.AbExperiment;
import vtlab.run.Runner;

/**
 * ./vtlab ab: the ab experiment run on its own (its verdict indexes the matrix's rows). A service that never gave a
 * number (it exited during start-up, its port never opened, its endpoint answered wrongly before load) is the user's
 * input at fault: one line with the first row's reason and exit code 2, after the runner has stopped everything.
 */
final class AbCommand implements Command {
    private final RunCommand run;

    AbCommand(List<String> commandLine) {
        this.run = new RunCommand(commandLine);
    }

    @Override
    public String name() {
        return AbExperiment.NAME;
    }

    @Override
    public String help() {
        return """
                Usage: ./vtlab ab --app PATH.jar | --cmd "..." --url PATH [options]
                  your own service, platform against virtual threads (a Spring Boot jar is switched by the lab, and a
                  tuned variant added; a --cmd or a plain jar with --virtual-args/--virtual-env and their platform
                  twins): the thread mode proven by thread dumps under load, then a verdict in words (docs/ab.md).
                  Exit code 2 when the service never gave a number (it did not start, or answered wrongly before load).

                """ + HelpCommand.experimentText(new AbExperiment());
    }

    @Override
    public java.util.Set<String> options() {
        java.util.Set<String> all = new java.util.TreeSet<>();
        new AbExperiment().options().forEach(opt -> all.add(opt.name()));
        return all;
    }

    @Override
    public int run(Options o, List<String> args, PrintStream out) throws Exception {
        if (!args.isEmpty()) throw new UsageError("ab takes options only, not '" + args.getFirst() + "' (see ./vtlab --help)");
        RunCommand.Executed executed = run.execute(o, List.of(AbExperiment.NAME), out);
        Runner.Outcome done = executed.done();
        if (!done.complete()) return executed.code();
        List<vtlab.data.DataRow> rows = done.dir().rows();
        if (!rows.isEmpty() && rows.stream().allMatch(vtlab.data.DataRow::failed)) {
            throw new UsageError("no row gave numbers: " + rows.getFirst().text(vtlab.data.Columns.NOTE));
        }
        return executed.code();
    }
}
