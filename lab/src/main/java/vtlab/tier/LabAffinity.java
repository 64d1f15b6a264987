package vtlab.tier;

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
    }

    /**
     * The CPUs the core map divides between the tiers. Not the JVM's current count: once the lab has moved itself
     * onto its own CPUs that is 1 here, and a second run in the same JVM (the end-to-end tests run the CLI in-process)
     * would plan everything onto one CPU.
     */
    public static int machineCpus() {
        return Original.CPUS;
    }

    /**
     * Moves every thread of this JVM to the core map's lab CPUs (threads started later inherit it), and says so in
     * one line. Returns the CPU list, or null when the SUT has every CPU or taskset refused.
     */
    public static String pin(CoreMap cores, java.io.PrintStream out) throws InterruptedException {
        machineCpus(); // read before the pin narrows it
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
            taskset("0-" + (machineCpus() - 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Moves every thread of this JVM to the CPUs; null when done, else what taskset said. */
    private static String taskset(String cpus) throws InterruptedException {
        List<String> cmd = List.of("taskset", "-a", "-p", "-c", cpus, Long.toString(ProcessHandle.current().pid()));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? null : said;
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
