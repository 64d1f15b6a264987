package vtlab.probe;

import java.util.Map;

/**
 * Lower-priority processes' CPU ticks across readings, kept whole when one of them ends. A process's ticks hold those
 * of the children it reaped, so a compiler's end moves its ticks into its cargo or make; but a build's top process,
 * reaped by one that is not lower priority (oha's cargo, by ./vtlab test's shell), takes all of its ticks out of /proc:
 * read as a sum alone, its end in a hold once made others' CPU 10,326% of a core and background -10,275%, and voided a
 * row as busy-machine. Such a process counts as last read. Feed it {@link Proc#lowerPriorityProcesses} as often as the
 * probe samples: an ended process's ticks after its last reading are not seen.
 */
final class LowerPriorityTicks {
    private Map<Long, long[]> last = Map.of();
    private long endedUser, endedSystem;

    /**
     * {user, system} ticks so far: those of the processes now ({user, system, parent pid} by pid), and of the ended
     * ones whose reaper is not among them.
     */
    long[] read(Map<Long, long[]> now) {
        for (Map.Entry<Long, long[]> p : last.entrySet()) {
            if (!now.containsKey(p.getKey()) && !now.containsKey(p.getValue()[2])) {
                endedUser += p.getValue()[0];
                endedSystem += p.getValue()[1];
            }
        }
        last = now;
        long user = endedUser, system = endedSystem;
        for (long[] p : now.values()) {
            user += p[0];
            system += p[1];
        }
        return new long[] {user, system};
    }
}
