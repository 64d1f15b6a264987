package vtlab.tier.host;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import vtlab.proc.AttachJcmd;
import vtlab.proc.Commands;
import vtlab.proc.CoreMap;
import vtlab.tier.tool.Jdk;

/**
 * Where a tier's process runs, for what a probe does there beyond reading /proc: the JDK's jcmd run against the
 * process, and the files of the run's raw/ folder that the process writes (a JFR recording, a GC log, a thread dump)
 * or reads (JFR settings). A probe takes one path for both cases: it names its raw/ file, gives the JVM
 * {@link #path} of it (after {@link #send} for a file the JVM reads), and {@link #fetch}es it before reading it.
 * {@link #here()} is what the lab has always done: the JDK's own jcmd (else the lab's), the JVM writing raw/ itself, nothing
 * copied. {@link #on} is a host of a run across hosts: jcmd of the row's JDK there (at its path, as the SUT's java),
 * through the host's ssh and off the SUT's CPUs, the files in the run's work folder there, copied each way with the
 * host's copy.
 */
public interface Site {
    /** A jcmd answers in milliseconds; a JFR dump or a dump of thousands of threads takes seconds. */
    Duration JCMD = Duration.ofSeconds(60), COPY = Duration.ofMinutes(2);

    /** Runs jcmd of jdk where the process runs, against pid: its output; an IOException with it when jcmd fails. */
    String jcmd(Jdk jdk, long pid, List<String> command) throws IOException, InterruptedException;

    /** The path, where the process runs, of a file of raw/: the file itself here, its name in the work folder on a host. */
    String path(Path file);

    /** Makes a file of raw/ readable where the process runs (at {@link #path}): copied to a host. */
    String send(Path file) throws IOException, InterruptedException;

    /** Brings what the process wrote at {@link #path} into the file of raw/: copied from a host, and removed there. */
    void fetch(Path file) throws IOException, InterruptedException;

    static Site here() {
        return Here.INSTANCE;
    }

    /** The host's site: dir is the run's work folder there (made already), sutCpus the CPUs the SUT is pinned to there. */
    static Site on(Host host, String dir, String sutCpus) {
        return new OnHost(host, dir, sutCpus);
    }

    final class Here implements Site {
        static final Here INSTANCE = new Here();

        private Here() {}

        /**
         * Over the attach API from inside the lab where it may (no jcmd process to start: see {@link AttachJcmd}), else
         * the JDK's own jcmd, else the lab's (the attach protocol talks to older HotSpot JVMs too).
         */
        @Override
        public String jcmd(Jdk jdk, long pid, List<String> command) throws IOException, InterruptedException {
            if (AttachJcmd.reaches(pid)) return AttachJcmd.run(pid, command, JCMD);
            List<String> cmd = new ArrayList<>(List.of(jdk.jcmdOrLabs().toString(), Long.toString(pid)));
            cmd.addAll(command);
            Commands.Result r = Commands.attempt(cmd, JCMD);
            if (!r.ok()) throw new IOException("jcmd " + String.join(" ", command) + " failed: " + r.output().strip());
            return r.output();
        }

        @Override
        public String path(Path file) {
            return file.toAbsolutePath().toString();
        }

        @Override
        public String send(Path file) {
            return path(file);
        }

        @Override
        public void fetch(Path file) {
            // the JVM wrote raw/ itself
        }
    }

    /**
     * A host: jcmd of the row's JDK at its path there (the SUT's java is started from it; a runtime without jcmd is
     * named), run off the SUT's CPUs where the host has others (as the lab's own jcmd runs off them here: a jcmd is a
     * JVM start, a few hundred ms of CPU), files by their raw/ name in the work folder, whose names are the rows' stems.
     */
    final class OnHost implements Site {
        private final Host host;
        private final String dir, sutCpus;
        /** taskset -c OTHERS before each jcmd, from the host's online CPUs; read on the first jcmd. */
        private volatile List<String> pin;

        OnHost(Host host, String dir, String sutCpus) {
            this.host = host;
            this.dir = dir;
            this.sutCpus = sutCpus;
        }

        @Override
        public String jcmd(Jdk jdk, long pid, List<String> command) throws IOException, InterruptedException {
            if (pin == null) pin = pin(host.read("/sys/devices/system/cpu/online").strip(), sutCpus);
            String jcmd = jdk.home().resolve("bin/jcmd").toString();
            List<String> cmd = new ArrayList<>(pin);
            cmd.addAll(List.of(jcmd, Long.toString(pid)));
            cmd.addAll(command);
            Commands.Result r = host.run(cmd, JCMD);
            if (r.ok()) return r.output();
            if (r.code() == 127 || r.code() == 126) {
                throw new IOException(host.name() + " has no " + jcmd + ": the probes run the SUT's JDK's own jcmd there (a JDK, not a bare runtime)");
            }
            throw new IOException(host.name() + ": jcmd " + String.join(" ", command) + " failed (" + r.code() + "): " + r.output().strip());
        }

        /** taskset -c and the online CPUs but the SUT's; nothing when the SUT has them all (jcmd then shares its CPUs). */
        static List<String> pin(String online, String sutCpus) {
            java.util.Set<Integer> others = new java.util.TreeSet<>();
            for (int c : CoreMap.parse(online, Integer.MAX_VALUE)) others.add(c);
            for (int c : CoreMap.parse(sutCpus, Integer.MAX_VALUE)) others.remove(c);
            if (others.isEmpty()) return List.of();
            return List.of("taskset", "-c", String.join(",", others.stream().map(String::valueOf).toList()));
        }

        @Override
        public String path(Path file) {
            return dir + "/" + file.getFileName();
        }

        @Override
        public String send(Path file) throws IOException, InterruptedException {
            String path = path(file);
            host.copyTo(file, path, COPY);
            return path;
        }

        /** Removed there once copied: a long run's recordings and logs do not pile up in the host's /tmp until its end. */
        @Override
        public void fetch(Path file) throws IOException, InterruptedException {
            String path = path(file);
            host.copyFrom(path, file, COPY);
            host.run(List.of("rm", "-f", "--", path), JCMD);
        }
    }
}
