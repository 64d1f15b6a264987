package vtlab.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.tier.tool.Jdk;

/** ./vtlab dump [PID]: a JSON thread dump of a running SUT (virtual threads included), summarised. */
final class DumpCommand implements Command {
    /** The thread dump of a SUT the lab started (the only one running, or the PID given). */
    @Override
    public String name() {
        return "dump";
    }

    @Override
    public String help() {
        return """
                Usage: ./vtlab dump [PID]
                  a JSON thread dump of a running SUT (virtual threads included), summarised: virtual threads by state
                  and the top stacks, then the dump's file. Without PID: the one vtlab SUT running (refused when none
                  or several run).
                """;
    }

    @Override
    public int run(Options o, List<String> args, PrintStream out) throws Exception {
        out.print(dump(args));
        return 0;
    }

    static String dump(List<String> args) throws Exception {
        long pid;
        if (!args.isEmpty()) {
            try {
                pid = Long.parseLong(args.getFirst());
            } catch (NumberFormatException e) {
                throw new UsageError("dump takes a process id, not '" + args.getFirst() + "'");
            }
            if (ProcessHandle.of(pid).isEmpty()) throw new UsageError("no process " + pid);
        } else {
            List<ProcessHandle> suts = ProcessHandle.allProcesses()
                    .filter(p -> p.info().commandLine().orElse("").matches(".*/stacks/[^ ]+/target/vtlab-[^ ]+\\.jar.*")).toList();
            if (suts.size() != 1) {
                throw new UsageError(suts.isEmpty() ? "no running vtlab SUT found; give a PID: ./vtlab dump PID"
                        : suts.size() + " SUTs running (" + suts.stream().map(p -> Long.toString(p.pid())).toList() + "): give a PID");
            }
            pid = suts.getFirst().pid();
        }
        Path file = Files.createTempFile("vtlab-threads-" + pid + "-", ".json");
        vtlab.probe.ThreadDump.take(Jdk.current(), pid, file);
        return vtlab.probe.ThreadDump.summarize(Files.readString(file), 8).render(8) + "dump: " + file + "\n";
    }
}
