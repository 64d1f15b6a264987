package vtlab.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Set;

import vtlab.core.Options;

/** One command of ./vtlab (run, list, doctor, dump, report, compare, help, version, ...): its name, its help and what it does. */
interface Command {
    String name();

    /** What ./vtlab NAME --help prints: the command's usage, what it does, and each of its {@link #options} as --NAME. */
    String help();

    /** The options the command takes besides --help (each named in its {@link #help}); none by default. */
    default Set<String> options() {
        return Set.of();
    }

    /**
     * @param args the words after the command's name
     * @return the exit code: 0 done; bad input is a {@link vtlab.core.UsageError} (exit 2) thrown before anything starts
     */
    int run(Options o, List<String> args, PrintStream out) throws Exception;
}
