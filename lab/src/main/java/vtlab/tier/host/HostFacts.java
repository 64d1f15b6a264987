package vtlab.tier.host;

/**
 * What environment.json records of a host: its CPUs, kernel and JDK, so a run's numbers say what they ran on.
 *
 * @param jdk    the first line of `java -version` on the host's PATH, or null when it has none
 * @param bootId the running kernel's boot id (/proc/sys/kernel/random/boot_id): hosts with the same one are one
 *               machine (test hosts in namespaces share this machine's), whose CPUs their tiers share
 */
public record HostFacts(int cpus, String cpuModel, String kernel, String jdk, String bootId) {
    /** From /proc/cpuinfo (a "processor" line per online CPU, "model name" on x86), the kernel release, the JDK, the boot id. */
    static HostFacts of(String cpuinfo, String kernel, String jdk, String bootId) {
        int cpus = 0;
        String model = null;
        for (String line : cpuinfo.lines().toList()) {
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            String key = line.substring(0, colon).strip(), value = line.substring(colon + 1).strip();
            if (key.equals("processor")) cpus++;
            // x86 says "model name"; other architectures name the model under other keys, or not at all (null)
            else if (model == null && (key.equals("model name") || key.equals("Model") || key.equals("cpu model"))) model = value;
        }
        return new HostFacts(cpus, model, kernel, jdk, bootId);
    }
}
