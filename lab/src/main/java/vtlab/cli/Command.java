package vtlab.cli;

import java.io.PrintStream;
import java.util.List;

import vtlab.core.Options;

/** One command of ./vtlab (run, list, doctor, dump, report, compare, help, version): its name and what it does. */
interface Command {
    String name();

    /**
     * @param args the words after the command's name
     * @return the exit code: 0 done; bad input is a {@link vtlab.core.UsageError} (exit 2) thrown before anything starts
     */
    int run(Options o, List<String> args, PrintStream out) throws Exception;
}
