package vtlab.proc;

import java.io.IOException;
import java.util.List;

/**
 * Keeps the lab's own JVM off the SUT's CPUs. Left free, the scheduler runs the lab's threads (probe sampling, jcmd
 * launches, JFR parsing, its GC and JIT) wherever there is room, which includes the one core the SUT is measured on.
 */
public final class LabAffinity {
    private LabAffinity() {}

    /** The CPUs this JVM could use before it pinned itself: read once, ahead of the first pin. */
    private static final class Original {
        static final int CPUS = Runtime.getRuntime().availableProcessors();
        /** The kernel's own list ("0-1", or "2,5" in a cpuset): what unpin gives back, not a guessed 0..n-1. */
        static final String LIST = allowedList();
    }

    /**
     * Tries taskset this often: {@code -a} walks the JVM's threads, and one that ends meanwhile fails the walk. The more
     * threads a JVM has, the longer the walk and the likelier that: 10 tries were too few for the unit suite's JVM once
     * it also held JFR's threads and idle virtual-thread carriers that end (LabAffinityTest failed in 3 of 4 runs of
     * the suite; with 50, in 0 of 2).
     */
    private static final int ATTEMPTS = 50;

    /**
     * The CPUs the core map divides between the tiers. Not the JVM's current count: once the lab has moved itself
     * onto its own CPUs that is 1 here, and a second run in the same JVM (the end-to-end tests run the CLI in-process)
     * would plan everything onto one CPU.
     */
    public static int machineCpus() {
        return Original.CPUS;
    }

    /** The CPU list this JVM was allowed before the lab pinned it, as the kernel writes it. */
    public static String originalCpuList() {
        return Original.LIST;
    }

    /**
     * Moves every thread of this JVM to the core map's lab CPUs (threads started later inherit it), and says so in
     * one line. Returns the CPU list, or null when the SUT has every CPU or taskset refused.
     */
    public static String pin(CoreMap cores, java.io.PrintStream out) throws InterruptedException {
        originalCpuList(); // read before the pin narrows it
        String cpus = cores.labCpus();
        if (cpus == null) return null;
        String refused = taskset(cpus);
        if (refused != null) {
            out.println("vtlab: could not keep the lab off the SUT's CPUs (" + refused + "): it may share them");
            return null;
        }
        return cpus;
    }

    /** Gives this JVM every CPU of the machine again (the run is over); best effort. */
    public static void unpin() {
        try {
            taskset(originalCpuList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Moves every thread of this JVM to the CPUs; null when done, else what taskset said. A thread that ends while
     * taskset walks them ("No such process") fails the whole walk although every live thread was moved or will be
     * on the next try (seen on CI: a JVM always has short-lived threads), so only that failure is tried again.
     */
    static String taskset(String cpus) throws InterruptedException {
        List<String> cmd = List.of("taskset", "-a", "-p", "-c", cpus, Long.toString(ProcessHandle.current().pid()));
        String said = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try {
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                said = new String(p.getInputStream().readAllBytes()).trim();
                if (p.waitFor() == 0) return null;
            } catch (IOException e) {
                return e.getMessage();
            }
            if (!said.contains("No such process")) break;
        }
        return said.lines().filter(l -> l.startsWith("taskset:")).findFirst().orElse(said);
    }

    /** Cpus_allowed_list of /proc/self/status; "0-(n-1)" where there is no /proc. */
    private static String allowedList() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) return line.substring(line.indexOf(':') + 1).trim();
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        return "0-" + (Runtime.getRuntime().availableProcessors() - 1);
    }
}
