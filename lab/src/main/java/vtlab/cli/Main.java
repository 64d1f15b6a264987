package vtlab.cli;

import java.io.PrintStream;
import java.util.List;

import vtlab.core.Options;
import vtlab.plan.RunOptions;
import vtlab.core.UsageError;

/** vtlab's command line: picks the command (one class each) and turns its outcome into an exit code: bad input is one line on stderr and exit code 2. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        int code;
        try {
            code = run(List.of(args), System.out);
        } catch (UsageError e) {
            System.err.println("vtlab: " + e.getMessage());
            code = 2;
        } catch (InterruptedException e) {
            code = 130;
        } catch (Exception e) {
            System.err.println("vtlab: " + e);
            code = 1;
        }
        System.exit(code);
    }

    public static int run(List<String> args, PrintStream out) throws Exception {
        Options o = parse(args);
        List<String> words = o.positional();
        // --help is help about the words given (run, run NAME); --version the version command
        if (RunOptions.HELP.on(o)) words = java.util.stream.Stream.concat(java.util.stream.Stream.of("help"), words.stream()).toList();
        else if (RunOptions.VERSION.on(o)) words = List.of("version");
        String cmd = words.isEmpty() ? "help" : words.getFirst();
        Command c = commands(args).get(cmd);
        if (c == null) throw new UsageError(unknownCommand(cmd));
        return c.run(o, words.isEmpty() ? List.of() : words.subList(1, words.size()), out);
    }

    /** Command-line words as the lab reads them, its declared flags standing alone. */
    public static Options parse(List<String> args) throws UsageError {
        return Options.parse(args, flags());
    }

    /**
     * The options that take no value: every declared option of type flag (the lab's own, each experiment's, the load
     * options and the generators'), so a flag declared anywhere parses with no other edit.
     */
    public static java.util.Set<String> flags() {
        List<vtlab.core.Opt> declared = new java.util.ArrayList<>(vtlab.plan.RunOptions.ALL);
        vtlab.experiment.registry.Experiments.all().values().forEach(e -> declared.addAll(e.options()));
        declared.addAll(vtlab.plan.PlanContext.LOAD_OPTIONS);
        declared.addAll(vtlab.load.generator.Generators.options());
        return declared.stream().filter(d -> d.type() == vtlab.core.Opt.Type.FLAG).map(vtlab.core.Opt::name)
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    static String unknownCommand(String cmd) {
        return "unknown command '" + cmd + "' (" + String.join(", ", commands(List.of()).keySet()) + ", " + String.join(", ", HelpCommand.LAUNCHER.keySet()) + ")";
    }

    /** A command's options and --help, which every command takes. */
    static java.util.Set<String> withHelp(java.util.Set<String> options) {
        java.util.Set<String> all = new java.util.HashSet<>(options);
        all.add("help");
        return all;
    }

    /** The commands by name; ./vtlab test is the launcher's (the test suite), not the lab's. */
    static java.util.Map<String, Command> commands(List<String> commandLine) {
        java.util.Map<String, Command> all = new java.util.LinkedHashMap<>();
        for (Command c : List.of(new RunCommand(commandLine), new ListCommand(), new DoctorCommand(), new SetupCommand(), new DumpCommand(),
                new ReportCommand(), new CompareCommand(), new AbCommand(commandLine), new TiersCommand(), new HostsCommand(), new HelpCommand(),
                new VersionCommand(), new InitCommand())) all.put(c.name(), c);
        return all;
    }

}
