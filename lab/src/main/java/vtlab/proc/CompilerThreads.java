package vtlab.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The JIT's compiler threads of a JVM on this machine, found by their /proc names and moved between CPUs one thread
 * at a time. On one SUT core the compiler gets what the scheduler leaves it beside the request threads: PetClinic's
 * (200 platform threads busy) used 7-17% of that core for 100 s of warm-up and ended it not steady. A server on
 * several cores compiles on the others; the warm-up, which is discarded, gives the compiler that room, and the threads
 * go back to the SUT's CPUs before anything is measured.
 */
public final class CompilerThreads {
    private CompilerThreads() {}

    /** A JIT compiler thread, by its /proc name (truncated to 15 characters there). */
    public static boolean named(String comm) {
        return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre");
    }

    /** The compiler threads' ids of the process and of its descendants (a --cmd's shell runs the JVM as a child). */
    static List<Long> of(ProcessHandle p) {
        List<Long> out = new ArrayList<>();
        List<ProcessHandle> tree = new ArrayList<>(List.of(p));
        tree.addAll(p.descendants().toList());
        for (ProcessHandle h : tree) {
            try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(h.pid()), "task"))) {
                for (Path t : (Iterable<Path>) tasks::iterator) {
                    try {
                        if (named(Files.readString(t.resolve("comm")).strip())) out.add(Long.parseLong(t.getFileName().toString()));
                    } catch (IOException | NumberFormatException e) {
                        // the thread ended between the listing and the read
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }
        return out;
    }

    /**
     * Moves the compiler threads onto the CPUs (a taskset list); returns how many were moved. HotSpot starts a new
     * compiler thread from a compiler thread, so it inherits the CPUs of the one that started it. A thread that ends
     * meanwhile is skipped; a taskset refused (a cpuset that does not hold the CPUs) moves nothing more.
     */
    public static int move(ProcessHandle p, String cpus) throws InterruptedException {
        int moved = 0;
        for (long tid : of(p)) {
            try {
                Process t = new ProcessBuilder("taskset", "-p", "-c", cpus, Long.toString(tid)).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (t.waitFor() == 0) moved++;
            } catch (IOException e) {
                return moved; // no taskset: the compiler stays where it is
            }
        }
        return moved;
    }
}
