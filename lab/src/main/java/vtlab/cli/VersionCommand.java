package vtlab.cli;

import java.io.PrintStream;
import java.util.List;

import vtlab.core.Options;
import vtlab.data.Environment;

/** ./vtlab version (and --version): vtlab's version and commit, as environment.json records them, and the lab's JDK. */
final class VersionCommand implements Command {
    @Override
    public String name() {
        return "version";
    }

    @Override
    public String help() {
        return """
                Usage: ./vtlab version (also ./vtlab --version)
                  vtlab's version and commit, as each run's environment.json records them, and the JDK it runs on.
                """;
    }

    @Override
    public int run(Options o, List<String> args, PrintStream out) {
        out.println("vtlab " + Environment.version() + " (commit " + Environment.commit() + "), running on Java " + Runtime.version()
                + " at " + System.getProperty("vtlab.java", System.getProperty("java.home")));
        return 0;
    }
}
