package vtlab.tier.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * A tier's process as the probes read it: on this machine (its {@link ProcessHandle}: /proc read directly, its
 * descendants too), or on another host by its pid there, its /proc read through that host's {@link FileSession}, and
 * for a JVM the probes run jcmd against, its {@link Site} (jcmd there, raw/ files written there and copied back).
 * Several load agents are one tier: a {@link #group}.
 */
public interface TierProcess {
    long pid();

    boolean alive();

    /** This machine's handle of it; empty for a process on another host. */
    Optional<ProcessHandle> local();

    /** The text of /proc/PID/file where it runs; file may be a glob (task/{@literal *}/stat: every thread's stat). */
    String proc(String file) throws IOException;

    /** Where it runs, for jcmd and the files a probe has it write or read (see {@link Site}); a JVM's, not a group's. */
    default Site site() {
        throw new UnsupportedOperationException("pid " + pid() + " is read through /proc only: no jcmd or files there");
    }

    /** The processes this tier is made of: itself, or a group's members. */
    default List<TierProcess> members() {
        return List.of(this);
    }

    /**
     * For a process on a host whose children do its work (PostgreSQL serves each connection in one): its children
     * there now, each read like it; empty for every other (a local process's descendants are read through its handle).
     */
    default List<TierProcess> children() throws IOException {
        return List.of();
    }

    static TierProcess local(ProcessHandle h) {
        return new Local(h);
    }

    /**
     * A process on a host: pid there, its /proc read through files; alive as the caller knows it (the local client
     * of a process the lab started there ends with it, so no read is needed for that).
     */
    static TierProcess on(FileSession files, long pid, BooleanSupplier alive) {
        return new OnHost(files, pid, alive, false, null);
    }

    /** As {@link #on}, for a server whose children do its work: they are read with it ({@link #children}). */
    static TierProcess treeOn(FileSession files, long pid, BooleanSupplier alive) {
        return new OnHost(files, pid, alive, true, null);
    }

    /**
     * A JVM on a host whose probes also run jcmd there (off cpus, the CPUs it is pinned to) and keep their files in
     * dir, the run's work folder there.
     */
    static TierProcess on(FileSession files, long pid, BooleanSupplier alive, String dir, String cpus) {
        return new OnHost(files, pid, alive, false, Site.on(files.host(), dir, cpus));
    }

    /** Several processes as one tier (load agents): alive while any is; the CPU probe adds their ticks. */
    static TierProcess group(List<TierProcess> members) {
        if (members.size() == 1) return members.getFirst();
        return new Group(List.copyOf(members));
    }

    record Local(ProcessHandle handle) implements TierProcess {
        @Override
        public long pid() {
            return handle.pid();
        }

        @Override
        public boolean alive() {
            return handle.isAlive();
        }

        @Override
        public Optional<ProcessHandle> local() {
            return Optional.of(handle);
        }

        @Override
        public String proc(String file) throws IOException {
            return Files.readString(Path.of("/proc", Long.toString(handle.pid()), file));
        }

        @Override
        public Site site() {
            return Site.here();
        }
    }

    /**
     * @param tree whether its children are read with it (/proc/PID/task/PID/children: the kernel's list of them)
     * @param site null for a process only read through /proc (a load agent, a database)
     */
    record OnHost(FileSession files, long pid, BooleanSupplier isAlive, boolean tree, Site site) implements TierProcess {
        @Override
        public boolean alive() {
            return isAlive.getAsBoolean();
        }

        @Override
        public Optional<ProcessHandle> local() {
            return Optional.empty();
        }

        @Override
        public String proc(String file) throws IOException {
            return files.read("/proc/" + pid + "/" + file);
        }

        @Override
        public Site site() {
            return site == null ? TierProcess.super.site() : site;
        }

        @Override
        public List<TierProcess> children() throws IOException {
            if (!tree) return List.of();
            List<TierProcess> out = new java.util.ArrayList<>();
            for (String c : proc("task/" + pid + "/children").strip().split("\\s+")) {
                if (c.matches("\\d+")) out.add(new OnHost(files, Long.parseLong(c), isAlive, false, null));
            }
            return out;
        }
    }

    record Group(List<TierProcess> members) implements TierProcess {
        /** The first member's: a group is read member by member. */
        @Override
        public long pid() {
            return members.getFirst().pid();
        }

        @Override
        public boolean alive() {
            return members.stream().anyMatch(TierProcess::alive);
        }

        @Override
        public Optional<ProcessHandle> local() {
            return Optional.empty();
        }

        @Override
        public String proc(String file) {
            throw new UnsupportedOperationException("a group of " + members.size() + " processes is read member by member");
        }
    }
}
