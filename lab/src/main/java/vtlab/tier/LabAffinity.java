package vtlab.tier;

import java.io.IOException;
import java.util.List;

/**
 * Keeps the lab's own JVM off the SUT's CPUs. Left free, the scheduler runs the lab's threads (probe sampling, jcmd
 * launches, JFR parsing, its GC and JIT) wherever there is room, which includes the one core the SUT is measured on.
 */
public final class LabAffinity {
    private LabAffinity() {}

    /**
     * Moves every thread of this JVM to the core map's lab CPUs (threads started later inherit it), and says so in
     * one line. Returns the CPU list, or null when the SUT has every CPU or taskset refused.
     */
    public static String pin(CoreMap cores, java.io.PrintStream out) throws InterruptedException {
        String cpus = cores.labCpus();
        if (cpus == null) return null;
        List<String> cmd = List.of("taskset", "-a", "-p", "-c", cpus, Long.toString(ProcessHandle.current().pid()));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor() != 0) {
                out.println("vtlab: could not keep the lab off the SUT's CPUs (" + said + "): it may share them");
                return null;
            }
        } catch (IOException e) {
            out.println("vtlab: could not keep the lab off the SUT's CPUs (" + e.getMessage() + "): it may share them");
            return null;
        }
        return cpus;
    }
}
